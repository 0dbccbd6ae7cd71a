"""What-if and the other heavy reads are bounded: a sitting re-priced under a rule set and
stake is kept and never priced twice, a range past the ceiling is refused with a shorter one
offered, and one person gets one heavy page at a time (429 for a second one meanwhile), in a
few site-wide slots that a cached answer never takes."""

from __future__ import annotations

import contextlib
import datetime
import threading
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring import engine, services
from scoring.ledger import reprice
from scoring.models import Game
from tests.factories import CHOPPED, FIRST, first_out, new_group, open_sitting, record
from tienlen_site.plumbing import oneatatime
from tienlen_site.plumbing.oneatatime import DOORWAY, PERSON, RETRY_AFTER_SECONDS, SLOT

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 6, 7)
BUSY = "Đang tính, thử lại sau vài giây."


@pytest.fixture
def table(owner):
    group = new_group(owner, "Thứ Bảy")
    first = open_sitting(owner, group=group, day=DAY, name="Tối 7/6", stake=1000)
    record(first, owner, FIRST)
    record(first, owner, CHOPPED)
    second = open_sitting(owner, group=group, day=DAY + datetime.timedelta(days=7),
                          name="Tối 14/6", stake=1000)  # fmt: skip
    record(second, owner, first_out("Dũng", An=4, Bình=6, Chi=2))
    return group, first, second


@pytest.fixture
def priced():
    """Counts the engine's pricing calls made by the what-if."""
    with mock.patch.object(reprice.engine, "score_game", wraps=engine.score_game) as spy:
        yield spy


def what_if(client, group, query="period=all&rules=preset:dem-la-26&stake=1000"):
    return client.get(reverse("group_what_if", kwargs={"pk": group.pk}) + "?" + query)


def reprice_kept(group, rules, stake, capture):
    """The group re-priced, with what it keeps in the cache kept (the reading commits)."""
    with capture(execute=True):
        return reprice.reprice_group(group, rules, stake)


# --- Re-priced once ----------------------------------------------------------------------


def test_a_kept_what_if_does_not_ask_the_engine_again(
    table, priced, django_capture_on_commit_callbacks
):
    group, _first, _second = table
    rules = engine.PRESETS["dem-la-26"]
    first = reprice_kept(group, rules, 1000, django_capture_on_commit_callbacks)
    assert priced.call_count == 3 and first.games == 3
    again = reprice_kept(group, rules, 1000, django_capture_on_commit_callbacks)
    assert priced.call_count == 3
    assert (again.played, again.what_if, again.games) == (first.played, first.what_if, 3)
    assert [p.pk for p in again.players] == [p.pk for p in first.players]


def test_the_page_reads_a_kept_what_if_without_the_engine(
    owner_client, table, priced, django_capture_on_commit_callbacks
):
    group, _first, _second = table
    with django_capture_on_commit_callbacks(execute=True):
        page = what_if(owner_client, group)
    assert page.status_code == 200 and "3 ván được tính lại" in page.text
    calls = priced.call_count
    again = what_if(owner_client, group)
    assert again.status_code == 200 and "3 ván được tính lại" in again.text
    assert priced.call_count == calls


def test_an_edited_game_prices_its_sitting_again_and_only_it(
    owner, table, priced, django_capture_on_commit_callbacks
):
    group, _first, second = table
    rules = engine.PRESETS["dem-la-26"]
    before = reprice_kept(group, rules, 1000, django_capture_on_commit_callbacks)
    game = Game.objects.get(sitting=second, number=1)
    services.game_edit(game=game, user=owner, record=first_out("Dũng", An=9, Bình=6, Chi=2),
                       expected_revision=game.revision)  # fmt: skip
    priced.reset_mock()
    after = reprice_kept(group, rules, 1000, django_capture_on_commit_callbacks)
    assert priced.call_count == 1  # the edited sitting's one game; the first sitting was kept
    dung = next(p for p in after.players if p.name == "Dũng")
    assert after.what_if[dung.pk] > before.what_if[dung.pk]
    assert after.what_if == reprice.reprice_group(group, rules, 1000).what_if


def test_a_voided_game_leaves_the_what_if(owner, table, django_capture_on_commit_callbacks):
    group, first, _second = table
    rules = engine.PRESETS["dem-la-26"]
    assert reprice_kept(group, rules, 1000, django_capture_on_commit_callbacks).games == 3
    services.game_void(game=Game.objects.get(sitting=first, number=2), user=owner, reason="sai")
    assert reprice_kept(group, rules, 1000, django_capture_on_commit_callbacks).games == 2


def test_another_rule_set_or_stake_is_priced_afresh(
    table, priced, django_capture_on_commit_callbacks
):
    group, _first, _second = table
    dem_la, dem_la_26 = engine.PRESETS["dem-la"], engine.PRESETS["dem-la-26"]
    base = reprice_kept(group, dem_la_26, 1000, django_capture_on_commit_callbacks)
    assert priced.call_count == 3
    other_rules = reprice_kept(group, dem_la, 1000, django_capture_on_commit_callbacks)
    assert priced.call_count == 6
    other_stake = reprice_kept(group, dem_la_26, 2000, django_capture_on_commit_callbacks)
    assert priced.call_count == 9
    assert other_stake.what_if == {k: 2 * v for k, v in base.what_if.items()}
    assert other_rules.what_if != base.what_if
    # A rule set read back from its JSON (a saved one) is the same rule set.
    again = engine.ruleset_from_dict(engine.ruleset_to_dict(dem_la_26))
    assert reprice.rules_fingerprint(again) == reprice.rules_fingerprint(dem_la_26)
    assert reprice.rules_fingerprint(dem_la_26) != reprice.rules_fingerprint(dem_la)


def test_the_key_names_the_sittings_version_the_rules_and_the_stake(owner, table):
    _group, first, _second = table
    dem_la = reprice.rules_fingerprint(engine.PRESETS["dem-la"])
    key = reprice.part_key(first.pk, first.created_at, first.version, dem_la, 1000)
    record(first, owner, FIRST)
    first.refresh_from_db()
    assert reprice.part_key(first.pk, first.created_at, first.version, dem_la, 1000) != key
    cuoc = reprice.rules_fingerprint(engine.PRESETS["cuoc"])
    assert len({
        reprice.part_key(first.pk, first.created_at, first.version, dem_la, 1000),
        reprice.part_key(first.pk, first.created_at, first.version, cuoc, 1000),
        reprice.part_key(first.pk, first.created_at, first.version, dem_la, 2000),
    }) == 3  # fmt: skip


def test_the_same_record_twice_is_priced_once(owner, priced):
    group = new_group(owner, "Lặp")
    sitting = open_sitting(owner, group=group, day=DAY, stake=1000)
    for _ in range(3):
        record(sitting, owner, FIRST)
    record(sitting, owner, CHOPPED)
    priced.reset_mock()  # recording a game prices it too
    result = reprice.reprice_group(group, engine.PRESETS["dem-la-26"], 1000)
    assert result.games == 4 and priced.call_count == 2
    alone = engine.score_game(engine.PRESETS["dem-la-26"], FIRST, 1000).net
    chopped = engine.score_game(engine.PRESETS["dem-la-26"], CHOPPED, 1000).net
    by_name = {p.name: result.what_if[p.pk] for p in result.players}
    assert by_name == {name: 3 * alone[name] + chopped[name] for name in alone}


def test_a_skipped_game_keeps_its_reason_in_the_readers_language(
    table, django_capture_on_commit_callbacks
):
    group, _first, _second = table
    kept = reprice_kept(group, engine.PRESETS["cuoc"], 2000, django_capture_on_commit_callbacks)
    assert len(kept.skipped) == 3
    with django_capture_on_commit_callbacks(execute=True):
        english = reprice.reprice_group(group, engine.PRESETS["cuoc"], 2000, lang="en")
    assert [s.number for s in english.skipped] == [s.number for s in kept.skipped]
    assert english.skipped[0].reason != kept.skipped[0].reason
    assert english.skipped[0].sitting_name == "Tối 7/6"


# --- The ceiling -------------------------------------------------------------------------


def test_a_range_past_the_ceiling_is_refused_with_a_shorter_one_offered(
    owner_client, table, priced, monkeypatch
):
    group, _first, second = table
    monkeypatch.setattr(reprice, "MAX_GAMES", 2)
    page = what_if(owner_client, group)
    assert page.status_code == 422
    assert 'id="what-if-result"' not in page.text and priced.call_count == 0
    assert "Kỳ này còn 3 ván chưa tính lại theo luật và tiền cược này, nhiều hơn 2 ván" in page.text
    # The longest range up to the same end that fits: the second night alone.
    shorter = f"start={second.date.isoformat()}"
    assert shorter in page.text and "period=custom" in page.text
    notice = page.text.split('id="what-if-too-many"', 1)[1]
    link = notice.split('href="?', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    followed = what_if(owner_client, group, link)
    assert followed.status_code == 200 and "1 ván được tính lại" in followed.text


def test_one_sitting_is_priced_whatever_the_ceiling(owner_client, table, monkeypatch):
    group, first, _second = table
    monkeypatch.setattr(reprice, "MAX_GAMES", 1)
    page = what_if(owner_client, group,
                   f"period=all&sitting={first.pk}&rules=preset:dem-la-26&stake=1000")  # fmt: skip
    assert page.status_code == 200 and "2 ván được tính lại" in page.text


def test_the_ceiling_counts_the_games_left_to_price_in_the_range_asked(
    owner, table, priced, django_capture_on_commit_callbacks
):
    group, _first, second = table
    rules = engine.PRESETS["dem-la-26"]
    with pytest.raises(reprice.TooMany) as refused:
        reprice.reprice_group(group, rules, 1000, limit=2)
    assert (refused.value.games, refused.value.start) == (3, second.date)
    with pytest.raises(reprice.TooMany) as refused:
        reprice.reprice_group(group, rules, 1000, limit=0)
    assert (refused.value.games, refused.value.start) == (3, None)
    assert priced.call_count == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert reprice.reprice_group(group, rules, 1000, start=second.date, limit=2).games == 1
    # The second night is kept: only the first night's two games are left to price.
    with django_capture_on_commit_callbacks(execute=True):
        assert reprice.reprice_group(group, rules, 1000, limit=2).games == 3
    assert priced.call_count == 3
    with pytest.raises(reprice.TooMany):
        reprice.reprice_group(group, rules, 2000, limit=2)  # another stake: nothing kept


# --- One at a time -----------------------------------------------------------------------


@contextlib.contextmanager
def held_elsewhere(*locks):
    """The turns' locks (kind, number) taken by another thread, as by another worker's page:
    on PostgreSQL its own connection, elsewhere its own open files."""
    taken, done = threading.Event(), threading.Event()
    failed: list[tuple[int, int]] = []

    def hold():
        backend = oneatatime.locks()
        held = []
        for kind, number in locks:
            lock = backend.take(kind, number)
            if lock is None:
                failed.append((kind, number))
            else:
                held.append(lock)
        taken.set()
        done.wait(30)
        for lock in held:
            backend.let_go(lock)
        connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    assert taken.wait(10)
    try:
        assert failed == []
        yield
    finally:
        done.set()
        thread.join(10)


def free_elsewhere(kind, number) -> bool:
    """Whether another worker could take that lock now (it lets it go again at once)."""
    with held_elsewhere():
        pass
    result: list[bool] = []

    def look():
        backend = oneatatime.locks()
        lock = backend.take(kind, number)
        result.append(lock is not None)
        if lock is not None:
            backend.let_go(lock)
        connection.close()

    thread = threading.Thread(target=look)
    thread.start()
    thread.join(10)
    return result == [True]


def me(user):
    return (PERSON, oneatatime.person_number(f"user:{user.pk}"))


@pytest.fixture(autouse=True)
def short_wait(settings):
    settings.HEAVY_WAIT_SECONDS = 0.3
    settings.HEAVY_SLOTS = 2


@pytest.fixture
def held(owner):
    """The owner's turn taken, as by a heavy page of theirs still being computed."""
    with held_elsewhere(me(owner)):
        yield


def test_a_second_heavy_page_meanwhile_gets_429_and_another_user_is_served(
    owner_client, table, held, priced
):
    group, _first, _second = table
    busy = what_if(owner_client, group)
    assert busy.status_code == 429
    assert busy["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert BUSY in busy.text and "<html" in busy.text
    assert priced.call_count == 0
    other = get_user_model().objects.create_user("khach", password="mat-khau-dai-123")
    theirs = new_group(other, "Nhóm khác")
    sitting = open_sitting(other, group=theirs, day=DAY, stake=1000)
    record(sitting, other, FIRST)
    client = Client()
    client.force_login(other)
    served = what_if(client, theirs)
    assert served.status_code == 200 and "1 ván được tính lại" in served.text


def test_htmx_gets_the_message_alone(owner_client, table, held):
    group, _first, _second = table
    busy = owner_client.get(
        reverse("group_what_if", kwargs={"pk": group.pk}) + "?period=all&rules=preset:dem-la-26"
        "&stake=1000",
        headers={"HX-Request": "true"},
    )
    assert busy.status_code == 429 and BUSY in busy.text
    assert "<html" not in busy.text and 'id="busy"' in busy.text


def test_english_readers_get_the_message_in_english(owner_client, table, held):
    group, _first, _second = table
    owner_client.cookies["django_language"] = "en"
    busy = what_if(owner_client, group)
    assert busy.status_code == 429
    assert "Still working on it, try again in a few seconds." in busy.text


@pytest.mark.parametrize("page", ["group_check", "sitting_check"])
def test_the_check_pages_are_heavy_pages(owner_client, table, page):
    group, first, _second = table
    address = reverse(page, kwargs={"pk": first.pk if page == "sitting_check" else group.pk})
    with held_elsewhere(me(first.owner)):
        assert owner_client.post(address).status_code == 429
        assert owner_client.get(address).status_code == 200  # opening it runs no check
    assert owner_client.post(address).status_code == 200


def test_stats_read_stored_totals_and_take_no_turn(owner, owner_client, table):
    group, _first, _second = table
    address = reverse("group_stats", kwargs={"pk": group.pk})
    with held_elsewhere(me(owner), (SLOT, 0), (SLOT, 1), (DOORWAY, 0)):
        assert owner_client.get(address).status_code == 200


def test_a_what_if_the_cache_holds_takes_no_turn(
    owner, owner_client, table, priced, django_capture_on_commit_callbacks
):
    group, _first, _second = table
    with django_capture_on_commit_callbacks(execute=True):
        assert what_if(owner_client, group).status_code == 200  # priced and kept
    priced.reset_mock()
    with held_elsewhere(me(owner), (SLOT, 0), (SLOT, 1), (DOORWAY, 0)):
        kept = what_if(owner_client, group)
    assert kept.status_code == 200 and "3 ván được tính lại" in kept.text
    assert priced.call_count == 0


def test_the_turn_is_let_go_after_each_page_also_a_refused_one(owner, owner_client, table):
    group, _first, _second = table
    assert what_if(owner_client, group).status_code == 200
    assert free_elsewhere(*me(owner)) and free_elsewhere(SLOT, 0)
    missing = reverse("group_what_if", kwargs={"pk": 999_999})
    assert owner_client.get(missing).status_code == 404
    assert what_if(owner_client, group, "period=all&rules=preset:nope&stake=1").status_code == 400
    check = reverse("group_check", kwargs={"pk": group.pk})
    assert owner_client.post(check).status_code == 200
    assert free_elsewhere(*me(owner)) and free_elsewhere(SLOT, 0) and free_elsewhere(SLOT, 1)


def test_with_every_slot_taken_a_heavy_page_waits_then_gets_429_and_holds_nothing(
    owner, owner_client, table, priced
):
    """Ten people each opening one heavy page still cannot hold every worker."""
    group, _first, _second = table
    with held_elsewhere((SLOT, 0), (SLOT, 1)):
        busy = what_if(owner_client, group)
        assert busy.status_code == 429 and BUSY in busy.text
        assert priced.call_count == 0
        assert free_elsewhere(*me(owner)) and free_elsewhere(DOORWAY, 0)
    assert what_if(owner_client, group).status_code == 200


def test_a_waiting_page_gets_the_slot_let_go_meanwhile(owner_client, table, settings):
    settings.HEAVY_WAIT_SECONDS = 5
    group, _first, _second = table
    with contextlib.ExitStack() as stack:
        stack.enter_context(held_elsewhere((SLOT, 0)))
        slot_one = stack.enter_context(contextlib.ExitStack())
        slot_one.enter_context(held_elsewhere((SLOT, 1)))
        threading.Timer(0.3, slot_one.close).start()
        assert what_if(owner_client, group).status_code == 200


def test_only_one_request_waits_for_a_slot_the_others_get_429(owner_client, table, settings):
    """Waiting holds a worker: with the doorway taken by another waiter, no second one."""
    settings.HEAVY_WAIT_SECONDS = 30
    group, _first, _second = table
    with held_elsewhere((SLOT, 0), (SLOT, 1), (DOORWAY, 0)):
        assert what_if(owner_client, group).status_code == 429
