"""A write that finds nothing to change writes nothing: no history entry, and the sitting's
version stays, so no watching phone renders its board again for it."""

import uuid

import pytest

from scoring import services
from scoring.models import HistoryEntry, Sitting
from tests.factories import first_out, open_sitting, record

pytestmark = pytest.mark.django_db


def _state(sitting: Sitting) -> tuple[int, int]:
    return Sitting.objects.get(pk=sitting.pk).version, HistoryEntry.objects.count()


def test_it_leaves_an_active_game_alone_when_asked_to_restore_it(owner):
    sitting = open_sitting(owner)
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    before = _state(sitting)
    assert services.game_restore(game=game, user=owner).entry is None
    assert _state(sitting) == before


def test_it_leaves_a_void_game_alone_when_asked_to_void_it_again(owner):
    sitting = open_sitting(owner)
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    voided = services.game_void(game=game, user=owner, reason="nhầm")
    assert voided.entry == game.history.first() and voided.game.is_void
    before = _state(sitting)
    assert services.game_void(game=game, user=owner, reason="lần nữa").entry is None
    assert _state(sitting) == before


def test_it_changes_nothing_on_an_undo_with_nothing_to_undo(owner):
    sitting = open_sitting(owner)
    before = _state(sitting)
    assert services.sitting_undo(sitting=sitting, user=owner) is None
    assert _state(sitting) == before


def test_it_changes_nothing_on_an_undo_once_everything_is_undone(owner):
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    assert services.sitting_undo(sitting=sitting, user=owner) is not None
    before = _state(sitting)
    assert services.sitting_undo(sitting=sitting, user=owner) is None
    assert _state(sitting) == before


def test_it_leaves_a_void_settlement_alone_when_asked_to_void_it_again(owner):
    sitting = open_sitting(owner)
    an, binh = (m.player for m in sitting.memberships.select_related("player")[:2])
    settlement = services.settlement_record(
        sitting=sitting, user=owner, payer=an, payee=binh, amount=1000
    )
    assert services.settlement_void(settlement=settlement, user=owner, reason="") is not None
    before = _state(sitting)
    assert services.settlement_void(settlement=settlement, user=owner, reason="") is None
    assert _state(sitting) == before


def test_it_changes_nothing_on_a_retried_game(owner):
    sitting = open_sitting(owner)
    token = uuid.uuid4()
    rec = first_out("An", Bình=1, Chi=2, Dũng=3)
    services.game_record(sitting=sitting, user=owner, record=rec, token=token)
    before = _state(sitting)
    _game, created = services.game_record(sitting=sitting, user=owner, record=rec, token=token)
    assert not created
    assert _state(sitting) == before


def test_it_changes_nothing_on_an_edit_that_keeps_the_record(owner):
    sitting = open_sitting(owner)
    rec = first_out("An", Bình=1, Chi=2, Dũng=3)
    game = record(sitting, owner, rec)
    before = _state(sitting)
    same = services.game_edit(game=game, user=owner, record=rec, expected_revision=1)
    assert same.game.revision == 1 and same.entry is None
    assert _state(sitting) == before


def test_it_changes_nothing_when_the_live_link_is_already_as_asked(owner):
    sitting = open_sitting(owner)
    services.sitting_live_link(sitting=sitting, user=owner, action="revoke")
    assert _state(sitting) == (0, 1)  # only the opening
    token = services.sitting_live_link(sitting=sitting, user=owner, action="enable")
    before = _state(sitting)
    assert services.sitting_live_link(sitting=sitting, user=owner, action="enable") == token
    assert _state(sitting) == before


def test_an_undo_returns_the_entry_it_undid_and_the_one_it_wrote(owner):
    sitting = open_sitting(owner)
    game = record(sitting, owner, first_out("An", Bình=1, Chi=2, Dũng=3))
    version = Sitting.objects.get(pk=sitting.pk).version
    undone = services.sitting_undo(sitting=sitting, user=owner)
    assert undone is not None and undone.action == HistoryEntry.Action.RECORDED
    written = undone.undone_by
    assert written == HistoryEntry.objects.get(undoes=undone)
    assert written.game == game and written.action == HistoryEntry.Action.VOIDED
    assert Sitting.objects.get(pk=sitting.pk).version == version + 1
    redone = services.sitting_redo(sitting=sitting, user=owner, undo_id=written.pk)
    assert redone == sitting.history.first()
    assert redone.note_code == "redo"
    assert redone.action == HistoryEntry.Action.RESTORED


def test_it_changes_nothing_on_an_answer_to_a_withdrawn_invitation(owner, stranger):
    sitting = open_sitting(owner)
    invitation = services.invitation_send(sitting=sitting, user=owner, username="nguoi_la")
    assert services.invitation_withdraw(invitation=invitation, user=owner)
    before = _state(sitting)
    assert not services.invitation_accept(invitation=invitation, user=stranger)
    assert not services.invitation_decline(invitation=invitation, user=stranger)
    assert not services.invitation_withdraw(invitation=invitation, user=owner)
    assert _state(sitting) == before


def test_it_changes_nothing_when_removing_someone_who_does_not_keep_the_sitting(owner, stranger):
    sitting = open_sitting(owner)
    before = _state(sitting)
    assert not services.scorekeeper_remove(sitting=sitting, user=owner, keeper=stranger)
    assert not services.scorekeeper_leave(sitting=sitting, user=stranger)
    assert _state(sitting) == before
