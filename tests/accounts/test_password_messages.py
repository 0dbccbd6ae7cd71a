"""Django's password messages are Vietnamese on the Vietnamese pages (and English on English)."""

import re

import pytest

pytestmark = pytest.mark.django_db


def _texts(html: str) -> list[str]:
    errors = re.findall(r'class="field-error"[^>]*>([^<]*)<', html)
    helps = re.findall(r'<div class="helptext"[^>]*>(.*?)</div>', html, re.S)
    return errors + [re.sub(r"<[^>]+>", " ", h) for h in helps]


def _sign_up(client, password, username="nguoi_moi"):
    return client.post(
        "/accounts/signup/",
        {"username": username, "password1": password, "password2": password},
    )


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("a1b2", "Mật khẩu này quá ngắn: cần ít nhất 8 ký tự."),
        ("password", "Mật khẩu này quá phổ biến."),
        ("40918273645", "Mật khẩu này hoàn toàn là số."),
        ("nguoi_moi1", "Mật khẩu quá giống với"),
    ],
)
def test_every_password_rule_speaks_vietnamese(client, password, message):
    html = _sign_up(client, password).content.decode()
    assert message in html


def test_no_english_sentence_is_left_on_the_vietnamese_sign_up_page(client):
    html = _sign_up(client, "abc").content.decode()
    texts = _texts(html)
    assert texts, "the page shows errors and help"
    english = [t for t in texts if re.search(r"\b(password|must|characters|too)\b", t, re.I)]
    assert english == []


def test_the_same_messages_are_english_on_the_english_page(client):
    client.cookies["django_language"] = "en"
    html = _sign_up(client, "a1b2").content.decode()
    assert "This password is too short. It must contain at least 8 characters." in html


def test_the_password_change_form_speaks_vietnamese_too(owner_client):
    response = owner_client.post(
        "/accounts/password_change/",
        {"old_password": "mat-khau-dai-123", "new_password1": "a1b2", "new_password2": "a1b2"},
    )
    assert "Mật khẩu này quá ngắn: cần ít nhất 8 ký tự." in response.content.decode()
