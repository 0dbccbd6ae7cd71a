"""What watching a live table costs the server, and how soon a change reaches a watcher.

1. Server time of a "nothing new" poll (304) next to trivial views on the same stack: a view
   that returns a constant, and /healthz (one ``SELECT 1``). The aim is under 2x the trivial
   view, checked: the bench exits 1 when the quiet poll misses it. Also the poll that does
   find something new (the first one renders the board, the rest get the rendered copy) and
   the full page.
2. Change to watcher: record a game, then time the next poll, which must come back 200 with
   the new game (the server's share; the wait for a phone's next tick and the network are
   not measured here, so no figure is printed for them).

In-process Django test client through every middleware (the time the server spends, without
the network), against a throwaway SQLite file (or BENCH_DATABASE_URL).

    .venv/bin/python bench/bench_live.py
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench_live.sqlite3"
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
os.environ["DEBUG"] = "1"
os.environ["ALLOWED_HOSTS"] = "testserver"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import include, path  # noqa: E402

from bench.production import debug_off  # noqa: E402
from scoring import engine, services  # noqa: E402
from scoring.views.links import POLL_SECONDS  # noqa: E402

# Measure what production runs: no SQL logging, no django-htmx debug script.
debug_off()


def trivial(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


# The site's URLs plus the trivial view, so both go through the same resolver and middleware.
urlpatterns = [path("bench-trivial/", trivial), path("", include(settings.ROOT_URLCONF))]
settings.ROOT_URLCONF = __name__

RUNS = 1500
# The aim: a "nothing new" poll costs under twice the trivial view on the same stack.
AIM = 2.0
NAMES = ["An", "Bình", "Chi", "Dũng"]


def record_for(k: int) -> dict[str, object]:
    winner = NAMES[k % 4]
    hands = {n: {"cards": 1 + (k + i) % 12} for i, n in enumerate(NAMES) if n != winner}
    return {"players": NAMES, "finish": [winner], "hands": hands}


def median_us(fn, runs: int = RUNS) -> float:
    for _ in range(min(50, runs)):  # warm up caches, template loaders, the connection
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}", password="x")
    sitting = services.sitting_open(
        owner=owner,
        name="Bàn đo tốc độ",
        date=date(2025, 3, 1),
        rules=engine.PRESETS["dem-la"],
        stake=5000,
        player_names=NAMES,
    )
    for k in range(100):
        services.game_record(sitting=sitting, user=owner, record=record_for(k), token=uuid.uuid4())
    token = services.sitting_live_link(sitting=sitting, user=owner, action="enable")
    url = f"/live/{token}/"
    client = Client()
    hx = {"HX-Request": "true"}
    etag = client.get(url, headers=hx).headers["ETag"]

    def poll() -> None:
        response = client.get(url, headers={**hx, "If-None-Match": etag})
        assert response.status_code == 304, response.status_code

    queries: list[str] = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        poll()
    print(f"database: {connection.vendor}; sitting with 100 games; medians of {RUNS} requests")
    base = median_us(lambda: client.get("/bench-trivial/"))
    health = median_us(lambda: client.get("/healthz"))
    quiet = median_us(poll)
    print(f"  trivial view (constant body)       {base:8.0f} µs")
    print(f"  /healthz (SELECT 1)                {health:8.0f} µs")
    print(
        f"  poll, nothing new (304)            {quiet:8.0f} µs   {quiet / base:.2f}x trivial, "
        f"{len(queries)} SQL statements (version from the cache)"
    )

    # The first phone to poll after a change renders the board; the others get that copy.
    def first_poll_after_a_change():
        cache.clear()
        client.get(url, headers=hx)

    fragment = median_us(first_poll_after_a_change, runs=200)
    shared = median_us(lambda: client.get(url, headers=hx), runs=200)
    page = median_us(lambda: client.get(url), runs=200)
    print(f"  poll, something new, first phone   {fragment:8.0f} µs   (renders the board)")
    print(f"  poll, something new, other phones  {shared:8.0f} µs   (the rendered copy)")
    print(f"  full page (cached board)           {page:8.0f} µs")

    # A change reaching a watcher: the write, then the next poll with the old tag.
    writes, reads = [], []
    for k in range(30):
        etag = client.get(url, headers=hx).headers["ETag"]
        start = time.perf_counter()
        services.game_record(sitting=sitting, user=owner, record=record_for(k), token=uuid.uuid4())
        written = time.perf_counter()
        response = client.get(url, headers={**hx, "If-None-Match": etag})
        seen = time.perf_counter()
        assert response.status_code == 200 and f"Ván {101 + k}" in response.content.decode()
        writes.append(written - start)
        reads.append(seen - written)
    write_ms = statistics.median(writes) * 1000
    read_ms = statistics.median(reads) * 1000
    print("change to watcher (median of 30 games recorded)")
    print(f"  record the game (server)           {write_ms:8.1f} ms")
    print(f"  next poll returns it (server)      {read_ms:8.1f} ms")
    print(f"  (a phone polls every {POLL_SECONDS} s; the network is not measured here)")
    print(f"(ran in {time.perf_counter() - started:.1f} s)")
    missed = (
        [] if quiet < AIM * base else [f"the quiet poll took {quiet / base:.2f}x the trivial view"]
    )
    for line in missed:
        print(f"MISSED: {line} (aim: under {AIM:.0f}x)")
    if missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
