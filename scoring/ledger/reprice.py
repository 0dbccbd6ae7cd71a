"""What if the table had played another scheme: stored game records priced again by the engine
under another rule set and stake, beside what was played. Nothing is written.

Each counted game (active, its current revision) is read back from its stored record and
scored by ``scoring.engine`` exactly as a new game would be; a record the other rule set
cannot price (a placement scheme for a game that only knows who went out first, a hand the
other scheme counts differently…) is skipped and named with the engine's own reason, never
guessed. A fact the other rule set does not price (the hands of a tới trắng game, where it does
not count thối on it; a kết 3 bích, where it plays none) costs nothing there, and the engine's
note on it is listed. What was played is summed over the same games, so the difference per
player is the scheme's alone.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.db.models import Q, QuerySet
from django.utils import translation
from django.utils.translation import ngettext

from scoring import engine
from scoring.models import Game, Group, Player, Seat, Sitting


@dataclass(frozen=True)
class GameNote:
    """A game of the what-if and what the engine said of it: why it was skipped, or what was
    set aside to price it."""

    sitting_id: int
    sitting_name: str
    number: int
    reason: str


@dataclass(frozen=True)
class Repriced:
    """Per player id: ``played`` (the stored nets of the games priced), ``what_if`` (the same
    games under the other rule set); ``games`` priced, ``skipped`` the rest, ``noted`` the games
    priced with a fact set aside (each with the engine's note)."""

    players: list[Player]
    played: dict[int, int]
    what_if: dict[int, int]
    games: int
    skipped: list[GameNote]
    noted: list[GameNote]

    def rows(self) -> list[tuple[Player, int, int, int]]:
        """(player, played, what if, difference), the biggest gain from the change first."""
        out = [(p, self.played.get(p.pk, 0), self.what_if.get(p.pk, 0)) for p in self.players]
        return sorted(
            ((p, a, b, b - a) for p, a, b in out), key=lambda r: (-r[3], r[0].name, r[0].pk)
        )

    def totals_by_name(self) -> dict[str, int]:
        return {p.name: self.what_if.get(p.pk, 0) for p in sorted(self.players, key=_name)}


def _name(player: Player) -> tuple[str, int]:
    return (player.name, player.pk)


def _games(sittings: Q) -> QuerySet[Game]:
    return Game.objects.active().filter(sittings)


def reprice_sitting(
    sitting: Sitting, rules: engine.RuleSet, stake: int, *, lang: str = "vi"
) -> Repriced:
    return _reprice(Q(sitting=sitting), rules, stake, lang)


def reprice_group(
    group: Group,
    rules: engine.RuleSet,
    stake: int,
    *,
    start: date | None = None,
    end: date | None = None,
    lang: str = "vi",
) -> Repriced:
    """The group's games dated inside the range (a sitting counts on its date)."""
    q = Q(sitting__group=group)
    if start is not None and start != date.min:
        q &= Q(sitting__date__gte=start)
    if end is not None:
        q &= Q(sitting__date__lte=end)
    return _reprice(q, rules, stake, lang)


def _reprice(where: Q, rules: engine.RuleSet, stake: int, lang: str) -> Repriced:
    """Three queries (games, seats, players) whatever the number of games. Raises
    ``engine.InvalidRuleSet`` or ``engine.InvalidRecord`` (the stake) before reading any."""
    prices = engine.Prices(rules, stake)
    games = list(
        _games(where)
        .order_by("sitting__date", "sitting_id", "number")
        .values_list("id", "sitting_id", "sitting__name", "number", "record")
    )
    seats: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)  # game -> position -> seat
    for game_id, position, player_id, net in (
        # The range's games as a subquery, not a list of ids: a period of many thousands of
        # games would send every id back to the database (SQLite refuses past its limit).
        # Voided ones too, so a game voided between the two reads still finds its seats.
        Seat.objects.filter(game__in=Game.objects.filter(where).values("pk"))
        .values_list("game_id", "position", "player_id", "net")
        .order_by()
    ):
        seats[game_id][position] = (player_id, net)
    played: dict[int, int] = defaultdict(int)
    what_if: dict[int, int] = defaultdict(int)
    skipped: list[GameNote] = []
    noted: list[GameNote] = []
    seen: set[int] = set()
    priced = 0
    for game_id, sitting_id, sitting_name, number, record in games:
        by_name = {
            name: seats[game_id][position]
            for position, name in enumerate(record.get("players") or [])
            if position in seats[game_id]
        }
        seen.update(player_id for player_id, _net in seats[game_id].values())
        try:
            parsed = engine.parse_record(record, rules)
            result = engine.score_game(rules, parsed, stake, prices=prices)
        except (engine.InvalidRecord, engine.InvalidRuleSet) as refused:
            skipped.append(GameNote(sitting_id, sitting_name, number, _reason(refused, lang)))
            continue
        priced += 1
        if result.notes:
            noted.append(GameNote(sitting_id, sitting_name, number, _message(result.notes, lang)))
        for name, net in result.net.items():
            player_id, stored = by_name[name]
            what_if[player_id] += net
            played[player_id] += stored
    players = sorted(Player.objects.in_bulk(seen).values(), key=_name)
    return Repriced(players, dict(played), dict(what_if), priced, skipped, noted)


def _reason(refused: engine.InvalidRecord | engine.InvalidRuleSet, lang: str) -> str:
    return _message(refused.problems, lang) if refused.problems else str(refused)


def _message(problems: Sequence[engine.Problem], lang: str) -> str:
    """The first problem, and how many more the engine found (each a reason on its own)."""
    text = problems[0].message(lang)
    more = len(problems) - 1
    if not more:
        return text
    with translation.override(lang):
        return f"{text} " + ngettext("(và %(n)d lý do nữa)", "(và %(n)d lý do nữa)", more) % {
            "n": more
        }
