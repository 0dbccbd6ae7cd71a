"""The last check of a book against its chain, for the pages that must say when it
disagrees (``services.book_check_record`` keeps it)."""

from __future__ import annotations

from django.db.models import Q

from scoring.models import BookCheck, Group, Settlement, Sitting


def group_disagreeing(group: Group) -> BookCheck | None:
    """The first book of the group (its own, or one of its sittings') whose last check found
    a mismatch, the longest standing first; None when every last check agreed."""
    return (
        BookCheck.objects.filter(Q(group_id=group.pk) | Q(sitting__group_id=group.pk), ok=False)
        .select_related("sitting")
        .order_by("checked_at", "id")
        .first()
    )


def witnessed_payments(sitting: Sitting) -> list[list[object]]:
    """The sitting's payments as the live page's witness remembers them: ``[id, payer, payee,
    amount, void]`` each, oldest first (one query). A payment is never deleted; voiding one
    is the only honest change, so a remembered payment whose people or amount differ later
    was changed behind the players' backs (``static/js/witness.js``)."""
    rows = (
        Settlement.objects.filter(sitting_id=sitting.pk)
        .order_by("id")
        .values_list("id", "payer__name", "payee__name", "amount", "is_void")
    )
    return [list(row) for row in rows]
