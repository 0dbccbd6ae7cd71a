"""A sitting full of hostile names, and every URL pattern of the site, for the sweeps here."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver

from scoring import engine, services
from scoring.models import SavedRuleSet, Sitting
from tests.factories import live_link, open_sitting, record, settle

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
SVG = "'><svg onload=alert(1)>"
PAYLOADS = (SCRIPT, IMG, SVG)
# What must never reach a page unescaped: the start of each payload's live markup.
RAW_MARKERS = ("<script>alert", "<img src=x", "<svg onload")
ESCAPED_SCRIPT = "&lt;script&gt;alert(1)&lt;/script&gt;"

MEMBERS = [SCRIPT, IMG, SVG, "An", "Bình"]
FOUR = MEMBERS[:4]


@dataclass
class Table:
    user: object
    sitting: Sitting
    players: list  # Player rows, in seating order
    settlement: object
    rules: SavedRuleSet
    token: str
    keeper: object = None  # a co-scorekeeper who accepted an invitation
    invitation: object = None  # a pending invitation to a username with no account
    close: object = None  # a period close of the sitting's group (before the sitting)
    join_code: str = ""  # the sitting's "Mời cả bàn" code (its join page is public)

    def kwargs(self, route: str, names: list[str]) -> dict[str, object]:
        """Values for a route's arguments that point at this table's objects."""
        values: dict[str, object] = {}
        for name in names:
            if name == "pk":
                if route.startswith("players/"):
                    values[name] = self.players[0].pk
                elif route.startswith("rules/"):
                    values[name] = self.rules.pk
                elif route.startswith("groups/"):
                    values[name] = self.sitting.group_id
                else:
                    values[name] = self.sitting.pk
            elif name == "number":
                values[name] = 1
            elif name == "settlement_id":
                values[name] = self.settlement.pk
            elif name in ("player_id", "a", "payer_id"):
                values[name] = self.players[0].pk
            elif name in ("b", "payee_id"):
                values[name] = self.players[1].pk
            elif name == "token":
                values[name] = self.token
            elif name == "code":
                values[name] = self.join_code
            elif name == "user_id":
                values[name] = self.keeper.pk
            elif name == "invitation_id":
                values[name] = self.invitation.pk
            elif name == "sitting_id":
                values[name] = self.sitting.pk
            elif name == "close_id":
                values[name] = self.close.pk
            elif name == "what":  # which count of the group's stats (scoring.ledger.stats.COUNTS)
                values[name] = "wins"
            else:
                raise AssertionError(
                    f"{route!r} takes an argument {name!r} the sweeps here do not know: teach "
                    "Table.kwargs which object it names, so the new page is swept too"
                )
        return values


def build_table(user, *, name: str = SCRIPT, members: list[str] = MEMBERS) -> Table:
    saved = SavedRuleSet.objects.create(
        owner=user,
        name=IMG,
        data=engine.ruleset_to_dict(engine.PRESETS["dem-la"]),
    )
    sitting = open_sitting(
        user, rules=engine.ruleset_from_dict(saved.data), stake=1000, players=members, name=name
    )
    a, b, c, d = members[:4]
    records = [
        # cards left and a thối 2
        {
            "players": [a, b, c, d],
            "finish": [a],
            "hands": {b: {"cards": 5, "heo": ["2H"]}, c: {"cards": 3}, d: {"cards": 13}},
        },
        # a chặt chồng: a's heo chopped by c's 3 đôi thông, c chopped back by d's tứ quý
        {
            "players": [a, b, c, d],
            "finish": [b],
            "hands": {a: {"cards": 2}, c: {"cards": 4}, d: {"cards": 6}},
            "chat": [
                {
                    "steps": [
                        {"player": a, "play": "heo", "cards": ["2S"]},
                        {"player": c, "play": "3dt"},
                        {"player": d, "play": "tq"},
                    ],
                    "victim_out": False,
                }
            ],
        },
        {
            "players": [a, b, c, d],
            "finish": [c],
            "hands": {a: {"cards": 1}, b: {"cards": 1}, d: {"cards": 1}},
        },
    ]
    for rec in records:
        record(sitting, user, rec)
    game = sitting.games.get(number=3)
    services.game_void(game=game, user=user, reason=SVG)
    players = [m.player for m in sitting.memberships.select_related("player")]
    settlement = settle(sitting, user, players[1].name, players[0].name, 1000)
    token = live_link(sitting, user)
    keeper = get_user_model().objects.create_user(f"ghi_cung_{user.pk}", password=None)
    services.sitting_share(sitting=sitting, user=user, invitee=keeper)
    invitation = services.invitation_send(sitting=sitting, user=user, username=f"chua_co_{user.pk}")
    # Closed through the day before the sitting's: the sitting itself stays open to changes.
    the_day_before = sitting.date - datetime.timedelta(days=1)
    close = services.period_close(group=sitting.group, user=user, through=the_day_before).value
    join = services.join_code(sitting=sitting, user=user, action="enable")
    assert join is not None
    return Table(
        user, sitting, players, settlement, saved, token, keeper, invitation, close, join.token
    )


@pytest.fixture
def table(owner) -> Table:
    return build_table(owner)


@pytest.fixture
def stranger_table(stranger) -> Table:
    return build_table(stranger, name="Bàn của người lạ", members=["Tư", "Năm", "Sáu", "Bảy"])


@pytest.fixture
def other_user(db):
    return get_user_model().objects.create_user("ke_tan_cong", password="mat-khau-dai-456")


# --- Every URL pattern --------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    route: str  # the pattern as written, e.g. "s/<int:pk>/g/<int:number>/"
    name: str
    args: tuple[str, ...]


def route_names() -> set[str]:
    return {route.name for route in all_routes()}


def all_routes() -> list[Route]:
    """Every named URL pattern of the site, includes walked (admin left to Django)."""
    found: list[Route] = []

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            text = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
            if isinstance(pattern, URLResolver):
                if text.startswith("admin/"):
                    continue
                walk(pattern.url_patterns, text)
            elif isinstance(pattern, URLPattern):
                assert pattern.name, f"{text!r} has no name; the sweeps reverse by name"
                args = tuple(pattern.pattern.regex.groupindex)
                found.append(Route(text, pattern.name, args))

    walk(get_resolver().url_patterns, "")
    return found


# Prefixes of the pages that belong to someone: a sitting and what is in it, players, the
# ledger across sittings, saved rule sets, and the public live link.
OWNED_PREFIXES = ("s/", "players/", "ledger/", "rules/", "live/")


def owned_routes() -> list[Route]:
    return [r for r in all_routes() if r.route.startswith(OWNED_PREFIXES) and r.args]
