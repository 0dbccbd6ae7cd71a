"""Reading and checking a game record against a rule set.

:func:`parse_record` collects every problem of a record (wrong types, unknown fields, and each
bad case docs/record-format.md#bad-records lists) and raises one :class:`InvalidRecord`;
otherwise it returns a :class:`GameRecord` that scoring can trust.

Decisions where the rules leave room (docs/record-format.md#engine-choices):

* A record may carry ``"version": 1``; any other version is refused.
* ``finish`` in first_out may list more than the winner (the format's example does); only the
  first entry matters, the others must still be distinct players.
* In a tới trắng record the other fields may be present when empty (``null``, ``false``, ``[]``,
  ``{}``), so a form that always sends every key is fine. ``hands`` there is the hand dealt:
  ``cards`` defaults to 13 and must be 13. The hands are read and checked under any rule set:
  records are facts, and the rule set decides the money. Under one that does not count thối on
  that tới trắng they cost nothing, and :func:`.payout.score_game` notes that they were set aside.
* In placement a loser holding 13 cards who is not listed in ``cong`` is refused (first_out marks
  them cóng by itself, as the rules book says; in placement cóng changes the rank values, so the
  scorekeeper must say it).
* In a kết 3 bích, chặn kết 3 bích or cóng-cả-làng game, card counts do not change money, so a
  loser may be recorded without cards; what is recorded is still checked.
* A kết 3 bích or a chặn kết 3 bích is a fact of the game, accepted under any rule set; only
  one with a kết 3 bích value prices it (otherwise :func:`.payout.score_game` prices the game
  as any other and notes it, so every loser needs their cards). It cannot be combined with kết
  3 bích in one game (there is one 3♠). The stopped player may be listed in ``last_round``
  (they took part); they never pay themself. A cóng player cannot be in the last round (they
  had played nothing) nor be the stopped player.
* ``victim_out``: the last chopped player went out with the chopped play, so they must have
  finished: in a game that stops at the first player out, they are the winner; in placement,
  they are not the player left holding cards.
* Three 2s can be written as a ``heo``/``doi_heo`` step naming three 2s, or ``"play": "ba_heo"``;
  either way a chop of it is refused with "nothing chops three 2s".
* ``den`` must be a losing player, cóng or not (with three cóng every loser is cóng, and that is
  when đền is considered). The rule set's ``den_when`` says in which games it may be recorded;
  the losers are every player but the winner, whatever the finish order lists.
* A chop the rule set's ``chops`` table leaves out is refused naming the rule set when the standard
  table allows it, and as an illegal chop otherwise.
* ``two_out`` (a player whose last card was a 2) is read only under ``two_out = "bet"``. In
  placement the record itself ranks that player last among those not cóng (the engine does not
  reorder a finish), holding nothing, and the player just above may hold cards; in first_out
  they hold nothing and the rule set must say ``two_out_cards``.
* ``5dt`` is a count of 0 or 1 (five pairs take 10 of 13 cards).
* With ``ket_3_bich_mode = "plus"`` or ``chan_ket_keeps_cards`` the card counts carry money, so
  every loser of such a game needs their cards recorded, as in any first_out game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from .cards import (
    CARD_STRENGTH,
    HANDS,
    HEO_CARDS,
    PLAYS,
    can_chop,
    card_label,
    parse_card,
)
from .messages import Words
from .problems import InvalidRecord, Problem
from .record import (
    EMPTY_HAND,
    ChanKet3Bich,
    ChatChain,
    ChatStep,
    GameRecord,
    Hand,
    ToiTrang,
    record_from_dict,
)
from .rules import RuleSet, _show

#: Every field of a rule set that reading a record looks at, but its name (which only words
#: the messages). Two rule sets alike in these accept the same records and read each the same
#: (``tests/engine`` holds this list to the code below).
RECORD_CHECKS = (
    "mode", "cong_ca_lang", "ket_3_bich", "ket_3_bich_mode", "chan_ket_keeps_cards", "den_when",
    "two_out", "two_out_cards", "toi_trang_hands", "toi_trang_opening_only",
    "toi_trang_outside_opening", "chops",
)  # fmt: skip

_RECORD_KEYS = frozenset(
    {"version", "players", "opening", "finish", "hands", "cong", "chat", "toi_trang", "den",
     "ket_3_bich", "chan_ket_3_bich", "two_out"}
)  # fmt: skip
_HAND_FIELDS = frozenset({"cards", "heo", "3dt", "tq", "4dt", "5dt"})
_CARDS_ONLY = frozenset({"cards"})
_HANG = ("3dt", "tq", "4dt", "5dt")
# A hand of plain cards (no heo, no hàng) is one of these: hands are values, so one each will do.
_PLAIN_HANDS = tuple(Hand(cards) for cards in range(14))
_STEP_KEYS = frozenset({"player", "play", "cards", "top"})
_CHAIN_KEYS = frozenset({"steps", "victim_out"})
_THREE_HEO = "ba_heo"
_HEO_SET = frozenset(HEO_CARDS)
_HEO_COUNT = {"heo": 1, "doi_heo": 2}
#: How a refused chop names the chopper; three 2s never chop anything.
_PLAY_NAMES = {**PLAYS, _THREE_HEO: "ba con heo"}


def _is_map(value: object) -> TypeGuard[Mapping[str, Any]]:
    # dict first: the ABC check is slow, and records are parsed JSON.
    return isinstance(value, dict | Mapping)


def _plain(hand: Mapping[str, Any]) -> bool:
    """Whether a hand holds plain cards only, written out in full as a stored record has it
    (no heo, every hàng count a plain 0): read as its count of cards alone."""
    heo = hand.get("heo")
    if heo is not None and heo != []:
        return False
    for key in _HANG:
        value = hand.get(key, 0)
        if type(value) is not int or value:
            return False
    return True


def _empty(value: object) -> bool:
    return value is None or value is False or value == [] or value == {}


def _written(chain: int, player: str | None) -> Words:
    """Where a 2 was written, in words: in ``player``'s hand (``chain`` 0), or in chặt chain
    number ``chain`` (from 1), played by ``player`` when that step names a known player."""
    if not chain:
        return Words(f"trên tay {player}", f"in {player}'s hand")
    if player is None:
        return Words(f"trong lần chặt {chain}", f"in chop {chain}")
    return Words(f"trong lần chặt {chain} ({player} đánh)", f"in chop {chain} (played by {player})")


class _Checker:
    """Holds the problems and the names while one record is read."""

    __slots__ = ("bad_hands", "check_names", "heo_seen", "known", "problems", "rules")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.problems: list[Problem] = []
        self.known: set[str] = set()
        self.check_names = False
        self.heo_seen: dict[str, tuple[int, str | None]] = {}  # card -> where (see _written)
        # Players whose recorded hand is itself wrong: no further checks on it, so a bad count
        # is reported once rather than again as "holds no cards".
        self.bad_hands: set[str] = set()

    def add(self, path: str, code: str, **params: Any) -> None:
        self.problems.append(Problem(path, code, params))

    def is_player(self, value: object) -> TypeGuard[str]:
        """Whether ``value`` names a player of the record (any string before ``players`` is
        read)."""
        return isinstance(value, str) and (not self.check_names or value in self.known)

    def name(self, path: str, value: object, field: str = "") -> str | None:
        """A player name that is in ``players``, or None (with a problem at ``path`` +
        ``field``: the two are joined only for a problem, as a record is read field by field
        and most have none)."""
        if self.is_player(value):
            return value
        if not isinstance(value, str):
            self.add(path + field, "not_a_player", value=_show(value))
        else:
            self.add(path + field, "unknown_player", player=value)
        return None

    def is_object(self, value: object, path: str) -> TypeGuard[Mapping[str, Any]]:
        """Whether ``value`` is an object (``is_list``: a list); else a problem at ``path``."""
        if _is_map(value):
            return True
        self.add(path, "not_an_object", value=_show(value))
        return False

    def is_list(self, value: object, path: str) -> TypeGuard[list[Any]]:
        if isinstance(value, list):
            return True
        self.add(path, "not_a_list", value=_show(value))
        return False

    def names(self, path: str, value: object) -> list[str] | None:
        """A list of distinct known players."""
        if not self.is_list(value, path):
            return None
        out: list[str] = []
        for i, item in enumerate(value):
            if not self.is_player(item):
                self.name(path, item, f"[{i}]")  # says what is wrong with it
            elif item in out:
                self.add(f"{path}[{i}]", "duplicate_in_list", player=item)
            else:
                out.append(item)
        return out

    def boolean(self, data: Mapping[str, Any], key: str, where: str = "") -> bool:
        """``data[key]``, true or false (missing or null: false); a problem at ``where``.``key``
        (``key`` alone for the record) otherwise."""
        value = data.get(key)
        if value is None or isinstance(value, bool):
            return bool(value)
        self.add(f"{where}.{key}" if where else key, "not_a_bool", value=_show(value))
        return False

    def unknown_keys(self, data: Mapping[str, Any], allowed: frozenset[str], path: str) -> None:
        """A problem for each key of ``data`` (at ``path``, "" for the record) not in
        ``allowed``."""
        if data.keys() <= allowed:
            return
        for key in data:
            if key not in allowed:
                self.add(f"{path}.{key}" if path else str(key), "unknown_field")

    def heo(self, path: str, value: object, chain: int, player: str | None) -> str | None:
        """A 2, counted once in the whole record: written in ``player``'s hand (``chain`` 0) or
        in a step of chặt chain number ``chain``. A second mention names the first one as a
        player would (:func:`_written`, worded only then)."""
        card = parse_card(value)
        if card is None:
            self.add(path, "unknown_card", value=_show(value))
            return None
        if card not in _HEO_SET:
            self.add(path, "not_a_heo", card=card_label(card))
            return None
        first = self.heo_seen.get(card)
        if first is not None:
            self.add(path, "duplicate_heo", card=card_label(card), other=_written(*first))
            return None
        self.heo_seen[card] = (chain, player)
        return card

    def count(self, where: str, key: str, value: object, high: int) -> int | None:
        """A count from 0 to ``high``; a problem at ``where``.``key`` otherwise (the path is
        written only then)."""
        if type(value) is int and 0 <= value <= high:
            return value
        path = f"{where}.{key}"
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(path, "not_an_int", value=_show(value))
            return None
        if not 0 <= value <= high:
            self.add(path, "count_out_of_range", value=value, high=high)
            return None
        return value

    def hands(self, raw: object, dealt: bool) -> dict[str, Hand]:
        """``hands``: what each player still held (``dealt``: the tới trắng hand, 13 cards)."""
        if raw is None:
            return {}
        if not self.is_object(raw, "hands"):
            return {}
        out: dict[str, Hand] = {}
        for player, item in raw.items():
            path = f"hands.{player}"
            if self.check_names and player not in self.known:
                self.add(path, "unknown_player", player=str(player))
                continue
            if not self.is_object(item, path):
                self.bad_hands.add(player)
                continue
            self.unknown_keys(item, _HAND_FIELDS, path)
            cards = self.count(path, "cards", item.get("cards", 13 if dealt else 0), 13)
            if dealt and cards is not None and cards != 13:
                self.add(f"{path}.cards", "dealt_hand_not_13", cards=cards)
            if item.keys() <= _CARDS_ONLY or _plain(item):  # most hands: plain cards
                if cards is None:
                    self.bad_hands.add(player)
                elif cards:
                    out[player] = _PLAIN_HANDS[cards]
                continue
            heo: list[str] = []
            raw_heo = item.get("heo")
            if raw_heo is not None and self.is_list(raw_heo, f"{path}.heo"):
                for i, text in enumerate(raw_heo):
                    card = self.heo(f"{path}.heo[{i}]", text, 0, player)
                    if card is not None:
                        heo.append(card)
            # At most one 5 đôi thông: it takes 10 of the 13 cards.
            read = [self.count(path, k, item.get(k, 0), 1 if k == "5dt" else 13) for k in _HANG]
            hang = [count for count in read if count is not None]
            if cards is None or len(hang) < len(read):
                self.bad_hands.add(player)
                continue
            heo.sort(key=CARD_STRENGTH.__getitem__)
            hand = Hand(cards, tuple(heo), *hang)
            special = hand.special_cards
            if special > cards:
                self.add(f"{path}.cards", "special_exceeds_cards", player=player, cards=cards,
                         special=special)  # fmt: skip
            if cards or special:
                out[player] = hand
        return out

    def step(self, path: str, raw: object, chain_no: int) -> ChatStep | None:
        if not self.is_object(raw, path):
            return None
        self.unknown_keys(raw, _STEP_KEYS, path)
        ok = True
        if "player" not in raw:
            self.add(f"{path}.player", "missing_field")
            player = None
        else:
            player = self.name(path, raw["player"], ".player")
        play = raw.get("play")
        if play is None:
            self.add(f"{path}.play", "missing_field")
            return None
        if not isinstance(play, str) or (play != _THREE_HEO and play not in PLAYS):
            self.add(f"{path}.play", "unknown_play", value=_show(play))
            return None
        raw_cards = raw.get("cards")
        heo_play = play in _HEO_COUNT
        read: list[str | None] = []  # the 2s it names, None for each that cannot be read
        if heo_play and raw_cards is None:
            self.add(f"{path}.cards", "heo_step_needs_cards", play=PLAYS[play])
            ok = False
        elif heo_play and not self.is_list(raw_cards, f"{path}.cards"):
            ok = False
        elif isinstance(raw_cards, list) and (heo_play or play == _THREE_HEO):
            read = [self.heo(f"{path}.cards[{k}]", t, chain_no, player)
                    for k, t in enumerate(raw_cards)]  # fmt: skip
        elif play != _THREE_HEO and raw_cards is not None:
            self.add(f"{path}.cards", "cards_only_for_heo", play=PLAYS[play])
            ok = False
        cards = [card for card in read if card is not None]
        if heo_play and ok:
            if len(cards) < len(read):
                ok = False
            elif len(cards) == 3:
                play = _THREE_HEO  # three 2s: nothing chops them
            elif len(cards) != _HEO_COUNT[play]:
                self.add(f"{path}.cards", "wrong_heo_count", play=PLAYS[play],
                         expected=_HEO_COUNT[play], count=len(cards))  # fmt: skip
                ok = False
        top: str | None = None
        if raw.get("top") is not None:
            if play not in ("3dt", "tq", "4dt"):
                self.add(f"{path}.top", "top_only_for_hang")
                ok = False
            else:
                top = parse_card(raw["top"])
                if top is None:
                    self.add(f"{path}.top", "unknown_card", value=_show(raw["top"]))
                    ok = False
                elif play != "tq" and top in _HEO_SET:
                    self.add(f"{path}.top", "heo_in_run", card=card_label(top))
                    ok = False
        if player is None or not ok:
            return None
        cards.sort(key=CARD_STRENGTH.__getitem__)
        return ChatStep(player, play, tuple(cards), top)

    def chain(self, index: int, raw: object) -> ChatChain | None:
        """``chat[index]``: one chặt chain, its steps in order."""
        path = f"chat[{index}]"
        if not self.is_object(raw, path):
            return None
        self.unknown_keys(raw, _CHAIN_KEYS, path)
        victim_out = self.boolean(raw, "victim_out", path)
        raw_steps = raw.get("steps")
        if not isinstance(raw_steps, list):
            self.add(f"{path}.steps", "not_a_list" if "steps" in raw else "missing_field",
                     value=_show(raw_steps))  # fmt: skip
            return None
        if len(raw_steps) < 2:
            self.add(f"{path}.steps", "chain_too_short", count=len(raw_steps))
        ok = len(raw_steps) >= 2
        steps: list[ChatStep] = []
        prev: ChatStep | None = None
        for j, raw_step in enumerate(raw_steps):
            at = f"{path}.steps[{j}]"
            this = self.step(at, raw_step, index + 1)
            if this is None:
                ok = False
            else:
                if prev is not None and not self.chops(at, this, prev):
                    ok = False
                steps.append(this)
            prev = this  # a step that cannot be read is checked against nothing
        if not ok:
            return None
        return ChatChain(tuple(steps), victim_out)

    def chops(self, path: str, this: ChatStep, prev: ChatStep) -> bool:
        """Whether step ``this`` (at ``path``) may chop the step before it; a problem for each
        reason it may not (a player chopping themself, and what they chopped it with)."""
        ok = True
        if this.player == prev.player:
            self.add(f"{path}.player", "self_chop", player=this.player)
            ok = False
        if prev.play == _THREE_HEO:
            self.add(f"{path}.play", "nothing_chops_three_heo")
            return False
        if not can_chop(this.play, prev.play, self.rules.chops):
            if can_chop(this.play, prev.play):
                self.add(f"{path}.play", "chop_not_in_rules", rules=self.rules.name,
                         chopper=PLAYS[this.play], chopped=PLAYS[prev.play])  # fmt: skip
            else:
                self.add(f"{path}.play", "illegal_chop", chopper=_PLAY_NAMES[this.play],
                         chopped=PLAYS[prev.play])  # fmt: skip
            return False
        if (
            this.play == prev.play
            and this.top is not None
            and prev.top is not None
            and CARD_STRENGTH[this.top] <= CARD_STRENGTH[prev.top]
        ):
            self.add(f"{path}.top", "chop_not_bigger", play=PLAYS[this.play],
                     top=card_label(this.top), other=card_label(prev.top))  # fmt: skip
            return False
        return ok


def den_allowed(rules: RuleSet, losers: Collection[str], cong: Collection[str]) -> bool:
    """Whether the rule set's ``den_when`` lets a game record đền, when ``losers`` are every
    player but the winner and ``cong`` the cóng players. The record form offers đền only then,
    and the checker refuses it otherwise."""
    when = rules.den_when
    if when == "any_cong":
        return any(p in cong for p in losers)
    if when == "all_cong":
        return bool(losers) and all(p in cong for p in losers)
    if when == "always":
        return bool(losers)
    return False


def checks_alike(one: RuleSet, other: RuleSet) -> bool:
    """Whether the two rule sets check a record alike (every field of ``RECORD_CHECKS``)."""
    return one is other or all(getattr(one, f) == getattr(other, f) for f in RECORD_CHECKS)


def parse_stored(data: Mapping[str, Any], rules: RuleSet, stored_under: RuleSet) -> GameRecord:
    """A stored game's record (the canonical form ``parse_record`` accepted under
    ``stored_under``) read under ``rules``: without a second check when ``rules`` checks
    records as ``stored_under`` does (it would accept it and read the same record), else
    checked again by :func:`parse_record`, which may refuse it."""
    if checks_alike(rules, stored_under):
        return record_from_dict(data)
    return parse_record(data, rules)


def parse_record(data: object, rules: RuleSet) -> GameRecord:
    """Read a version-1 game record; raise :class:`InvalidRecord` with every problem found."""
    c = _Checker(rules)
    if not _is_map(data):
        raise InvalidRecord([Problem("", "not_an_object", {"value": _show(data)})])
    c.unknown_keys(data, _RECORD_KEYS, "")
    if "version" in data and (data["version"] != 1 or isinstance(data["version"], bool)):
        c.add("version", "unknown_version", value=_show(data["version"]))
    players = _players(c, data.get("players"))
    opening = c.boolean(data, "opening")
    raw_toi = data.get("toi_trang")
    if raw_toi is not None:
        return _toi_trang_record(c, data, raw_toi, tuple(players), opening)
    # Read every field first, then check how they fit together.
    g = _read_game(c, data, players)
    _check_cong(c, g)
    _check_cards_held(c, g)
    _check_chains(c, g)
    _check_den(c, g)
    _check_chan(c, g)
    _check_two_out(c, g)
    if c.problems:
        raise InvalidRecord(c.problems)
    return GameRecord(
        players=tuple(players),
        opening=opening,
        finish=tuple(g.finish),
        hands={p: g.hands[p] for p in players if p in g.hands},
        cong=tuple(p for p in players if p in g.cong),
        chat=tuple(g.chains),
        toi_trang=None,
        den=g.den,
        ket_3_bich=g.ket,
        chan_ket_3_bich=g.chan,
        two_out=g.two_out,
    )


@dataclass(slots=True)
class _Game:
    """A game's fields as read, and what checking how they fit together works out."""

    players: list[str]
    finish: list[str]
    winner: str | None  # the first entry of finish, when that entry is a valid player
    hands: dict[str, Hand]
    listed_cong: list[str]
    chains: list[ChatChain]
    den: str | None
    ket: bool
    chan: ChanKet3Bich | None
    two_out: str | None
    cong: set[str] = field(default_factory=set)
    ca_lang: bool = False
    stops_at_first_out: bool = False
    last_holder: str | None = None


def _players(c: _Checker, raw: object) -> list[str]:
    """``players``: from here on a name is checked against them."""
    players: list[str] = []
    if raw is None:
        c.add("players", "missing_field")
    elif c.is_list(raw, "players"):
        for i, name in enumerate(raw):
            if not isinstance(name, str) or not name.strip():
                c.add(f"players[{i}]", "bad_player_name", value=_show(name))
            elif name in c.known:
                c.add(f"players[{i}]", "duplicate_player", player=name)
            else:
                c.known.add(name)
                players.append(name)
        if not 2 <= len(raw) <= 4:
            c.add("players", "player_count", count=len(raw))
        c.check_names = True
    return players


def _read_game(c: _Checker, data: Mapping[str, Any], players: list[str]) -> _Game:
    finish: list[str] = []
    raw_finish = data.get("finish")
    if raw_finish is None or raw_finish == []:
        c.add("finish", "no_winner")
    else:
        finish = c.names("finish", raw_finish) or []
    hands = c.hands(data.get("hands"), dealt=False)
    raw_cong = data.get("cong")
    listed_cong = (c.names("cong", raw_cong) or []) if raw_cong is not None else []
    chains: list[ChatChain] = []
    raw_chat = data.get("chat")
    if raw_chat is not None and c.is_list(raw_chat, "chat"):
        chains = [chain for i, raw in enumerate(raw_chat) if (chain := c.chain(i, raw)) is not None]
    den = c.name("den", data["den"]) if data.get("den") is not None else None
    ket = c.boolean(data, "ket_3_bich")
    raw_chan = data.get("chan_ket_3_bich")
    chan = _chan(c, raw_chan) if raw_chan is not None else None
    two_out = c.name("two_out", data["two_out"]) if data.get("two_out") is not None else None
    first = finish and isinstance(raw_finish, list) and raw_finish[0] == finish[0]
    winner = finish[0] if first else None
    return _Game(players, finish, winner, hands, listed_cong, chains, den, ket, chan, two_out)


def _check_cong(c: _Checker, g: _Game) -> None:
    """Who is cóng: those listed (with 13 cards), and in first_out any loser with 13 cards."""
    first_out = c.rules.mode == "first_out"
    g.cong = cong = set(g.listed_cong)
    for i, player in enumerate(g.listed_cong):
        if player == g.winner:
            c.add(f"cong[{i}]", "cong_is_winner", player=player)
        elif (cards := g.hands.get(player, EMPTY_HAND).cards) < 13 and player not in c.bad_hands:
            c.add(f"hands.{player}.cards", "cong_needs_13", player=player, cards=cards)
    for player, hand in g.hands.items():
        if hand.cards == 13 and player != g.winner and player not in cong:
            if first_out:
                cong.add(player)  # a first_out loser with 13 cards is cóng, listed or not
            else:
                c.add(f"hands.{player}.cards", "thirteen_not_cong", player=player)
    g.ca_lang = c.rules.cong_ca_lang is not None and bool(cong)
    g.stops_at_first_out = first_out or g.ca_lang


def _check_cards_held(c: _Checker, g: _Game) -> None:
    """Who holds cards: not the winner; in first_out every loser (placement: ``_check_ranks``)."""
    rules = c.rules
    if g.winner is not None and (held := g.hands.get(g.winner)) is not None:
        c.add(f"hands.{g.winner}.cards", "winner_holds_cards", player=g.winner, cards=held.cards)
    # Card money is not paid in a kết 3 bích "instead" or plain chặn game, so losers may be
    # recorded without cards there; a rule set without kết 3 bích prices such a game as any.
    no_card_money = rules.ket_3_bich is not None and (
        (g.ket and rules.ket_3_bich_mode == "instead")
        or (g.chan is not None and not rules.chan_ket_keeps_cards)
    )
    if not g.stops_at_first_out:
        _check_ranks(c, g)
    elif rules.mode == "first_out" and not no_card_money and not g.ca_lang:
        for player in g.players:
            if player == g.winner or player in g.hands or player in c.bad_hands:
                continue
            if player == g.two_out and rules.two_out == "bet":
                continue  # they went out; the rule set says what their 2 costs
            if g.winner is not None:
                c.add(f"hands.{player}.cards", "loser_without_cards", player=player)


def _check_ranks(c: _Checker, g: _Game) -> None:
    """Placement: every player ranked, the cóng last; only they and the last other hold cards."""
    missing = [p for p in g.players if p not in g.finish]  # none when players is unread
    if missing and g.finish:
        c.add("finish", "finish_not_permutation", missing=", ".join(missing))
    seen_cong: list[str] = []
    for player in g.finish:
        if player in g.cong:
            seen_cong.append(player)
        else:
            for above in seen_cong:
                c.add("finish", "cong_ranked_above", player=above, other=player)
            seen_cong = []
            g.last_holder = player
    if g.two_out is not None and c.rules.two_out == "bet" and g.two_out == g.last_holder:
        # Going out on a 2 ranks them bét holding nothing; the player ranked just above
        # them is the one left holding cards.
        others = [p for p in g.finish if p not in g.cong and p != g.two_out]
        g.last_holder = others[-1] if len(others) > 1 else None
    for player in g.hands:
        if player in g.cong or player in (g.last_holder, g.winner):
            continue
        c.add(f"hands.{player}.cards", "finished_player_holds_cards", player=player,
              last=g.last_holder or "")  # fmt: skip


def _check_chains(c: _Checker, g: _Game) -> None:
    """No cóng player in a chặt chain; a victim who went out must have finished."""
    for i, chain in enumerate(g.chains):
        for j, step in enumerate(chain.steps):
            if step.player in g.cong:
                c.add(f"chat[{i}].steps[{j}].player", "cong_in_chain", player=step.player)
        if chain.victim_out:
            victim = chain.steps[-2].player
            if g.stops_at_first_out and g.winner is not None and victim != g.winner:
                c.add(f"chat[{i}].victim_out", "victim_out_not_winner", player=victim,
                      winner=g.winner)  # fmt: skip
            elif not g.stops_at_first_out and victim == g.last_holder and victim != g.winner:
                c.add(f"chat[{i}].victim_out", "victim_out_still_holding", player=victim)


def _check_den(c: _Checker, g: _Game) -> None:
    """``den``: a loser, in a game the rule set's ``den_when`` allows."""
    rules, den = c.rules, g.den
    if den is None:
        return
    losers = [p for p in g.players if p != g.winner]
    if den == g.winner:
        c.add("den", "den_is_winner", player=den)
    elif den_allowed(rules, losers, g.cong):
        pass
    elif rules.den_when == "never":
        c.add("den", "den_not_played", player=den, rules=rules.name)
    elif rules.den_when == "any_cong":
        c.add("den", "den_without_cong", player=den)
    elif rules.den_when == "all_cong" and g.winner is not None:
        others = [p for p in losers if p not in g.cong]
        c.add("den", "den_needs_all_cong", player=den, others=", ".join(others), rules=rules.name)


def _check_chan(c: _Checker, g: _Game) -> None:
    """A chặn kết 3 bích: not with a kết 3 bích, and no cóng player in it."""
    if g.chan is None:
        return
    if g.ket:
        c.add("chan_ket_3_bich", "ket_and_chan")
    if g.chan.player in g.cong:
        c.add("chan_ket_3_bich.player", "chan_player_is_cong", player=g.chan.player)
    for k, player in enumerate(g.chan.last_round):
        if player in g.cong:
            c.add(f"chan_ket_3_bich.last_round[{k}]", "cong_in_last_round", player=player)


def _check_two_out(c: _Checker, g: _Game) -> None:
    """``two_out``: a player whose last card was a 2, under a rule set that sends them to bét."""
    rules, player = c.rules, g.two_out
    if player is None:
        return
    if rules.two_out != "bet":
        c.add("two_out", "two_out_not_played", player=player, rules=rules.name)
        return
    if player == g.winner:
        c.add("two_out", "two_out_is_winner", player=player)
        return
    if player in g.cong:
        c.add("two_out", "two_out_is_cong", player=player)
        return
    if player in g.hands and g.stops_at_first_out:  # in placement the rank check says it
        c.add(f"hands.{player}.cards", "two_out_holds_cards", player=player,
              cards=g.hands[player].cards)  # fmt: skip
    if rules.mode == "first_out":
        if rules.two_out_cards is None:
            c.add("two_out", "two_out_cards_missing", player=player, rules=rules.name)
    elif not g.stops_at_first_out:
        ranked = [p for p in g.finish if p not in g.cong]
        if ranked and ranked[-1] != player:
            c.add("two_out", "two_out_not_last", player=player, last=ranked[-1])


def _chan(c: _Checker, raw: object) -> ChanKet3Bich | None:
    path = "chan_ket_3_bich"
    if not c.is_object(raw, path):
        return None
    c.unknown_keys(raw, frozenset({"player", "last_round"}), path)
    player = c.name(f"{path}.player", raw.get("player"))
    round_players = c.names(f"{path}.last_round", raw.get("last_round", []))
    if player is None or round_players is None:
        return None
    if not [p for p in round_players if p != player]:
        c.add(f"{path}.last_round", "chan_round_empty", player=player)
        return None
    return ChanKet3Bich(player, tuple(round_players))


def _toi_trang_record(
    c: _Checker, data: Mapping[str, Any], raw: object, players: tuple[str, ...], opening: bool
) -> GameRecord:
    toi: ToiTrang | None = None
    rules = c.rules
    opening_hands = rules.toi_trang_opening_only
    if c.is_object(raw, "toi_trang"):
        c.unknown_keys(raw, frozenset({"player", "hand"}), "toi_trang")
        player = c.name("toi_trang.player", raw.get("player"))
        hand = raw.get("hand")
        hand_ok = False
        if not isinstance(hand, str) or hand not in HANDS:
            c.add("toi_trang.hand", "unknown_hand", hand=_show(hand))
        elif hand not in rules.toi_trang_hands:
            c.add("toi_trang.hand", "hand_not_accepted", hand=HANDS[hand], rules=rules.name)
        elif hand in rules.toi_trang_opening_only and not opening:
            c.add("toi_trang.hand", "hand_needs_opening", hand=HANDS[hand])
        elif opening and rules.toi_trang_outside_opening and hand not in opening_hands:
            c.add("toi_trang.hand", "hand_not_in_opening", hand=HANDS[hand])
        else:
            hand_ok = True
        if player is not None and hand_ok and isinstance(hand, str):
            toi = ToiTrang(player, hand)
    for key in ("finish", "cong", "chat", "den", "ket_3_bich", "chan_ket_3_bich", "two_out"):
        if not _empty(data.get(key)):
            c.add(key, "not_with_toi_trang")
    hands: dict[str, Hand] = {}
    if not _empty(data.get("hands")):
        # The hands dealt are facts, read and checked whatever the rule set; the rule set
        # decides whether they cost anything (pricing notes it when they do not).
        hands = c.hands(data["hands"], dealt=True)
    if c.problems or toi is None:
        raise InvalidRecord(c.problems)
    ordered_hands = {p: hands[p] for p in players if p in hands}
    return GameRecord(players=players, opening=opening, hands=ordered_hands, toi_trang=toi)
