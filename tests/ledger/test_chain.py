"""The book checks itself: the history's hash chain, ``verify_ledger`` and ``verify_session``.

A book written only through the services verifies; a record, a payment, a seat, a
settlement or a history entry changed behind the site's back (a raw SQL ``UPDATE``) makes
the check fail naming the game or the entry, in one line and without a traceback.
"""

from __future__ import annotations

import io
import json
import uuid

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from scoring import engine, services
from scoring.engine import chain
from scoring.ledger import verify
from scoring.models import Game, GroupHistoryEntry, HistoryEntry, Payment, Seat, Settlement
from tests.factories import (
    CHOPPED,
    FIRST,
    SECOND,
    new_group,
    open_sitting,
    player,
    record,
    settle,
)

pytestmark = pytest.mark.django_db


def _sql(statement: str, *params: object) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def _table(model: type) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, out.getvalue(), str(error)
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def evening(owner):
    """A sitting with every kind of write: games recorded, edited, voided and restored, an
    undo and a redo, a live link, settlements made and voided."""
    sitting = open_sitting(owner)
    first = record(sitting, owner, FIRST)
    record(sitting, owner, SECOND)
    third = record(sitting, owner, CHOPPED)
    services.game_edit(game=first, user=owner, record=SECOND, expected_revision=1)
    services.game_void(game=third, user=owner, reason="chia sai")
    services.game_restore(game=third, user=owner)
    undone = services.sitting_undo(sitting=sitting, user=owner)
    assert undone is not None and undone.undone_by is not None
    services.sitting_redo(sitting=sitting, user=owner, undo_id=undone.undone_by.pk)
    services.sitting_live_link(sitting=sitting, user=owner, action="enable")
    settle(sitting, owner, "An", "Bình", 7000)
    wrong = settle(sitting, owner, "Chi", "Dũng", 2000)
    services.settlement_void(settlement=wrong, user=owner, reason="nhầm")
    return sitting


def test_each_entry_links_to_the_one_before(evening):
    rows = chain.entries(HistoryEntry, evening.pk)
    assert len(rows) > 10
    previous = ""
    for entry in rows:
        assert entry.hash == chain.link(previous, chain.canonical(chain.fields(entry)))
        previous = entry.hash
    assert chain.head_of(HistoryEntry, evening.pk) == previous


def test_an_untouched_sitting_verifies_and_prints_its_fingerprint(evening):
    code, out, _err = _run("verify_ledger", "--sitting", str(evening.pk))
    assert code == 0
    fingerprint = out.strip()
    assert fingerprint == verify.fingerprint_of(evening)
    assert len(fingerprint) == 9 and fingerprint[4] == "-"
    assert not set(fingerprint.replace("-", "")) & set("ILOU")


def test_the_fingerprint_moves_with_every_entry(evening, owner):
    before = verify.fingerprint_of(evening)
    record(evening, owner, FIRST)
    assert verify.fingerprint_of(evening) != before
    assert _run("verify_ledger", "--sitting", str(evening.pk))[0] == 0


def test_a_changed_record_is_named_by_its_game(evening):
    game = evening.games.get(number=2)
    changed = {**game.record, "finish": ["An"]}
    _sql(f"UPDATE {_table(Game)} SET record = %s WHERE id = %s", json.dumps(changed), game.pk)
    code, _out, message = _run("verify_ledger", "--sitting", str(evening.pk))
    assert code == 1
    assert "game 2" in message.lower() and "\n" not in message


def test_a_changed_payment_is_named_by_its_game(evening):
    payment = Payment.objects.current().filter(game__sitting=evening, game__number=1).first()
    assert payment is not None
    _sql(f"UPDATE {_table(Payment)} SET amount = amount + 1000 WHERE id = %s", payment.pk)
    code, _out, message = _run("verify_ledger", "--sitting", str(evening.pk), "--lang", "vi")
    assert code == 1
    assert message.startswith("Ván 1:")


def test_a_changed_seat_is_named_by_its_game(evening):
    seat = Seat.objects.filter(game__sitting=evening, game__number=3).first()
    assert seat is not None
    _sql(f"UPDATE {_table(Seat)} SET net = net + 5 WHERE id = %s", seat.pk)
    code, _out, message = _run("verify_ledger", "--sitting", str(evening.pk))
    assert code == 1 and "game 3" in message.lower()


def test_a_game_voided_behind_the_sites_back_is_named(evening):
    game = evening.games.get(number=2)
    _sql(f"UPDATE {_table(Game)} SET status = 'void' WHERE id = %s", game.pk)
    code, _out, message = _run("verify_ledger", "--sitting", str(evening.pk))
    assert code == 1 and "game 2" in message.lower()


def test_a_changed_settlement_is_named(evening):
    first = Settlement.objects.filter(sitting=evening).order_by("id").first()
    assert first is not None
    _sql(f"UPDATE {_table(Settlement)} SET amount = 1000 WHERE id = %s", first.pk)
    code, _out, message = _run("verify_ledger", "--sitting", str(evening.pk))
    assert code == 1 and "settlement no. 1" in message.lower()


def test_a_settlement_unvoided_behind_the_sites_back_is_named(evening):
    voided = Settlement.objects.filter(sitting=evening, is_void=True).get()
    _sql(f"UPDATE {_table(Settlement)} SET is_void = %s WHERE id = %s", False, voided.pk)
    code, _out, message = _run("verify_ledger", "--sitting", str(evening.pk))
    assert code == 1 and "settlement no. 2" in message.lower()


def test_a_changed_history_entry_is_named_by_its_place_in_the_chain(evening):
    entries = chain.entries(HistoryEntry, evening.pk)
    target = next(e for e in entries if e.action == HistoryEntry.Action.RECORDED and e.game)
    position = entries.index(target) + 1
    changed = {**(target.after or {}), "finish": ["Dũng"]}
    _sql(
        f"UPDATE {_table(HistoryEntry)} SET after = %s WHERE id = %s",
        json.dumps(changed),
        target.pk,
    )
    code, _out, message = _run("verify_ledger", "--sitting", str(evening.pk))
    assert code == 1
    assert f"entry #{position} " in message and "game 1" in message.lower()


def test_a_rewritten_chain_still_disagrees_with_the_rows(evening):
    """Someone who rewrites an entry and recomputes every hash after it leaves a chain that
    holds, but a new fingerprint, and rows that no longer follow from it."""
    before = verify.fingerprint_of(evening)
    entry = HistoryEntry.objects.filter(sitting=evening, game__number=2).order_by("id").first()
    assert entry is not None
    _sql(
        f"UPDATE {_table(HistoryEntry)} SET after = %s WHERE id = %s",
        json.dumps({**(entry.after or {}), "finish": ["Dũng"]}),
        entry.pk,
    )
    chain.rechain(HistoryEntry, evening.pk)
    verdict = verify.verify_sitting(evening)
    assert verdict.fingerprint != before
    assert verdict.mismatch is not None and verdict.mismatch.game == 2


def test_a_deleted_history_entry_breaks_the_chain(evening):
    entry = HistoryEntry.objects.filter(sitting=evening, action="live").get()
    _sql(f"DELETE FROM {_table(HistoryEntry)} WHERE id = %s", entry.pk)
    code, _out, message = _run("verify_ledger", "--sitting", str(evening.pk))
    assert code == 1 and "history entry #" in message.lower()


def test_nonsense_in_a_column_is_a_message_not_a_traceback(evening):
    game = evening.games.get(number=1)
    _sql(f"UPDATE {_table(Game)} SET record = %s WHERE id = %s", json.dumps([1, 2]), game.pk)
    code, _out, message = _run("verify_ledger", "--sitting", str(evening.pk))
    assert code == 1 and "game 1" in message.lower()
    _sql(
        f"UPDATE {_table(HistoryEntry)} SET after = %s WHERE sitting_id = %s",
        json.dumps("x"),
        evening.pk,
    )
    assert _run("verify_ledger", "--sitting", str(evening.pk))[0] == 1


def test_bad_ids_are_refused_plainly(owner):
    assert _run("verify_ledger", "--sitting", "999999")[0] != 0
    assert _run("verify_ledger", "--sitting", "abc")[0] != 0
    assert _run("verify_ledger", "--group", "999999")[0] != 0


def test_a_merged_player_leaves_a_book_that_verifies(owner):
    group = new_group(owner, "Thứ Bảy")
    one = open_sitting(owner, group=group, players=["An", "Bình", "Chi", "Dũng"])
    two = open_sitting(owner, group=group, players=["Anh", "Bình", "Chi", "Dũng"], name="Hai")
    record(one, owner, FIRST)
    renamed = engine.rename_players(SECOND, {"An": "Anh"})
    record(two, owner, renamed)
    settle(two, owner, "Anh", "Bình", 1000)
    services.group_player_merge(
        group=group, keep=player(one, "An"), duplicate=player(two, "Anh"), user=owner
    )
    assert two.games.get().record["players"][0] == "An"
    code, out, err = _run("verify_ledger", "--group", str(group.pk))
    assert code == 0, err
    assert out.strip() == verify.fingerprint_of(group)


def test_a_group_settlement_changed_behind_the_sites_back_is_named(owner):
    group = new_group(owner, "Chủ nhật")
    sitting = open_sitting(owner, group=group)
    record(sitting, owner, FIRST)
    payer, payee = player(sitting, "An"), player(sitting, "Bình")
    services.group_settlement_record(
        group=group, user=owner, payer=payer, payee=payee, amount=3000, date=sitting.date,
        token=uuid.uuid4(),
    )  # fmt: skip
    assert _run("verify_ledger", "--group", str(group.pk))[0] == 0
    assert GroupHistoryEntry.objects.filter(group=group).exclude(hash="").exists()
    settlement = Settlement.objects.get(group=group)
    _sql(f"UPDATE {_table(Settlement)} SET amount = 30000 WHERE id = %s", settlement.pk)
    code, _out, message = _run("verify_ledger", "--group", str(group.pk))
    assert code == 1 and "settlement" in message.lower()


def test_a_tampered_sitting_fails_its_groups_check_naming_the_sitting(evening):
    game = evening.games.get(number=1)
    _sql(f"UPDATE {_table(Game)} SET revision = 7 WHERE id = %s", game.pk)
    code, _out, message = _run("verify_ledger", "--group", str(evening.group_id))
    assert code == 1 and evening.name in message and "game 1" in message.lower()


def test_every_book_at_once_for_cron(evening, owner):
    other = open_sitting(owner, name="Khác")
    record(other, owner, FIRST)
    assert _run("verify_ledger", "--all") == (0, "", "")  # cron mails nothing
    code, out, _err = _run("verify_ledger", "--all", "-v", "2")
    assert code == 0 and f"sitting {other.pk}: " in out and f"group {other.group_id}: " in out
    game = other.games.get()
    _sql(f"UPDATE {_table(Game)} SET revision = 3 WHERE id = %s", game.pk)
    err = io.StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("verify_ledger", "--all", stdout=io.StringIO(), stderr=err)
    assert raised.value.returncode == 1 and "1 book(s)" in str(raised.value)
    assert err.getvalue() == f"sitting {other.pk}: Game 1: its revision differs from the history.\n"


def test_the_chain_names_people_and_numbers_not_row_ids(evening, owner):
    rows = chain.entries(HistoryEntry, evening.pk)
    fields = [chain.fields(e) for e in rows]
    assert {f["user"] for f in fields} == {owner.get_username()}
    assert [f["settlement"] for f in fields if f["action"] == "settled"] == [1, 2]
    undoing = next(e for e in rows if e.undoes_id is not None)
    assert chain.fields(undoing)["undoes"] == [e.pk for e in rows].index(undoing.undoes_id) + 1
    # Counted one entry at a time (as a save does) or for the whole book: the same numbers.
    single = HistoryEntry.objects.get(pk=undoing.pk)
    assert chain.fields(single) == chain.fields(undoing)


def test_deleting_an_account_changes_no_hash(evening, owner, django_user_model):
    keeper = django_user_model.objects.create_user("ban_ghi", password="x")
    services.sitting_share(sitting=evening, user=owner, invitee=keeper)
    record(evening, keeper, FIRST)
    before = verify.fingerprint_of(evening)
    keeper.delete()
    assert HistoryEntry.objects.filter(sitting=evening, user=None, username="ban_ghi").exists()
    verdict = verify.verify_sitting(evening)
    assert verdict.ok and verdict.fingerprint == before
