"""A game record (docs/record-format.md#game-record-format, version 1) as typed, validated data.

Build one with :func:`scoring.engine.parse_record`; :func:`record_to_dict` gives the canonical
JSON form back (``parse_record(record_to_dict(r), rules) == r``). Canonical means: hands only
for players who hold something, every count written out, card texts in letter form, ``cong``
listing every cóng player (also those implied by 13 cards in first_out) in seating order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Hand:
    """What a player still held when the game ended (for tới trắng: what they were dealt).
    ``cards`` counts every card, heo and hàng cards included. ``dt5`` counts runs of five pairs
    (10 cards), priced as 4 đôi thông ("4 đôi thông or longer")."""

    cards: int = 0
    heo: tuple[str, ...] = ()
    dt3: int = 0
    tq: int = 0
    dt4: int = 0
    dt5: int = 0

    @property
    def special_cards(self) -> int:
        """How many of the cards are recorded heo and hàng cards."""
        return len(self.heo) + 6 * self.dt3 + 4 * self.tq + 8 * self.dt4 + 10 * self.dt5

    @property
    def has_thoi(self) -> bool:
        return bool(self.heo or self.dt3 or self.tq or self.dt4 or self.dt5)


EMPTY_HAND = Hand()


@dataclass(frozen=True, slots=True)
class ChatStep:
    player: str
    play: str
    cards: tuple[str, ...] = ()
    top: str | None = None


@dataclass(frozen=True, slots=True)
class ChatChain:
    """``steps[0]`` is the chopped play, every later step chops the one before it."""

    steps: tuple[ChatStep, ...]
    victim_out: bool = False


@dataclass(frozen=True, slots=True)
class ToiTrang:
    player: str
    hand: str


@dataclass(frozen=True, slots=True)
class ChanKet3Bich:
    player: str
    last_round: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One validated game. ``finish[0]`` is the winner (except in a tới trắng, where ``finish``
    is empty); ``hands`` holds only players who hold something (use :meth:`hand`)."""

    players: tuple[str, ...]
    opening: bool = False
    finish: tuple[str, ...] = ()
    hands: dict[str, Hand] = field(default_factory=dict)
    cong: tuple[str, ...] = ()
    chat: tuple[ChatChain, ...] = ()
    toi_trang: ToiTrang | None = None
    den: str | None = None
    ket_3_bich: bool = False
    chan_ket_3_bich: ChanKet3Bich | None = None
    #: The player whose last card was a 2 (only under a rule set whose ``two_out`` is "bet").
    two_out: str | None = None

    def hand(self, player: str) -> Hand:
        return self.hands.get(player, EMPTY_HAND)

    @property
    def winner(self) -> str:
        """Who won: the tới trắng player, else the first to finish."""
        if self.toi_trang is not None:
            return self.toi_trang.player
        return self.finish[0]


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    out: dict[str, Any] = {"cards": hand.cards, "heo": list(hand.heo), "3dt": hand.dt3,
                           "tq": hand.tq, "4dt": hand.dt4}  # fmt: skip
    if hand.dt5:  # written only when held, so records without one keep their form
        out["5dt"] = hand.dt5
    return out


def record_to_dict(record: GameRecord) -> dict[str, Any]:
    """The canonical JSON form of a record."""
    out: dict[str, Any] = {"players": list(record.players), "opening": record.opening}
    if record.toi_trang is not None:
        out["toi_trang"] = {"player": record.toi_trang.player, "hand": record.toi_trang.hand}
        if record.hands:
            out["hands"] = {p: hand_to_dict(h) for p, h in record.hands.items()}
        return out
    out["finish"] = list(record.finish)
    out["hands"] = {p: hand_to_dict(h) for p, h in record.hands.items()}
    out["cong"] = list(record.cong)
    chains = []
    for chain in record.chat:
        steps = []
        for step in chain.steps:
            item: dict[str, Any] = {"player": step.player, "play": step.play}
            if step.cards:
                item["cards"] = list(step.cards)
            if step.top is not None:
                item["top"] = step.top
            steps.append(item)
        chains.append({"steps": steps, "victim_out": chain.victim_out})
    out["chat"] = chains
    out["toi_trang"] = None
    out["den"] = record.den
    out["ket_3_bich"] = record.ket_3_bich
    out["chan_ket_3_bich"] = (
        None
        if record.chan_ket_3_bich is None
        else {
            "player": record.chan_ket_3_bich.player,
            "last_round": list(record.chan_ket_3_bich.last_round),
        }
    )
    if record.two_out is not None:
        out["two_out"] = record.two_out
    return out


def rename_players(record: Mapping[str, Any], renamed: Mapping[str, str]) -> dict[str, Any]:
    """A game record (docs/record-format.md#game-record-format) as a dict, with the players
    named in ``renamed`` (old name -> new) renamed everywhere: a player merged into another."""

    def swap(name: Any) -> Any:
        return renamed.get(name, name) if isinstance(name, str) else name

    out = dict(record)
    out["players"] = [swap(n) for n in record.get("players") or []]
    for key in ("finish", "cong"):
        if key in record and record[key] is not None:
            out[key] = [swap(n) for n in record[key]]
    if isinstance(record.get("hands"), dict):
        out["hands"] = {swap(n): hand for n, hand in record["hands"].items()}
    if record.get("chat"):
        out["chat"] = [
            {
                **chain,
                "steps": [{**step, "player": swap(step.get("player"))} for step in chain["steps"]],
            }
            for chain in record["chat"]
        ]
    if isinstance(record.get("toi_trang"), dict):
        out["toi_trang"] = {**record["toi_trang"], "player": swap(record["toi_trang"]["player"])}
    if record.get("den") is not None:
        out["den"] = swap(record["den"])
    if isinstance(record.get("chan_ket_3_bich"), dict):
        chan = record["chan_ket_3_bich"]
        out["chan_ket_3_bich"] = {
            **chan,
            "player": swap(chan.get("player")),
            "last_round": [swap(n) for n in chan.get("last_round") or []],
        }
    return out


def record_from_dict(data: Mapping[str, Any]) -> GameRecord:
    """The record a canonical JSON form stands for, read without any check.

    Only for a form :func:`record_to_dict` wrote from a record :func:`.validate.parse_record`
    accepted (a stored game's record); anything else goes through ``parse_record``.
    """
    players = tuple(data["players"])
    opening = bool(data.get("opening"))
    hands = {name: _hand(hand) for name, hand in (data.get("hands") or {}).items()}
    toi = data.get("toi_trang")
    if toi is not None:
        return GameRecord(players=players, opening=opening, hands=hands,
                          toi_trang=ToiTrang(toi["player"], toi["hand"]))  # fmt: skip
    chat = tuple(
        ChatChain(
            tuple(
                ChatStep(s["player"], s["play"], tuple(s.get("cards") or ()), s.get("top"))
                for s in chain["steps"]
            ),
            bool(chain.get("victim_out")),
        )
        for chain in data.get("chat") or ()
    )
    chan = data.get("chan_ket_3_bich")
    return GameRecord(
        players=players,
        opening=opening,
        finish=tuple(data.get("finish") or ()),
        hands=hands,
        cong=tuple(data.get("cong") or ()),
        chat=chat,
        den=data.get("den"),
        ket_3_bich=bool(data.get("ket_3_bich")),
        chan_ket_3_bich=None if chan is None else ChanKet3Bich(chan["player"],
                                                               tuple(chan["last_round"])),
        two_out=data.get("two_out"),
    )  # fmt: skip


def _hand(data: Mapping[str, Any]) -> Hand:
    return Hand(data.get("cards", 0), tuple(data.get("heo") or ()), data.get("3dt", 0),
                data.get("tq", 0), data.get("4dt", 0), data.get("5dt", 0))  # fmt: skip
