"""A group's exports: the whole history as ``export_group`` prints it, and a player's
statement as its CSV and JSON downloads."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from scoring.ledger.group_statements import (
    OPENING,
    STATEMENT_COLUMNS,
    StatementSummary,
    statement,
    statement_line,
)
from scoring.ledger.periods import Period
from scoring.ledger.standing import GroupLedger
from scoring.ledger.stats import export_stats
from scoring.models import Group
from scoring.text import csvfile

# --- Export -----------------------------------------------------------------------------

EXPORT_VERSION = 1


def export_dict(group: Group) -> dict[str, Any]:
    """The group as ``export_group --format json`` prints it (the whole history, no range):
    ``{"version", "name", "players", "sittings", "settlements", "balances", "settle_up",
    "stats"}`` (``stats``: ``scoring.ledger.stats.export_stats``, games, wins, net, cóng and tới
    trắng per player and the head-to-head flows)."""

    ledger = GroupLedger.load(group, start=date.min)
    names = {p.pk: p.name for p in ledger.players}
    return {
        "version": EXPORT_VERSION,
        "name": group.name,
        "players": [p.name for p in ledger.unmerged],
        "sittings": [
            {
                "name": s.name,
                "date": s.date.isoformat(),
                "totals": {names[pk]: total for pk, total in _by_name_order(s.totals, names)},
            }
            for s in ledger.sittings
        ],
        "settlements": [
            {
                "from": names[s.payer_id],
                "to": names[s.payee_id],
                "amount": s.amount,
                "sitting": s.sitting.name if s.sitting else None,
            }
            for s in ledger.settlements
        ],
        "balances": {name: amount for name, amount in ledger.by_name.items()},
        "settle_up": [
            {"from": p.payer.name, "to": p.payee.name, "amount": p.amount}
            for p in ledger.suggested()
        ],
        "stats": export_stats(group),
    }


def _by_name_order(totals: Mapping[int, int], names: Mapping[int, str]) -> list[tuple[int, int]]:
    return sorted(totals.items(), key=lambda item: names[item[0]])


def statement_csv(summary: StatementSummary) -> str:
    """A player's statement as its ``statement.csv`` download (``scoring.text.csvfile``)."""
    rows = summary.download_rows()
    return csvfile.csv_text(
        STATEMENT_COLUMNS, [[row[column] for column in STATEMENT_COLUMNS] for row in rows]
    )


def statement_json(group: Group, summary: StatementSummary, period: Period) -> dict[str, Any]:
    """A player's statement as its ``statement.json`` download holds it."""
    return {
        "version": 1,
        "group": group.name,
        "player": summary.player.name,
        "start": period.start.isoformat() if period.start else None,
        "end": period.end.isoformat() if period.end else None,
        "opening": summary.opening,
        "closing": summary.closing,
        "lines": summary.download_rows(),
    }


def statement_csv_rows(group: Group) -> list[list[Any]]:
    """Every player's statement rows (whole history), for ``export_group --format csv``."""
    ledger = GroupLedger.load(group, start=date.min)
    out: list[list[Any]] = []
    for player in ledger.unmerged:
        for row in statement(group, player, ledger=ledger):
            if row.kind != OPENING:  # nothing comes before the whole history
                line = statement_line(player, row)
                out.append([line[column] for column in STATEMENT_COLUMNS])
    return out
