"""The record form: turns the phone form's fields into a game record, and back.

Not a Django form: the fields change with every choice (players, chains, hands), so the state
is a ``RecordDraft`` read from the POST, re-rendered and turned into a record for the engine.

The record format is docs/record-format.md#game-record-format.

The form is plain HTML fields, so it works without JavaScript; htmx re-posts it on every
change and the server answers with the form re-rendered (legal choices only) and a preview of
every payment, computed by the engine. Field names:

- ``played``: players of this game (2–4 of the sitting's members), ``opening``: ván khởi đầu,
  ``led``: who led (kept with the game, not part of the record);
- first_out: ``winner``; placement: ``place_1`` … ``place_4``;
- per player index ``i`` (position among the members): ``cards_i``, ``heo_i`` (repeated:
  2S/2C/2D/2H), ``3dt_i``, ``tq_i``, ``4dt_i``, ``5dt_i``, ``cong_i``;
- ``chains`` (number of chặt chains), per chain ``c``: ``chat_c_out`` and per step ``s``:
  ``chat_c_s_player``, ``chat_c_s_play``, ``chat_c_s_cards`` (repeated), ``chat_c_s_top``;
  ``chat_c_steps`` (number of steps);
- ``toi_trang_player``, ``toi_trang_hand``, ``den``, ``ket_3_bich``, ``chan_player``,
  ``chan_round`` (repeated), ``two_out`` (who went out on a 2, under a rule set that sends
  them to bét).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import engine, services
from scoring.engine.cards import RANKS, SUITS
from scoring.engine.readnumbers import read_int
from scoring.models import Player, Sitting
from scoring.text.typed import engine_language

#: The field name of a problem with the finish order as a whole.
PLACES = "places"
HEO = ("2S", "2C", "2D", "2H")
HEO_LABEL = {"2S": "2♠", "2C": "2♣", "2D": "2♦", "2H": "2♥"}
HANG = ("3dt", "tq", "4dt")
#: The hàng a hand may still hold: the chopping hàng and a run of five pairs.
HELD = (*HANG, "5dt")
PLACE_LABELS = {
    2: (_("Nhất"), _("Bét")),
    3: (_("Nhất"), _("Nhì"), _("Bét")),
    4: (_("Nhất"), _("Nhì"), _("Ba"), _("Bét")),
}
#: The ranks a hàng's highest card can have (no run of pairs reaches the 2s).
TOP_RANKS = RANKS[:-1]
#: The suits by name, weakest first, for the chips of a hàng's highest card.
SUIT_LABELS = {
    "S": ("♠", _("Bích")),
    "C": ("♣", _("Chuồn")),
    "D": ("♦", _("Rô")),
    "H": ("♥", _("Cơ")),
}
MAX_CHAINS = 6
MAX_STEPS = 6
#: The most of each hàng one 13-card hand can hold (3 đôi thông, tứ quý, 4 đôi thông).
HANG_MAX = {"3dt": 4, "tq": 3, "4dt": 2, "5dt": 1}


def _int(value: str | None, default: int = 0) -> int:
    """A count from the form (cards, hàng, chains); what does not read as one is the default."""
    number = read_int(value, low=-(2**31), high=2**31)
    return default if number is None else number


def _count(raw: str | None, high: int) -> tuple[int, str, bool]:
    """A typed count: ``(value, text as typed, accepted)``. Blank reads as 0; anything that is
    not a whole number from 0 to ``high`` is refused, never clamped (a silent 13 is a cóng)."""
    text = str(raw if raw is not None else "").strip()
    if not text:
        return 0, "", True
    number = read_int(text, low=0, high=high)
    if number is not None:
        return number, text, True
    return 0, text[:12], False


@dataclass
class Problem:
    """A problem the form finds before the engine sees the record: ``field`` is the form field
    to mark, ``path`` the record path the engine would report it at (it replaces the engine's
    words there, which are written for JSON records, not for the phone form)."""

    field: str
    path: str
    message: str


@dataclass
class Step:
    player: str = ""
    play: str = ""
    cards: list[str] = field(default_factory=list)
    top_rank: str = ""  # the highest card of a hàng, to order two of one kind: its rank …
    top_suit: str = ""  # … and its suit (S, C, D, H)
    choices: list[tuple[str, str]] = field(default_factory=list)  # legal plays offered
    players: list[str] = field(default_factory=list)  # who may be picked for this step
    taken: list[str] = field(default_factory=list)  # 2s already written elsewhere in the game
    errors: dict[str, list[str]] = field(default_factory=dict)  # part -> messages to show

    @property
    def top(self) -> str:
        """The top card as the record writes it. A tứ quý holds all four suits of its rank, so
        its highest card is the ♥ whatever the suit chips say."""
        if not self.top_rank:
            return ""
        if self.play == "tq":
            return self.top_rank + "H"
        return self.top_rank + self.top_suit

    @property
    def heo_chips(self) -> bool:
        """Whether a 2 or a pair of 2s may be chopped at this table (the first step)."""
        return any(code in ("heo", "doi_heo") for code, _label in self.choices)

    @property
    def hang_choices(self) -> list[tuple[str, str]]:
        """The hàng that may be chopped (the first step): the 2s are chips of their own."""
        return [(code, label) for code, label in self.choices if code in HANG]


@dataclass
class Chain:
    steps: list[Step] = field(default_factory=list)
    victim_out: bool = False
    errors: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Row:
    index: int
    name: str
    played: bool = False
    cards: int = 0
    heo: list[str] = field(default_factory=list)
    hang: dict[str, int] = field(default_factory=lambda: dict.fromkeys(HELD, 0))
    cong: bool = False
    shows_hand: bool = False  # whether this player can still hold cards at the end
    hidden: bool = False  # nothing to ask about this player (the winner, in đếm lá)
    taken_heo: list[str] = field(default_factory=list)  # 2s another player already holds
    cards_text: str = ""  # the card count as typed (shown back as typed, even when refused)
    hang_text: dict[str, str] = field(default_factory=lambda: dict.fromkeys(HELD, ""))
    errors: dict[str, list[str]] = field(default_factory=dict)  # cards/heo/3dt/... -> messages

    @property
    def has_hang(self) -> bool:
        return any(self.hang.values())

    @property
    def special_cards(self) -> int:
        """How many cards the recorded heo and hàng take up at the least."""
        hang = self.hang
        return len(self.heo) + 6 * hang["3dt"] + 4 * hang["tq"] + 8 * hang["4dt"] + 10 * hang["5dt"]


@dataclass
class RecordDraft:
    """The record form's state: what the template renders and what becomes the record."""

    members: list[str]
    mode: str
    rows: list[Row]
    toi_trang_thoi: bool = False  # the rule set counts thối on this tới trắng (dealt hands)
    # Facts the rule set does not price, shown all the same because the game holds them (an
    # imported record, a hand switched after its 2s were ticked): a save keeps what is shown.
    dealt_unpriced: bool = False  # dealt heo or hàng of a tới trắng that counts no thối
    ket_unpriced: bool = False  # a kết or chặn kết 3 bích under a rule set without kết 3 bích
    rules: engine.RuleSet = field(default_factory=engine.RuleSet)
    opening: bool = False
    led: str = ""  # who led this game (defaults to who the last game said leads next)
    winner: str = ""
    places: list[str] = field(default_factory=list)
    chains: list[Chain] = field(default_factory=list)
    toi_trang_player: str = ""
    toi_trang_hand: str = ""
    den: str = ""
    ket_3_bich: bool = False
    chan_player: str = ""
    chan_round: list[str] = field(default_factory=list)
    two_out: str = ""
    input_problems: list[Problem] = field(default_factory=list)  # refused input, empty steps
    errors: dict[str, list[str]] = field(default_factory=dict)  # top-level field -> messages
    focus: str = ""  # the field a chain-builder button just added (focused by the page)
    # The preview (``check``): the engine's payments, or the problems shown, which block the save.
    preview: services.Scored | None = None
    problems: list[tuple[str, str]] = field(default_factory=list)  # (record path, message)
    hidden_problems: int = 0  # problems of fields not touched yet: not shown, still blocking
    notes: list[str] = field(default_factory=list)  # facts the rule set does not price

    heo_cards: ClassVar[dict[str, str]] = HEO_LABEL
    top_ranks: ClassVar[tuple[str, ...]] = TOP_RANKS
    suits: ClassVar[dict[str, tuple[str, Any]]] = SUIT_LABELS

    @property
    def hands(self) -> list[tuple[str, str]]:
        """The dealt hands that win tới trắng under the rule set, named."""
        lang = engine_language()
        return [(hand, engine.hand_label(hand, lang)) for hand in self.rules.toi_trang_hands]

    @property
    def played(self) -> list[str]:
        return [row.name for row in self.rows if row.played]

    @property
    def played_rows(self) -> list[Row]:
        return [row for row in self.rows if row.played]

    @property
    def place_rows(self) -> list[dict[str, Any]]:
        """One row per rank for the placement picker, with who is already placed elsewhere."""
        count = len(self.played)
        labels = PLACE_LABELS.get(count, PLACE_LABELS[4])
        rows = []
        for rank in range(1, count + 1):
            name = self.places[rank - 1] if rank - 1 < len(self.places) else ""
            taken = [p for i, p in enumerate(self.places) if p and i != rank - 1]
            rows.append({"rank": rank, "label": labels[rank - 1], "name": name, "taken": taken})
        return rows

    @property
    def first(self) -> str:
        """Who went out first (the winner), in either mode."""
        if self.mode == "first_out":
            return self.winner
        return self.places[0] if self.places else ""

    @property
    def den_choices(self) -> list[Row]:
        """The players who may be named for đền: every loser, cóng or not, in a game where the
        rule set's ``den_when`` allows đền; none otherwise."""
        first = self.first
        losers = [row for row in self.played_rows if row.name != first]
        names = [row.name for row in losers]
        allowed = engine.den_allowed(self.rules, names, {row.name for row in losers if row.cong})
        if self.rules.den_when == "always" and not first:
            allowed = False  # "any game": offered once the winner is chosen
        return losers if allowed and not self.toi_trang_player else []

    @property
    def two_out_choices(self) -> list[Row]:
        """The players who may be marked as going out on a 2: the losers who are not cóng,
        when the rule set sends them to bét; none otherwise."""
        if self.rules.two_out != "bet" or self.toi_trang_player:
            return []
        first = self.first
        return [row for row in self.played_rows if row.name != first and not row.cong]

    def to_record(self) -> dict[str, Any]:
        players = self.played
        record: dict[str, Any] = {"players": players, "opening": self.opening}
        if self.toi_trang_player:
            record["toi_trang"] = {"player": self.toi_trang_player, "hand": self.toi_trang_hand}
            if self.toi_trang_thoi or self.dealt_unpriced:
                # The losers' dealt hands: 13 cards each, with the 2s and hàng they held.
                dealt = {row.name: _hand(row, 13) for row in self.played_rows if row.shows_hand}
                record["hands"] = {name: hand for name, hand in dealt.items() if len(hand) > 1}
            return record
        if self.mode == "first_out":
            record["finish"] = [self.winner] if self.winner else []
        else:
            record["finish"] = [name for name in self.places if name]
        hands: dict[str, dict[str, Any]] = {}
        cong: list[str] = []
        for row in self.played_rows:
            if row.cong and self.mode == "placement":  # card-count mode's cóng is 13 cards
                cong.append(row.name)
            if not row.shows_hand:
                continue
            cards = row.cards
            if self.mode == "placement" and not row.cong:
                # Cards left carry no money in nhất nhì ba bét: ticking a 2 is enough.
                cards = max(cards, row.special_cards)
            hand = _hand(row, cards)
            if len(hand) > 1 or row.cards:
                hands[row.name] = hand
        record["hands"] = hands
        if cong:
            record["cong"] = cong
        chains = []
        for chain in self.chains:
            steps = []
            for step in chain.steps:
                item: dict[str, Any] = {"player": step.player, "play": step.play}
                if step.play in ("heo", "doi_heo"):
                    item["cards"] = list(step.cards)
                if step.top and step.play in HANG:
                    item["top"] = step.top
                steps.append(item)
            chains.append({"steps": steps, "victim_out": chain.victim_out})
        if chains:
            record["chat"] = chains
        if self.den:
            record["den"] = self.den
        if self.ket_3_bich:
            record["ket_3_bich"] = True
        if self.chan_player:
            record["chan_ket_3_bich"] = {
                "player": self.chan_player,
                "last_round": list(self.chan_round),
            }
        if self.two_out:
            record["two_out"] = self.two_out
        return record


def _hand(row: Row, cards: int) -> dict[str, Any]:
    hand: dict[str, Any] = {"cards": cards}
    if row.heo:
        hand["heo"] = list(row.heo)
    return hand | {kind: count for kind, count in row.hang.items() if count}


def blank(
    members: list[str], rules: engine.RuleSet, played: list[str] | None = None
) -> RecordDraft:
    chosen = played if played else members[:4]
    rows = [Row(index=i, name=name, played=name in chosen) for i, name in enumerate(members)]
    form = RecordDraft(members=members, mode=rules.mode, rows=rows, rules=rules)
    _finish(form)
    return form


def next_game(board: Mapping[str, Any]) -> RecordDraft:
    """The empty form for the next game on ``ledger.board``'s page: who played the last one,
    whether it opens a sitting, who leads."""
    names = [p.name for p in board["members"]]
    form = blank(names, board["rules"], board["last_players"])
    form.opening = board["opening_next"]
    leader: Player | None = board["next_leader"]
    form.led = leader.name if leader and leader.name in form.played else ""
    return form


def from_post(data: QueryDict, members: list[str], rules: engine.RuleSet) -> RecordDraft:
    by_name = set(members)
    played = [name for name in data.getlist("played") if name in by_name]
    problems: list[Problem] = []
    rows = []
    for i, name in enumerate(members):
        row = Row(index=i, name=name, played=name in played)
        row.cards, row.cards_text, ok = _count(data.get(f"cards_{i}"), 13)
        if not ok and row.played:
            message = gettext("Số lá phải là số nguyên từ 0 đến 13; “%(value)s” không dùng được.")
            said: dict[str, object] = {"value": row.cards_text}
            problems.append(Problem(f"cards_{i}", f"hands.{name}.cards", message % said))
        row.heo = [card for card in HEO if card in data.getlist(f"heo_{i}")]
        for kind, high in HANG_MAX.items():
            row.hang[kind], row.hang_text[kind], ok = _count(data.get(f"{kind}_{i}"), high)
            if not ok and row.played:
                message = gettext(
                    "Số bộ phải là số nguyên từ 0 đến %(high)d; “%(value)s” không dùng được."
                )
                said = {"high": high, "value": row.hang_text[kind]}
                problems.append(Problem(f"{kind}_{i}", f"hands.{name}.{kind}", message % said))
        row.cong = data.get(f"cong_{i}") == "on"
        if row.cong and rules.mode == "first_out":
            # Card-count mode's cóng chip: 13 cards, whatever the count field held.
            row.cards, row.cards_text = 13, "13"
            problems = [p for p in problems if p.field != f"cards_{i}"]
        rows.append(row)
    form = RecordDraft(members=members, mode=rules.mode, rows=rows, rules=rules)
    form.opening = data.get("opening") == "on"
    form.led = data.get("led", "") if data.get("led") in played else ""
    form.winner = data.get("winner", "") if data.get("winner") in played else ""
    form.places = [data.get(f"place_{k}", "") for k in range(1, len(played) + 1)]
    form.places = [p if p in played else "" for p in form.places]
    chain_count = max(0, min(MAX_CHAINS, _int(data.get("chains"))))
    for c in range(chain_count):
        chain = Chain(victim_out=data.get(f"chat_{c}_out") == "on")
        step_count = max(2, min(MAX_STEPS, _int(data.get(f"chat_{c}_steps"), 2)))
        for s in range(step_count):
            prefix = f"chat_{c}_{s}_"
            step = Step(
                player=data.get(prefix + "player", ""),
                play=data.get(prefix + "play", ""),
                cards=[card for card in HEO if card in data.getlist(prefix + "cards")],
            )
            step.top_rank, step.top_suit = _top(data, prefix)
            if s == 0 and step.cards and step.play not in ("heo", "doi_heo"):
                # The chopped 2s are chips of their own: one is a heo, two a đôi heo (three,
                # refused by the engine: nothing chops them). They win over a hàng chip.
                step.play = "doi_heo" if len(step.cards) == 2 else "heo"
            chain.steps.append(step)
        form.chains.append(chain)
    form.toi_trang_player = (
        data.get("toi_trang_player", "") if data.get("toi_trang_player") in played else ""
    )
    form.toi_trang_hand = data.get("toi_trang_hand", "")
    form.den = data.get("den", "") if data.get("den") in played else ""
    form.ket_3_bich = data.get("ket_3_bich") == "on"
    form.chan_player = data.get("chan_player", "") if data.get("chan_player") in played else ""
    form.chan_round = [name for name in data.getlist("chan_round") if name in played]
    form.two_out = data.get("two_out", "") if data.get("two_out") in played else ""
    _apply_action(form, data.get("action", ""))
    _finish(form)
    form.input_problems = problems + _chain_problems(form)
    return form


def from_record(record: dict[str, Any], members: list[str], rules: engine.RuleSet) -> RecordDraft:
    """The form prefilled from a stored record (to edit a game)."""
    names = list(members) + [n for n in record.get("players", []) if n not in members]
    played = list(record.get("players", []))
    form = blank(names, rules, played)
    form.opening = bool(record.get("opening"))
    finish = list(record.get("finish") or [])
    if rules.mode == "first_out":
        form.winner = finish[0] if finish else ""
    else:
        form.places = finish + [""] * (len(played) - len(finish))
    hands = record.get("hands") or {}
    cong = set(record.get("cong") or [])
    for row in form.rows:
        hand = hands.get(row.name) or {}
        row.cards = int(hand.get("cards", 0))
        row.cards_text = str(row.cards) if row.cards else ""
        row.heo = [_heo_code(c) for c in hand.get("heo", [])]
        row.hang = {kind: int(hand.get(kind, 0)) for kind in HELD}
        row.hang_text = {kind: str(n) if n else "" for kind, n in row.hang.items()}
        row.cong = row.name in cong
    for chain in record.get("chat") or []:
        form.chains.append(Chain(victim_out=bool(chain.get("victim_out"))))
        for step in chain.get("steps", []):
            cards = [_heo_code(c) for c in step.get("cards", [])]
            top = _split_top(step.get("top"))
            form.chains[-1].steps.append(
                Step(step.get("player", ""), step.get("play", ""), cards, *top)
            )
    toi = record.get("toi_trang") or {}
    form.toi_trang_player = toi.get("player", "")
    form.toi_trang_hand = toi.get("hand", "")
    form.den = record.get("den") or ""
    form.ket_3_bich = bool(record.get("ket_3_bich"))
    chan = record.get("chan_ket_3_bich") or {}
    form.chan_player = chan.get("player", "")
    form.chan_round = list(chan.get("last_round", []))
    form.two_out = record.get("two_out") or ""
    _finish(form)
    return form


def _split_top(text: object) -> tuple[str, str]:
    """A top card as written in a record or typed ("9H", "10♦") → (rank, suit)."""
    card = engine.parse_card(text)
    return (card[:-1], card[-1]) if card and card[:-1] in TOP_RANKS else ("", "")


def _top(data: QueryDict, prefix: str) -> tuple[str, str]:
    """The top card of a step: its rank and suit chips, or the card typed as text (a form
    written before the chips)."""
    rank = data.get(prefix + "top_rank", "")
    suit = data.get(prefix + "top_suit", "")
    if rank in TOP_RANKS or suit in SUITS:
        return (rank if rank in TOP_RANKS else "", suit if suit in SUITS else "")
    return _split_top(data.get(prefix + "top", ""))


def _heo_code(card: str) -> str:
    symbols = {"♠": "S", "♣": "C", "♦": "D", "♥": "H"}
    card = card.strip().upper()
    return card[:-1] + symbols.get(card[-1], card[-1]) if card else card


def _apply_action(form: RecordDraft, action: str) -> None:
    """Buttons of the chain builder: add a chain, add a counter-chop, remove a chain."""
    if action == "add_chain" and len(form.chains) < MAX_CHAINS:
        form.chains.append(Chain(steps=[Step(), Step()]))
        form.focus = f"chat_{len(form.chains) - 1}_0_player"
    elif action.startswith("add_step_"):
        c = _int(action.removeprefix("add_step_"), -1)
        if 0 <= c < len(form.chains) and len(form.chains[c].steps) < MAX_STEPS:
            form.chains[c].steps.append(Step())
            form.focus = f"chat_{c}_{len(form.chains[c].steps) - 1}_player"
    elif action.startswith("drop_chain_"):
        c = _int(action.removeprefix("drop_chain_"), -1)
        if 0 <= c < len(form.chains):
            del form.chains[c]
    elif action.startswith("drop_step_"):
        c = _int(action.removeprefix("drop_step_"), -1)
        if 0 <= c < len(form.chains) and len(form.chains[c].steps) > 2:
            form.chains[c].steps.pop()


def _finish(form: RecordDraft) -> None:
    """Derived state: whose hand is asked for, the 2s another player already holds, who may
    đền, and the legal chop choices of each step (the rule set's chop table)."""
    rules = form.rules
    form.toi_trang_thoi = rules.counts_thoi_on(form.toi_trang_hand)
    form.dealt_unpriced = (
        bool(form.toi_trang_player)
        and not form.toi_trang_thoi
        and any(
            row.heo or row.has_hang for row in form.played_rows if row.name != form.toi_trang_player
        )
    )
    form.ket_unpriced = rules.ket_3_bich is None and (form.ket_3_bich or bool(form.chan_player))
    if form.toi_trang_player:
        for row in form.rows:
            row.cong = False
            row.shows_hand = (
                (form.toi_trang_thoi or form.dealt_unpriced)
                and row.played
                and row.name != form.toi_trang_player
            )
    elif form.mode == "first_out":
        for row in form.rows:
            row.shows_hand = (
                row.played
                and bool(form.winner)
                and row.name != form.winner
                and row.name != form.two_out  # they went out: nothing left in hand
            )
            # In đếm lá, 13 cards left is what makes a loser cóng.
            row.cong = row.shows_hand and row.cards == 13
    else:
        _autofill_last_place(form)
        ranked = [name for name in form.places if name]
        cong = {row.name for row in form.played_rows if row.cong}
        non_cong = [name for name in ranked if name not in cong]
        if form.two_out and non_cong and non_cong[-1] == form.two_out:
            non_cong.pop()  # bét on a 2 holds nothing; the player above was left holding cards
            if len(non_cong) == 1:
                non_cong.pop()  # … unless that is the nhất
        last = non_cong[-1] if len(ranked) == len(form.played) and non_cong else ""
        for row in form.rows:
            row.shows_hand = row.played and (row.cong or row.name == last)
    # Every 2 is in one place only: a 2 written anywhere (a hand, a chop) is greyed everywhere
    # else, the chopped player's own hand included (a chopped 2 was played, not held).
    steps = [step for chain in form.chains for step in chain.steps]
    held: list[tuple[Row | Step, list[str]]] = [(row, row.heo) for row in form.played_rows]
    held += [(step, step.cards) for step in steps]

    def taken(here: Row | Step) -> list[str]:
        return [card for card in HEO if any(h is not here and card in cards for h, cards in held)]

    for row in form.rows:
        row.hidden = not row.shows_hand and (
            form.mode == "first_out" or bool(form.toi_trang_player)
        )
        row.taken_heo = taken(row)
    for step in steps:
        step.taken = taken(step)
    if form.den and form.den not in [row.name for row in form.den_choices]:
        form.den = ""
    if form.two_out and form.two_out not in [row.name for row in form.two_out_choices]:
        form.two_out = ""
    choppers = {hang for hang, targets in rules.chops if targets}
    lang = engine_language()
    for chain in form.chains:
        previous = ""
        for s, step in enumerate(chain.steps):
            if s == 0:
                allowed = [p for p in engine.PLAYS if rules.chopped_by(p)]
            elif previous:
                allowed = [p for p in engine.PLAYS if p in rules.chopped_by(previous)]
            else:
                allowed = [p for p in engine.PLAYS if p in choppers]
            step.choices = [(p, engine.play_label(p, lang)) for p in allowed]
            # A play no longer legal is cleared, but not the 2s of the first step: they were
            # ticked, and a table that chops no đôi heo says so (_chain_problems).
            if step.play and step.play not in allowed and not (s == 0 and step.cards):
                step.play = ""
            previous = step.play
            # Nobody chops themself: the one chopped in the step before is not offered.
            before = chain.steps[s - 1].player if s else ""
            step.players = [name for name in form.played if name != before]
            if step.player and step.player not in step.players:
                step.player = ""


def _autofill_last_place(form: RecordDraft) -> None:
    """With every rank but one chosen, the last player can only be in the empty rank."""
    played = form.played
    form.places = (form.places + [""] * len(played))[: len(played)]
    # A player picked for two ranks keeps the first; the second is cleared.
    seen: set[str] = set()
    for i, name in enumerate(form.places):
        if name in seen:
            form.places[i] = ""
        seen.add(name)
    empty = [i for i, name in enumerate(form.places) if not name]
    unplaced = [name for name in played if name not in form.places]
    if len(empty) == 1 and len(unplaced) == 1:
        form.places[empty[0]] = unplaced[0]


def _chain_problems(form: RecordDraft) -> list[Problem]:
    """Empty or half-filled steps of the chain builder, said in the form's words (the engine's
    would name an empty player or the internal play codes)."""
    problems = []
    for c, chain in enumerate(form.chains):
        for s, step in enumerate(chain.steps):
            said: dict[str, object] = {"n": c + 1, "s": s + 1}
            found = []  # (the step's field, the record path's last part, the message)
            if not step.player:
                message = (
                    gettext("Lần chặt %(n)d: chọn ai bị chặt.")
                    if s == 0
                    else gettext("Lần chặt %(n)d: chọn ai chặt ở bước %(s)d.")
                )
                found.append(("player", "player", message))
            if not step.play:
                message = (
                    gettext("Lần chặt %(n)d: chọn bài bị chặt (heo, đôi heo hay hàng).")
                    if s == 0
                    else gettext("Lần chặt %(n)d: chọn bài dùng để chặt ở bước %(s)d.")
                )
                found.append(("play", "play", message))
            elif s == 0 and step.cards and step.play not in dict(step.choices):
                said["play"] = engine.play_label(step.play, engine_language())
                message = gettext("Lần chặt %(n)d: luật của bàn này không cho chặt %(play)s.")
                found.append(("cards", "play", message))
            elif step.play == "heo" and len(step.cards) not in (1, 3):
                message = gettext("Lần chặt %(n)d: chọn con heo nào (2♠, 2♣, 2♦ hay 2♥).")
                found.append(("cards", "cards", message))
            elif step.play == "doi_heo" and len(step.cards) not in (2, 3):
                message = gettext("Lần chặt %(n)d: chọn hai con heo của đôi heo.")
                found.append(("cards", "cards", message))
            elif step.play in HANG and step.top_suit and not step.top_rank:
                message = gettext("Lần chặt %(n)d: chọn số của lá cao nhất, hoặc bỏ chọn chất.")
                found.append(("top", "top", message))
            elif step.play in ("3dt", "4dt") and step.top_rank and not step.top_suit:
                message = gettext(
                    "Lần chặt %(n)d: chọn chất của lá cao nhất (bích, chuồn, rô hay cơ)."
                )
                found.append(("top", "top", message))
            problems += [
                Problem(f"chat_{c}_{s}_{name}", f"chat[{c}].steps[{s}].{part}", message % said)
                for name, part, message in found
            ]
    return problems


_HAND_PATH = re.compile(
    r"^hands\.(?P<name>.+?)(?:\.(?P<part>cards|heo|3dt|tq|4dt|5dt))?(?:\[\d+\])?$"
)
_CHAT_PATH = re.compile(
    r"^chat\[(?P<c>\d+)\](?:\.(?P<rest>victim_out|steps(?:\[(?P<s>\d+)\](?:\.(?P<part>\w+))?)?))?"
)


def field_for(form: RecordDraft, path: str, params: dict[str, Any] | None = None) -> str:
    """The form field that shows a problem the engine reports at ``path`` ("" for none)."""
    index = {row.name: row.index for row in form.rows}
    params = params or {}
    if match := _HAND_PATH.match(path):
        i = index.get(match["name"])
        return "" if i is None else f"{match['part'] or 'cards'}_{i}"
    if match := _CHAT_PATH.match(path):
        c = match["c"]
        if match["rest"] == "victim_out":
            return f"chat_{c}_out"
        s = match["s"] or "0"
        part = match["part"] if match["part"] in ("player", "play", "cards", "top") else "player"
        return f"chat_{c}_{s}_{part}"
    if path.startswith("cong"):
        i = index.get(params.get("player", ""))
        return "" if i is None or form.mode != "placement" else f"cong_{i}"
    if path.startswith("finish"):
        if form.mode == "first_out":
            return "winner"
        match = re.match(r"finish\[([0-9]+)\]", path)
        # The order as a whole ("còn thiếu: …") is no one place's: it waits for the
        # scorekeeper to move on from the places (or to save) before it is shown.
        return f"place_{int(match[1]) + 1}" if match else PLACES
    simple = {
        "den": "den",
        "toi_trang.player": "toi_trang_player",
        "toi_trang.hand": "toi_trang_hand",
        "toi_trang": "toi_trang_hand",
        "ket_3_bich": "ket_3_bich",
        "chan_ket_3_bich.player": "chan_player",
        "chan_ket_3_bich.last_round": "chan_round",
        "opening": "opening",
        "two_out": "two_out",
    }
    for prefix, name in simple.items():
        if path == prefix or path.startswith(prefix + "[") or path.startswith(prefix + "."):
            return name
    if path.startswith("players"):
        return "played"
    return ""


_ROW_FIELD = re.compile(r"^(?P<part>cards|heo|3dt|tq|4dt|5dt|cong)_(?P<i>[0-9]+)$")
_STEP_FIELD = re.compile(r"^chat_(?P<c>[0-9]+)_(?:(?P<s>[0-9]+)_(?P<part>\w+)|out)$")


def check(
    form: RecordDraft,
    sitting: Sitting,
    *,
    members: Mapping[str, Player] | None = None,
    touched: set[str] | None = None,
) -> None:
    """The preview: the draft scored by the engine (``form.preview``), or the problems that
    block its save (``refuse``)."""
    try:
        scored = services.game_score(sitting=sitting, record=form.to_record(), members=members)
    except engine.InvalidRecord as error:
        refuse(form, error.problems, touched)
        return
    if form.input_problems:
        refuse(form, [], touched)
        return
    form.preview = scored
    lang = engine_language()
    form.notes = [note.message(lang) for note in scored.result.notes]


def refuse(
    form: RecordDraft, problems: Iterable[engine.Problem], touched: set[str] | None = None
) -> None:
    """Put the form's own problems and the engine's (``problems``) beside their fields.

    Every problem blocks the save, but only those of a field the scorekeeper has touched are
    shown (``touched`` None shows all: a save, the preview button, a page without scripts), so
    tapping the winner does not paint three empty card counts red before anyone typed them.
    """
    lang = engine_language()
    own = {p.path for p in form.input_problems}
    found = [(p.field, p.path, p.message) for p in form.input_problems] + [
        (field_for(form, p.path, p.params), p.path, p.message(lang))
        for p in problems
        if p.path not in own
    ]
    shown = [item for item in found if _shown(item[0], touched)]
    errors: dict[str, list[str]] = {}
    for name, _path, message in shown:
        if name:
            errors.setdefault(name, []).append(message)
    attach_errors(form, errors)
    form.preview = None
    form.problems = [(path, message) for _name, path, message in shown]
    form.hidden_problems = len(found) - len(shown)


def _shown(name: str, touched: set[str] | None) -> bool:
    """Whether a problem of field ``name`` is shown: every one on a save, else a touched
    field's; the finish order as a whole only once a field after the places was touched (the
    first tap of the order is not yet a finish order missing three players)."""
    if touched is None:
        return True
    if name == PLACES:
        return any(not field.startswith("place_") and field != "played" for field in touched)
    return bool(name) and name in touched


def attach_errors(form: RecordDraft, errors: dict[str, list[str]]) -> None:
    """Put each shown message beside its field: on the row, the chain step, or the form."""
    rows = {row.index: row for row in form.rows}
    for name, messages in errors.items():
        if match := _ROW_FIELD.match(name):
            row = rows.get(int(match["i"]))
            if row is not None:
                row.errors.setdefault(match["part"], []).extend(messages)
                continue
        if match := _STEP_FIELD.match(name):
            c = int(match["c"])
            if c < len(form.chains):
                chain = form.chains[c]
                if match["s"] is None:
                    chain.errors.setdefault("out", []).extend(messages)
                    continue
                s = int(match["s"])
                if s < len(chain.steps):
                    chain.steps[s].errors.setdefault(match["part"], []).extend(messages)
                    continue
        key = "place" if name.startswith("place_") or name == PLACES else name
        form.errors.setdefault(key, []).extend(messages)
