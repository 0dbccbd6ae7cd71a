"""Merging two records of one person: everything moves, and every total stays the same."""

from datetime import date

import pytest
from django.test import Client

from scoring import ledger, services
from scoring.models import (
    Game,
    HistoryEntry,
    Membership,
    Payment,
    Player,
    Seat,
    Settlement,
    Sitting,
)
from scoring.services import InvalidInput
from tests.factories import FIRST, open_sitting, record

pytestmark = pytest.mark.django_db

# The same game with "Bình T" (typed with her initial one evening) in Bình's seat.
WITH_BINH = {
    **FIRST,
    "players": ["An", "Bình T", "Chi", "Dũng"],
    "finish": ["Bình T"],
}


def _player(owner, name):
    return Player.objects.get(owner=owner, name=name, merged_into=None)


def _totals(sitting):
    return {
        Player.objects.get(pk=pk).name: amount for pk, amount in ledger.balances(sitting).items()
    }


@pytest.fixture
def typo(owner, night):
    """A later sitting where Bình was typed "Bình T": games, a settlement, leads next."""
    first, second = night
    later = open_sitting(
        owner, name="Thứ Tư", day=date(2025, 3, 5), players=["An", "Bình T", "Chi", "Dũng"]
    )
    record(later, owner, WITH_BINH)
    chi_wins = {"An": {"cards": 2}, "Bình T": {"cards": 4}, "Dũng": {"cards": 6}}
    record(later, owner, {**WITH_BINH, "finish": ["Chi"], "hands": chi_wins})
    record(later, owner, WITH_BINH)
    services.settlement_record(
        sitting=later,
        user=owner,
        payer=_player(owner, "Bình T"),
        payee=_player(owner, "An"),
        amount=20_000,
    )
    return first, second, later


def test_it_moves_everything_and_leaves_the_totals_unchanged(owner, typo):
    first, _second, later = typo
    binh, typo_binh = _player(owner, "Bình"), _player(owner, "Bình T")
    before_first, before_later = _totals(first), _totals(later)
    version = Sitting.objects.get(pk=later.pk).version

    services.player_merge(keep=binh, duplicate=typo_binh, user=owner)

    assert _totals(first) == before_first
    after_later = _totals(later)
    assert after_later.pop("Bình") == before_later.pop("Bình T")
    assert after_later == before_later
    assert sum(ledger.balances(later).values()) == 0
    for model, fields in (
        (Membership, ["player"]),
        (Seat, ["player"]),
        (Payment, ["payer", "payee"]),
        (Settlement, ["payer", "payee"]),
        (Game, ["next_leader"]),
    ):
        for field in fields:
            assert not model.objects.filter(**{field: typo_binh}).exists()
    assert Seat.objects.filter(player=binh).count() == 2 + 3
    typo_binh.refresh_from_db()
    assert typo_binh.merged_into == binh
    assert Sitting.objects.get(pk=later.pk).version > version
    entry = HistoryEntry.objects.get(sitting=later, action=HistoryEntry.Action.MEMBERS)
    assert entry.before == {"players": ["An", "Bình T", "Chi", "Dũng"]}
    # The records' rename is in the entry, so replaying the history renames them too.
    assert entry.after == {"players": ["An", "Bình", "Chi", "Dũng"], "renamed": {"Bình T": "Bình"}}
    assert not HistoryEntry.objects.filter(sitting=first, action=HistoryEntry.Action.MEMBERS)


def test_it_renames_the_records_so_the_games_can_still_be_edited(owner, typo):
    _first, _second, later = typo
    services.player_merge(
        keep=_player(owner, "Bình"), duplicate=_player(owner, "Bình T"), user=owner
    )
    game = later.games.get(number=2)
    assert game.record["players"] == ["An", "Bình", "Chi", "Dũng"]
    assert game.record["finish"] == ["Chi"]
    assert "Bình" in game.record["hands"] and "Bình T" not in game.record["hands"]
    edited = services.game_edit(
        game=game,
        user=owner,
        record={**game.record, "hands": {**game.record["hands"], "Bình": {"cards": 5}}},
        expected_revision=game.revision,
    )
    assert edited.game.revision == 2
    # The history keeps the records exactly as they were written.
    recorded = game.history.get(action=HistoryEntry.Action.RECORDED)
    assert recorded.after["players"] == ["An", "Bình T", "Chi", "Dũng"]


def test_it_keeps_one_seat_when_both_sat_in_one_sitting_but_never_one_game(owner):
    sitting = open_sitting(
        owner,
        name="Đông người",
        day=date(2025, 5, 1),
        players=["An", "Bình", "Chi", "Dũng", "Bình T"],
    )
    record(sitting, owner, FIRST)
    record(sitting, owner, WITH_BINH)
    before = _totals(sitting)
    services.player_merge(
        keep=_player(owner, "Bình"), duplicate=_player(owner, "Bình T"), user=owner
    )
    after = _totals(sitting)
    assert after["Bình"] == before["Bình"] + before["Bình T"] == 2 * 245_000
    assert [m.player.name for m in sitting.memberships.select_related("player")] == [
        "An",
        "Bình",
        "Chi",
        "Dũng",
    ]


def test_it_refuses_two_records_who_played_one_game(owner, night):
    first, _second = night
    before = _totals(first)
    with pytest.raises(InvalidInput) as error:
        services.player_merge(
            keep=_player(owner, "An"), duplicate=_player(owner, "Bình"), user=owner
        )
    assert "cùng chơi ván 1" in error.value.message and "Tối thứ Bảy" in error.value.message
    assert _totals(first) == before
    assert _player(owner, "Bình").merged_into is None


def test_it_refuses_two_who_played_one_game_before_it_was_edited(owner):
    sitting = open_sitting(
        owner,
        name="Sửa người",
        day=date(2025, 5, 2),
        players=["An", "Bình", "Chi", "Dũng", "Bình T"],
    )
    game = record(sitting, owner, {**FIRST, "players": ["An", "Bình", "Chi", "Bình T"],
                                   "hands": {"An": {"cards": 5}, "Chi": {"cards": 8},
                                             "Bình T": {"cards": 3}}})  # fmt: skip
    services.game_edit(game=game, user=owner, record=FIRST, expected_revision=1)
    with pytest.raises(InvalidInput):
        services.player_merge(
            keep=_player(owner, "Bình"), duplicate=_player(owner, "Bình T"), user=owner
        )


def test_it_refuses_two_who_paid_each_other(owner):
    sitting = open_sitting(owner, name="Trả nhau", day=date(2025, 5, 3), players=["Bình", "Bình T"])
    services.settlement_record(
        sitting=sitting,
        user=owner,
        payer=_player(owner, "Bình T"),
        payee=_player(owner, "Bình"),
        amount=1000,
    )
    with pytest.raises(InvalidInput) as error:
        services.player_merge(
            keep=_player(owner, "Bình"), duplicate=_player(owner, "Bình T"), user=owner
        )
    assert "trả tiền cho nhau" in error.value.message


def test_it_refuses_a_record_merged_already_and_itself(owner, typo):
    binh, typo_binh = _player(owner, "Bình"), _player(owner, "Bình T")
    services.player_merge(keep=binh, duplicate=typo_binh, user=owner)
    with pytest.raises(InvalidInput):
        services.player_merge(keep=binh, duplicate=typo_binh, user=owner)
    with pytest.raises(InvalidInput):
        services.player_merge(keep=binh, duplicate=binh, user=owner)


def test_it_points_earlier_merges_at_the_kept_record(owner, typo):
    binh, typo_binh = _player(owner, "Bình"), _player(owner, "Bình T")
    older = Player.objects.create(owner=owner, name="B.")
    services.player_merge(keep=typo_binh, duplicate=older, user=owner)
    services.player_merge(keep=binh, duplicate=typo_binh, user=owner)
    older.refresh_from_db()
    assert older.merged_into == binh


def test_it_keeps_the_duplicates_bank_account_when_the_kept_one_has_none(owner, typo):
    binh, typo_binh = _player(owner, "Bình"), _player(owner, "Bình T")
    services.player_set_bank(
        player=typo_binh, bank_bin="970422", account="123456", holder="Le Binh"
    )
    services.player_merge(keep=binh, duplicate=typo_binh, user=owner)
    binh.refresh_from_db()
    assert (binh.bank_bin, binh.bank_account, binh.bank_holder) == ("970422", "123456", "LE BINH")


# --- The page -------------------------------------------------------------------------------


def _url(player):
    return f"/players/{player.pk}/merge/"


def test_it_offers_the_owners_other_players(owner_client, owner, stranger, typo):
    open_sitting(stranger, name="Của người khác", day=date(2025, 3, 3), players=["Người Lạ", "Zed"])
    html = owner_client.get(_url(_player(owner, "Bình"))).content.decode()
    for name in ("An", "Bình T", "Chi", "Dũng", "Em"):
        assert f">{name}</option>" in html
    assert ">Bình</option>" not in html and "Người Lạ" not in html


def test_it_renders_the_form_alone_for_htmx(owner_client, owner, typo):
    response = owner_client.get(_url(_player(owner, "Bình")), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="merge"') and "<html" not in html


def test_it_merges_from_the_page(owner_client, owner, typo):
    binh, typo_binh = _player(owner, "Bình"), _player(owner, "Bình T")
    response = owner_client.post(_url(binh), {"duplicate": typo_binh.pk, "confirm": "on"})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/players/{binh.pk}/"
    typo_binh.refresh_from_db()
    assert typo_binh.merged_into == binh


def test_it_asks_for_confirmation(owner_client, owner, typo):
    binh, typo_binh = _player(owner, "Bình"), _player(owner, "Bình T")
    response = owner_client.post(_url(binh), {"duplicate": typo_binh.pk})
    assert response.status_code == 422
    typo_binh.refresh_from_db()
    assert typo_binh.merged_into is None


def test_it_shows_why_a_merge_was_refused(owner_client, owner, night):
    response = owner_client.post(
        _url(_player(owner, "An")), {"duplicate": _player(owner, "Bình").pk, "confirm": "on"}
    )
    assert response.status_code == 422
    assert "hai người khác nhau" in response.content.decode()


def test_it_will_not_take_another_scorekeepers_player(owner_client, owner, stranger, night):
    theirs = open_sitting(
        stranger, name="Của người khác", day=date(2025, 3, 3), players=["Người Lạ", "Zed"]
    )
    other = theirs.members.get(name="Người Lạ")
    response = owner_client.post(
        _url(_player(owner, "An")), {"duplicate": other.pk, "confirm": "on"}
    )
    assert response.status_code == 422
    other.refresh_from_db()
    assert other.merged_into is None


def test_it_is_404_for_a_merged_record(owner_client, owner, typo):
    binh, typo_binh = _player(owner, "Bình"), _player(owner, "Bình T")
    services.player_merge(keep=binh, duplicate=typo_binh, user=owner)
    assert owner_client.get(_url(typo_binh)).status_code == 404


def test_it_needs_the_csrf_token(owner, typo):
    binh, typo_binh = _player(owner, "Bình"), _player(owner, "Bình T")
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(owner)
    response = csrf_client.post(_url(binh), {"duplicate": typo_binh.pk, "confirm": "on"})
    assert response.status_code == 403
