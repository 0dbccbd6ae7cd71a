"""The walk of a request through the project's modules: how often it moves from one module to
another (stays) and how often a call runs back up a layer (climbs).

A request is followed with ``sys.setprofile`` from the moment its view's module is entered
until that first frame returns (the middleware before it is the site's, the same for every
page). Every call into a module of scoring/ or tienlen_site/ is noted with the module it was
made from (the nearest frame of the project on the stack, Django's own frames between them
skipped): a *stay* is a run of consecutive calls inside one module, a *climb* a call from a
module of a lower layer into one of a higher layer (the layers of ``tests/test_layers.py``).

A group payment must go one way, view → form → service → ledger → template: at most
``MOST_STAYS`` stays and ``MOST_CLIMBS`` climbs; so must a player's statement page and a game
save, the request a table sends most. See them with::

    .venv/bin/python -m pytest -p no:cacheprovider -q -s tests/test_walks.py
"""

from __future__ import annotations

import datetime
import re
import sys
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from django.test import Client

from scoring import engine, services
from scoring.models import Player
from tests.factories import first_out, record
from tests.test_layers import LAYERS, _layer
from tienlen_site import urls  # every view imported now: an import is no part of a walk

pytestmark = pytest.mark.django_db
assert urls.urlpatterns

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "tienlen_site")
MOST_STAYS = 15
MOST_CLIMBS = 3


def _module_of(filename: str) -> str | None:
    """The project module a code object's file is, or None (Django, the standard library,
    the tests, templates)."""
    try:
        relative = Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return None
    if relative.parts[0] not in PACKAGES or relative.suffix != ".py":
        return None
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _rank(module: str) -> int:
    """A module's layer (``tests/test_layers.py``): the site's plumbing the lowest, the rest
    of the site package with the entry points."""
    if module.startswith("tienlen_site") and not module.startswith("tienlen_site.plumbing"):
        return len(LAYERS) - 1
    return _layer(module) or 0


#: The layers a request walks through (``tests/test_layers.py``): the reads and everything
#: above them. What lies below (the engine, models, text and number helpers, access) and the
#: templates' own filters are leaves every layer calls and that call nothing back: a call
#: into them is part of the stay it was made from.
WALKED_FROM = next(n for n, (title, _prefixes) in enumerate(LAYERS) if title == "reads")
LEAVES = ("scoring.templatetags",)


def _walked(module: str | None) -> bool:
    if module is None or module.startswith(LEAVES):
        return False
    return _rank(module) >= WALKED_FROM


@dataclass
class Walk:
    """Where a request's code ran, in order: each stay is a module of the walked layers and
    the functions of it that were entered; a climb, a move from a module to one of a higher
    layer (back from a call, or a call up)."""

    stays: list[tuple[str, list[str]]] = field(default_factory=list)
    climbs: list[str] = field(default_factory=list)

    def move(self, module: str, function: str) -> None:
        """A call into ``function`` of ``module``."""
        if self.stays and self.stays[-1][0] == module:
            self.stays[-1][1].append(function)
            return
        if self.stays and _rank(module) > _rank(self.stays[-1][0]):
            self.climbs.append(f"{self.stays[-1][0]} → {module}.{function}")
        self.stays.append((module, [function]))

    @property
    def modules(self) -> list[str]:
        return sorted({module for module, _functions in self.stays})

    def report(self, title: str) -> str:
        lines = [
            f"{title}: {len(self.stays)} stays through {len(self.modules)} modules, "
            f"{len(self.climbs)} climbs back up"
        ]
        for n, (module, functions) in enumerate(self.stays, 1):
            named = list(dict.fromkeys(functions))
            shown = ", ".join(named[:5]) + (", …" if len(named) > 5 else "")
            lines.append(f"  {n:>2}. {module}  ({shown})")
        lines.extend(f"  climb: {climb}" for climb in self.climbs)
        return "\n".join(lines)


def follow(view_module: str, request: Callable[[], Any]) -> tuple[Walk, Any]:
    """Run ``request`` and note its walk from the first call into ``view_module`` until
    that call returns."""
    walk = Walk()
    modules: dict[str, str | None] = {}
    state: dict[str, Any] = {"view": None, "done": False}  # the view's first frame

    def module(frame: FrameType) -> str | None:
        filename = frame.f_code.co_filename
        if filename not in modules:
            modules[filename] = _module_of(filename)
        return modules[filename]

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if state["done"]:
            return
        if event == "return":
            state["done"] = frame is state["view"]
            return
        if event != "call":
            return
        callee = module(frame)
        if not _walked(callee):
            return
        assert callee is not None
        if state["view"] is None:
            if callee != view_module:
                return
            state["view"] = frame
        walk.move(callee, frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        answer = request()
    finally:
        sys.setprofile(None)
    return walk, answer


# --- The requests ---------------------------------------------------------------------------

FOUR = ["An", "Bình", "Chi", "Dũng"]
HX = {"HX-Request": "true"}


@pytest.fixture
def group(owner):
    """Four sittings of one game each in a group: balances that need settling."""
    made = services.group_create(owner=owner, name="Thứ Bảy").value
    for n, day in enumerate((1, 8, 15, 22)):
        sitting = services.sitting_open(
            owner=owner,
            name=f"Tối {day}/11",
            date=datetime.date(2026, 11, day),
            rules=engine.PRESETS["dem-la"],
            stake=5000,
            player_names=FOUR,
            group=made,
        )
        winner = FOUR[n % 4]
        record(
            sitting,
            owner,
            first_out(winner, **{p: 3 + i for i, p in enumerate(FOUR) if p != winner}),
        )
    return made


def _client(owner: Any) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def test_a_group_payment_goes_one_way(owner, group):
    client = _client(owner)
    page = client.get(f"/groups/{group.pk}/settle/").text
    found = re.search(
        r'name="payer" value="(\d+)">\s*<input type="hidden" name="payee" value="(\d+)">\s*'
        r'<input type="hidden" name="amount" value="(\d+)">\s*'
        r'<input type="hidden" name="version" value="([^"]+)">',
        page,
    )
    assert found, "a suggestion with its one-tap button"
    payer, payee, amount, version = found.groups()
    data = {"kind": "suggestion", "row": "1", "token": str(uuid.uuid4())}
    data |= {"payer": payer, "payee": payee, "amount": amount, "version": version}
    walk, answer = follow(
        "scoring.views.ledger",
        lambda: client.post(f"/groups/{group.pk}/settlements/", data, headers=HX),
    )
    assert answer.status_code == 200
    assert "Đã ghi" in answer.text
    print("\n" + walk.report("A group payment (group_settlement_new, htmx)"))
    assert walk.stays, "the walk starts in the view that answers the payment"
    assert len(walk.stays) <= MOST_STAYS, walk.report("too many stays")
    assert len(walk.climbs) <= MOST_CLIMBS, walk.report("too many climbs")


def test_the_walk_of_a_statement_page(owner, group):
    client = _client(owner)
    an = Player.objects.get(group=group, name="An")
    walk, answer = follow(
        "scoring.views.groups",
        lambda: client.get(f"/groups/{group.pk}/players/{an.pk}/?period=all"),
    )
    assert answer.status_code == 200
    assert "An" in answer.text
    print("\n" + walk.report("A player's statement in a group (group_statement)"))
    assert len(walk.stays) <= MOST_STAYS, walk.report("too many stays")
    assert len(walk.climbs) <= MOST_CLIMBS, walk.report("too many climbs")


def test_the_walk_of_a_game_save(owner, group):
    client = _client(owner)
    sitting = group.sittings.order_by("-date").first()
    data = {
        "played": FOUR,
        "winner": "Bình",
        "action": "save",
        "token": str(uuid.uuid4()),
        "cards_0": "5",
        "cards_2": "8",
        "cards_3": "13",
    }
    walk, answer = follow(
        "scoring.views.sittings",
        lambda: client.post(f"/s/{sitting.pk}/games/", data, headers=HX),
    )
    assert answer.status_code == 200
    assert "Đã lưu ván" in answer.text
    print("\n" + walk.report("A game save (the record form, htmx)"))
    assert len(walk.stays) <= MOST_STAYS, walk.report("too many stays")
    assert len(walk.climbs) <= MOST_CLIMBS, walk.report("too many climbs")
