"""Keeping the last check of a book: ``verify_ledger`` and the "Kiểm tra sổ" pages run the
check (``scoring.ledger.verify``) and hand its verdict here, so a book that disagrees with its
chain says so on the pages people look at (the sitting's, its live link, the group's) until a
check passes again."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils import timezone, translation

from scoring.ledger import verify
from scoring.models import BookCheck, Group, Routine, Sitting
from scoring.services.common import bump, bump_group

LANGS = ("vi", "en")
# What this keeps of a book's ``BookCheck``: the last verdict, not the checkpoint.
VERDICT_FIELDS = ("ok", "message_vi", "message_en", "game", "checked_at")


@transaction.atomic(durable=True)
def book_check_record(
    *,
    book: Sitting | Group,
    verdict: verify.Verdict,
    lang: str,
    again: Callable[[], verify.Verdict] | None = None,
) -> BookCheck:
    """Keep ``verdict`` (reached with messages in ``lang``) as ``book``'s last check. On a
    mismatch the message is kept in both languages: ``again`` runs the same check once more,
    in the other one. A change from agreeing to disagreeing (or back, or to another mismatch)
    moves the book's version on, so its open pages and live link show it on their next
    poll; a check that finds what the last one found writes only its time."""
    key = {"sitting": book} if isinstance(book, Sitting) else {"group": book}
    check = BookCheck.objects.select_for_update().filter(**key).first()
    messages = {"vi": "", "en": ""}
    game = None
    if verdict.mismatch is not None:
        mine = "en" if lang.startswith("en") else "vi"
        messages[mine] = verdict.mismatch.message[:500]
        game = verdict.mismatch.game
        other = "vi" if mine == "en" else "en"
        if again is not None:
            with translation.override(other):
                second = again()
            if second.mismatch is not None:
                messages[other] = second.mismatch.message[:500]
    quiet = check is None and verdict.ok  # nothing was ever shown: nothing to take down
    changed = check is None or (check.ok, check.message_vi, check.message_en) != (
        verdict.ok,
        messages["vi"],
        messages["en"],
    )
    adding = check is None
    if check is None:
        check = BookCheck(**key)
    check.ok = verdict.ok
    check.message_vi, check.message_en = messages["vi"], messages["en"]
    check.game = game
    check.checked_at = timezone.now()
    # The verdict only: the checkpoint on the same row is the check's own (``verify``).
    check.save(update_fields=None if adding else VERDICT_FIELDS)
    if changed and not quiet:
        if isinstance(book, Sitting):
            bump([book])
        else:
            bump_group(Group.objects.select_for_update().get(pk=book.pk))
    return check


@transaction.atomic(durable=True)
def routine_record(*, name: str, detail: str = "", problems: int = 0) -> Routine:
    """Note that the routine ``name`` (``Routine.Name``) finished now (``/healthz``)."""
    routine, _created = Routine.objects.update_or_create(
        name=name,
        defaults={"finished_at": timezone.now(), "detail": detail[:500], "problems": problems},
    )
    return routine
