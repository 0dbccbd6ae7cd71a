"""A server killed in the middle of a burst of saves loses nothing and doubles nothing.

Real gunicorn (2 workers) against the test's database; eight phones save games at once, each
with its own submission token; the whole process group gets SIGKILL while requests are in
flight; the server comes back; then:

* every game is whole or absent: its seats sum to 0 and its payments are exactly what the
  engine computes from its record (the audit recomputes them, it trusts nothing stored);
* every save that was answered "saved" is there, under the number the answer gave;
* sending every token again (what a phone does when it never got its answer) creates exactly
  the games that are missing, and answers the others with the game they already made.

Short by default (one kill, 40 saves). ``RELIABILITY_LONG=1`` kills the server five times
during bigger bursts.
"""

from __future__ import annotations

import http.client
import os
import random
import threading
import time
import uuid
from dataclasses import dataclass, field

import pytest

from tests.reliability.realserver import (
    Phone,
    Server,
    dbtool,
    first_out_fields,
    saved_number,
)

pytestmark = pytest.mark.slow

LONG = bool(os.environ.get("RELIABILITY_LONG"))
ROUNDS = 5 if LONG else 1
PHONES = 12 if LONG else 8
SAVES_PER_PHONE = 10 if LONG else 5
MEMBERS = ["An", "Bình", "Chi", "Dũng"]
HX = {"HX-Request": "true"}


def random_game(rng: random.Random, token: str) -> list[tuple[str, str]]:
    """A valid đếm lá game: a winner, three losers with cards left, some thối 2s."""
    winner = rng.choice(MEMBERS)
    losers = [name for name in MEMBERS if name != winner]
    heo: dict[str, list[str]] = {}
    for card in ("2S", "2C", "2D", "2H"):
        if rng.random() < 0.3:
            heo.setdefault(rng.choice(losers), []).append(card)
    cards = {name: rng.randint(max(1, len(heo.get(name, []))), 13) for name in losers}
    return first_out_fields(MEMBERS, winner=winner, cards=cards, heo=heo, token=token)


@dataclass
class Burst:
    saved: dict[str, int] = field(default_factory=dict)  # token -> number the answer gave
    failed: dict[str, str] = field(default_factory=dict)  # token -> what went wrong
    other: dict[str, int] = field(default_factory=dict)  # token -> an unexpected status
    lock: threading.Lock = field(default_factory=threading.Lock)


def send(phone: Phone, sitting: int, fields: list[tuple[str, str]], burst: Burst) -> None:
    token = dict(fields)["token"]
    try:
        status, _headers, body = phone.post(f"/s/{sitting}/games/", fields, HX)
    except (OSError, http.client.HTTPException) as error:
        with burst.lock:
            burst.failed[token] = type(error).__name__
        return
    number = saved_number(body) if status == 200 else None
    with burst.lock:
        if number is None:
            burst.other[token] = status
        else:
            burst.saved[token] = number


def fire(phone: Phone, sitting: int, work: list[list[list[tuple[str, str]]]], burst: Burst):
    def run(queue: list[list[tuple[str, str]]]) -> None:
        for fields in queue:
            send(phone, sitting, fields, burst)

    threads = [threading.Thread(target=run, args=(queue,)) for queue in work]
    for thread in threads:
        thread.start()
    return threads


def test_a_killed_server_loses_no_answered_save_and_a_resend_doubles_nothing(ledger_url, tmp_path):
    sitting = dbtool(ledger_url, "seed")["sitting"]
    server = Server(ledger_url, workers=2, log_dir=tmp_path).start()
    rng = random.Random(2026)
    submissions: dict[str, list[tuple[str, str]]] = {}
    answered: dict[str, int] = {}
    outcomes = []
    try:
        phone = Phone(server.url).login()
        for _round in range(ROUNDS):
            work = []
            for _ in range(PHONES):
                queue = []
                for _ in range(SAVES_PER_PHONE):
                    token = str(uuid.uuid4())
                    submissions[token] = random_game(rng, token)
                    queue.append(submissions[token])
                work.append(queue)
            burst = Burst()
            threads = fire(phone, sitting, work, burst)
            # Kill once a third of this burst has been answered: the rest is queued or in
            # flight in the two workers, some of it half-way through its transaction.
            target = PHONES * SAVES_PER_PHONE // 3
            deadline = time.monotonic() + 60
            while len(burst.saved) < target and time.monotonic() < deadline:
                time.sleep(0.005)
            server.kill()
            for thread in threads:
                thread.join(60)
            assert not burst.other, (
                f"answers that were neither saved nor a dropped connection: {burst.other}"
            )
            assert burst.failed, "the kill came after the burst: nothing was in flight"
            answered.update(burst.saved)

            server.start()
            report = dbtool(ledger_url, "audit", str(sitting))
            assert report["problems"] == []
            stored = {game["token"]: game["number"] for game in report["games"]}
            missing = {t: n for t, n in answered.items() if stored.get(t) != n}
            assert missing == {}, "a save answered 'saved' is not in the ledger"
            outcomes.append(
                {
                    "sent": len(work) * SAVES_PER_PHONE,
                    "answered": len(burst.saved),
                    "cut_off": len(burst.failed),
                    "stored_without_answer": len(set(stored) - set(answered)),
                }
            )

            # Every phone re-sends every token it ever sent, four at a time.
            again = Burst()
            tokens = list(submissions)
            for thread in fire(
                phone, sitting, [[submissions[t] for t in tokens[i::4]] for i in range(4)], again
            ):
                thread.join(120)
            assert again.failed == {} and again.other == {}
            assert {t: again.saved[t] for t in answered} == answered
            for token, number in stored.items():
                assert again.saved[token] == number  # the game it already made, not a new one
            report = dbtool(ledger_url, "audit", str(sitting))
            assert report["problems"] == []
            numbers = sorted(game["number"] for game in report["games"])
            assert numbers == list(range(1, len(submissions) + 1))
            assert {game["token"] for game in report["games"]} == set(submissions)
            assert {game["token"]: game["number"] for game in report["games"]} == again.saved
            answered.update(again.saved)
    finally:
        server.stop()
    print(f"\nkill-mid-burst outcome per round: {outcomes}")
