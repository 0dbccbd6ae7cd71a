"""The story pages: stats per period (sortable, each number linking to its games), head to
head, a player's year, the what-if page and ``manage.py reprice`` — bad input answered with a
message and nothing written, and the stats page's query count flat in the sittings."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import engine, services
from scoring.ledger import stats
from scoring.models import Game, Payment, SavedRuleSet, Seat
from tests.factories import (
    CHOPPED,
    FIRST,
    atomic_in_test,
    bulk_games,
    first_out,
    group_player,
    new_group,
    open_sitting,
    record,
)

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 6, 7)


@pytest.fixture
def table(owner):
    """Two nights of đếm lá: Bình wins the worked example (An pays thối, Dũng is cóng), Chi
    wins a game with a chặt chain (Dũng chops Chi), then Dũng sweeps a second night."""
    group = new_group(owner, "Thứ Bảy")
    first = open_sitting(owner, group=group, day=DAY, name="Tối 7/6", stake=1000)
    record(first, owner, FIRST)
    record(first, owner, CHOPPED)
    second = open_sitting(owner, group=group, day=DAY + datetime.timedelta(days=7),
                          name="Tối 14/6", stake=1000)  # fmt: skip
    record(second, owner, {"players": ["An", "Bình", "Chi", "Dũng"], "finish": ["Dũng"],
                           "hands": {"An": {"cards": 4}, "Bình": {"cards": 6},
                                     "Chi": {"cards": 2}}})  # fmt: skip
    return group, first, second


def url(name, group, **kwargs):
    return reverse(name, kwargs={"pk": group.pk, **kwargs})


def test_the_stats_page_lists_each_player_with_links_to_the_games(owner_client, table):
    group, _first, _second = table
    page = owner_client.get(url("group_stats", group) + "?period=all")
    assert page.status_code == 200
    text = page.text
    binh = group_player(group, "Bình")
    assert reverse("group_stats_games", args=[group.pk, binh.pk, "wins"]) in text
    assert reverse("group_player_year", args=[group.pk, binh.pk]) in text
    # The head-to-head chart and table.
    assert 'class="chart bar-chart"' in text
    assert "Ai lấy tiền của ai" in text
    # Dũng took 1 000 from Chi in the chặt and more from each in his night; the table says so.
    assert "<bdi>Chi</bdi></td><td>→ <bdi>Dũng</bdi>" in text


def test_the_stats_page_sorts_by_the_chosen_number(owner_client, table):
    group, _first, _second = table
    by_games = owner_client.get(url("group_stats", group) + "?period=all&sort=cong").text
    names = [n for n in ("An", "Bình", "Chi", "Dũng") if f"<bdi>{n}</bdi>" in by_games]
    order = sorted(names, key=lambda n: by_games.index(f"<strong><bdi>{n}</bdi>"))
    assert order[0] == "Dũng"  # the only cóng
    assert 'aria-current="true" href="?period=all&amp;sort=cong"' in by_games
    # An unknown sort is the default one, never an error.
    assert owner_client.get(url("group_stats", group) + "?sort=%00x").status_code == 200


def test_the_games_behind_a_number_are_those_games(owner_client, table):
    group, first, second = table
    dung = group_player(group, "Dũng")
    page = owner_client.get(url("group_stats_games", group, player_id=dung.pk, what="chat_made")
                            + "?period=all")  # fmt: skip
    assert page.status_code == 200
    assert reverse("game", args=[first.pk, 2]) in page.text
    assert reverse("game", args=[first.pk, 1]) not in page.text
    wins = owner_client.get(url("group_stats_games", group, player_id=dung.pk, what="wins")
                            + "?period=all").text  # fmt: skip
    assert reverse("game", args=[second.pk, 1]) in wins
    missing = url("group_stats_games", group, player_id=dung.pk, what="nothing")
    assert owner_client.get(missing).status_code == 404


def test_a_period_leaves_out_the_nights_outside_it(owner_client, table):
    group, first, second = table
    dung = group_player(group, "Dũng")
    start = second.date.isoformat()
    games = owner_client.get(
        url("group_stats_games", group, player_id=dung.pk, what="games")
        + f"?period=custom&start={start}"
    ).text
    assert reverse("game", args=[second.pk, 1]) in games
    assert reverse("game", args=[first.pk, 1]) not in games


def test_a_voided_game_leaves_the_stats(owner_client, owner, table):
    group, first, _second = table
    game = first.games.get(number=2)
    services.game_void(game=game, user=owner, reason="ghi nhầm")
    dung = group_player(group, "Dũng")
    page = owner_client.get(url("group_stats_games", group, player_id=dung.pk, what="chat_made")
                            + "?period=all").text  # fmt: skip
    assert reverse("game", args=[first.pk, 2]) not in page


def test_a_players_year_has_the_biggest_night_streaks_and_rivals(owner_client, table):
    group, _first, second = table
    dung = group_player(group, "Dũng")
    page = owner_client.get(url("group_player_year", group, player_id=dung.pk) + "?year=2025")
    assert page.status_code == 200
    text = page.text
    assert "Năm 2025 của Dũng" in text
    assert reverse("sitting", args=[second.pk]) in text  # the winning night
    assert "data-share=" in text
    # A year with nothing in it, and a year nobody could mean, still answer.
    assert owner_client.get(url("group_player_year", group, player_id=dung.pk) + "?year=2001")\
        .status_code == 200  # fmt: skip
    assert owner_client.get(url("group_player_year", group, player_id=dung.pk) + "?year=99999")\
        .status_code == 200  # fmt: skip


def test_what_if_shows_both_columns_and_writes_nothing(owner_client, table):
    group, first, _second = table
    before = (Game.objects.count(), Payment.objects.count(), Seat.objects.count())
    page = owner_client.get(
        url("group_what_if", group) + "?period=all&rules=preset:dem-la-26&stake=1000"
    )
    assert page.status_code == 200
    assert 'id="what-if-result"' in page.text
    assert "3 ván được tính lại" in page.text
    # A placement scheme cannot price a game that only says who went out first.
    placed = owner_client.get(
        url("group_what_if", group) + f"?period=all&sitting={first.pk}&rules=preset:cuoc&stake=2000"
    )
    assert placed.status_code == 200
    assert "0 ván được tính lại" in placed.text
    assert "2 ván không tính được theo luật này" in placed.text
    assert (Game.objects.count(), Payment.objects.count(), Seat.objects.count()) == before


def test_repricing_reads_the_same_queries_at_any_number_of_games(owner, table):
    """Five queries with nothing kept in the cache (sittings, their rule sets, games, seats,
    players), none holding a list of the games' ids: a period of hundreds of thousands of
    games would otherwise pass SQLite's limit on a query's parameters."""
    from scoring.ledger.reprice import reprice_group

    group, first, _second = table

    def queries() -> list[str]:
        with CaptureQueriesContext(connection) as ctx:
            result = reprice_group(group, engine.PRESETS["dem-la-26"], 1000)
        assert result.games == Game.objects.filter(sitting__group=group).active().count()
        return [q["sql"] for q in ctx.captured_queries]

    few = queries()
    bulk_games(first, owner, 40, [FIRST])
    many = queries()
    assert len(few) == len(many) == 5
    assert [len(sql) for sql in few[:4]] == [len(sql) for sql in many[:4]]


def test_what_if_refuses_bad_input_with_a_message(owner_client, table):
    group, _first, _second = table
    base = url("group_what_if", group) + "?period=all"
    odd = owner_client.get(base + "&rules=preset:cuoc&stake=1001")
    assert odd.status_code == 400 and 'id="what-if-result"' not in odd.text
    assert "stake" in odd.text or "tiền" in odd.text.lower()
    for query in (
        "&rules=preset:nope&stake=1000",
        "&rules=preset:cuoc&stake=abc",
        "&rules=preset:cuoc&stake=2000&sitting=999999",
        "&rules=saved:1&stake=1",
    ):
        answer = owner_client.get(base + query)
        assert answer.status_code == 400, query
        assert 'class="errorlist' in answer.text or "error" in answer.text, query


def test_the_pages_are_404_for_a_player_of_another_group(owner_client, owner, table):
    group, _first, _second = table
    other = new_group(owner, "Khác")
    stranger_sitting = open_sitting(owner, group=other, players=["Xuân", "Yến"])
    xuan = group_player(other, "Xuân")
    assert stranger_sitting.pk
    assert owner_client.get(url("group_player_year", group, player_id=xuan.pk)).status_code == 404
    assert owner_client.get(url("group_stats_games", group, player_id=xuan.pk, what="games"))\
        .status_code == 404  # fmt: skip


def _queries(client, address):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(address).status_code == 200
    return len(queries)


def test_the_stats_page_asks_as_many_queries_for_many_sittings_as_for_few(owner_client, owner):
    group = new_group(owner, "Đông")

    def grow(count, start):
        for n in range(count):
            sitting = open_sitting(owner, group=group, name=f"Bàn {start + n}", stake=1000,
                                   day=DAY + datetime.timedelta(days=start + n))  # fmt: skip
            bulk_games(sitting, owner, 4, [FIRST, CHOPPED])

    grow(2, 0)
    address = url("group_stats", group) + "?period=all"
    few = _queries(owner_client, address)
    grow(6, 2)
    assert _queries(owner_client, address) == few


# --- manage.py reprice -------------------------------------------------------------------


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("reprice", *args, stdout=out, stderr=err)
    return json.loads(out.getvalue())


def test_reprice_prints_the_totals_and_names_the_games_it_skips(table):
    _group, first, _second = table
    data = run("--sitting", str(first.pk), "--rules", "dem-la-26", "--stake", "1000")
    assert list(data) == ["totals", "games", "skipped", "noted"]
    assert data["games"] == 2 and data["skipped"] == [] and data["noted"] == []
    direct = {}
    for game in first.games.order_by("number"):
        for name, net in engine.score_game(engine.PRESETS["dem-la-26"], game.record, 1000)\
                .net.items():  # fmt: skip
            direct[name] = direct.get(name, 0) + net
    assert data["totals"] == dict(sorted(direct.items()))
    placed = run("--sitting", str(first.pk), "--rules", "cuoc", "--stake", "2000")
    assert placed["games"] == 0
    assert [s["game"] for s in placed["skipped"]] == [1, 2]
    assert all(s["reason"] for s in placed["skipped"])


def test_reprice_sets_aside_the_hands_of_a_toi_trang_the_other_rules_do_not_count(
    owner, owner_client
):
    """Records are facts: a tới trắng recorded with the losers' 2s, where the table counted them,
    is priced under a preset that does not: the 2s cost nothing there, with a note, and the game
    is not skipped."""
    counts = engine.ruleset_from_dict(
        {**engine.ruleset_to_dict(engine.PRESETS["dem-la"]), "toi_trang_counts_thoi": True}
    )
    sitting = open_sitting(owner, name="Có đếm heo", rules=counts, stake=1000)
    toi = {"players": ["An", "Bình", "Chi", "Dũng"],
           "toi_trang": {"player": "Chi", "hand": "sanh_rong"},
           "hands": {"An": {"heo": ["2H"]}}}  # fmt: skip
    record(sitting, owner, toi)
    assert Seat.objects.get(player__name="An").net == -(13 + 10) * 1000  # the 2♥ was counted
    data = run("--sitting", str(sitting.pk), "--rules", "dem-la", "--stake", "1000")
    assert data["games"] == 1 and data["skipped"] == []
    assert data["totals"] == {"An": -13000, "Bình": -13000, "Chi": 39000, "Dũng": -13000}
    assert [n["game"] for n in data["noted"]] == [1]
    assert "does not count thối" in data["noted"][0]["note"]
    vi = run("--sitting", str(sitting.pk), "--rules", "dem-la", "--lang", "vi")
    assert "không tính thối" in vi["noted"][0]["note"]
    page = owner_client.get(
        url("group_what_if", sitting.group) + "?period=all&rules=preset:dem-la&stake=1000"
    ).content.decode()
    assert "1 ván tính lại không kể một phần đã ghi" in page and "không tính thối" in page
    # The what-if says what the engine says of the same record scored as a new game.
    new = engine.score_game(engine.PRESETS["dem-la"], toi, 1000)
    assert new.net == data["totals"] and new.notes[0].message("en") == data["noted"][0]["note"]


def test_reprice_prices_a_ket_3_bich_as_any_game_under_rules_without_it(owner):
    """A đếm lá 26 night asked "what if it had been đếm lá": a kết 3 bích with the losers' cards
    is priced as an ordinary game, with a note; one recorded without them cannot be, and is
    skipped with the reason."""
    sitting = open_sitting(owner, name="Đếm lá 26", rules=engine.PRESETS["dem-la-26"], stake=1000)
    players = ["An", "Bình", "Chi", "Dũng"]
    record(sitting, owner, {"players": players, "finish": ["An"], "ket_3_bich": True,
                            "hands": {"Bình": {"cards": 4}, "Chi": {"cards": 2},
                                      "Dũng": {"cards": 7}}})  # fmt: skip
    record(sitting, owner, {"players": players, "finish": ["Chi"], "ket_3_bich": True})
    data = run("--sitting", str(sitting.pk), "--rules", "dem-la", "--stake", "1000")
    assert data["games"] == 1
    assert data["totals"] == {"An": 13000, "Bình": -4000, "Chi": -2000, "Dũng": -7000}
    assert [n["game"] for n in data["noted"]] == [1]
    assert "does not play it" in data["noted"][0]["note"]
    assert [s["game"] for s in data["skipped"]] == [2]


def test_reprice_reads_a_saved_rule_set_and_defaults_to_the_sittings_stake(owner, table):
    _group, first, _second = table
    saved = SavedRuleSet.objects.create(
        owner=owner, name="Của tôi", data=engine.ruleset_to_dict(engine.PRESETS["dem-la-26"])
    )
    data = run("--sitting", str(first.pk), "--rules", f"saved:{saved.pk}")
    assert data == run("--sitting", str(first.pk), "--rules", "dem-la-26", "--stake", "1000")


@pytest.mark.parametrize(
    "args, says",
    [
        (["--sitting", "abc", "--rules", "cuoc"], "--sitting"),
        (["--sitting", "999999", "--rules", "cuoc"], "no sitting"),
        (["--rules", "nope"], "--rules"),
        (["--rules", "saved:999999"], "no rule set"),
        (["--rules", "cuoc", "--stake", "1001"], "--stake"),
        (["--rules", "cuoc", "--stake", "-5"], "--stake"),
    ],
)
def test_reprice_refuses_bad_input_with_a_message(table, args, says):
    _group, first, _second = table
    if "--sitting" not in args:
        args = ["--sitting", str(first.pk), *args]
    with pytest.raises(CommandError) as error:
        run(*args)
    assert says in str(error.value)


# --- Kept parts are never out of date ----------------------------------------------------


def _summary(group):
    story = stats.group_story(group)
    return (
        {s.player.name: (s.games, s.wins, s.net) for s in story.lines},
        [(f.payer.name, f.payee.name, f.amount) for f in story.flows],
    )


def _fresh(group):
    """The same, with nothing kept: what the database says now."""
    cache.clear()
    return _summary(group)


# Parts are kept once the transaction that read them commits: these tests commit.
@pytest.mark.django_db(transaction=True)
def test_what_a_transaction_read_is_kept_only_if_it_commits(owner, table):
    group, first, _second = table
    cache.clear()
    with atomic_in_test():
        record(first, owner, first_out("An", Bình=9, Chi=9, Dũng=9))
        inside = _summary(group)
        transaction.set_rollback(True)
    # The next write takes the version the rolled-back one had.
    record(first, owner, first_out("Bình", An=1, Chi=1, Dũng=1))
    assert _summary(group) == _fresh(group) != inside


@pytest.mark.django_db(transaction=True)
def test_every_write_is_seen_through_the_kept_parts(owner, table):
    group, first, second = table
    assert _summary(group) == _fresh(group)
    _summary(group)  # every part kept
    record(second, owner, first_out("An", Bình=9, Chi=9, Dũng=9))
    assert _summary(group) == _fresh(group)
    services.game_void(game=second.games.get(number=1), user=owner, reason="ghi nhầm")
    assert _summary(group) == _fresh(group)
    game = first.games.get(number=1)
    services.game_edit(game=game, user=owner, record=first_out("Chi", An=1, Bình=1, Dũng=1),
                       expected_revision=game.revision)  # fmt: skip
    assert _summary(group) == _fresh(group)
    # A sitting moved to another group leaves this one's story.
    other = new_group(owner, "Chủ nhật")
    services.sitting_move(sitting=second, to_group=other, user=owner)
    moved = _summary(group)
    assert moved == _fresh(group)
    assert _summary(other) == _fresh(other)
    assert moved[0]["An"][0] == 2  # only the first night is left


def test_a_merge_is_seen_through_the_kept_parts(owner, table):
    group, _first, _second = table
    day = DAY + datetime.timedelta(days=1)
    players = ["An", "Bình", "Chi", "Em Dũng"]  # the same person under another name
    extra = open_sitting(owner, group=group, players=players, day=day, name="Tối 8/6", stake=1000)
    record(extra, owner, first_out("Em Dũng", An=2, Bình=2, Chi=2))
    _summary(group)
    services.player_merge(
        keep=group_player(group, "Dũng"), duplicate=group_player(group, "Em Dũng"), user=owner
    )
    merged = _summary(group)
    assert merged == _fresh(group)
    assert "Em Dũng" not in merged[0] and merged[0]["Dũng"][0] == 4
