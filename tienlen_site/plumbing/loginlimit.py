"""Failed log-ins counted three ways, each with a limit of its own (django-axes knows one).

``AXES_LOCKOUT_PARAMETERS`` lists the three counts, in this order:

1. a username from one address: ``AXES_FAILURE_LIMIT`` (5) failures lock that pair, as
   before: a stranger's guesses never lock the owner out from the owner's own phone;
2. a username from any address: ``AXES_ACCOUNT_FAILURE_LIMIT`` (20) failures lock the
   account everywhere, so guessing from forty addresses gets twenty guesses, not two hundred.
   The owner gets in at once through the password-reset mail (a new password clears the
   account's failures, ``scoring.views.accounts``), or after the cool-off;
3. one address, any usernames: ``AXES_ADDRESS_FAILURE_LIMIT`` (30) failures lock that
   address out of every log-in, so it cannot spray guesses over many accounts.

All three lift after ``AXES_COOLOFF_TIME``. Axes compares one number with one limit, so each
count is put on the scale of ``AXES_FAILURE_LIMIT``: at its own limit it reads as the full
limit, below it as at most one less.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest


def limits() -> list[int]:
    """Each lockout parameter's limit, in the order of ``AXES_LOCKOUT_PARAMETERS``."""
    return [
        settings.AXES_FAILURE_LIMIT,
        settings.AXES_ACCOUNT_FAILURE_LIMIT,
        settings.AXES_ADDRESS_FAILURE_LIMIT,
    ]


class LoginLimitHandler(AxesDatabaseHandler):
    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        scale: int = settings.AXES_FAILURE_LIMIT
        worst = 0
        attempts_list = self.get_user_attempts(request, credentials)
        for attempts, limit in zip(attempts_list, limits(), strict=False):
            failures = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
            scaled = scale if failures >= limit else min(failures * scale // limit, scale - 1)
            worst = max(worst, scaled)
        return worst
