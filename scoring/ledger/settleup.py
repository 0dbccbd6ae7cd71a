"""Settling up: one page model (``SettlePage``) for a table's settle-up and a group's, the
plan a page asks for (``PlanAsked``, parsed from its query or form), the rows it shows (a
payment tapped on a row stays in it), and what a write says.

In a group, a table's "Thanh toán" settles the group's open period (the carried balances
and every table of the period included) beside the table's own results: whatever it
suggests, paid in full, leaves nothing to pay in the group. A table of its owner's default
group (no group chosen) settles as itself. ``settles_with_group`` is that rule.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.ledger.balances import BANKER, BalanceRow, Ledger, Suggestion
from scoring.ledger.periods import close_label
from scoring.ledger.share import group_text, sitting_text, table_in_group_text
from scoring.ledger.standing import (
    GroupLedger,
    close_covering,
    closed_ids,
    ledger_version,
    plan_choice,
    plan_offered,
)
from scoring.models import Group, PeriodClose, Player, Settlement, Sitting
from scoring.text import vietqr
from scoring.text.money import vnd as format_vnd


def recent_settlements(group: Group, *, limit: int) -> list[Settlement]:
    """The group-wide settlements, voided ones included, newest first, at most ``limit``."""
    return list(
        group.settlements.select_related("payer", "payee", "created_by").order_by(
            "-created_at", "-id"
        )[:limit]
    )


def has_bank(player: Player) -> bool:
    """Whether a VietQR code can be made for paying ``player`` (a known bank and an account)."""
    return bool(player.bank_account) and vietqr.bank_by_bin(player.bank_bin or "") is not None


def settles_with_group(sitting: Sitting) -> bool:
    """Whether a table's settle-up is its group's open period: a table of a group chosen
    (not its owner's default one) that no close has frozen."""
    group = sitting.group
    return not group.is_default and close_covering(sitting) is None


# --- What a page asks for ----------------------------------------------------------------

# The rows a page keeps in place of the suggestions they paid (one evening's worth).
MAX_DONE_ROWS = 30


@dataclass(frozen=True)
class PlanAsked:
    """A settle-up request, parsed: the plan's method and banker, the payments tapped on this
    page before ("row:id" values the page posts as ``done``), the row a suggestion's tap came
    from, and whether the write came from a row of the plan (answered in that row)."""

    method: str = ""
    banker_id: int | None = None
    done: tuple[tuple[int, int], ...] = ()  # (row, settlement id)
    row: int | None = None
    in_place: bool = False


def plan_query(method: str, banker: Player | None) -> dict[str, str]:
    """The query that asks a settle-up page for a plan (``forms.pages.plan_asked`` reads it
    back)."""
    params = {"method": method}
    if method == BANKER and banker is not None:
        params["banker"] = str(banker.pk)
    return params


def retry_data(params: Any, version: str) -> Any:
    """After a version conflict: a typed payment stays in the form (its data with the new
    ``version``), ready to be confirmed against the new balances; a suggestion's button
    (None) is answered by the recomputed suggestions."""
    if params.get("kind") == "suggestion":
        return None
    fresh = params.copy()
    fresh["version"] = version
    return fresh


def settled_notice(settlement: Settlement, *, voided: bool = False) -> str:
    """What the page says after a payment is recorded (or ``voided``)."""
    if voided:
        text = _("Đã huỷ khoản %(payer)s trả %(payee)s %(amount)s.")
    else:
        text = _("Đã ghi: %(payer)s trả %(payee)s %(amount)s.")
    return text % {
        "payer": settlement.payer.name,
        "payee": settlement.payee.name,
        "amount": format_vnd(settlement.amount),
    }


# --- The page model ----------------------------------------------------------------------


@dataclass(frozen=True)
class PlanRow:
    """One row of the plan: a suggestion with its pay button (and the token its tap is sent
    with), or the payment a tap on that row recorded (``done``, undone at ``undo_url``)."""

    suggestion: Suggestion | None = None
    token: uuid.UUID | None = None
    done: Settlement | None = None
    undo_url: str = ""


@dataclass(frozen=True)
class ListedPayment:
    """A payment in the page's list: ``void_url`` where it is voided, "" when it cannot be
    (void already, frozen, or inside a closed period: ``closed``)."""

    settlement: Settlement
    void_url: str
    closed: bool = False


@dataclass(frozen=True)
class CloseOffer:
    """ "Chốt sổ đến hết tối nay" on the settle-up: the close of the group's period through
    ``sitting_id`` (``label`` names it), posted to ``url``; ``owed``: suggestions are still
    unpaid, and the close carries them into the new period."""

    url: str
    sitting_id: int
    label: str
    owed: bool


@dataclass(frozen=True)
class SettlePage:
    """Everything a settle-up shows (``scoring/_settle.html`` reads ``page``; its ``#settle``
    part is the answer to a payment): a table's own (``group`` None), or a group's open
    period (``group`` set), asked from the group's page or from a table (``sitting`` set:
    its own results are ``table_rows``, shown beside). The balances, the plan asked for with
    the payments tapped on it kept in their rows, the payments recorded, the stamp a payment
    is checked against, the text "Chia sẻ" shares and the close it offers. ``notice``: what
    a write just did (``announce``), shown above the plan unless it was tapped on a row."""

    group: Group | None
    sitting: Sitting | None
    rows: list[BalanceRow]
    table_rows: list[BalanceRow]
    show_opening: bool
    carried_through: date | None  # the close the opening balances were carried from
    players: list[Player]
    method: str
    banker: Player | None
    suggestions: list[Suggestion]
    too_many: bool
    plan_rows: list[PlanRow]
    done_values: list[str]
    free_token: uuid.UUID
    settlements: list[ListedPayment]
    paid: list[Settlement]  # standing, oldest first: what the share text names as paid
    no_bank_ids: set[int]
    no_bank_names: list[str]
    version: str
    bank_link: bool
    share_text: str
    settle_url: str
    new_url: str
    plan: dict[str, str]  # the query that asks for this plan again (``plan_query``)
    frozen: PeriodClose | None
    close: CloseOffer | None
    announce: str = ""
    notice: str = ""
    qr_scope: Any = field(default=None)  # what a transfer's reference is of (``payref``)


RECENT_SHOWN = 50  # the payments the page lists
# The payments of the period "Chia sẻ" names (the latest recorded): after years without a
# close the period holds hundreds, and a chat message names an evening's, not all of them.
PAID_SHARED = 12


def _live_url(base_url: str, name: str, token: str | None) -> str | None:
    return base_url.rstrip("/") + reverse(name, args=[token]) if token else None


def _plan_rows(
    suggestions: Sequence[Suggestion],
    asked: PlanAsked,
    settlements: Iterable[Settlement],
    recorded: Settlement | None,
    undo_url: Any,
) -> tuple[list[PlanRow], list[str]]:
    """The plan as the page shows it: the suggestions, with each payment tapped on this page
    back at the row it was tapped on (``asked.done``, plus the one just ``recorded``). The
    plan is stable (``scoring.engine.settle``: paying one suggestion in full leaves the others
    in order), so nothing moves under a finger resting on the spot it tapped. A payment voided
    since is left out, and its suggestion is back in the plan."""
    found = {s.pk: s for s in settlements if not s.is_void}
    done = [(row, found[pk]) for row, pk in asked.done if pk in found]
    if recorded is not None and asked.row is not None and not recorded.is_void:
        done = [d for d in done if d[1].pk != recorded.pk] + [(asked.row, recorded)]
    rows = [PlanRow(suggestion=s, token=uuid.uuid4()) for s in suggestions]
    for row, settlement in sorted(done, key=lambda d: (d[0], d[1].pk)):
        rows.insert(
            min(row - 1, len(rows)), PlanRow(done=settlement, undo_url=undo_url(settlement))
        )
    values = [f"{n}:{r.done.pk}" for n, r in enumerate(rows, 1) if r.done is not None]
    return rows, values


def _announced(
    asked: PlanAsked, recorded: Settlement | None, voided: Settlement | None
) -> tuple[str, str]:
    written = recorded or voided
    announce = settled_notice(written, voided=voided is not None) if written else ""
    # A tap on a row of the plan is answered in that row ("✓ Đã ghi …", or the suggestion back
    # after "Hoàn tác"): a notice above it would push the row from under the finger.
    return announce, "" if asked.in_place else announce


def _tapped_ids(asked: PlanAsked) -> list[int]:
    return [pk for _row, pk in asked.done]


def sitting_settle_page(
    sitting: Sitting,
    asked: PlanAsked,
    *,
    user_id: int,
    base_url: str,
    recorded: Settlement | None = None,
    voided: Settlement | None = None,
) -> SettlePage:
    """A table's settle-up as ``asked``: its group's open period beside the table's own
    results (``settles_with_group``), else the table's own; after a payment is ``recorded``
    or ``voided``, with what to say. ``base_url``: the site's address, for the live link
    the share text names."""
    if settles_with_group(sitting):
        return group_settle_page(
            sitting.group, asked, user_id=user_id, base_url=base_url, sitting=sitting,
            recorded=recorded, voided=voided,
        )  # fmt: skip
    ledger = Ledger.load(sitting)
    method, banker = plan_choice(asked.method, asked.banker_id, ledger)
    suggestions = ledger.plan(method, banker)
    tapped = sitting.settlements.filter(pk__in=_tapped_ids(asked)).select_related("payer", "payee")

    def undo(s: Settlement) -> str:
        return reverse("settlement_void", args=[sitting.pk, s.pk])

    plan_rows, done_values = _plan_rows(suggestions, asked, tapped, recorded, undo)
    frozen = close_covering(sitting)
    recent = sitting.settlements.select_related("payer", "payee", "created_by")
    listed = [
        ListedPayment(s, "" if s.is_void or frozen else undo(s))
        for s in recent.order_by("-created_at", "-id")[:RECENT_SHOWN]
    ]
    paid = list(
        sitting.settlements.standing().select_related("payer", "payee").order_by("created_at", "id")
    )
    rows = ledger.rows()
    announce, notice = _announced(asked, recorded, voided)
    live = _live_url(base_url, "live", sitting.live_token)
    return SettlePage(
        group=None,
        sitting=sitting,
        rows=rows,
        table_rows=[],
        show_opening=False,
        carried_through=None,
        players=ledger.players,
        method=method,
        banker=banker,
        suggestions=suggestions,
        too_many=False,
        plan_rows=plan_rows,
        done_values=done_values,
        free_token=uuid.uuid4(),
        settlements=listed,
        paid=paid,
        no_bank_ids=set(),
        no_bank_names=[],
        version=str(sitting.version),
        bank_link=False,
        share_text=sitting_text(sitting, rows, suggestions, live, paid),
        settle_url=reverse("sitting_settle", args=[sitting.pk]),
        new_url=reverse("settlement_new", args=[sitting.pk]),
        plan=plan_query(method, banker),
        frozen=frozen,
        close=None,
        announce=announce,
        notice=notice,
        qr_scope=sitting,
    )


def _close_offer(group: Group, close: PeriodClose | None, owed: bool) -> CloseOffer | None:
    """Offer to close through the group's latest table, unless ``close`` (the last close, as
    the ledger loaded it) already covers that table."""
    closable = group.sittings.order_by("-date", "-id").first()
    if closable is None or (close is not None and close.covers_sitting(closable.date, closable.pk)):
        return None
    label = close_label(closable.date, closable, timezone.localdate())
    return CloseOffer(reverse("group_close", args=[group.pk]), closable.pk, label, owed)


def group_settle_page(
    group: Group,
    asked: PlanAsked,
    *,
    user_id: int,
    base_url: str,
    sitting: Sitting | None = None,
    recorded: Settlement | None = None,
    voided: Settlement | None = None,
) -> SettlePage:
    """The group's open period settled, as ``asked``, for the account ``user_id``: from the
    group's page, or from the table ``sitting`` of the period (its own results beside, its
    addresses for the plan and the payments). A constant number of queries."""
    recent = recent_settlements(group, limit=RECENT_SHOWN)
    if sitting is not None:  # what was handed over at the table itself stays listed there
        own = sitting.settlements.select_related("payer", "payee", "created_by")
        recent = sorted(
            [*recent, *own.order_by("-created_at", "-id")[:RECENT_SHOWN]],
            key=lambda s: (s.created_at, s.pk),
            reverse=True,
        )[:RECENT_SHOWN]
    ledger = GroupLedger.load(group)
    version = ledger_version(group)
    rows = ledger.rows()
    paid, earlier = ledger.latest_settlements(PAID_SHARED)
    closed = closed_ids(recent, ledger.close)
    method, banker = plan_choice(asked.method, asked.banker_id, ledger)
    suggestions, too_many = plan_offered(ledger, method, banker)
    players = ledger.unmerged
    if sitting is None:
        settle_url = reverse("group_settle", args=[group.pk])
        new_url = reverse("group_settlement_new", args=[group.pk])
        live = _live_url(base_url, "group_live", group.live_token)

        def void(s: Settlement) -> str:
            return reverse("group_settlement_void", args=[group.pk, s.pk])
    else:
        settle_url = reverse("sitting_settle", args=[sitting.pk])
        new_url = reverse("settlement_new", args=[sitting.pk])
        live = _live_url(base_url, "live", sitting.live_token)

        def void(s: Settlement) -> str:
            return reverse("settlement_void", args=[sitting.pk, s.pk])

    tapped = group.settlements.filter(pk__in=_tapped_ids(asked)).select_related("payer", "payee")
    plan_rows, done_values = _plan_rows(suggestions, asked, tapped, recorded, void)
    # Whoever has no account a code can pay is named once under the plan, not on every row.
    no_bank = {s.payee.pk: s.payee.name for s in suggestions if not has_bank(s.payee)}
    announce, notice = _announced(asked, recorded, voided)
    carried = ledger.close is not None and any(row.opening for row in rows)
    carried_through = ledger.close.closes_through if carried and ledger.close else None
    listed = [
        ListedPayment(s, "" if s.is_void or s.pk in closed else void(s), s.pk in closed)
        for s in recent
    ]
    plan = plan_query(method, banker)
    close = _close_offer(group, ledger.close, owed=bool(suggestions))
    # The shared text last: everything above it is this module's or below.
    if sitting is None:
        text = group_text(group, rows, suggestions, live, paid, earlier=earlier)
        table_rows: list[BalanceRow] = []
    else:
        table_rows = Ledger.load(sitting).rows()  # the table's own results beside the group's
        text = table_in_group_text(
            sitting, table_rows, rows, suggestions, live, paid, carried_through=carried_through
        )  # fmt: skip
    return SettlePage(
        group=group,
        sitting=sitting,
        rows=rows,
        table_rows=table_rows,
        show_opening=ledger.close is not None,
        carried_through=carried_through,
        players=players,
        method=method,
        banker=banker,
        suggestions=suggestions,
        too_many=too_many,
        plan_rows=plan_rows,
        done_values=done_values,
        free_token=uuid.uuid4(),
        settlements=listed,
        paid=paid,
        no_bank_ids=set(no_bank),
        no_bank_names=sorted(no_bank.values()),
        version=version,
        bank_link=group.owner_id == user_id,
        share_text=text,
        settle_url=settle_url,
        new_url=new_url,
        plan=plan,
        frozen=None,
        close=close,
        announce=announce,
        notice=notice,
        qr_scope=group,
    )
