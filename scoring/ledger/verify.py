"""``verify_ledger``'s check, also the owner's "Kiểm tra sổ" page: a book against its chain.

A sitting: its history's hash chain recomputed entry by entry; then every derived row against
what replaying that history gives (``scoring.ledger.replay``): each game's current record,
revision and status, its current payments and seats as the engine computes them from that
record under the sitting's frozen rules and stake (and summing to zero), and every
settlement. A group: its own chain and group-wide settlements, then each of its sittings.
The first disagreement is named in one line; nothing in the database makes it raise.

A group is read in one pass: its sittings' history, games, payments, seats and settlements
as five streams ordered by sitting, in batches of :data:`BATCH` rows, each sitting checked as
its rows go by; each record is decoded once and scored once per distinct record and sitting.
The chain names a settlement by its number among the sitting's and an undone entry by its
place in the history (``scoring.engine.chain.fields``): numbered from the streams as they are read.

A book found agreeing leaves a checkpoint on its ``BookCheck`` (its newest entry's id and hash),
and one that disagrees leaves the checkpoint where it was.
A check ``since`` the checkpoint (``verify_ledger --since``, the group's "Kiểm tra sổ" page)
chains only the entries after it, from the hash it recorded, and checks only the games and
settlements those entries touched (replayed from their own entries and any merge before),
numbering them from the sitting's settlement ids and a count of the entries up to each;
a sitting with nothing new is not read at all. A checkpoint whose entry is gone or whose hash
has changed, or a merge after it, sends the sitting back to a whole check. What changed
behind the site's back before the checkpoint is found by a whole check, not by this one.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cache, partial
from operator import attrgetter
from typing import Any

from django.db.models import Count, Max, OuterRef, Q, QuerySet, Subquery, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine import chain
from scoring.ledger import replay
from scoring.ledger.replay import Mismatch
from scoring.ledger.standing import GroupLedger
from scoring.models import (
    BookCheck,
    Game,
    Group,
    GroupHistoryEntry,
    HistoryEntry,
    Membership,
    Payment,
    PeriodClose,
    Player,
    Seat,
    Settlement,
    Sitting,
)
from scoring.text.money import vnd

# Rows fetched per round trip of each stream.
BATCH = 2000

# What a row can hold that no writer of the site leaves (a column set by hand to nonsense).
_UNREADABLE = (TypeError, ValueError, KeyError, AttributeError, IndexError)


@dataclass(frozen=True)
class Verdict:
    """The book's fingerprint (its head, as the chain stands) and the first mismatch.

    ``entries`` and ``games``: what was checked (a group: its own entries, and the games of
    the ``sittings`` it checked). ``since``: the check went on from the checkpoint made then
    (None: the whole book was checked)."""

    fingerprint: str
    mismatch: Mismatch | None
    entries: int
    games: int = 0
    since: datetime | None = None
    sittings: int = 0

    @property
    def ok(self) -> bool:
        return self.mismatch is None


@dataclass(frozen=True)
class _Checkpoint:
    """Where a check last found a sitting agreeing (its ``BookCheck``): the newest entry it
    checked, by id and by hash, and when."""

    entry: int
    hash: str
    at: datetime


def fingerprint_of(book: Sitting | Group) -> str:
    """The short fingerprint of a sitting's head, as stored (one query), or of a group's
    seal (:func:`group_covers`, three queries)."""
    if isinstance(book, Sitting):
        return chain.fingerprint(chain.head_of(HistoryEntry, book.pk))
    return group_fingerprint(group_covers(book))


def fingerprint_of_head(group: Group) -> str:
    """The short form of a group's own head alone: what a version 1 archive called the
    group's fingerprint (before it covered the sittings and players)."""
    return chain.fingerprint(chain.head_of(GroupHistoryEntry, group.pk))


def group_players(group: Group) -> list[Player]:
    """The players of a group, in the order they were made: its own, and anyone else a
    sitting of it seats (a row left by hand; the archive takes them along too)."""
    seated = Membership.objects.filter(sitting__group=group).values("player_id")
    return list(Player.objects.filter(Q(group=group) | Q(pk__in=seated)).order_by("id"))


def group_covers(group: Group, head: str | None = None) -> dict[str, Any]:
    """What the group's fingerprint covers (``chain.group_covers``), from the stored heads:
    the group's own (``head``, when the caller has it), its sittings' newest entries (one
    query, an index per sitting) and its players."""
    if head is None:
        head = chain.head_of(GroupHistoryEntry, group.pk)
    newest = chain.hashes_newest_first(HistoryEntry, OuterRef("pk"))[:1]
    sittings = (
        Sitting.objects.filter(group=group)
        .order_by("id")
        .annotate(head=Subquery(newest))
        .values_list("name", "date", "head")
    )
    return covers_of(
        head,
        [(name, day.isoformat(), sitting_head or "") for name, day, sitting_head in sittings],
        map(attrgetter(*PLAYER_ROW), group_players(group)),
    )


#: A player as :func:`covers_of` takes them.
PLAYER_ROW = (
    "pk",
    "name",
    "created_at",
    "merged_into_id",
    "bank_bin",
    "bank_account",
    "bank_holder",
)
PlayerRow = tuple[int, str, datetime, int | None, str, str, str]


def covers_of(
    head: str, sittings: Iterable[tuple[str, str, str]], players: Iterable[PlayerRow]
) -> dict[str, Any]:
    """What a group's fingerprint covers, from rows however read (the ORM here, plain SQL
    in a backup's snapshot): its own head, its sittings' ``[name, date, head]`` in the order
    they were made, and its players (any order; listed by name, then by when they were
    made)."""
    ordered = sorted(players, key=lambda p: (p[1], chain.when(p[2]), p[0]))
    number = {p[0]: n for n, p in enumerate(ordered, 1)}
    return chain.group_covers(
        head,
        sittings,
        [
            (name, number.get(merged) if merged is not None else None, bin_, account, holder)
            for _pk, name, _at, merged, bin_, account, holder in ordered
        ],
    )


def group_fingerprint(covers: Mapping[str, Any]) -> str:
    """The short form of a group's seal (what the pages, the archive and a table show)."""
    return chain.fingerprint(chain.seal(covers))


def _unreadable(error: Exception) -> Mismatch:
    return Mismatch(_("Sổ có dữ liệu không đọc được: %(e)s") % {"e": error})


# --- Reading ----------------------------------------------------------------------------

# A sitting's entries with their JSON columns as the database spells them (decoded by
# ``_decoded``, the usual empty ones without a parse).
_JSON = ("before", "after", "note_params")
_ENTRY = (
    "sitting_id",
    "id",
    "hash",
    *(f"{column}_text" if column in _JSON else column for column in chain.SITTING_COLUMNS),
)
_DECODED = [chain.SITTING_COLUMNS.index(column) for column in _JSON]
_SETTLED = chain.SITTING_COLUMNS.index("settlement_id")
_UNDOES = chain.SITTING_COLUMNS.index("undoes_id")
_GAME = ("sitting_id", "pk", "number", "revision", "text", "status")
_PAYMENT = ("game__sitting_id", "game_id", "payer__name", "payee__name", "amount", "reason")
_SEAT = (
    "game__sitting_id",
    "game_id",
    "player_id",
    "player__name",
    "position",
    "place",
    "is_cong",
    "net",
    "thoi",
)
_SETTLEMENT = (
    "sitting_id",
    "pk",
    "payer_id",
    "payee_id",
    "payer__name",
    "payee__name",
    "amount",
    "is_void",
)


@dataclass
class _Rows:
    """One sitting's rows as read, each a tuple whose first column is the sitting's id."""

    pk: int
    rules: Any
    stake: int
    entries: list[Sequence[Any]] = field(default_factory=list)
    games: list[Sequence[Any]] = field(default_factory=list)
    payments: list[Sequence[Any]] = field(default_factory=list)
    seats: list[Sequence[Any]] = field(default_factory=list)
    settlements: list[Sequence[Any]] = field(default_factory=list)
    # A check since a checkpoint: ``entries[:replayed]`` are earlier entries read only to
    # replay the rest (not chained); the chain goes on from ``start``, after ``offset``
    # entries; only the games and settlements those entries touched were read.
    partial: bool = False
    replayed: int = 0
    start: str = ""
    offset: int = 0
    # What the chain names by number, when the rows read are not all of the book's: each
    # settlement id's number among the sitting's settlements, each entry id's place in its
    # history (None: numbered as read).
    numbers: dict[int, int] | None = None
    places: dict[int, int] | None = None


def _history(query: QuerySet[HistoryEntry]) -> QuerySet[HistoryEntry]:
    return query.annotate(**{f"{c}_text": Cast(c, TextField()) for c in _JSON})


def _decoded(text: str | None) -> Any:
    if text is None or text == "null":
        return None
    if text == "{}":
        return {}
    return json.loads(text)


def _fields(
    row: Sequence[Any],
    numbers: Mapping[int, int],
    places: Mapping[int, int],
    decode: Callable[[str | None], Any],
) -> dict[str, Any]:
    """An entry's chain fields from its ``_ENTRY`` row: its settlement's id turned into the
    settlement's number (``numbers``), the undone entry's id into its place (``places``); an
    id not in the book, as :func:`scoring.engine.chain.entries` has it, into None."""
    columns = list(row[3:])
    for index in _DECODED:
        columns[index] = decode(columns[index])
    columns[_SETTLED] = numbers.get(columns[_SETTLED])
    columns[_UNDOES] = places.get(columns[_UNDOES])
    return chain.sitting_fields(columns)


def _games(query: QuerySet[Game]) -> QuerySet[Game]:
    # The record as the database spells it: decoded once here, and its text is the key
    # under which a record seen before in the sitting is scored once.
    return query.annotate(text=Cast("record", TextField()))


class _Stream:
    """Rows in the order of their first column (a sitting's id), taken a sitting at a time
    as a merge goes through the sittings in that same order."""

    def __init__(self, rows: Iterable[Sequence[Any]]) -> None:
        self._rows = iter(rows)
        self._head = next(self._rows, None)

    def take(self, key: int) -> list[Sequence[Any]]:
        out = []
        head, rows = self._head, self._rows  # locals: every row of the group passes here
        while head is not None and head[0] <= key:
            if head[0] == key:
                out.append(head)
            head = next(rows, None)
        self._head = head
        return out


def _read(sittings: Sequence[tuple[int, Any, int]], where: dict[str, Any]) -> Iterable[_Rows]:
    """Whole sittings (``(pk, rules, stake)`` in id order) read as five streams: ``where``
    (lookups from a row of the sitting's: ``{"sitting__group_id": 7}``) selects their rows."""
    on_game = {f"game__{lookup}": value for lookup, value in where.items()}
    streams = [
        _Stream(
            _history(HistoryEntry.objects.filter(**where)).order_by("sitting_id", "id")
            .values_list(*_ENTRY).iterator(BATCH)
        ),
        _Stream(
            _games(Game.objects.filter(**where)).order_by("sitting_id", "number")
            .values_list(*_GAME).iterator(BATCH)
        ),
        _Stream(
            Payment.objects.current().filter(**on_game)
            .order_by("game__sitting_id", "game_id", "id")
            .values_list(*_PAYMENT).iterator(BATCH)
        ),
        _Stream(
            Seat.objects.filter(**on_game).order_by("game__sitting_id", "game_id", "position")
            .values_list(*_SEAT).iterator(BATCH)
        ),
        _Stream(
            Settlement.objects.filter(**where).order_by("sitting_id", "id")
            .values_list(*_SETTLEMENT).iterator(BATCH)
        ),
    ]  # fmt: skip
    for pk, rules, stake in sittings:
        entries, games, payments, seats, settlements = (s.take(pk) for s in streams)
        yield _Rows(pk, rules, stake, entries, games, payments, seats, settlements)


def _read_since(pk: int, rules: Any, stake: int, mark: _Checkpoint) -> _Rows | None:
    """A sitting's rows after its checkpoint, and what replaying them needs; None when the
    checkpoint cannot be trusted, or a merge after it renamed players (check it whole)."""
    history = HistoryEntry.objects.filter(sitting_id=pk)
    if not history.filter(pk=mark.entry, hash=mark.hash).exists() and mark.entry:
        return None
    later = list(_history(history.filter(id__gt=mark.entry)).order_by("id").values_list(*_ENTRY))
    actions = {row[3] for row in later}
    if actions & {HistoryEntry.Action.MEMBERS, HistoryEntry.Action.MOVED}:
        return None
    games = {row[3 + chain.SITTING_COLUMNS.index("game__number")] for row in later} - {None}
    paid = {row[3 + _SETTLED] for row in later} - {None}
    earlier = list(
        _history(history.filter(id__lte=mark.entry))
        .filter(
            Q(game__number__in=games)
            | Q(settlement_id__in=paid)
            | Q(action=HistoryEntry.Action.MEMBERS)
        )
        .order_by("id")
        .values_list(*_ENTRY)
    )
    on_game = Q(game__sitting_id=pk, game__number__in=games)
    ids = list(Settlement.objects.filter(sitting_id=pk).order_by("id").values_list("pk", flat=True))
    offset, places = _places(history, mark.entry, earlier, later)
    return _Rows(
        pk,
        rules,
        stake,
        entries=earlier + later,
        games=list(
            _games(Game.objects.filter(sitting_id=pk, number__in=games))
            .order_by("number")
            .values_list(*_GAME)
        ),
        payments=list(
            Payment.objects.current()
            .filter(on_game)
            .order_by("game_id", "id")
            .values_list(*_PAYMENT)
        ),
        seats=list(
            Seat.objects.filter(on_game).order_by("game_id", "position").values_list(*_SEAT)
        ),
        settlements=list(
            Settlement.objects.filter(sitting_id=pk, pk__in=paid)
            .order_by("id")
            .values_list(*_SETTLEMENT)
        ),
        partial=True,
        replayed=len(earlier),
        start=mark.hash,
        offset=offset,
        numbers={settlement: number for number, settlement in enumerate(ids, 1)},
        places=places,
    )


def _places(
    history: QuerySet[HistoryEntry],
    mark: int,
    earlier: Sequence[Sequence[Any]],
    later: Sequence[Sequence[Any]],
) -> tuple[int, dict[int, int]]:
    """How many entries the checkpoint covers, and the place in the history of the later
    entries and of every entry one of the rows read undoes (counted, not read)."""
    undone = {row[3 + _UNDOES] for row in [*earlier, *later]} - {None}
    undone -= {row[1] for row in later}
    found = list(history.filter(id__in=undone).values_list("id", flat=True)) if undone else []
    ends = {"offset": mark, **{f"to_{pk}": pk for pk in found}}
    names = list(ends)
    counts: dict[str, int] = {}
    for start in range(0, len(names), 500):  # a few hundred columns a query at most
        counted = {
            name: Count("id", filter=Q(id__lte=ends[name])) for name in names[start : start + 500]
        }
        counts.update(history.aggregate(**counted))
    offset = int(counts["offset"])
    places = {row[1]: place for place, row in enumerate(later, offset + 1)}
    places.update({pk: int(counts[f"to_{pk}"]) for pk in found})
    return offset, places


# --- Checking one sitting's rows --------------------------------------------------------


@dataclass(frozen=True)
class _Result:
    verdict: Verdict
    head: tuple[int, str] | None = None  # its newest entry (id, hash), agreeing


def _check(rows: _Rows) -> _Result:
    try:
        return _check_rows(rows)
    except _UNREADABLE as error:
        return _Result(Verdict("—", _unreadable(error), 0))


def _check_rows(rows: _Rows) -> _Result:
    numbers = rows.numbers
    if numbers is None:
        numbers = {row[1]: number for number, row in enumerate(rows.settlements, 1)}
    places = rows.places
    if places is None:
        places = {row[1]: place for place, row in enumerate(rows.entries, 1)}
    # A sitting's JSON texts decoded once each: an entry's record is most often the text of its
    # game's record (and of other entries' and games' in a sitting that repeats a game), and the
    # values decoded are only read, never changed, by the chain, the replay and the check.
    decode = cache(_decoded)
    items = [(row[1], row[2], _fields(row, numbers, places, decode)) for row in rows.entries]
    chained = items[rows.replayed :]
    head = rows.start
    for position, (_pk, stored, data) in enumerate(chained, rows.offset + 1):
        head = chain.link(head, chain.canonical(data))
        if head != stored:
            broken = Mismatch(replay.entry_changed(position, data), data.get("game"), position)
            return _Result(Verdict(chain.fingerprint(chained[-1][1]), broken, len(chained)))
    fingerprint = chain.fingerprint(head)
    newest = (chained[-1][0], head) if chained else None

    def verdict(found: Mismatch | None) -> Verdict:
        return Verdict(fingerprint, found, len(chained), len(rows.games))

    book = replay.replay(data for _pk, _hash, data in items)
    try:
        prices = engine.Prices(engine.ruleset_from_dict(rows.rules), rows.stake)
    except (engine.InvalidRuleSet, engine.InvalidRecord, TypeError, ValueError, KeyError):
        return _Result(verdict(Mismatch(_("Luật của bàn không đọc được."))))
    payments: dict[int, list[tuple[str, str, int, str]]] = defaultdict(list)
    for row in rows.payments:  # (sitting, game, *payment)
        payments[row[1]].append(tuple(row[2:]))
    seats: dict[int, list[tuple[str, int, int | None, bool, int, int]]] = defaultdict(list)
    for row in rows.seats:  # (sitting, game, player, *seat)
        seats[row[1]].append(tuple(row[3:]))
    scorer = _scorer(prices)
    for _sitting, pk, number, revision, text, status in rows.games:
        record = decode(text)
        void = status == Game.Status.VOID
        found = replay.check_game(
            number,
            book.games.get(number),
            record=record if isinstance(record, dict) else {},
            revision=revision,
            void=void,
            prices=prices,
            payments=payments.get(pk, []),
            seats=seats.get(pk, []),
            scorer=partial(scorer, text),
        )
        if found is not None:
            return _Result(verdict(found))
    # Read in part, the book replayed holds only the games the later entries touched.
    extra = sorted(set(book.games) - {row[2] for row in rows.games})
    if extra:
        return _Result(verdict(replay.game_mismatch(extra[0], "extra")))
    found = _settlements([(row[1], *row[4:]) for row in rows.settlements], book, rows.numbers)
    if found is not None:
        return _Result(verdict(found))
    return _Result(verdict(None), head=newest)


def _scorer(prices: engine.Prices) -> Callable[[str, Mapping[str, Any]], replay.Scored]:
    """Each distinct record of a sitting (by its text) scored once by the engine: the same
    record under the same rules and stake always scores the same (both only read)."""
    seen: dict[str, replay.Scored | engine.InvalidRecord] = {}

    def score(text: str, record: Mapping[str, Any]) -> replay.Scored:
        if text not in seen:
            try:
                seen[text] = replay.score(prices, record)
            except engine.InvalidRecord as error:
                seen[text] = error
        if isinstance(known := seen[text], engine.InvalidRecord):
            raise known
        return known

    return score


def _settlements(
    rows: Sequence[Sequence[Any]], book: replay.Book, numbers: Mapping[int, int] | None = None
) -> Mismatch | None:
    """Each settlement (pk, payer, payee, amount, void; in the order they were made) against
    its history, which names a settlement by its number in the book: its place in ``rows``,
    or in ``numbers`` (settlement id -> number) when only some were read."""
    seen = set()
    for position, (pk, *stored) in enumerate(rows, 1):
        number = position if numbers is None else numbers[pk]
        seen.add(number)
        want = book.settlements.get(number)
        if want is None or tuple(stored) != (want.payer, want.payee, want.amount, want.void):
            return replay.settlement_mismatch(number)
    missing = [number for number in book.settlements if number not in seen]
    if missing:
        # Read whole, the first one past the stored ones; read in part, the one not found.
        known = [number for number in missing if isinstance(number, int)]
        first = min(known) if numbers is not None and known else len(rows) + 1
        return replay.settlement_mismatch(first)
    return None


def _remember(heads: Mapping[int, tuple[int, str]], *, group: bool = False) -> None:
    """The checkpoint of each book found agreeing (by id: its newest entry's id and hash), on
    its ``BookCheck``: only the checkpoint is written, the last verdict shown stays as
    ``services.book_check_record`` kept it. A book checked for the first time gets its row,
    agreeing (what a check that passes would keep)."""
    key = "group" if group else "sitting"
    now = timezone.now()
    BookCheck.objects.bulk_create(
        [
            BookCheck(
                **{f"{key}_id": pk},
                checked_at=now,
                checkpoint_entry=entry,
                checkpoint_hash=digest,
                checkpoint_at=now,
            )
            for pk, (entry, digest) in heads.items()
        ],
        update_conflicts=True,
        unique_fields=[key],
        update_fields=["checkpoint_entry", "checkpoint_hash", "checkpoint_at"],
        batch_size=500,
    )


def _checkpoints(sittings: Sequence[int]) -> dict[int, _Checkpoint]:
    """The checkpoints of those of ``sittings`` (ids) that have one."""
    rows = BookCheck.objects.filter(
        sitting_id__in=sittings, checkpoint_entry__isnull=False
    ).values_list("sitting_id", "checkpoint_entry", "checkpoint_hash", "checkpoint_at")
    return {
        pk: _Checkpoint(entry, digest, at)
        for pk, entry, digest, at in rows
        if pk is not None and entry is not None and at is not None
    }


# --- Sittings and groups ----------------------------------------------------------------


def verify_sitting(sitting: Sitting, *, since: bool = False) -> Verdict:
    """A sitting whole, or (``since``) what came after its checkpoint when it has one."""
    books = [(sitting.pk, sitting.rules, sitting.stake)]
    return _run(books, since=since, where={"sitting_id": sitting.pk})[sitting.pk]


def _run(
    books: Sequence[tuple[int, Any, int]], *, since: bool, where: dict[str, Any]
) -> dict[int, Verdict]:
    """Sittings (``(pk, rules, stake)`` in id order; ``where`` selects all their rows),
    each checked; the checkpoints of those found agreeing moved on."""
    results: dict[int, _Result] = {}
    whole = list(books)
    if since:
        whole = []
        ids = [pk for pk, _rules, _stake in books]
        marks = _checkpoints(ids)
        newest: dict[int, int] = dict(
            HistoryEntry.objects.filter(sitting_id__in=list(marks))
            .values_list("sitting_id")
            .annotate(Max("id"))
            .order_by()
        )
        for pk, rules, stake in books:
            mark = marks.get(pk)
            last = newest.get(pk, 0)
            if mark is None or last < mark.entry:
                whole.append((pk, rules, stake))
            elif last == mark.entry:  # nothing new since the checkpoint
                nothing = Verdict(chain.fingerprint(mark.hash), None, 0, since=mark.at)
                results[pk] = _Result(nothing)
            elif (rows := _read_since(pk, rules, stake, mark)) is None:
                whole.append((pk, rules, stake))
            else:
                result = _check(rows)
                verdict = replace(result.verdict, since=mark.at)
                results[pk] = replace(result, verdict=verdict)
    if len(whole) < len(books):
        where = {"sitting_id__in": [pk for pk, _rules, _stake in whole]}
    for rows in _read(whole, where) if whole else []:
        results[rows.pk] = _check(rows)
    _remember({pk: r.head for pk, r in results.items() if r.verdict.ok and r.head is not None})
    return {pk: r.verdict for pk, r in results.items()}


def verify_group(group: Group, *, sittings: bool = True, since: bool = False) -> Verdict:
    """The group's own chain and group-wide settlements, then (``sittings``) each of its
    sittings, whole or (``since``) from their checkpoints."""
    checkpoint_at = (
        BookCheck.objects.filter(group=group, checkpoint_entry__isnull=False)
        .values_list("checkpoint_at", flat=True)
        .first()
    )
    try:
        rows = chain.entries(GroupHistoryEntry, group.pk)
        items = [(chain.fields(e), e.hash) for e in rows]
        head, broken = replay.chain_mismatch(items)
    except _UNREADABLE as error:
        return Verdict("—", _unreadable(error), 0)
    if broken is not None:
        return Verdict(chain.fingerprint(rows[-1].hash), broken, len(rows))
    fingerprint = group_fingerprint(group_covers(group, head))
    settlements = Settlement.objects.filter(group=group).order_by("id")
    found = _settlements(
        list(settlements.values_list("pk", "payer__name", "payee__name", "amount", "is_void")),
        replay.replay(d for d, _h in items),
    )
    if found is None:
        found = carried_mismatch(group, rows)
    if found is not None:
        return Verdict(fingerprint, found, len(rows))
    books = list(
        Sitting.objects.filter(group=group).order_by("id").values_list("pk", "rules", "stake")
    )
    verdicts = _run(books, since=since, where={"sitting__group_id": group.pk}) if sittings else {}
    if failed := [pk for pk, verdict in verdicts.items() if not verdict.ok]:
        # The first sitting by date that disagrees is named.
        first = Sitting.objects.filter(pk__in=failed).order_by("date", "id")
        for pk, name in first.values_list("pk", "name")[:1]:
            mismatch = verdicts[pk].mismatch
            assert mismatch is not None
            where = _("Bàn %(name)s (số %(id)d): ") % {"name": name, "id": pk}
            return Verdict(fingerprint, Mismatch(where + mismatch.message), len(rows))
    if rows:
        _remember({group.pk: (rows[-1].pk, head)}, group=True)
    read = [v for v in verdicts.values() if v.since is None or v.entries]
    return Verdict(
        fingerprint,
        None,
        len(rows),
        games=sum(v.games for v in read),
        since=checkpoint_at if since else None,
        sittings=len(read),
    )


def carried_mismatch(group: Group, entries: Sequence[GroupHistoryEntry]) -> Mismatch | None:
    """Each standing close carried (its history entry's ``carried``) what the sittings and
    group-wide settlements it closed add up to, player by player. A merged player's part is
    counted as the player it was merged into's, on both sides (a merge after a close moves
    the rows, not the entry)."""
    closes = list(PeriodClose.objects.filter(group=group).order_by("id"))
    standing = {c.pk: (n, c) for n, c in enumerate(closes, 1) if c.undone_at is None}
    if not standing:
        return None
    players = group_players(group)
    by_pk = {p.pk: p for p in players}

    def root(pk: int) -> int:
        seen = set()
        while (up := by_pk[pk].merged_into_id if pk in by_pk else None) and pk not in seen:
            seen.add(pk)
            pk = up
        return pk

    for entry in entries:
        if (
            entry.action != GroupHistoryEntry.Action.PERIOD_CLOSED
            or entry.period_id not in standing
        ):
            continue
        n, close = standing[entry.period_id]
        after = entry.after if isinstance(entry.after, dict) else {}
        said_raw = after.get("carried", {})
        said: dict[int, int] = defaultdict(int)
        for name, amount in said_raw.items() if isinstance(said_raw, dict) else ():
            # The name as it was at the close: a player made by then (merged since or not).
            named = [
                p
                for p in players
                if p.name == name and (close.created_at is None or p.created_at <= close.created_at)
            ] or [p for p in players if p.name == name]
            said[root(named[0].pk) if named else -1] += amount if isinstance(amount, int) else 0
        summed: dict[int, int] = defaultdict(int)
        for pk, amount in GroupLedger.load(group, closing=close).opening.items():
            summed[root(pk)] += amount
        said_now = {pk: a for pk, a in said.items() if a}
        summed_now = {pk: a for pk, a in summed.items() if a}
        if said_now != summed_now:
            pk = min(k for k in said_now | summed_now if said_now.get(k) != summed_now.get(k))
            name = by_pk[pk].name if pk in by_pk else "?"
            return Mismatch(
                _(
                    "Chốt sổ số %(n)d (đến hết ngày %(day)s): số dư mang sang của %(name)s là "
                    "%(said)s, các bàn và khoản thanh toán đã chốt cộng lại %(sum)s."
                )
                % {
                    "n": n,
                    "day": close.closes_through.isoformat(),
                    "name": name,
                    "said": vnd(said_now.get(pk, 0)),
                    "sum": vnd(summed_now.get(pk, 0)),
                }
            )
    return None


# --- Witnesses --------------------------------------------------------------------------

# Each earlier entry is sent as the first 16 hex digits of its hash: enough for a phone to
# notice a change, a sixth of the bytes.
PREFIX = 16


def head_info(sitting: Sitting) -> dict[str, Any]:
    """The book's length, head and fingerprint, as the live page hands them to a witness."""
    rows = HistoryEntry.objects.filter(sitting=sitting)
    head = chain.head_of(HistoryEntry, sitting.pk)
    return {"count": rows.count(), "head": head, "fingerprint": chain.fingerprint(head)}


def witness(sitting: Sitting, since: int) -> dict[str, Any]:
    """What a phone that has seen the first ``since`` entries needs to check the book only
    grew: every entry's hash *recomputed* from what the database holds now (short, up to
    ``since``), so an entry edited in place shows as changed as surely as one rewritten with
    its hashes; and each later entry in full (its canonical JSON, stored hash, game and time),
    for the phone to chain from the hash it remembers with its own SHA-256."""
    rows = chain.entries(HistoryEntry, sitting.pk)
    since = max(0, min(since, len(rows)))
    head = ""
    earlier: list[str] = []
    later: list[dict[str, Any]] = []
    for position, entry in enumerate(rows, 1):
        data = chain.fields(entry)
        text = chain.canonical(data)
        head = chain.link(head, text)
        if position <= since:
            earlier.append(head[:PREFIX])
        else:
            later.append(
                {
                    "n": position,
                    "hash": entry.hash,
                    "game": data.get("game"),
                    "at": data["at"],
                    "data": text.decode(),
                }
            )
    return {
        "count": len(rows),
        "since": since,
        "earlier": earlier,
        "entries": later,
        "fingerprint": chain.fingerprint(rows[-1].hash if rows else ""),
    }
