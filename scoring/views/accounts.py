"""Password reset by e-mail, offered only where mail can be sent (see settings.EMAIL_URL)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.utils import translation

from tienlen_site.plumbing.after_response import after_response

# The thread each reset mail is rendered and sent in.
MAIL_THREAD = "password-reset-mail"


def _when_mail_works(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.PASSWORD_RESET_ENABLED:
            raise Http404
        return view(request, *args, **kwargs)

    return wrapped


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's form, with each mail rendered and sent after the response has gone out.

    The answer is the same redirect whether or not the address has an account; if it waited
    for the mail (rendering it, then the mail server), its timing would say which. What still
    happens in the request either way is the look-up; for a known address also the link's
    token, a keyed hash of a few fields already in memory.
    """

    def send_mail(self, *args: Any, **kwargs: Any) -> None:
        language = translation.get_language()

        def send() -> None:
            with translation.override(language):  # the mail in the asker's language
                super(PasswordResetForm, self).send_mail(*args, **kwargs)

        after_response(send, name=MAIL_THREAD)


password_reset = _when_mail_works(
    auth_views.PasswordResetView.as_view(
        form_class=PasswordResetForm,
        html_email_template_name=None,
        subject_template_name="registration/password_reset_subject.txt",
        email_template_name="registration/password_reset_email.txt",
    )
)
password_reset_done = _when_mail_works(auth_views.PasswordResetDoneView.as_view())


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's view; a new password set from the mail also lifts the account's log-in
    lock (tienlen_site.plumbing.loginlimit): whoever reads the owner's mail is the owner."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        axes_reset(username=form.user.get_username())
        return response


password_reset_confirm = _when_mail_works(PasswordResetConfirmView.as_view())
password_reset_complete = _when_mail_works(auth_views.PasswordResetCompleteView.as_view())
