"""Settling up: the plan a page asks for, the rows it shows (a payment tapped on a row stays
in it), what a write says, and the page model of a group's settle-up (``settle_page``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import QueryDict
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.engine import readnumbers as numbers
from scoring.ledger.balances import BANKER, Suggestion
from scoring.ledger.share import group_text
from scoring.ledger.standing import (
    GroupLedger,
    closed_ids,
    ledger_version,
    plan_choice,
    plan_offered,
)
from scoring.models import Group, Player, Settlement
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


# --- The plan a page asks for, and the rows it shows ------------------------------------


def plan_query(method: str, banker: Player | None) -> dict[str, str]:
    """The query that asks a settle-up page for a plan (``plan_choice`` reads it back)."""
    params = {"method": method}
    if method == BANKER and banker is not None:
        params["banker"] = str(banker.pk)
    return params


@dataclass(frozen=True)
class PlanRow:
    """One row of the plan on a settle-up page: a suggestion with its pay button (and the
    token its tap is sent with), or the payment a tap on that row recorded."""

    suggestion: Suggestion | None = None
    token: uuid.UUID | None = None
    done: Settlement | None = None


# The rows a page keeps in place of the suggestions they paid (one evening's worth).
MAX_DONE_ROWS = 30


def plan_rows(
    suggestions: Sequence[Suggestion],
    params: Mapping[str, Any],
    settlements: QuerySet[Settlement],
    recorded: tuple[int, Settlement] | None = None,
) -> dict[str, Any]:
    """The plan as the page shows it: the suggestions, with each payment tapped on this page
    back at the row it was tapped on ("row:id" values the page posts as ``done``, plus the
    one just ``recorded``). The plan is stable (``scoring.engine.settle``: paying one suggestion in
    full leaves the others in order), so nothing moves under a finger resting on the spot it
    tapped. A payment voided since is left out, and its suggestion is back in the plan."""
    wanted: dict[int, int] = {}  # settlement id -> row
    raw = params.getlist("done") if isinstance(params, QueryDict) else []
    for value in raw[:MAX_DONE_ROWS]:
        row_text, _sep, pk = str(value).partition(":")
        row_n = numbers.read_int(row_text, low=1, high=MAX_DONE_ROWS + 1000)
        pk_n = numbers.read_int(pk, low=1, high=2**62)
        if row_n is not None and pk_n is not None:
            wanted[pk_n] = row_n
    found = {s.pk: s for s in settlements.filter(pk__in=wanted) if not s.is_void}
    done = [(row, found[pk]) for pk, row in wanted.items() if pk in found]
    if recorded is not None and not recorded[1].is_void:
        done = [d for d in done if d[1].pk != recorded[1].pk] + [recorded]
    rows = [PlanRow(suggestion=s, token=uuid.uuid4()) for s in suggestions]
    for row, settlement in sorted(done, key=lambda d: (d[0], d[1].pk)):
        rows.insert(min(row - 1, len(rows)), PlanRow(done=settlement))
    values = [f"{n}:{r.done.pk}" for n, r in enumerate(rows, 1) if r.done is not None]
    return {"plan_rows": rows, "done_values": values, "free_token": uuid.uuid4()}


def pay_row(params: Mapping[str, Any], settlement: Settlement) -> tuple[int, Settlement] | None:
    """Where a suggestion's tap was (its row stays there, as the payment), or None for the
    typed form."""
    if params.get("kind") != "suggestion":
        return None
    row = numbers.read_int(str(params.get("row") or ""), low=1, high=MAX_DONE_ROWS + 1000)
    return (row, settlement) if row is not None else None


def in_place(params: Mapping[str, Any]) -> bool:
    """Whether a write came from a row of the plan (a suggestion's pay button, or "Hoàn tác"
    on the payment it recorded)."""
    tapped = params.get("kind") == "suggestion" and bool(params.get("row"))
    return tapped or params.get("undo") == "1"


def retry_data(params: QueryDict, version: str) -> QueryDict | None:
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


# --- The group's settle-up page ---------------------------------------------------------

RECENT_SHOWN = 50  # the group-wide payments the page lists
# The payments of the period "Chia sẻ" names (the latest recorded): after years without a
# close the period holds hundreds, and a chat message names an evening's, not all of them.
PAID_SHARED = 12


@dataclass(frozen=True)
class SettlePage:
    """Everything a group's settle-up shows (``groups/settle.html``, its ``#settle`` part the
    answer to a payment): the standing balances (the open period's opening included: it is
    what gets settled), the plan asked for with the payments tapped on it kept in their rows,
    the group-wide payments, the ledger stamp a payment is checked against and the text
    "Chia sẻ" shares. ``notice``: what a write just did (``announce``), shown above the plan
    unless it was tapped on a row of it. The template gets the fields as its context."""

    group: Group
    rows: list[dict[str, Any]]
    show_opening: bool
    players: list[Player]
    method: str
    banker: Player | None
    suggestions: list[Suggestion]
    plan_rows: list[PlanRow]
    done_values: list[str]
    free_token: uuid.UUID
    too_many: bool
    settlements: list[Settlement]
    paid: list[Settlement]  # the latest standing ones of the period (``PAID_SHARED``)
    closed_ids: set[int]
    no_bank_ids: set[int]
    no_bank_names: list[str]
    version: str
    bank_link: bool
    share_text: str
    settle_url: str
    new_url: str
    plan: dict[str, str]  # the query that asks for this plan again (``plan_query``)
    owner_pk: int  # whose void_url a payment's void posts to: the group's
    announce: str = ""
    notice: str = ""
    void_url: str = "group_settlement_void"


def settle_page(
    group: Group,
    params: Mapping[str, Any],
    *,
    user_id: int,
    absolute: Callable[[str], str],
    recorded: Settlement | None = None,
    voided: Settlement | None = None,
) -> SettlePage:
    """The group's settle-up as ``params`` ask for it (the plan, the rows tapped before), for
    the account ``user_id``; after a payment is ``recorded`` (kept in the row it was tapped
    on) or ``voided``, with what to say. ``absolute`` makes the live link's whole address
    (the request's ``build_absolute_uri``). A constant number of queries."""
    recent = recent_settlements(group, limit=RECENT_SHOWN)
    ledger = GroupLedger.load(group)
    version = ledger_version(group)
    rows = ledger.rows()
    paid, earlier = ledger.latest_settlements(PAID_SHARED)
    closed = closed_ids(recent, ledger.close)
    method, banker = plan_choice(params, ledger)
    suggestions, too_many = plan_offered(ledger, method, banker)
    players = ledger.unmerged
    done = group.settlements.select_related("payer", "payee")
    shown = plan_rows(suggestions, params, done, pay_row(params, recorded) if recorded else None)
    # Whoever has no account a code can pay is named once under the plan, not on every row.
    no_bank = {s.payee.pk: s.payee.name for s in suggestions if not has_bank(s.payee)}
    written = recorded or voided
    announce = settled_notice(written, voided=voided is not None) if written else ""
    plan = plan_query(method, banker)
    # A tap on a row of the plan is answered in that row ("✓ Đã ghi …", or the suggestion back
    # after "Hoàn tác"): a notice above it would push the row from under the finger.
    notice = "" if in_place(params) else announce
    token = group.live_token
    live = absolute(reverse("group_live", args=[token])) if token else None
    return SettlePage(
        group=group,
        rows=rows,
        show_opening=ledger.close is not None,
        players=players,
        method=method,
        banker=banker,
        suggestions=suggestions,
        too_many=too_many,
        settlements=recent,
        paid=paid,
        closed_ids=closed,
        no_bank_ids=set(no_bank),
        no_bank_names=sorted(no_bank.values()),
        version=version,
        bank_link=group.owner_id == user_id,
        share_text=group_text(group, rows, suggestions, live, paid, earlier=earlier),
        settle_url=reverse("group_settle", args=[group.pk]),
        new_url=reverse("group_settlement_new", args=[group.pk]),
        plan=plan,
        owner_pk=group.pk,
        announce=announce,
        notice=notice,
        **shown,
    )
