"""Password reset by e-mail, offered only where mail can be sent (see settings.EMAIL_URL)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponseBase


def _when_mail_works(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.PASSWORD_RESET_ENABLED:
            raise Http404
        return view(request, *args, **kwargs)

    return wrapped


password_reset = _when_mail_works(
    auth_views.PasswordResetView.as_view(
        html_email_template_name=None,
        subject_template_name="registration/password_reset_subject.txt",
        email_template_name="registration/password_reset_email.txt",
    )
)
password_reset_done = _when_mail_works(auth_views.PasswordResetDoneView.as_view())
password_reset_confirm = _when_mail_works(auth_views.PasswordResetConfirmView.as_view())
password_reset_complete = _when_mail_works(auth_views.PasswordResetCompleteView.as_view())
