"""Sittings and games for the live and players tests."""

import uuid

from scoring import live_cache, services
from scoring.models import Game, Payment, Seat, Sitting


def record(sitting, user, data):
    game, _created = services.game_record(
        sitting=sitting, user=user, record=data, token=uuid.uuid4()
    )
    return game


# B goes out; A holds 2♥ among 5 cards, C 8 cards, D is cóng: the worked example of
# docs/rules.md#paying-a-first-out-game.
FIRST = {
    "players": ["An", "Bình", "Chi", "Dũng"],
    "opening": True,
    "finish": ["Bình"],
    "hands": {"An": {"cards": 5, "heo": ["2H"]}, "Chi": {"cards": 8}, "Dũng": {"cards": 13}},
}
SECOND = {
    "players": ["An", "Bình", "Chi", "Dũng"],
    "finish": ["Chi"],
    "hands": {"An": {"cards": 3}, "Bình": {"cards": 7}, "Dũng": {"cards": 2}},
}


def live_url(sitting):
    return f"/live/{sitting.live_token}/"


def latest(sitting):
    return Game.objects.filter(sitting=sitting).order_by("-number").first()


def bulk_games(sitting, user, count):
    """``count`` scored games, written in bulk (services.game_record would take minutes).

    Each of four records (every player wins in turn) is scored once by the engine; the games
    reuse those seats and payments, exactly as game_record would have stored them.
    """
    names = ["An", "Bình", "Chi", "Dũng"]
    scored = []
    for k, winner in enumerate(names):
        hands = {n: {"cards": 2 + (i + k) % 9} for i, n in enumerate(names) if n != winner}
        data = {"players": names, "opening": False, "finish": [winner], "hands": hands}
        scored.append(services.game_score(sitting=sitting, record=data))
    start = Game.objects.filter(sitting=sitting).count()
    games = Game.objects.bulk_create(
        Game(
            sitting=sitting,
            number=start + i + 1,
            record=scored[i % 4].record,
            next_leader=scored[i % 4].players[names[i % 4]],
            created_by=user,
        )
        for i in range(count)
    )
    if not all(g.pk for g in games):  # backends that do not return ids from bulk_create
        games = list(Game.objects.filter(sitting=sitting, number__gt=start).order_by("number"))
    seats, payments = [], []
    for i, game in enumerate(games):
        s = scored[i % 4]
        for position, name in enumerate(names):
            seats.append(
                Seat(
                    game=game,
                    player=s.players[name],
                    position=position,
                    place=1 if name == names[i % 4] else None,
                    net=s.result.net[name],
                )
            )
        payments.extend(
            Payment(
                game=game,
                revision=1,
                payer=s.players[t.payer],
                payee=s.players[t.payee],
                amount=t.amount,
                reason=t.reason,
                detail=t.detail,
            )
            for t in s.result.transfers
        )
    Seat.objects.bulk_create(seats, batch_size=2000)
    Payment.objects.bulk_create(payments, batch_size=2000)
    Sitting.objects.filter(pk=sitting.pk).update(version=sitting.version + 1)
    # As every write in scoring.services does: watchers see the new version on their next poll.
    live_cache.publish([Sitting.objects.get(pk=sitting.pk)])
    return games
