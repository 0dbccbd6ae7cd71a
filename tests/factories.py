"""Small builders shared by the view and service tests."""

import datetime
import uuid

from scoring import engine, services

FOUR = ["An", "Bình", "Chi", "Dũng"]


def open_sitting(user, *, preset="dem-la", stake=5000, players=FOUR, name="Tối thứ Bảy"):
    return services.sitting_open(
        owner=user,
        name=name,
        date=datetime.date(2026, 11, 28),
        rules=engine.PRESETS[preset],
        stake=stake,
        player_names=players,
    )


def first_out(winner="Bình", **cards):
    """A đếm lá record: ``first_out("Bình", An=5, Chi=8, Dũng=13)``."""
    players = [winner, *cards] if winner not in cards else list(cards)
    order = [p for p in FOUR if p in players] + [p for p in players if p not in FOUR]
    return {
        "players": order,
        "finish": [winner],
        "hands": {name: {"cards": n} for name, n in cards.items()},
    }


def record(sitting, user, rec, token=None):
    game, _created = services.game_record(
        sitting=sitting, user=user, record=rec, token=token or uuid.uuid4()
    )
    return game


def bulk_games(sitting, user, count, rec=None):
    """``count`` identical games written in bulk (same rows the service writes)."""
    from scoring.models import Game, HistoryEntry, Payment, Seat

    rec = rec or first_out("An", Bình=1, Chi=2, Dũng=3)
    scored = services.game_score(sitting=sitting, record=rec)
    start = (sitting.games.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    games = Game.objects.bulk_create(
        Game(sitting=sitting, number=start + i, record=scored.record, created_by=user)
        for i in range(count)
    )
    games = list(Game.objects.filter(sitting=sitting, number__gte=start).order_by("number"))
    Seat.objects.bulk_create(
        Seat(game=g, player=scored.players[name], position=pos, net=scored.result.net[name])
        for g in games
        for pos, name in enumerate(scored.record["players"])
    )
    Payment.objects.bulk_create(
        Payment(
            game=g,
            revision=1,
            payer=scored.players[t.payer],
            payee=scored.players[t.payee],
            amount=t.amount,
            reason=t.reason,
            detail=t.detail,
        )
        for g in games
        for t in scored.result.transfers
    )
    HistoryEntry.objects.bulk_create(
        HistoryEntry(
            sitting=sitting, game=g, user=user, action="recorded", revision=1, after=scored.record
        )
        for g in games
    )
    return games
