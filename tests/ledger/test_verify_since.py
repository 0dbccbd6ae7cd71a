"""``verify_ledger --since`` and the streaming check of a group.

A check that finds a book agreeing leaves a checkpoint (on its ``BookCheck``); ``--since`` goes on
from it: what changed behind the site's back before it is found only by a whole check, what
came after it is checked. A group is read as a few streams in batches: the same verdicts,
the same handful of queries whatever its number of sittings.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import engine, services
from scoring.ledger import verify
from scoring.models import BookCheck, Game, HistoryEntry, Payment, Seat, Settlement
from tests.factories import CHOPPED, FIRST, SECOND, new_group, open_sitting, player, record, settle

pytestmark = pytest.mark.django_db


def _sql(statement: str, *params: object) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def _table(model: type) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("verify_ledger", *args, stdout=out, stderr=io.StringIO())
    except CommandError as error:
        return error.returncode, str(error)
    return 0, out.getvalue().strip()


@pytest.fixture
def sitting(owner):
    sitting = open_sitting(owner)
    record(sitting, owner, FIRST)
    record(sitting, owner, SECOND)
    settle(sitting, owner, "An", "Bình", 3000)
    return sitting


def test_a_check_that_agrees_leaves_a_checkpoint_at_the_head(sitting):
    assert _run("--sitting", str(sitting.pk))[0] == 0
    mark = BookCheck.objects.get(sitting=sitting)
    head = HistoryEntry.objects.filter(sitting=sitting).order_by("-id").first()
    assert (mark.checkpoint_entry, mark.checkpoint_hash) == (head.pk, head.hash)
    assert mark.ok and mark.checkpoint_at is not None


def test_a_tamper_before_the_checkpoint_is_found_by_a_whole_check_only(sitting):
    assert _run("--sitting", str(sitting.pk)) == (0, verify.fingerprint_of(sitting))
    game = sitting.games.get(number=1)
    _sql(f"UPDATE {_table(Game)} SET revision = 5 WHERE id = %s", game.pk)
    assert _run("--sitting", str(sitting.pk), "--since") == (0, verify.fingerprint_of(sitting))
    code, message = _run("--sitting", str(sitting.pk))
    assert code == 1 and "game 1" in message.lower()


def test_a_book_that_disagrees_leaves_no_checkpoint(sitting):
    game = sitting.games.get(number=2)
    _sql(f"UPDATE {_table(Game)} SET revision = 5 WHERE id = %s", game.pk)
    assert _run("--sitting", str(sitting.pk))[0] == 1
    check = BookCheck.objects.get(sitting=sitting)
    assert not check.ok and check.checkpoint_entry is None
    # Without a checkpoint, --since checks the whole book.
    assert _run("--sitting", str(sitting.pk), "--since")[0] == 1


def test_a_mismatch_after_a_checkpoint_is_shown_and_leaves_the_checkpoint(sitting, owner):
    assert _run("--sitting", str(sitting.pk))[0] == 0
    agreed = BookCheck.objects.get(sitting=sitting)
    record(sitting, owner, CHOPPED)
    seat = Seat.objects.filter(game__sitting=sitting, game__number=3).first()
    _sql(f"UPDATE {_table(Seat)} SET net = net + 5 WHERE id = %s", seat.pk)
    assert _run("--sitting", str(sitting.pk), "--since")[0] == 1
    shown = BookCheck.objects.get(sitting=sitting)
    assert shown.pk == agreed.pk and not shown.ok and shown.game == 3
    checkpoint = ("checkpoint_entry", "checkpoint_hash", "checkpoint_at")
    assert [getattr(shown, f) for f in checkpoint] == [getattr(agreed, f) for f in checkpoint]
    # The next check since goes on from the same checkpoint, and finds it again.
    code, message = _run("--sitting", str(sitting.pk), "--since")
    assert code == 1 and "game 3" in message.lower()


def test_a_game_after_the_checkpoint_is_checked(sitting, owner):
    assert _run("--sitting", str(sitting.pk))[0] == 0
    record(sitting, owner, CHOPPED)
    assert _run("--sitting", str(sitting.pk), "--since") == (0, verify.fingerprint_of(sitting))
    payment = Payment.objects.current().filter(game__sitting=sitting, game__number=3).first()
    _sql(f"UPDATE {_table(Payment)} SET amount = amount + 1000 WHERE id = %s", payment.pk)
    # The clean check above moved the checkpoint past game 3's entry: nothing is new.
    assert _run("--sitting", str(sitting.pk), "--since")[0] == 0
    record(sitting, owner, FIRST)
    seat = Seat.objects.filter(game__sitting=sitting, game__number=4).first()
    _sql(f"UPDATE {_table(Seat)} SET net = net + 5 WHERE id = %s", seat.pk)
    code, message = _run("--sitting", str(sitting.pk), "--since")
    assert code == 1 and "game 4" in message.lower()
    assert "game 3" in _run("--sitting", str(sitting.pk))[1].lower()


def test_an_entry_after_the_checkpoint_changed_in_place_breaks_the_chain(sitting, owner):
    assert _run("--sitting", str(sitting.pk))[0] == 0
    record(sitting, owner, CHOPPED)
    entries = HistoryEntry.objects.filter(sitting=sitting).order_by("id")
    newest = entries.last()
    _sql(f"UPDATE {_table(HistoryEntry)} SET note = 'x' WHERE id = %s", newest.pk)
    code, message = _run("--sitting", str(sitting.pk), "--since")
    # Named by its place in the whole chain, not among the entries since.
    assert code == 1 and f"#{entries.count()} " in message and "game 3" in message.lower()


def test_a_void_and_an_edit_after_the_checkpoint_replay_the_earlier_record(sitting, owner):
    assert _run("--sitting", str(sitting.pk))[0] == 0
    first, second = sitting.games.get(number=1), sitting.games.get(number=2)
    services.game_void(game=first, user=owner, reason="chia sai")
    services.game_edit(game=second, user=owner, record=CHOPPED, expected_revision=1)
    assert _run("--sitting", str(sitting.pk), "--since")[0] == 0
    services.game_restore(game=first, user=owner)
    _sql(f"UPDATE {_table(Game)} SET status = 'void' WHERE id = %s", first.pk)
    code, message = _run("--sitting", str(sitting.pk), "--since")
    assert code == 1 and "game 1" in message.lower()


def test_a_settlement_after_the_checkpoint_is_checked_and_named_by_its_place(sitting, owner):
    assert _run("--sitting", str(sitting.pk))[0] == 0
    settle(sitting, owner, "Chi", "Dũng", 2000)
    second = Settlement.objects.filter(sitting=sitting).order_by("id").last()
    _sql(f"UPDATE {_table(Settlement)} SET amount = 9000 WHERE id = %s", second.pk)
    code, message = _run("--sitting", str(sitting.pk), "--since", "--lang", "vi")
    assert code == 1 and message.startswith("Khoản thanh toán thứ 2 ")


def test_a_checkpoint_whose_entry_changed_is_not_trusted(sitting, owner):
    assert _run("--sitting", str(sitting.pk))[0] == 0
    mark = BookCheck.objects.get(sitting=sitting)
    # The checkpoint's entry rewritten with a hash of its own: the whole book is checked.
    _sql(
        f"UPDATE {_table(HistoryEntry)} SET hash = %s WHERE id = %s",
        "0" * 64,
        mark.checkpoint_entry,
    )
    record(sitting, owner, CHOPPED)
    code, message = _run("--sitting", str(sitting.pk), "--since")
    assert code == 1 and "#" in message


def test_a_merge_after_the_checkpoint_checks_the_sitting_whole(owner):
    group = new_group(owner, "Thứ Bảy")
    one = open_sitting(owner, group=group, players=["An", "Bình", "Chi", "Dũng"])
    two = open_sitting(owner, group=group, players=["Anh", "Bình", "Chi", "Dũng"], name="Hai")
    record(one, owner, FIRST)
    record(two, owner, engine.rename_players(SECOND, {"An": "Anh"}))
    assert _run("--group", str(group.pk))[0] == 0
    services.group_player_merge(
        group=group, keep=player(one, "An"), duplicate=player(two, "Anh"), user=owner
    )
    assert _run("--group", str(group.pk), "--since") == (0, verify.fingerprint_of(group))
    record(two, owner, FIRST)
    game = two.games.get(number=2)
    _sql(f"UPDATE {_table(Game)} SET revision = 4 WHERE id = %s", game.pk)
    code, message = _run("--group", str(group.pk), "--since")
    assert code == 1 and "Hai" in message and "game 2" in message.lower()


def _group_of(owner, sittings: int, games: int = 3):
    group = new_group(owner, f"Nhóm {sittings}")
    made = []
    for index in range(sittings):
        sitting = open_sitting(owner, group=group, name=f"Tối {index + 1}")
        sitting.date = sitting.date.replace(day=1 + index)
        sitting.save(update_fields=["date"])
        for number in range(games):
            record(sitting, owner, (FIRST, SECOND, CHOPPED)[(index + number) % 3])
        made.append(sitting)
    return group, made


def test_a_group_read_in_small_batches_gives_the_same_verdicts(owner, monkeypatch):
    group, sittings = _group_of(owner, 4)
    settle(sittings[2], owner, "An", "Bình", 1000)
    monkeypatch.setattr(verify, "BATCH", 2)
    whole = verify.verify_group(group)
    assert whole.ok and whole.games == 12 and whole.sittings == 4
    # Two sittings tampered: the earlier by date is named, whatever their ids' order.
    sittings[1].date = sittings[3].date.replace(day=20)
    sittings[1].save(update_fields=["date"])
    for sitting in (sittings[1], sittings[2]):
        game = sitting.games.get(number=2)
        _sql(f"UPDATE {_table(Game)} SET revision = 9 WHERE id = %s", game.pk)
    verdict = verify.verify_group(group)
    assert not verdict.ok and verdict.mismatch.message.startswith(f"Bàn {sittings[2].name} ")
    # Each sitting alone says the same as the group about it.
    for sitting in sittings:
        alone = verify.verify_sitting(sitting)
        assert alone.ok == (sitting not in (sittings[1], sittings[2]))
        if alone.ok:
            assert alone.fingerprint == verify.fingerprint_of(sitting)


def test_a_sitting_without_games_among_others_is_read_right(owner, monkeypatch):
    group = new_group(owner, "Thưa")
    first = open_sitting(owner, group=group, name="Một")
    record(first, owner, FIRST)
    empty = open_sitting(owner, group=group, name="Trống")
    settle(empty, owner, "Chi", "An", 500)
    last = open_sitting(owner, group=group, name="Ba")
    record(last, owner, SECOND)
    record(last, owner, CHOPPED)
    monkeypatch.setattr(verify, "BATCH", 1)
    assert verify.verify_group(group).ok
    game = last.games.get(number=2)
    _sql(f"UPDATE {_table(Game)} SET revision = 9 WHERE id = %s", game.pk)
    verdict = verify.verify_group(group)
    assert not verdict.ok and "Ba" in verdict.mismatch.message
    assert verify.verify_sitting(empty).ok and verify.verify_sitting(first).ok


def test_a_groups_check_needs_the_same_queries_for_two_sittings_as_for_six(owner):
    counts = []
    for size in (2, 6):
        group, _sittings = _group_of(owner, size, games=2)
        BookCheck.objects.all().delete()
        with CaptureQueriesContext(connection) as queries:
            assert verify.verify_group(group).ok
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


def test_since_a_group_reads_only_the_sittings_with_something_new(owner):
    group, sittings = _group_of(owner, 4)
    assert verify.verify_group(group).ok
    quiet = verify.verify_group(group, since=True)
    assert quiet.ok and quiet.sittings == 0 and quiet.games == 0 and quiet.since is not None
    record(sittings[1], owner, FIRST)
    busy = verify.verify_group(group, since=True)
    assert busy.ok and busy.sittings == 1 and busy.games == 1


def test_the_group_check_page_checks_since_and_whole_on_request(owner_client, owner):
    group, sittings = _group_of(owner, 2)
    url = reverse("group_check", args=[group.pk])
    assert "Sổ khớp với lịch sử." in owner_client.post(url).content.decode()
    game = sittings[0].games.get(number=1)
    _sql(f"UPDATE {_table(Game)} SET revision = 9 WHERE id = %s", game.pk)
    body = owner_client.post(url).content.decode()
    assert "Sổ khớp với lịch sử." in body and "Chỉ kiểm tra những gì ghi thêm" in body
    assert 'name="full" value="1"' in body
    whole = owner_client.post(url, {"full": "1"}).content.decode()
    assert "Sổ KHÔNG khớp với lịch sử." in whole and sittings[0].name in whole
    # Something new in the other sitting is checked by the page as it is.
    record(sittings[1], owner, FIRST)
    seat = Seat.objects.filter(game__sitting=sittings[1], game__number=4).first()
    _sql(f"UPDATE {_table(Seat)} SET net = net + 5 WHERE id = %s", seat.pk)
    body = owner_client.post(url).content.decode()
    assert "Sổ KHÔNG khớp với lịch sử." in body and sittings[1].name in body


def _interleaved(owner):
    """Two sittings of a group written in turn: in the second, a settlement's id and an
    entry's id are not its number or place in the sitting's book."""
    group = new_group(owner, "Xen kẽ")
    one = open_sitting(owner, group=group, name="Một")
    two = open_sitting(owner, group=group, name="Hai")
    for game in (FIRST, SECOND):
        record(one, owner, game)
        record(two, owner, game)
    settle(one, owner, "An", "Bình", 1000)
    settle(two, owner, "Chi", "Dũng", 2000)
    return group, one, two


def test_a_streamed_check_numbers_settlements_and_undone_entries_as_the_chain(owner):
    group, _one, two = _interleaved(owner)
    assert services.sitting_undo(sitting=two, user=owner) is not None
    paid = Settlement.objects.get(sitting=two)
    assert paid.pk != 1  # its number in the sitting's book is 1
    undo = HistoryEntry.objects.filter(sitting=two).exclude(undoes=None).get()
    places = list(
        HistoryEntry.objects.filter(sitting=two).order_by("id").values_list("id", flat=True)
    )
    assert undo.undoes_id != places.index(undo.undoes_id) + 1
    assert verify.verify_group(group).ok and verify.verify_sitting(two).ok
    # The undone entry named by another place: the chain breaks at the undo.
    other = HistoryEntry.objects.filter(sitting=two).order_by("id").first()
    _sql(f"UPDATE {_table(HistoryEntry)} SET undoes_id = %s WHERE id = %s", other.pk, undo.pk)
    code, message = _run("--sitting", str(two.pk))
    assert code == 1 and f"#{places.index(undo.pk) + 1} " in message


def test_since_a_checkpoint_an_undo_and_a_void_of_earlier_entries_chain_as_whole(owner):
    group, one, two = _interleaved(owner)
    assert verify.verify_group(group).ok
    # After the checkpoint: an undo of a game recorded before it, a void of a settlement
    # made before it, a new settlement; each named by number in the chain.
    assert services.sitting_undo(sitting=two, user=owner) is not None
    services.settlement_void(
        settlement=Settlement.objects.get(sitting=two), user=owner, reason="nhầm"
    )
    settle(one, owner, "Chi", "An", 500)
    settle(two, owner, "An", "Chi", 700)
    since = verify.verify_group(group, since=True)
    assert since.ok and since.sittings == 2 and since.fingerprint == verify.fingerprint_of(group)
    head = HistoryEntry.objects.filter(sitting=two).order_by("-id").first()
    assert BookCheck.objects.get(sitting=two).checkpoint_entry == head.pk
    assert verify.verify_group(group).ok
    # The later settlement's entry pointing at the earlier settlement breaks the chain since.
    assert services.sitting_undo(sitting=two, user=owner) is not None
    settle(two, owner, "Dũng", "Bình", 300)
    newest = HistoryEntry.objects.filter(sitting=two).order_by("-id").first()
    first = Settlement.objects.filter(sitting=two).order_by("id").first()
    _sql(f"UPDATE {_table(HistoryEntry)} SET settlement_id = %s WHERE id = %s", first.pk, newest.pk)
    code, message = _run("--sitting", str(two.pk), "--since")
    count = HistoryEntry.objects.filter(sitting=two).count()
    assert code == 1 and f"#{count} " in message


def test_since_a_settlement_moved_out_of_its_sitting_breaks_the_chain_as_a_whole_check(owner):
    group, one, two = _interleaved(owner)
    assert verify.verify_group(group).ok
    settle(two, owner, "An", "Chi", 700)
    second = Settlement.objects.filter(sitting=two).order_by("id").last()
    _sql(f"UPDATE {_table(Settlement)} SET sitting_id = %s WHERE id = %s", one.pk, second.pk)
    # Its entry names a settlement the sitting's book no longer numbers.
    count = HistoryEntry.objects.filter(sitting=two).count()
    since = _run("--sitting", str(two.pk), "--since")
    assert since[0] == 1 and f"#{count} " in since[1]
    assert _run("--sitting", str(two.pk)) == since
