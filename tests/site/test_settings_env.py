"""Settings read from the environment: yes/no values, HSTS preload only on request."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from tests.site.test_security import _run
from tienlen_site.settings import env_bool

PRODUCTION = {
    "DEBUG": "0",
    "ALLOWED_HOSTS": "example.com",
    "SECRET_KEY": "a-long-random-production-secret-for-the-check-0123456789-abcdefgh",
}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1", True),
        ("TRUE", True),
        (" yes ", True),
        ("on", True),
        ("0", False),
        ("False", False),
        ("no", False),
        ("OFF", False),
    ],
)
def test_env_bool_reads_the_usual_words(monkeypatch, value, expected):
    monkeypatch.setenv("SOME_SWITCH", value)
    assert env_bool("SOME_SWITCH", not expected) is expected


@pytest.mark.parametrize("value", [None, "", "  "])
def test_env_bool_falls_back_to_the_default_when_unset_or_empty(monkeypatch, value):
    if value is None:
        monkeypatch.delenv("SOME_SWITCH", raising=False)
    else:
        monkeypatch.setenv("SOME_SWITCH", value)
    assert env_bool("SOME_SWITCH", True) is True
    assert env_bool("SOME_SWITCH", False) is False


@pytest.mark.parametrize("value", ["flase", "ture", "2", "nope", "y"])
def test_env_bool_refuses_a_typo_and_names_the_variable(monkeypatch, value):
    monkeypatch.setenv("SECURE_SSL_REDIRECT", value)
    with pytest.raises(ImproperlyConfigured, match=f"SECURE_SSL_REDIRECT='{value}'"):
        env_bool("SECURE_SSL_REDIRECT", True)


def test_a_typo_in_debug_stops_the_site_from_starting():
    result = _run({**PRODUCTION, "DEBUG": "flase"}, "check")
    assert result.returncode != 0
    assert "DEBUG='flase' is neither yes nor no" in result.stderr


def _hsts(env):
    code = "from django.conf import settings; print(settings.SECURE_HSTS_PRELOAD)"
    return _run(env, "shell", "--no-imports", "-c", code)


def test_hsts_preload_is_off_unless_asked_for():
    result = _hsts(PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
    result = _hsts({**PRODUCTION, "SECURE_HSTS_PRELOAD": "1"})
    assert result.stdout.strip() == "True"


def test_check_deploy_is_clean_with_preload_asked_for_too():
    result = _run(
        {**PRODUCTION, "SECURE_HSTS_PRELOAD": "1"}, "check", "--deploy", "--fail-level", "WARNING"
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _setting(env, expression):
    code = f"from django.conf import settings; print({expression})"
    return _run(env, "shell", "--no-imports", "-c", code).stdout.strip()


def test_production_offers_password_reset_only_with_mail_configured():
    assert _setting(PRODUCTION, "settings.PASSWORD_RESET_ENABLED, settings.MAILERS") == ("False {}")
    with_mail = {**PRODUCTION, "EMAIL_URL": "smtps://u:p@mail.example"}
    assert _setting(with_mail, "settings.PASSWORD_RESET_ENABLED") == "True"
    result = _run(with_mail, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr


def test_forwarded_addresses_count_only_behind_a_proxy():
    count = "settings.PROXY_COUNT"
    assert _setting({**PRODUCTION, "PROXY_COUNT": "2"}, count) == "0"
    assert _setting({**PRODUCTION, "BEHIND_PROXY": "1"}, count) == "1"
    assert _setting({**PRODUCTION, "BEHIND_PROXY": "1", "PROXY_COUNT": "2"}, count) == "2"
    result = _run({**PRODUCTION, "BEHIND_PROXY": "1", "PROXY_COUNT": "0"}, "check")
    assert result.returncode != 0
    assert "PROXY_COUNT=0 with BEHIND_PROXY on" in result.stderr
