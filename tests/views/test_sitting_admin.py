"""Opening a sitting, its members, co-scorekeepers and history."""

import pytest

from scoring.models import Sitting
from tests.factories import first_out, open_sitting, record

pytestmark = pytest.mark.django_db


def test_it_opens_a_sitting(owner_client):
    response = owner_client.post(
        "/s/new/",
        {
            "name": "Tối thứ Sáu",
            "date": "2026-11-27",
            "rules": "preset:nhat-nhi-ba-bet",
            "stake": "10000",
            "players": "An\nBình\nChi, Dũng\nAn",
        },
    )
    sitting = Sitting.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/s/{sitting.pk}/"
    assert [m.player.name for m in sitting.memberships.all()] == ["An", "Bình", "Chi", "Dũng"]
    assert sitting.rules["mode"] == "placement" and sitting.stake == 10000


def test_it_refuses_a_stake_that_would_make_half_units_fractional(owner_client):
    response = owner_client.post(
        "/s/new/",
        {
            "name": "Cược",
            "date": "2026-11-27",
            "rules": "preset:cuoc",
            "stake": "5001",
            "players": "An\nBình",
        },
    )
    assert response.status_code == 200
    assert 'class="field-error"' in response.content.decode()
    assert not Sitting.objects.exists()


def test_it_refuses_more_than_eight_members(owner_client):
    names = "\n".join(f"P{i}" for i in range(9))
    response = owner_client.post(
        "/s/new/",
        {
            "name": "Đông",
            "date": "2026-11-27",
            "rules": "preset:dem-la",
            "stake": "1000",
            "players": names,
        },
    )
    assert "Tối đa 8 người" in response.content.decode()
    assert not Sitting.objects.exists()


def test_it_opens_a_sitting_with_a_saved_rule_set(owner_client, owner):
    from scoring import engine
    from scoring.models import SavedRuleSet

    data = engine.ruleset_to_dict(engine.PRESETS["dem-la"])
    data["name"] = "Đếm lá nhà mình"
    saved = SavedRuleSet.objects.create(owner=owner, name="Đếm lá nhà mình", data=data)
    owner_client.post(
        "/s/new/",
        {
            "name": "Nhà",
            "date": "2026-11-27",
            "rules": f"saved:{saved.pk}",
            "stake": "2000",
            "players": "An\nBình",
        },
    )
    assert Sitting.objects.get().rules_label == "Đếm lá nhà mình"


def test_members_can_be_added_but_not_removed_after_playing(owner_client, owner):
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    response = owner_client.post(f"/s/{sitting.pk}/members/", {"players": "An\nBình\nChi"})
    assert "không thể bỏ ra" in response.content.decode()
    owner_client.post(f"/s/{sitting.pk}/members/", {"players": "An\nBình\nChi\nDũng\nEm"})
    assert sitting.memberships.count() == 5


def test_the_history_lists_every_change(owner_client, owner):
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    html = owner_client.get(f"/s/{sitting.pk}/history/").content.decode()
    assert "mở bàn" in html and "ghi ván" in html and "chu_ban" in html


@pytest.mark.parametrize(
    ("method", "suffix"),
    [
        ("get", "members/"),
        ("post", "members/"),
        ("get", "share/"),
        ("post", "share/"),
        ("get", "history/"),
        ("post", "undo/"),
    ],
)
def test_sitting_pages_are_404_for_strangers(stranger_client, owner, method, suffix):
    sitting = open_sitting(owner)
    assert getattr(stranger_client, method)(f"/s/{sitting.pk}/{suffix}").status_code == 404
