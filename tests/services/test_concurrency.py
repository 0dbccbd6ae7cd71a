"""Several scorekeepers at once: nothing lost, nothing doubled, numbers unique."""

import random
import threading
import uuid

import pytest
from django.db import connection, connections
from django.db.models import Sum

from scoring import ledger, services
from scoring.models import Game, Payment, Seat
from tests.factories import first_out, open_sitting, resent

pytestmark = pytest.mark.django_db(transaction=True)


def _run_threads(target, count):
    errors = []

    def wrapped(i):
        try:
            target(i)
        except Exception as error:  # surfaced below; a thread must not swallow it
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return errors


def test_concurrent_recording_and_editing_keeps_the_ledger_exact(owner):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite serialises writers by itself")
    sitting = open_sitting(owner)
    seed = [
        services.game_record(
            sitting=sitting,
            user=owner,
            record=first_out("An", Bình=1, Chi=1, Dũng=1),
            token=uuid.uuid4(),
        )[0]
        for _ in range(3)
    ]
    tokens = [uuid.uuid4() for _ in range(24)]

    def work(i):
        rng = random.Random(i)
        for n in range(6):
            token = tokens[(i * 6 + n) % len(tokens)]  # tokens shared between threads: retries
            cards = {"Bình": rng.randint(1, 12), "Chi": rng.randint(1, 12), "Dũng": 3}
            rec = (
                first_out("An", **cards)
                if token.int % 2
                else first_out("An", Bình=2, Chi=2, Dũng=2)
            )
            try:
                resent(services.game_record, sitting=sitting, user=owner, record=rec, token=token)
            except services.Conflict:
                pass  # the same token with another record: refused, nothing written
            game = seed[rng.randrange(len(seed))]
            fresh = Game.objects.get(pk=game.pk)
            try:
                resent(
                    services.game_edit,
                    game=fresh,
                    user=owner,
                    record=first_out("An", Bình=rng.randint(1, 12), Chi=1, Dũng=1),
                    expected_revision=fresh.revision,
                )
            except services.Conflict:
                pass  # someone edited it in between: the loser is told, nothing overwritten

    errors = _run_threads(work, 4)
    assert errors == []
    games = list(Game.objects.filter(sitting=sitting))
    numbers = sorted(g.number for g in games)
    assert numbers == list(range(1, len(games) + 1))
    assert Game.objects.filter(sitting=sitting).count() == 3 + len(set(tokens))
    for game in games:
        current = Payment.objects.filter(game=game, revision=game.revision)
        scored = services.game_score(sitting=sitting, record=game.record)
        assert sorted((p.payer.name, p.payee.name, p.amount) for p in current) == sorted(
            (t.payer, t.payee, t.amount) for t in scored.result.transfers
        )
        assert Seat.objects.filter(game=game).aggregate(t=Sum("net"))["t"] == 0
    # The sitting's totals equal the sum of every game's current payments.
    expected: dict[int, int] = {}
    for game in games:
        for p in Payment.objects.filter(game=game, revision=game.revision):
            expected[p.payee_id] = expected.get(p.payee_id, 0) + p.amount
            expected[p.payer_id] = expected.get(p.payer_id, 0) - p.amount
    assert ledger.game_totals(sitting) == {k: v for k, v in expected.items()}
    assert sum(expected.values()) == 0
