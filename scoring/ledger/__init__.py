"""The read model: every number a page or an export shows is read here, never in a view.

The money was computed by the engine when each game was recorded; these only add up stored
payments, seats and settlements (the current revision of active games, settlements not
voided) and ask ``scoring.engine.settle`` for plans. Writes are ``scoring.services``.

- ``balances``: a sitting's game totals and balances, what each pair owes, settle-up plans;
- ``board``: the sitting board (totals, games, who leads next, the running chart);
- ``statements``: one player's statement in a sitting, the payments between two players, and
  every revision of one game's payments;
- ``players``: a player's result in each sitting;
- ``totals``: each sitting's stored totals per player, what they should be and where they
  are not (``stored_totals_problems``);
- a group's: ``standing`` (its ledger across sittings, its closes and version), ``periods``,
  ``settleup``, ``why``, ``group_statements``, ``balance_chart``, ``group_export``,
  ``group_live`` and ``group_page``, imported by their own names;
- what else a page reads: ``stats`` (players' and groups' statistics, head to head, a year),
  ``reprice`` (the what-if), ``charts`` (server-drawn SVG), ``rulesummary``, ``share`` (the
  "Chia sẻ" text), ``home``, ``sheets`` (a sitting's CSV), ``archive`` and ``sessionfile``
  (a group's archive, a sitting's file), ``replay``, ``verify`` and ``checks`` (the book's
  checks), ``live_cache`` (the live link's version), ``player_page`` (a player's own
  page), ``gone`` (what became of a link that no longer opens).

A page with real reads has one page model here: one function returning one frozen dataclass
with everything its template shows (``settleup.sitting_settle_page`` and
``group_settle_page``, one ``SettlePage``; ``group_statements.statement_page``,
``group_page.group_page``).
"""

from scoring.ledger.balances import (
    BANKER,
    METHODS,
    MIN,
    PLAYED,
    Ledger,
    Suggestion,
    balances,
    current_payments,
    game_totals,
)
from scoring.ledger.board import (
    board,
    live_board,
    running_balances,
    running_chart,
)
from scoring.ledger.players import LineTotals, SittingLine, line_totals, player_lines
from scoring.ledger.statements import (
    Entry,
    entries,
    game_revisions,
    pair_statement,
    player_statement,
)

__all__ = [
    "BANKER",
    "METHODS",
    "MIN",
    "PLAYED",
    "Entry",
    "Ledger",
    "LineTotals",
    "SittingLine",
    "Suggestion",
    "balances",
    "board",
    "current_payments",
    "entries",
    "game_revisions",
    "game_totals",
    "line_totals",
    "live_board",
    "pair_statement",
    "player_lines",
    "player_statement",
    "running_balances",
    "running_chart",
]
