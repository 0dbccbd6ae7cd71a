"""Forgotten password: an optional e-mail at sign-up, a reset link by mail where mail works."""

import re
import threading

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.core.mail.backends.locmem import EmailBackend

from scoring.views.accounts import MAIL_THREAD
from tienlen_site.settings import email_from_url

pytestmark = pytest.mark.django_db


def _mails_sent():
    """The mails, once every reset mail started after its response has been sent."""
    for thread in threading.enumerate():
        if thread.name == MAIL_THREAD:
            thread.join(timeout=10)
    return mail.outbox


def _sign_up(client, **extra):
    data = {
        "username": "thu_ky",
        "password1": "mot-mat-khau-dai-9",
        "password2": "mot-mat-khau-dai-9",
    }
    return client.post("/accounts/signup/", {**data, **extra})


def test_sign_up_takes_an_optional_e_mail(client):
    page = client.get("/accounts/signup/").content.decode()
    assert 'name="email"' in page and "Không bắt buộc" in page
    assert _sign_up(client, email="thu.ky@example.com").status_code == 302
    assert get_user_model().objects.get(username="thu_ky").email == "thu.ky@example.com"


def test_sign_up_works_without_an_e_mail(client):
    assert _sign_up(client).status_code == 302
    assert get_user_model().objects.get(username="thu_ky").email == ""


def test_sign_up_refuses_a_broken_e_mail_in_vietnamese(client):
    response = _sign_up(client, email="khong-phai-email")
    assert response.status_code == 200
    assert "E-mail này không đúng dạng (ví dụ: ten@example.com)" in response.content.decode()
    assert not get_user_model().objects.exists()


def test_the_account_page_sets_the_e_mail(owner_client, owner):
    assert 'name="email"' in owner_client.get("/accounts/").content.decode()
    response = owner_client.post("/accounts/", {"email": "chu.ban@example.com"})
    assert response.status_code == 302
    owner.refresh_from_db()
    assert owner.email == "chu.ban@example.com"


def _reset_link(body: str) -> str:
    return re.search(r"https?://testserver(/accounts/reset/\S+/)", body).group(1)


def test_a_forgotten_password_is_reset_through_the_mailed_link(client, owner):
    owner.email = "chu.ban@example.com"
    owner.save()
    assert "Quên mật khẩu?" in client.get("/accounts/login/").content.decode()
    response = client.post("/accounts/password_reset/", {"email": "Chu.Ban@example.com"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert "Hãy xem hộp thư" in client.get(response["Location"]).content.decode()
    assert len(_mails_sent()) == 1
    message = mail.outbox[0]
    assert message.to == ["chu.ban@example.com"]
    assert message.subject == "Đặt lại mật khẩu Sổ Tiến Lên"
    assert "Xin chào chu_ban" in message.body
    link = _reset_link(message.body)
    form = client.get(link, follow=True)
    assert "Đặt mật khẩu mới" in form.content.decode()
    set_url = form.redirect_chain[-1][0]
    done = client.post(
        set_url, {"new_password1": "mat-khau-moi-dai-77", "new_password2": "mat-khau-moi-dai-77"}
    )
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"
    owner.refresh_from_db()
    assert owner.check_password("mat-khau-moi-dai-77")
    # The link works once.
    again = client.get(link, follow=True).content.decode()
    assert "Liên kết này không dùng được nữa" in again


def test_an_unknown_e_mail_gets_the_same_answer_and_no_mail(client, owner):
    response = client.post("/accounts/password_reset/", {"email": "ai.do@example.com"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert _mails_sent() == []


class HeldMailer(EmailBackend):
    """Django's test mailer, holding each mail until the test lets it go (or 5 s pass)."""

    gate = threading.Event()
    senders: list[str] = []

    def send_messages(self, messages):
        self.gate.wait(timeout=5)
        HeldMailer.senders.append(threading.current_thread().name)
        return super().send_messages(messages)


def test_the_answer_does_not_wait_for_the_mail(client, owner, settings):
    # A known address gets its answer while its mail is still being sent: the mail goes out
    # in a thread of its own, after the response, so both addresses are answered alike.
    owner.email = "chu.ban@example.com"
    owner.save()
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.HeldMailer"}}
    HeldMailer.gate.clear()
    HeldMailer.senders.clear()
    response = client.post("/accounts/password_reset/", {"email": "chu.ban@example.com"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == [], "the answer waited for the mail"
    HeldMailer.gate.set()
    assert [m.to for m in _mails_sent()] == [["chu.ban@example.com"]]
    assert HeldMailer.senders == [MAIL_THREAD]


def test_the_mail_follows_the_chosen_language(client, owner):
    owner.email = "chu.ban@example.com"
    owner.save()
    client.cookies["django_language"] = "en"
    client.post("/accounts/password_reset/", {"email": "chu.ban@example.com"})
    assert _mails_sent()[0].subject == "Reset your Sổ Tiến Lên password"
    assert "Hello chu_ban" in mail.outbox[0].body


def test_without_mail_configured_the_reset_pages_are_not_offered(client, owner, settings):
    settings.PASSWORD_RESET_ENABLED = False
    assert "Quên mật khẩu?" not in client.get("/accounts/login/").content.decode()
    for url in (
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/reset/MQ/set-password/",
        "/accounts/reset/done/",
    ):
        assert client.get(url).status_code == 404, url
    assert client.post("/accounts/password_reset/", {"email": "x@example.com"}).status_code == 404
    assert mail.outbox == []


def test_email_url_forms():
    smtp = email_from_url("smtp://so%40tien.len:p%40ss@mail.example:2525")
    assert smtp["BACKEND"].endswith("smtp.EmailBackend")
    options = smtp["OPTIONS"]
    assert (options["host"], options["port"]) == ("mail.example", 2525)
    assert (options["username"], options["password"]) == ("so@tien.len", "p@ss")
    assert options["use_tls"] and not options["use_ssl"]
    assert email_from_url("smtp://mail.example")["OPTIONS"]["port"] == 587
    ssl = email_from_url("smtps://mail.example")["OPTIONS"]
    assert ssl["port"] == 465 and ssl["use_ssl"] and not ssl["use_tls"]
    plain = email_from_url("smtp+plain://127.0.0.1")["OPTIONS"]
    assert plain["port"] == 25 and not plain["use_tls"]
    assert email_from_url("console://")["BACKEND"].endswith("console.EmailBackend")
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        email_from_url("sendgrid://key@x")


def test_an_smtp_url_builds_a_working_mailer(settings):
    from django.core.mail import mailers

    settings.MAILERS = {"default": email_from_url("smtps://u:p@mail.example:2465")}
    backend = mailers.default
    assert (backend.host, backend.port, backend.username, backend.use_ssl) == (
        "mail.example",
        2465,
        "u",
        True,
    )
