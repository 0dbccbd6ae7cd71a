"""The record form: turns the phone form's fields into a RULES.md game record, and back.

The form is plain HTML fields, so it works without JavaScript; htmx re-posts it on every
change and the server answers with the form re-rendered (legal choices only) and a preview of
every payment, computed by the engine. Field names:

- ``played``: players of this game (2–4 of the sitting's members), ``opening``: ván khởi đầu,
  ``led``: who led (kept with the game, not part of the record);
- first_out: ``winner``; placement: ``place_1`` … ``place_4``;
- per player index ``i`` (position among the members): ``cards_i``, ``heo_i`` (repeated:
  2S/2C/2D/2H), ``3dt_i``, ``tq_i``, ``4dt_i``, ``cong_i``;
- ``chains`` (number of chặt chains), per chain ``c``: ``chat_c_out`` and per step ``s``:
  ``chat_c_s_player``, ``chat_c_s_play``, ``chat_c_s_cards`` (repeated), ``chat_c_s_top``;
  ``chat_c_steps`` (number of steps);
- ``toi_trang_player``, ``toi_trang_hand``, ``den``, ``ket_3_bich``, ``chan_player``,
  ``chan_round`` (repeated).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring import engine

HEO = ("2S", "2C", "2D", "2H")
HEO_LABEL = {"2S": "2♠", "2C": "2♣", "2D": "2♦", "2H": "2♥"}
HANG = ("3dt", "tq", "4dt")
PLACE_LABELS = {
    2: (_("Nhất"), _("Bét")),
    3: (_("Nhất"), _("Nhì"), _("Bét")),
    4: (_("Nhất"), _("Nhì"), _("Ba"), _("Bét")),
}
MAX_CHAINS = 6
MAX_STEPS = 6


def _int(value: str | None, default: int = 0) -> int:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return default


@dataclass
class Step:
    player: str = ""
    play: str = ""
    cards: list[str] = field(default_factory=list)
    top: str = ""
    choices: list[tuple[str, str]] = field(default_factory=list)  # legal plays offered


@dataclass
class Chain:
    steps: list[Step] = field(default_factory=list)
    victim_out: bool = False


@dataclass
class Row:
    index: int
    name: str
    played: bool = False
    cards: int = 0
    heo: list[str] = field(default_factory=list)
    hang: dict[str, int] = field(default_factory=lambda: dict.fromkeys(HANG, 0))
    cong: bool = False
    shows_hand: bool = False  # whether this player can still hold cards at the end
    hidden: bool = False  # nothing to ask about this player (the winner, in đếm lá)
    taken_heo: list[str] = field(default_factory=list)  # 2s another player already holds

    @property
    def has_hang(self) -> bool:
        return any(self.hang.values())

    @property
    def special_cards(self) -> int:
        """How many cards the recorded heo and hàng take up at the least."""
        return len(self.heo) + 6 * self.hang["3dt"] + 4 * self.hang["tq"] + 8 * self.hang["4dt"]


@dataclass
class RecordForm:
    """The form's state: what the template renders and what becomes the record."""

    members: list[str]
    mode: str
    rows: list[Row]
    toi_trang_thoi: bool = False  # the rule set counts thối on a tới trắng (dealt hands)
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
    def has_cong(self) -> bool:
        return any(r.cong for r in self.played_rows)

    def to_record(self) -> dict[str, Any]:
        players = self.played
        record: dict[str, Any] = {"players": players, "opening": self.opening}
        if self.toi_trang_player:
            record["toi_trang"] = {"player": self.toi_trang_player, "hand": self.toi_trang_hand}
            if self.toi_trang_thoi:
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
            if row.cong:
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
        return record


def _hand(row: Row, cards: int) -> dict[str, Any]:
    hand: dict[str, Any] = {"cards": cards}
    if row.heo:
        hand["heo"] = list(row.heo)
    for kind in HANG:
        if row.hang[kind]:
            hand[kind] = row.hang[kind]
    return hand


def blank(members: list[str], rules: engine.RuleSet, played: list[str] | None = None) -> RecordForm:
    chosen = played if played else members[:4]
    rows = [Row(index=i, name=name, played=name in chosen) for i, name in enumerate(members)]
    form = RecordForm(
        members=members,
        mode=rules.mode,
        rows=rows,
        toi_trang_thoi=rules.toi_trang_counts_thoi,
    )
    _finish(form)
    return form


def from_post(data: QueryDict, members: list[str], rules: engine.RuleSet) -> RecordForm:
    by_name = set(members)
    played = [name for name in data.getlist("played") if name in by_name]
    rows = []
    for i, name in enumerate(members):
        row = Row(index=i, name=name, played=name in played)
        row.cards = max(0, min(13, _int(data.get(f"cards_{i}"))))
        row.heo = [card for card in HEO if card in data.getlist(f"heo_{i}")]
        row.hang = {kind: max(0, min(4, _int(data.get(f"{kind}_{i}")))) for kind in HANG}
        row.cong = data.get(f"cong_{i}") == "on"
        rows.append(row)
    form = RecordForm(
        members=members,
        mode=rules.mode,
        rows=rows,
        toi_trang_thoi=rules.toi_trang_counts_thoi,
    )
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
            chain.steps.append(
                Step(
                    player=data.get(prefix + "player", ""),
                    play=data.get(prefix + "play", ""),
                    cards=[card for card in HEO if card in data.getlist(prefix + "cards")],
                    top=data.get(prefix + "top", "").strip().upper(),
                )
            )
        form.chains.append(chain)
    form.toi_trang_player = (
        data.get("toi_trang_player", "") if data.get("toi_trang_player") in played else ""
    )
    form.toi_trang_hand = data.get("toi_trang_hand", "")
    form.den = data.get("den", "") if data.get("den") in played else ""
    form.ket_3_bich = data.get("ket_3_bich") == "on"
    form.chan_player = data.get("chan_player", "") if data.get("chan_player") in played else ""
    form.chan_round = [name for name in data.getlist("chan_round") if name in played]
    _apply_action(form, data.get("action", ""))
    _finish(form)
    return form


def from_record(record: dict[str, Any], members: list[str], rules: engine.RuleSet) -> RecordForm:
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
        row.heo = [_heo_code(c) for c in hand.get("heo", [])]
        row.hang = {kind: int(hand.get(kind, 0)) for kind in HANG}
        row.cong = row.name in cong
    for chain in record.get("chat") or []:
        form.chains.append(
            Chain(
                victim_out=bool(chain.get("victim_out")),
                steps=[
                    Step(
                        player=step.get("player", ""),
                        play=step.get("play", ""),
                        cards=[_heo_code(c) for c in step.get("cards", [])],
                        top=step.get("top", "") or "",
                    )
                    for step in chain.get("steps", [])
                ],
            )
        )
    toi = record.get("toi_trang") or {}
    form.toi_trang_player = toi.get("player", "")
    form.toi_trang_hand = toi.get("hand", "")
    form.den = record.get("den") or ""
    form.ket_3_bich = bool(record.get("ket_3_bich"))
    chan = record.get("chan_ket_3_bich") or {}
    form.chan_player = chan.get("player", "")
    form.chan_round = list(chan.get("last_round", []))
    _finish(form)
    return form


def _heo_code(card: str) -> str:
    symbols = {"♠": "S", "♣": "C", "♦": "D", "♥": "H"}
    card = card.strip().upper()
    return card[:-1] + symbols.get(card[-1], card[-1]) if card else card


def _apply_action(form: RecordForm, action: str) -> None:
    """Buttons of the chain builder: add a chain, add a counter-chop, remove a chain."""
    if action == "add_chain" and len(form.chains) < MAX_CHAINS:
        form.chains.append(Chain(steps=[Step(), Step()]))
    elif action.startswith("add_step_"):
        c = _int(action.removeprefix("add_step_"), -1)
        if 0 <= c < len(form.chains) and len(form.chains[c].steps) < MAX_STEPS:
            form.chains[c].steps.append(Step())
    elif action.startswith("drop_chain_"):
        c = _int(action.removeprefix("drop_chain_"), -1)
        if 0 <= c < len(form.chains):
            del form.chains[c]
    elif action.startswith("drop_step_"):
        c = _int(action.removeprefix("drop_step_"), -1)
        if 0 <= c < len(form.chains) and len(form.chains[c].steps) > 2:
            form.chains[c].steps.pop()


def _finish(form: RecordForm) -> None:
    """Derived state: whose hand is asked for, the 2s another player already holds, and
    the legal chop choices of each step."""
    if form.toi_trang_player:
        for row in form.rows:
            row.cong = False
            row.shows_hand = (
                form.toi_trang_thoi and row.played and row.name != form.toi_trang_player
            )
    elif form.mode == "first_out":
        for row in form.rows:
            row.shows_hand = row.played and bool(form.winner) and row.name != form.winner
            # In đếm lá, 13 cards left is what makes a loser cóng.
            row.cong = row.shows_hand and row.cards == 13
    else:
        _autofill_last_place(form)
        ranked = [name for name in form.places if name]
        cong = {row.name for row in form.played_rows if row.cong}
        non_cong = [name for name in ranked if name not in cong]
        last = non_cong[-1] if len(ranked) == len(form.played) and non_cong else ""
        for row in form.rows:
            row.shows_hand = row.played and (row.cong or row.name == last)
    owner: dict[str, str] = {}
    for row in form.played_rows:
        for card in row.heo:
            owner.setdefault(card, row.name)
    for chain in form.chains:
        for step in chain.steps:
            for card in step.cards:
                owner.setdefault(card, step.player or "?")
    for row in form.rows:
        row.hidden = not row.shows_hand and (
            form.mode == "first_out" or bool(form.toi_trang_player)
        )
        row.taken_heo = [card for card, who in owner.items() if who != row.name]
    for chain in form.chains:
        previous = ""
        for s, step in enumerate(chain.steps):
            if s == 0:
                allowed = list(engine.PLAYS)
            else:
                allowed = (
                    [p for p in engine.PLAYS if p in engine.legal_chops(previous)]
                    if (previous)
                    else [p for p in engine.PLAYS if p in HANG]
                )
            lang = "en" if (get_language() or "vi").startswith("en") else "vi"
            step.choices = [(p, engine.play_label(p, lang)) for p in allowed]
            if step.play and step.play not in allowed:
                step.play = ""
            previous = step.play


def _autofill_last_place(form: RecordForm) -> None:
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
