import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_it_sends_a_nonce_csp_on_every_page(client):
    response = client.get("/accounts/login/")
    csp = response.headers["Content-Security-Policy"]
    assert "object-src 'none'" in csp
    assert "base-uri 'none'" in csp
    assert "default-src 'self'" in csp
    nonce = re.search(r"'nonce-([^']+)'", csp).group(1)
    html = response.content.decode()
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts, "the page loads htmx"
    # No inline script without the nonce; every script tag carries it.
    assert all(f'nonce="{nonce}"' in tag for tag in scripts)
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


@pytest.mark.django_db
def test_it_configures_htmx_without_eval_and_for_this_site_only(client):
    html = client.get("/accounts/login/").content.decode()
    assert '"allowEval": false' in html
    assert '"selfRequestsOnly": true' in html
    assert "django_htmx/htmx-2.min.js" in html
    assert "//cdn" not in html and "https://" not in html


def _run(env_extra, *args):
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = _run({"DEBUG": "0", "ALLOWED_HOSTS": "example.com"}, "check")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_check_deploy_is_clean_under_production_settings():
    result = _run(
        {
            "DEBUG": "0",
            "ALLOWED_HOSTS": "example.com",
            "SECRET_KEY": "a-long-random-production-secret-for-the-check-0123456789-abcdefgh",
        },
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr
