"""Each sitting's stored totals (``SittingTotal``, ``SittingFlow``): what they should be, and
where they are not.

The group's pages add up these rows, one per player and sitting, instead of every seat and
payment of every game. ``services.refresh_totals`` writes them in the transaction of every
write that changes a sitting's games or settlements, from ``compute`` here; the migration that
brought them in filled them from the same function. ``stored_totals_problems`` compares what is
stored with what the games, payments and settlements say now, a bounded batch of sittings at a
time, so ``verify_ledger`` names a stored total changed behind the site's back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, Sum
from django.utils.translation import gettext as _

from scoring.models import (
    Game,
    Group,
    Payment,
    PaymentQuerySet,
    Player,
    Seat,
    Settlement,
    SettlementQuerySet,
    Sitting,
    SittingFlow,
    SittingTotal,
)

# The columns of a ``SittingTotal`` besides its sitting and player, in this order everywhere.
FIELDS = (
    "net",
    "games",
    "first",
    "cong",
    "thoi_games",
    "thoi",
    "toi_trang",
    "chat_made",
    "chat_made_amount",
    "chat_suffered",
    "chat_suffered_amount",
    "paid",
    "received",
)
_AT = {name: index for index, name in enumerate(FIELDS)}

# Sittings read per query: a group's whole history is checked this many at a time.
BATCH = 200


@dataclass
class Book:
    """The totals of some sittings: (sitting id, player id) -> the ``FIELDS`` values, and
    (sitting id, payer id, payee id) -> amount."""

    totals: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    flows: dict[tuple[int, int, int], int] = field(default_factory=dict)

    def add(self, sitting_id: int, player_id: int, name: str, amount: int | None) -> None:
        row = self.totals.setdefault((sitting_id, player_id), [0] * len(FIELDS))
        row[_AT[name]] += int(amount or 0)


def compute(
    sitting_ids: Sequence[int],
    *,
    seats: Any = Seat,
    payments: Any = Payment,
    settlements: Any = Settlement,
) -> Book:
    """What the stored rows of ``sitting_ids`` should be, from their counted games (active,
    current revision) and standing settlements: three queries, however many games and of
    whatever kind. The model classes can be a migration's (the filters name fields only)."""
    book = Book()
    ids = list(sitting_ids)
    if not ids:
        return book
    active = Game.Status.ACTIVE.value
    # A tới trắng game is won once, however many paid for it: the winner's seat is one the
    # game's payments for it went to.
    won_white = payments.objects.filter(
        game=OuterRef("game"),
        revision=OuterRef("game__revision"),
        reason="toi_trang",
        payee=OuterRef("player"),
    )
    seat_sums = {
        "toi_trang": Count("id", filter=Q(Exists(won_white))),
        "games": Count("id"),
        "net": Sum("net"),
        "first": Count("id", filter=Q(place=1)),
        "cong": Count("id", filter=Q(is_cong=True)),
        "thoi_games": Count("id", filter=Q(thoi__gt=0)),
        "thoi": Sum("thoi"),
    }
    for sitting_id, player_id, *values in (
        seats.objects.filter(game__sitting_id__in=ids, game__status=active)
        .values_list("game__sitting_id", "player_id")
        .annotate(**seat_sums)
        .order_by()
    ):
        for name, value in zip(seat_sums, values, strict=True):
            book.add(sitting_id, player_id, name, value)
    # The models' own filters, applied to whichever model class is given (the migration's
    # historical ones have plain managers).
    counted = PaymentQuerySet.current(
        payments.objects.filter(game__sitting_id__in=ids, game__status=active)
    )
    for sitting_id, payer_id, payee_id, reason, n, amount in (
        counted.values_list("game__sitting_id", "payer_id", "payee_id", "reason")
        .annotate(n=Count("id"), amount=Sum("amount"))
        .order_by()
    ):
        key = (sitting_id, payer_id, payee_id)
        book.flows[key] = book.flows.get(key, 0) + int(amount)
        if reason == "chat":
            book.add(sitting_id, payee_id, "chat_made", n)
            book.add(sitting_id, payee_id, "chat_made_amount", amount)
            book.add(sitting_id, payer_id, "chat_suffered", n)
            book.add(sitting_id, payer_id, "chat_suffered_amount", amount)
    for sitting_id, payer_id, payee_id, amount in (
        SettlementQuerySet.standing(settlements.objects.filter(sitting_id__in=ids))
        .values_list("sitting_id", "payer_id", "payee_id")
        .annotate(total=Sum("amount"))
        .order_by()
    ):
        book.add(sitting_id, payer_id, "paid", amount)
        book.add(sitting_id, payee_id, "received", amount)
    return book


def stored(sitting_ids: Sequence[int]) -> Book:
    """The rows stored for ``sitting_ids``, in the shape ``compute`` answers: two queries."""
    book = Book()
    ids = list(sitting_ids)
    if not ids:
        return book
    for sitting_id, player_id, *values in SittingTotal.objects.filter(
        sitting_id__in=ids
    ).values_list("sitting_id", "player_id", *FIELDS):
        book.totals[sitting_id, player_id] = [int(v) for v in values]
    for sitting_id, payer_id, payee_id, amount in SittingFlow.objects.filter(
        sitting_id__in=ids
    ).values_list("sitting_id", "payer_id", "payee_id", "amount"):
        book.flows[sitting_id, payer_id, payee_id] = int(amount)
    return book


def rows_of(
    book: Book, *, totals: Any = SittingTotal, flows: Any = SittingFlow
) -> tuple[list[Any], list[Any]]:
    """The model rows that store ``book`` (of a migration's models when given)."""
    total_rows = [
        totals(sitting_id=sitting_id, player_id=player_id, **dict(zip(FIELDS, values, strict=True)))
        for (sitting_id, player_id), values in sorted(book.totals.items())
    ]
    flow_rows = [
        flows(sitting_id=sitting_id, payer_id=payer_id, payee_id=payee_id, amount=amount)
        for (sitting_id, payer_id, payee_id), amount in sorted(book.flows.items())
        if amount
    ]
    return total_rows, flow_rows


# --- The check --------------------------------------------------------------------------


def _label(name: str) -> str:
    """A column of ``SittingTotal`` as the check's lines name it."""
    return {
        "net": _("tiền thắng thua"),
        "games": _("số ván"),
        "first": _("số ván về nhất"),
        "cong": _("số ván bị cóng"),
        "thoi_games": _("số ván bị thối"),
        "thoi": _("tiền thối"),
        "toi_trang": _("số ván tới trắng"),
        "chat_made": _("số lần chặt được"),
        "chat_made_amount": _("tiền chặt được"),
        "chat_suffered": _("số lần bị chặt"),
        "chat_suffered_amount": _("tiền bị chặt"),
        "paid": _("tiền đã trả"),
        "received": _("tiền đã nhận"),
    }[name]


def stored_totals_problems(
    *, sitting_ids: Iterable[int] | None = None, group: Group | None = None
) -> list[str]:
    """Where the stored totals of ``sitting_ids`` (or of every sitting of ``group``) differ
    from what their games, payments and settlements add up to now, one readable line each
    (empty: they agree). Reads ``BATCH`` sittings at a time: five queries each, and one for
    the names of what differs."""
    if sitting_ids is None and group is None:
        raise ValueError("stored_totals_problems needs sitting_ids or group")
    if sitting_ids is None:
        assert group is not None
        ids = list(Sitting.objects.filter(group=group).order_by("id").values_list("id", flat=True))
    else:
        ids = sorted(set(sitting_ids))
    found: list[tuple[int, str, tuple[int, ...], int, int]] = []
    for at in range(0, len(ids), BATCH):
        want, have = compute(ids[at : at + BATCH]), stored(ids[at : at + BATCH])
        for key in sorted(set(want.totals) | set(have.totals)):
            should = want.totals.get(key, [0] * len(FIELDS))
            holds = have.totals.get(key, [0] * len(FIELDS))
            for name, w, k in zip(FIELDS, should, holds, strict=True):
                if w != k:
                    found.append((key[0], name, (key[1],), k, w))
        for pair in sorted(set(want.flows) | set(have.flows)):
            owed, kept_flow = want.flows.get(pair, 0), have.flows.get(pair, 0)
            if owed != kept_flow:
                found.append((pair[0], "flow", pair[1:], kept_flow, owed))
    if not found:
        return []
    sitting_names = dict(
        Sitting.objects.filter(pk__in={f[0] for f in found}).values_list("pk", "name")
    )
    player_ids = {pk for f in found for pk in f[2]}
    names = dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "name"))
    out = []
    for sitting_id, name, players, kept, wanted in found:
        where: dict[str, object] = {
            "s": sitting_names.get(sitting_id, sitting_id),
            "kept": kept,
            "want": wanted,
        }
        if name == "flow":
            out.append(
                _(
                    "Bàn “%(s)s”: tiền %(a)s trả %(b)s lưu là %(kept)d, còn các ván cộng lại "
                    "là %(want)d."
                )
                % {**where, "a": names.get(players[0]), "b": names.get(players[1])}
            )
        else:
            out.append(
                _(
                    "Bàn “%(s)s”: tổng “%(f)s” của %(p)s lưu là %(kept)d, còn các ván và các "
                    "khoản trả cộng lại là %(want)d."
                )
                % {**where, "f": _label(name), "p": names.get(players[0])}
            )
    return out
