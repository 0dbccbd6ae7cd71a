"""A sitting in a closed period renders read-only, and every write to it is a clear 409."""

import datetime

import pytest

from scoring import services
from scoring.models import Game, Settlement
from tests.factories import first_out, open_sitting, player, record, settle

pytestmark = pytest.mark.django_db

BEFORE = datetime.date(2026, 12, 1)  # after the factories' sitting date


@pytest.fixture
def frozen(owner):
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("Bình", An=3, Chi=2, Dũng=1))
    paid = settle(sitting, owner, "An", "Bình", 1000)
    services.period_close(
        group=sitting.group, user=owner, through=BEFORE - datetime.timedelta(days=1)
    )
    return sitting, paid


def test_it_shows_the_sitting_without_recording_controls_and_says_why(owner_client, frozen):
    sitting, _paid = frozen
    html = owner_client.get(f"/s/{sitting.pk}/").content.decode()
    assert 'id="record-form"' not in html
    assert f"/s/{sitting.pk}/undo/" not in html
    assert f"/s/{sitting.pk}/members/" not in html
    assert 'id="frozen"' in html
    assert "đến hết ngày 30/11/2026" in html and "chu_ban" in html
    assert f'href="/groups/{sitting.group_id}/"' in html


def test_it_shows_a_game_without_edit_or_void(owner_client, frozen):
    sitting, _paid = frozen
    html = owner_client.get(f"/s/{sitting.pk}/g/1/").content.decode()
    assert "/edit/" not in html and "/void/" not in html
    assert 'id="frozen"' in html


def test_it_shows_the_settle_up_without_paying_controls(owner_client, frozen):
    sitting, _paid = frozen
    html = owner_client.get(f"/s/{sitting.pk}/settle/").content.decode()
    assert "data-pay>" not in html
    assert f"/s/{sitting.pk}/settlements/" not in html
    assert 'name="kind"' not in html
    assert 'id="frozen"' in html


def test_it_shows_the_players_without_their_form(owner_client, frozen):
    sitting, _paid = frozen
    html = owner_client.get(f"/s/{sitting.pk}/members/").content.decode()
    assert 'name="players"' not in html
    assert 'id="frozen"' in html


@pytest.mark.parametrize(
    "path, data",
    [
        ("g/1/void/", {"reason": "ghi nhầm"}),
        ("g/1/restore/", {}),
        ("undo/", {}),
        ("members/", {"players": "An\nBình\nChi\nDũng\nEm"}),
        ("g/1/edit/", {"action": "save"}),
    ],
)
def test_it_refuses_a_write_with_a_clear_409(owner_client, frozen, path, data):
    sitting, _paid = frozen
    response = owner_client.post(f"/s/{sitting.pk}/{path}", data)
    assert response.status_code == 409
    assert "đã chốt" in response.content.decode()
    assert Game.objects.get(sitting=sitting).status == Game.Status.ACTIVE
    assert sitting.memberships.count() == 4


def test_it_refuses_voiding_a_payment_with_a_clear_409(owner_client, frozen):
    sitting, paid = frozen
    response = owner_client.post(f"/s/{sitting.pk}/settlements/{paid.pk}/void/", {"reason": ""})
    assert response.status_code == 409
    assert "đã chốt" in response.content.decode()
    paid.refresh_from_db()
    assert not paid.is_void


def test_it_refuses_a_payment_with_a_clear_409(owner_client, frozen):
    sitting, _paid = frozen
    data = {
        "kind": "free",
        "payer": player(sitting, "Chi").pk,
        "payee": player(sitting, "Bình").pk,
        "amount": "1000",
        "version": sitting.version,
    }
    response = owner_client.post(f"/s/{sitting.pk}/settlements/", data)
    assert response.status_code == 409
    assert Settlement.objects.filter(sitting=sitting).count() == 1


def test_its_board_says_there_is_no_next_game_rather_than_who_leads(owner_client, frozen):
    sitting, _paid = frozen
    html = owner_client.get(f"/s/{sitting.pk}/").content.decode()
    line = " ".join(html.split('id="leader-line"')[1].split("</p>")[0].split())
    assert "Sổ đã chốt: không còn ván tới." in line
    assert "đi trước" not in line
    assert 'class="total leader"' not in html
    # An open sitting still says who leads.
    services.period_close_undo(group=sitting.group, user=sitting.owner)
    html = owner_client.get(f"/s/{sitting.pk}/").content.decode()
    assert "đi trước" in html.split('id="leader-line"')[1].split("</p>")[0]
