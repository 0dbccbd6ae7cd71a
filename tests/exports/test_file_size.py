"""A file over the 5 MB limit is refused with its real size, on the page and in the command."""

from __future__ import annotations

import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from scoring.ledger import sessionfile
from scoring.models import Sitting

MB = 1024 * 1024


@pytest.mark.parametrize(
    ("size", "vi", "en"),
    [
        (6 * MB, "6,0 MB", "6.0 MB"),
        (5 * MB + 1, "5,1 MB", "5.1 MB"),  # rounded up: never shown as the limit itself
        (12 * MB + MB // 2, "12,5 MB", "12.5 MB"),
    ],
)
def test_it_says_the_real_size_rounded_up(size, vi, en):
    with translation.override("vi"):
        assert sessionfile.too_large_message(size) == f"Tệp quá lớn ({vi}); tối đa 5 MB."
    with translation.override("en"):
        assert en in sessionfile.too_large_message(size)


def _big_file(tmp_path: Path, size: int) -> Path:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * size)
    return path


@pytest.mark.django_db
def test_import_session_reports_a_6_mb_file_as_6_mb(tmp_path, owner):
    err = StringIO()
    with pytest.raises(CommandError) as error:
        call_command(
            "import_session",
            str(_big_file(tmp_path, 6 * MB)),
            "--owner",
            owner.username,
            stderr=err,
        )
    assert error.value.returncode == 1
    assert "6.0 MB" in err.getvalue() and "5.0 MB" not in err.getvalue()
    assert not Sitting.objects.exists()


@pytest.mark.django_db
def test_import_session_from_stdin_says_more_than_5_mb(owner, monkeypatch):
    import io

    fake = io.TextIOWrapper(io.BytesIO(b" " * (6 * MB)))
    monkeypatch.setattr(sys, "stdin", fake)
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("import_session", "-", "--owner", owner.username, stderr=err)
    assert "more than 5 MB" in err.getvalue()


@pytest.mark.django_db
def test_the_import_page_reports_the_real_size(owner_client):
    # Above the import's 5 MB but under the request-body limit, so the form itself answers.
    upload = SimpleUploadedFile("big.json", b" " * (11 * MB // 2), content_type="application/json")
    response = owner_client.post("/import/", {"file": upload})
    assert response.status_code == 422
    assert "Tệp quá lớn (5,5 MB); tối đa 5 MB." in response.content.decode()
