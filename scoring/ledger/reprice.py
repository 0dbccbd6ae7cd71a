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

import hashlib
import json
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from itertools import accumulate, groupby
from operator import itemgetter
from typing import Any, overload

from django.core.cache import cache
from django.db.models import Count, Q, QuerySet, TextField
from django.db.models.functions import Cast
from django.utils import translation
from django.utils.translation import ngettext

from scoring import engine
from scoring.ledger.standing import keep_once_committed, sitting_stamp
from scoring.models import Game, Group, PeriodClose, Player, Seat, Sitting, sittings_in_period
from tienlen_site.plumbing.oneatatime import take_turn


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
    skipped: Sequence[GameNote]
    noted: Sequence[GameNote]

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


# --- Each sitting's part, priced once ---------------------------------------------------------

#: Why a game was skipped or what the engine set aside: its problems (said in the reader's
#: language when shown), or the refusal's text when it carries none.
type Reason = tuple[engine.Problem, ...] | str
#: A sitting's games with a reason, as its part keeps them: the game numbers in order, the
#: place of each one's reason among the distinct reasons, and those reasons. Few objects to
#: keep and read back: a sitting repeats its records, and so its reasons.
type Listed = tuple[tuple[int, ...], tuple[int, ...], tuple[Reason, ...]]
#: A sitting's listed games in a what-if: (sitting id, its name, its games).
type Segment = tuple[int, str, Listed]


@dataclass(frozen=True, slots=True)
class SittingPart:
    """What one sitting adds to a what-if under one rule set and stake, by player id and game
    number: plain values, so the cache can keep it."""

    played: dict[int, int]
    what_if: dict[int, int]
    games: int
    skipped: Listed
    noted: Listed
    seen: frozenset[int]


NONE_LISTED: Listed = ((), (), ())
EMPTY = SittingPart({}, {}, 0, NONE_LISTED, NONE_LISTED, frozenset())

#: Part of every key: moved on when the engine comes to price a stored record differently or a
#: part is kept in another form, so that no part of the older code is read again (2: the games
#: with a reason kept as ``Listed``).
PRICING = 2
#: The most games one what-if prices (games of sittings already kept cost nothing): past it the
#: page prices nothing and offers a shorter range. Five years of a weekly table of 200 games
#: fit, so a group's all-time what-if is priced whole; what that costs is in docs/scaling.md,
#: "Heavy pages".
MAX_GAMES = 60_000
MAX_IN = 500  # sittings read by id; past that, the whole range is read and the kept ones dropped


def rules_fingerprint(rules: engine.RuleSet) -> str:
    """The rule set's content, hashed: two rule sets price alike exactly when their JSON forms
    (``engine.ruleset_to_dict``) are equal, whatever they are called or where they are saved."""
    text = json.dumps(engine.ruleset_to_dict(rules), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def part_key(sitting_id: int, created: datetime, version: int, rules: str, stake: int) -> str:
    """A sitting's part is kept under its state (``standing.sitting_stamp``), the rule set's
    content and the stake."""
    return f"reprice:{PRICING}:{sitting_id}:{sitting_stamp(created, version)}:{rules}:{stake}"


class TooMany(Exception):
    """A what-if with more games to price than its limit: nothing was priced. ``games`` to
    price, and ``start``, the earliest date from which the range up to the same end has no
    more to price than the limit (None when even its last day has more)."""

    def __init__(self, games: int, start: date | None) -> None:
        super().__init__(f"{games} games to price")
        self.games = games
        self.start = start


def _check_limit(
    sittings: QuerySet[Sitting], rows: list[tuple[int, date]], missing: set[int], limit: int
) -> None:
    """Raise ``TooMany`` when the sittings not kept hold more than ``limit`` games. One query
    (the range's games counted per sitting); ``rows`` are the range's sittings, oldest first."""
    counts = dict(
        Game.objects.active()
        .filter(sitting__in=sittings.values("pk"))
        .values_list("sitting_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    total = sum(counts.get(sid, 0) for sid in missing)
    if total <= limit:
        return
    per_day: dict[date, int] = defaultdict(int)
    for sid, day in rows:
        if sid in missing:
            per_day[day] += counts.get(sid, 0)
    fits, counted = None, 0
    for day in sorted(per_day, reverse=True):  # newest first
        counted += per_day[day]
        if counted > limit:
            break
        fits = day
    raise TooMany(total, fits)


def reprice_sitting(
    sitting: Sitting, rules: engine.RuleSet, stake: int, *, lang: str = "vi"
) -> Repriced:
    return _reprice(Sitting.objects.filter(pk=sitting.pk), rules, stake, lang)


def reprice_group(
    group: Group,
    rules: engine.RuleSet,
    stake: int,
    *,
    start: date | None = None,
    end: date | None = None,
    cut: PeriodClose | None = None,
    lang: str = "vi",
    limit: int | None = None,
) -> Repriced:
    """The group's games dated inside the range (a sitting counts on its date; with ``cut``,
    the open period after that close, ``sittings_in_period``). With ``limit``: raises
    ``TooMany``, pricing nothing, when more games than that are not kept."""
    sittings = Sitting.objects.filter(sittings_in_period(start, end, cut), group=group)
    return _reprice(sittings, rules, stake, lang, limit)


def _reprice(
    sittings: QuerySet[Sitting],
    rules: engine.RuleSet,
    stake: int,
    lang: str,
    limit: int | None = None,
) -> Repriced:
    """Each sitting's part from the cache, the rest priced by the engine and kept: two queries
    (sittings, players) when every part is kept, four otherwise, whatever the number of games.
    Raises ``engine.InvalidRuleSet`` or ``engine.InvalidRecord`` (the stake) before reading any.

    The sittings' versions are read before their games: a write landing in between leaves a
    part newer than the key it is kept under, a key no later reading asks for again.
    """
    prices = engine.Prices(rules, stake)
    fingerprint = rules_fingerprint(rules)
    rows = list(
        sittings.order_by("date", "id").values_list("id", "name", "created_at", "version", "date")
    )
    keys = {sid: part_key(sid, created, v, fingerprint, stake) for sid, _n, created, v, _d in rows}
    kept: dict[str, SittingPart] = cache.get_many(list(keys.values())) if keys else {}
    missing = [sid for sid, key in keys.items() if key not in kept]
    if missing and limit is not None:
        _check_limit(sittings, [(row[0], row[4]) for row in rows], set(missing), limit)
    if missing:
        # Pricing is the part that grows with the games: it waits for its turn among the
        # site's heavy pages (raises oneatatime.Busy, answered 429). A what-if the cache
        # holds whole never takes one.
        take_turn()
        scope = Sitting.objects.filter(pk__in=missing) if len(missing) <= MAX_IN else sittings
        priced = _price(scope, rules, stake, prices)
        fresh = {keys[sid]: priced.get(sid, EMPTY) for sid in missing}
        kept.update(fresh)
        keep_once_committed(fresh)
    played: Counter[int] = Counter()
    what_if: Counter[int] = Counter()
    skipped: list[Segment] = []
    noted: list[Segment] = []
    seen: set[int] = set()
    games = 0
    # Said once per reason: most games a rule set cannot price are refused for the same
    # reason as many others (the same problems, the same names and counts), and a record
    # seen again in a sitting carries the very same reason (by identity: every part is
    # held in ``kept`` meanwhile).
    said: dict[Reason, str] = {}
    same: dict[int, str] = {}

    def say(why: Reason) -> str:
        text = same.get(id(why))
        if text is None:
            text = said.get(why)
            if text is None:
                text = said[why] = _message(why, lang)
            same[id(why)] = text
        return text

    for sid, name, _created, _version, _date in rows:
        part = kept[keys[sid]]
        played.update(part.played)
        what_if.update(part.what_if)
        games += part.games
        if part.skipped[0]:
            skipped.append((sid, name, part.skipped))
        if part.noted[0]:
            noted.append((sid, name, part.noted))
        seen |= part.seen
    players = sorted(Player.objects.in_bulk(seen).values(), key=_name)
    return Repriced(
        players, dict(played), dict(what_if), games, GameNotes(skipped, say), GameNotes(noted, say)
    )


class GameNotes(Sequence[GameNote]):
    """The games of a what-if with the engine's reason, in order, each said when it is read:
    a page lists fifty of what may be tens of thousands (a rule set that cannot price most of
    a group's games), and only those are put into words."""

    def __init__(self, segments: Sequence[Segment], say: Callable[[Reason], str]) -> None:
        self._segments = list(segments)
        self._starts = list(accumulate((len(g[0]) for _s, _n, g in self._segments), initial=0))
        self._say = say

    def __len__(self) -> int:
        return self._starts[-1]

    def __iter__(self) -> Iterator[GameNote]:
        for sid, name, (numbers, which, reasons) in self._segments:
            for number, at in zip(numbers, which, strict=True):
                yield GameNote(sid, name, number, self._say(reasons[at]))

    @overload
    def __getitem__(self, index: int) -> GameNote: ...

    @overload
    def __getitem__(self, index: slice) -> list[GameNote]: ...

    def __getitem__(self, index: int | slice) -> GameNote | list[GameNote]:
        if isinstance(index, slice):
            return [self._at(i) for i in range(len(self))[index]]
        return self._at(range(len(self))[index])  # IndexError past either end

    def _at(self, i: int) -> GameNote:
        k = bisect_right(self._starts, i) - 1
        sid, name, (numbers, which, reasons) = self._segments[k]
        j = i - self._starts[k]
        return GameNote(sid, name, numbers[j], self._say(reasons[which[j]]))


class _Listing:
    """A sitting's games with a reason, listed as they are priced (see ``Listed``)."""

    __slots__ = ("_at", "numbers", "reasons", "which")

    def __init__(self) -> None:
        self.numbers: list[int] = []
        self.which: list[int] = []
        self.reasons: list[Reason] = []
        # By identity: a record met again gives the very same reason (kept in ``known``).
        self._at: dict[int, int] = {}

    def add(self, number: int, why: Reason) -> None:
        at = self._at.get(id(why))
        if at is None:
            at = self._at[id(why)] = len(self.reasons)
            self.reasons.append(why)
        self.numbers.append(number)
        self.which.append(at)

    def listed(self) -> Listed:
        return (tuple(self.numbers), tuple(self.which), tuple(self.reasons))


_first = itemgetter(0)  # a seat's player id, of (player id, net)


@dataclass(frozen=True, slots=True)
class _Priced:
    """One record priced: each seat's net by position and the engine's notes; or ``refused``,
    why it could not be."""

    nets: tuple[tuple[int, int], ...] = ()
    notes: tuple[engine.Problem, ...] = ()
    refused: Reason | None = None


def _price(
    scope: QuerySet[Sitting], rules: engine.RuleSet, stake: int, prices: engine.Prices
) -> dict[int, SittingPart]:
    """The parts of the sittings of ``scope``, each game read back and priced by the engine:
    three queries (the sittings' rule sets, games, seats).

    Every stored record was accepted by the engine under its sitting's rule set; under a rule
    set that checks records alike (``engine.parse_stored``: the same mode and facts, other
    prices) it is read without a second check.

    Records are read as their stored text and priced once per text: many games of a group's
    years are the same facts (who went out, the same cards left), and the same record under
    the same rule set and stake prices the same, so a repeat costs a dictionary look-up, not
    a JSON decoding, a check and a pricing.
    """
    where = Q(sitting__in=scope.values("pk"))
    stored_under = _stored_rules(scope)
    games = (
        Game.objects.active()
        .filter(where)
        .order_by("sitting_id", "number")
        .values_list("id", "sitting_id", "number", Cast("record", output_field=TextField()))
    )
    seats: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)  # game -> position -> seat
    for game_id, position, player_id, net in (
        # The games as a subquery, not a list of ids: a range of many thousands of games would
        # send every id back to the database (SQLite refuses past its limit). Voided ones too,
        # so a game voided between the two reads still finds its seats.
        Seat.objects.filter(game__in=Game.objects.filter(where).values("pk"))
        .values_list("game_id", "position", "player_id", "net")
        .order_by()
    ):
        seats[game_id][position] = (player_id, net)
    known: dict[str, _Priced] = {}
    parts: dict[int, SittingPart] = {}
    for sitting_id, rows in groupby(games, key=itemgetter(1)):
        played: dict[int, int] = defaultdict(int)
        what_if: dict[int, int] = defaultdict(int)
        skipped, noted = _Listing(), _Listing()
        seen: set[int] = set()
        priced = 0
        for game_id, _sitting_id, number, text in rows:
            seated = seats[game_id]
            seen.update(map(_first, seated.values()))
            answer = known.get(text)
            if answer is None:
                record = json.loads(text)
                under = stored_under.get(sitting_id)
                answer = known[text] = _price_one(record, rules, under, stake, prices)
            if answer.refused is not None:
                skipped.add(number, answer.refused)
                continue
            priced += 1
            if answer.notes:
                noted.add(number, answer.notes)
            for position, net in answer.nets:
                player_id, stored = seated[position]
                what_if[player_id] += net
                played[player_id] += stored
        parts[sitting_id] = SittingPart(
            dict(played),
            dict(what_if),
            priced,
            skipped.listed(),
            noted.listed(),
            frozenset(seen),
        )
    return parts


def _stored_rules(scope: QuerySet[Sitting]) -> dict[int, engine.RuleSet]:
    """Each sitting's rule set, the one its records were checked under (one query); a sitting
    whose stored rules the engine no longer reads is left out, and its records checked."""
    read: dict[str, engine.RuleSet | None] = {}
    out: dict[int, engine.RuleSet] = {}
    for sitting_id, data in scope.order_by().values_list("id", "rules"):
        text = json.dumps(data, sort_keys=True)
        if text not in read:
            try:
                read[text] = engine.ruleset_from_dict(data)
            except (engine.InvalidRuleSet, ValueError, TypeError, KeyError):
                read[text] = None
        rules = read[text]
        if rules is not None:
            out[sitting_id] = rules
    return out


def _price_one(
    record: dict[str, Any],
    rules: engine.RuleSet,
    stored_under: engine.RuleSet | None,
    stake: int,
    prices: engine.Prices,
) -> _Priced:
    try:
        if stored_under is None:
            parsed = engine.parse_record(record, rules)
        else:
            parsed = engine.parse_stored(record, rules, stored_under)
        result = engine.score_game(rules, parsed, stake, prices=prices)
    except (engine.InvalidRecord, engine.InvalidRuleSet) as refused:
        return _Priced(refused=tuple(refused.problems) or str(refused))
    position = {name: index for index, name in enumerate(parsed.players)}
    nets = tuple((position[name], net) for name, net in result.net.items())
    return _Priced(nets, result.notes)


def _message(why: Sequence[engine.Problem] | str, lang: str) -> str:
    """The refusal's text, or the first problem and how many more the engine found (each a
    reason on its own)."""
    if isinstance(why, str):
        return why
    text = why[0].message(lang)
    more = len(why) - 1
    if not more:
        return text
    with translation.override(lang):
        more_text = ngettext("(và %(n)d lý do nữa)", "(và %(n)d lý do nữa)", more)
        return f"{text} {more_text % {'n': more}}"
