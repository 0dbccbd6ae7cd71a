"""Server time of recording a game, of rendering the sitting page and of its board poll, at
10, 100 and 1 000 games, next to trivial views on the same stack (in-process Django test
client: the time the server spends, without the network).

    .venv/bin/python bench/bench_web.py            # throwaway SQLite file
    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/tienlen_bench \\
        .venv/bin/python bench/bench_web.py        # an existing, empty PostgreSQL database
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tienlen_site.settings")
os.environ["DEBUG"] = "1"
os.environ["ALLOWED_HOSTS"] = "testserver"

import django  # noqa: E402

django.setup()

from bench.production import debug_off  # noqa: E402

debug_off()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from tests.factories import bulk_games, open_sitting  # noqa: E402

RUNS = 40


def median_ms(fn, runs=RUNS):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}", password="x")
    client = Client()
    client.force_login(user)
    hx = {"HX-Request": "true"}
    print(f"database: {django.db.connection.vendor}")
    print(
        f"trivial views: /healthz {median_ms(lambda: client.get('/healthz')):.2f} ms, "
        f"log-in page {median_ms(lambda: client.get('/accounts/login/')):.2f} ms"
    )
    for size in (10, 100, 1000):
        sitting = open_sitting(user, name=f"bench {size}")
        bulk_games(sitting, user, size)
        page = median_ms(lambda s=sitting: client.get(f"/s/{s.pk}/"))

        def record(s=sitting):
            data = {
                "played": ["An", "Bình", "Chi", "Dũng"],
                "winner": "An",
                "cards_1": "4",
                "cards_2": "7",
                "cards_3": "13",
                "heo_3": "2H",
                "action": "save",
                "token": str(uuid.uuid4()),
            }
            response = client.post(f"/s/{s.pk}/games/", data, headers=hx)
            assert response.status_code == 200

        rec = median_ms(record)
        print(f"{size:>5} games: render sitting page {page:6.2f} ms · record a game {rec:6.2f} ms")
        # The sitting page's own poll (a co-scorekeeper's phone): nothing new, then a change.
        sitting.refresh_from_db()
        url = f"/s/{sitting.pk}/?part=board"
        same = {**hx, "If-None-Match": f'"{sitting.version}-1-vi"'}
        stale = {**hx, "If-None-Match": '"0-1-vi"'}
        assert client.get(url, headers=same).status_code == 304
        unchanged = median_ms(lambda u=url, h=same: client.get(u, headers=h))
        changed = median_ms(lambda u=url, h=stale: client.get(u, headers=h))
        print(
            f"{'':>5}        sitting poll: nothing new (304) {unchanged:6.2f} ms"
            f" · board changed {changed:6.2f} ms"
        )


if __name__ == "__main__":
    main()
