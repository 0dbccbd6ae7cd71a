"""The model-level filters every read goes through, and the one table of payment reasons."""

from scoring.engine import REASONS
from scoring.models import Payment


def test_every_engine_reason_has_one_label():
    assert tuple(Payment.Reason.values) == REASONS


def test_current_counted_and_standing_filters(db, django_user_model):
    from scoring import services
    from scoring.models import Game, Seat, Settlement
    from tests.factories import first_out, open_sitting, record

    user = django_user_model.objects.create_user("chu_ban", password="mat-khau-dai-123")
    sitting = open_sitting(user)
    kept = record(sitting, user, first_out("An", Bình=1, Chi=2, Dũng=3))
    edited = record(sitting, user, first_out("An", Bình=4, Chi=2, Dũng=3))
    services.game_edit(
        game=edited,
        user=user,
        record=first_out("Bình", An=5, Chi=2, Dũng=3),
        expected_revision=1,
    )
    voided = record(sitting, user, first_out("Chi", An=1, Bình=1, Dũng=1))
    services.game_void(game=voided, user=user, reason="ghi nhầm")

    assert set(Game.objects.active()) == {kept, edited}
    assert set(Game.objects.void()) == {voided}
    # Each game has three payers; the edit's first revision is not current.
    assert Payment.objects.filter(game=edited).count() == 6
    assert {p.revision for p in Payment.objects.current().filter(game=edited)} == {2}
    assert Payment.objects.current().count() == 9
    assert set(Payment.objects.counted().values_list("game", flat=True)) == {kept.pk, edited.pk}
    assert not Seat.objects.counted().filter(game=voided).exists()
    assert Seat.objects.counted().count() == 8

    an, binh = (sitting.members.get(name=n) for n in ("An", "Bình"))
    services.settlement_record(sitting=sitting, user=user, payer=binh, payee=an, amount=5000)
    wrong = services.settlement_record(
        sitting=sitting, user=user, payer=an, payee=binh, amount=1000
    )
    services.settlement_void(settlement=wrong, user=user, reason="nhầm")
    assert Settlement.objects.standing().count() == 1
    assert Settlement.objects.count() == 2
