"""The settle-up page of a sitting: pay buttons that name the payment, a tapped row that stays
in place, a resent tap that records nothing new, paid and received kept apart."""

import re
import uuid

import pytest

from scoring import services
from scoring.models import Game, Settlement
from tests.factories import first_out, open_sitting, player, record, settle

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def night(owner):
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("Bình", An=3, Chi=2, Dũng=1))
    return sitting


def _rows(html):
    """The plan's rows in order: ("pay", button text) or ("paid", its line)."""
    found = []
    for article in re.findall(r'<article class="suggestion[^"]*".*?</article>', html, re.S):
        if 'class="paid-row"' in article:
            line = re.search(r"<span>(.*?)</span>", article, re.S).group(1)
            found.append(("paid", " ".join(line.split())))
        else:
            button = re.search(r"<button[^>]*data-pending[^>]*>(.*?)</button>", article, re.S)
            found.append(("pay", " ".join(button.group(1).split())))
    return found


def _first_tap(html):
    form = re.search(r"<form [^>]*data-pay>(.*?)</form>", html, re.S).group(1)
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))


def test_each_pay_button_names_payer_payee_and_amount(owner_client, night):
    html = owner_client.get(f"/s/{night.pk}/settle/").content.decode()
    rows = _rows(html)
    assert rows[0] == ("pay", "An trả Bình 15.000 ₫")
    assert all(kind == "pay" and " trả " in text and "₫" in text for kind, text in rows)


def test_a_tapped_row_stays_in_place_as_the_payment_with_an_undo(owner_client, night):
    page = owner_client.get(f"/s/{night.pk}/settle/").content.decode()
    before = _rows(page)
    assert len(before) == 3
    tap = _first_tap(page)
    answer = owner_client.post(f"/s/{night.pk}/settlements/", tap, headers=HX).content.decode()
    after = _rows(answer)
    assert after[0] == ("paid", "✓ Đã ghi: An → Bình 15.000 ₫")
    assert after[1:] == before[1:]
    assert 'role="status">Đã ghi' not in answer  # no notice above to push the row down
    assert "Hoàn tác" in answer
    # A second row tapped: the first payment keeps its place too.
    second = _first_tap(answer)
    assert second["row"] == "2" and second["done"].startswith("1:")
    answer = owner_client.post(f"/s/{night.pk}/settlements/", second, headers=HX).content.decode()
    kinds = [kind for kind, _text in _rows(answer)]
    assert kinds == ["paid", "paid", "pay"]


def test_the_same_tap_sent_twice_records_one_payment(owner_client, night):
    tap = _first_tap(owner_client.get(f"/s/{night.pk}/settle/").content.decode())
    first = owner_client.post(f"/s/{night.pk}/settlements/", tap, headers=HX)
    again = owner_client.post(f"/s/{night.pk}/settlements/", tap, headers=HX)
    assert first.status_code == again.status_code == 200
    assert Settlement.objects.filter(sitting=night).count() == 1
    assert _rows(again.content.decode())[0][0] == "paid"


def test_undo_voids_the_payment_and_puts_the_suggestion_back(owner_client, night):
    page = owner_client.get(f"/s/{night.pk}/settle/").content.decode()
    before = _rows(page)
    answer = owner_client.post(
        f"/s/{night.pk}/settlements/", _first_tap(page), headers=HX
    ).content.decode()
    undo = re.search(r'<div class="paid-row".*?<form method="post" action="([^"]+)"', answer, re.S)
    paid = Settlement.objects.get(sitting=night)
    data = {"undo": "1", "method": "min", "done": f"1:{paid.pk}"}
    answer = owner_client.post(undo.group(1), data, headers=HX).content.decode()
    assert _rows(answer) == before
    paid.refresh_from_db()
    assert paid.is_void
    assert night.history.filter(settlement=paid, action="settlement_voided").exists()


def test_it_shows_what_a_player_paid_and_received_apart(owner_client, owner, night):
    settle(night, owner, "An", "Bình", 40000)
    settle(night, owner, "Chi", "An", 30000)
    html = owner_client.get(f"/s/{night.pk}/settle/").content.decode()
    assert "đã trả 40.000\xa0₫ · đã nhận 30.000\xa0₫" in html
    assert "đã trả 10.000" not in html


def test_every_count_of_games_leaves_voided_ones_out(owner_client, owner, night):
    game = record(night, owner, first_out("Chi", An=1, Bình=2, Dũng=3))
    services.game_void(game=game, user=owner, reason="ghi nhầm")
    assert Game.objects.filter(sitting=night).count() == 2
    board = owner_client.get(f"/s/{night.pk}/").content.decode()
    assert "1 ván (1 ván huỷ)" in " ".join(board.split())
    printed = owner_client.get(f"/s/{night.pk}/print/").content.decode()
    assert "1 ván (1 ván huỷ)" in " ".join(printed.split())


def test_a_token_kept_with_another_payment_is_refused(owner_client, night):
    tap = _first_tap(owner_client.get(f"/s/{night.pk}/settle/").content.decode())
    owner_client.post(f"/s/{night.pk}/settlements/", tap, headers=HX)
    night.refresh_from_db()
    other = {
        "kind": "free",
        "token": tap["token"],
        "payer": player(night, "Chi").pk,
        "payee": player(night, "Bình").pk,
        "amount": "1000",
        "version": night.version,
    }
    response = owner_client.post(f"/s/{night.pk}/settlements/", other)
    assert response.status_code == 409
    assert Settlement.objects.filter(sitting=night).count() == 1
    assert str(uuid.UUID(tap["token"])) == tap["token"]


def test_a_players_statement_shows_paid_and_received_apart(owner_client, owner, night):
    settle(night, owner, "An", "Bình", 40000)
    settle(night, owner, "Chi", "An", 30000)
    an = player(night, "An")
    page = owner_client.get(f"/s/{night.pk}/players/{an.pk}/").content.decode()
    summary = " ".join(page.split('id="sum-h"')[1].split("</table>")[0].split())
    assert 'Đã trả</td><td class="num">+40.000 ₫' in summary
    assert 'Đã nhận</td><td class="num">−30.000 ₫' in summary
    assert "10.000" not in summary.split("Số dư")[0]  # never netted


def test_a_recorded_payment_of_an_open_sitting_can_be_voided_from_its_list(
    owner_client, owner, night
):
    paid = settle(night, owner, "An", "Bình", 40000)
    html = owner_client.get(f"/s/{night.pk}/settle/").content.decode()
    assert f'action="/s/{night.pk}/settlements/{paid.pk}/void/"' in html
    assert "Huỷ khoản này" in html


def test_a_tapped_row_says_it_waits_for_the_payee(owner_client, owner, night):
    tap = _first_tap(owner_client.get(f"/s/{night.pk}/settle/").content.decode())
    answer = owner_client.post(f"/s/{night.pk}/settlements/", tap, headers=HX).content.decode()
    row = re.search(r'<div class="paid-row".*?</div>', answer, re.S).group(0)
    assert "chờ xác nhận" in row
    services.settlement_confirm(settlement=Settlement.objects.get(sitting=night), user=owner)
    tap["done"] = f"1:{Settlement.objects.get(sitting=night).pk}"
    page = owner_client.get(f"/s/{night.pk}/settle/", {"done": tap["done"]}, headers=HX)
    row = re.search(r'<div class="paid-row".*?</div>', page.content.decode(), re.S)
    assert row and "đã nhận" in row.group(0) and "chờ xác nhận" not in row.group(0)
