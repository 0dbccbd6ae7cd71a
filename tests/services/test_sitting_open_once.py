"""sitting_open_once: one sitting per submission token, even when two sends race."""

import datetime
import threading
import uuid

import pytest
from django.db import connection

from scoring import engine, services
from scoring.models import Sitting


def _open(owner, token, **changes):
    kwargs = {
        "token": token,
        "owner": owner,
        "name": "Bàn",
        "date": datetime.date(2026, 11, 28),
        "rules": engine.PRESETS["dem-la"],
        "stake": 1000,
        "player_names": ["An", "Bình"],
    }
    kwargs.update(changes)
    return services.sitting_open_once(**kwargs)


@pytest.mark.django_db
def test_it_returns_the_sitting_a_token_already_opened(owner):
    token = uuid.uuid4()
    first, created = _open(owner, token)
    again, created_again = _open(owner, token)
    assert created and not created_again and first == again
    assert Sitting.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change",
    [
        {"name": "Bàn khác"},
        {"stake": 2000},
        {"date": datetime.date(2026, 11, 29)},
        {"player_names": ["An", "Chi"]},
        {"rules": engine.PRESETS["nhat-nhi-ba-bet"]},
    ],
)
def test_it_raises_a_conflict_for_a_different_form_under_the_same_token(owner, change):
    token = uuid.uuid4()
    _open(owner, token)
    with pytest.raises(services.Conflict):
        _open(owner, token, **change)
    assert Sitting.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_racing_sends_of_one_form_open_one_sitting(owner):
    if connection.vendor == "sqlite":
        pytest.skip("SQLite serialises writers; the race needs PostgreSQL")
    token = uuid.uuid4()
    results, errors = [], []
    barrier = threading.Barrier(2)

    def send():
        try:
            barrier.wait()
            results.append(_open(owner, token))
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert Sitting.objects.count() == 1
    assert sorted(created for _sitting, created in results) == [False, True]
