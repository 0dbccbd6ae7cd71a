"""import_session and export_session: stdout, stderr and exit codes, as a script sees them."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.ledger import sessionfile, sheets
from scoring.models import Sitting
from scoring.services import bulk_import as importer
from tests.factories import plain, session


def write(tmp_path: Path, data, name="ban.json") -> Path:
    path = tmp_path / name
    raw = data if isinstance(data, bytes) else json.dumps(data, ensure_ascii=False).encode()
    path.write_bytes(raw)
    return path


def run(*args):
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_prints_the_new_sittings_id_alone_on_the_last_line(tmp_path, owner):
    out, err = run(
        "import_session", str(write(tmp_path, session("cuoc"))), "--owner", owner.username
    )
    sitting = Sitting.objects.get()
    assert out.splitlines()[-1] == str(sitting.pk)
    # Nothing on stderr but the group's id, alone on the last line.
    assert err == f"{sitting.group_id}\n"
    assert sitting.owner == owner and sitting.games.count() == 10


def test_it_reports_every_bad_game_and_imports_nothing(tmp_path, owner):
    data = plain()
    data["games"][0]["hands"]["Đức"]["cards"] = 0
    data["games"][1]["finish"] = ["Giang"]
    err = StringIO()
    with pytest.raises(CommandError) as error:
        call_command(
            "import_session", str(write(tmp_path, data)), "--owner", owner.username, stderr=err
        )
    assert error.value.returncode == 1
    lines = err.getvalue().splitlines()
    assert any(
        "(games[0].hands.Đức.cards)" in line and line.lower().startswith(("game 1", "ván 1"))
        for line in lines
    )
    assert any("games[1].finish" in line for line in lines)
    assert not Sitting.objects.exists()


def test_it_refuses_an_unknown_owner(tmp_path, owner):
    with pytest.raises(CommandError, match="no user"):
        call_command("import_session", str(write(tmp_path, plain())), "--owner", "khong_co_ai")


def test_it_refuses_a_missing_file(tmp_path, owner):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_session", str(tmp_path / "missing.json"), "--owner", owner.username)


def test_it_exports_json_that_imports_back_the_same(tmp_path, owner):
    out, _ = run("import_session", str(write(tmp_path, session("diem"))), "--owner", owner.username)
    first = out.splitlines()[-1]
    exported, _ = run("export_session", first, "--format", "json")
    assert json.loads(exported) == sessionfile.session_build(Sitting.objects.get(pk=first))
    out, _ = run(
        "import_session",
        str(write(tmp_path, exported.encode(), "again.json")),
        "--owner",
        owner.username,
    )
    again, _ = run("export_session", out.splitlines()[-1])
    # The copy has a history of its own (its own times, hashes and fingerprint).
    copy, original = json.loads(again), json.loads(exported)
    assert copy.pop("fingerprint") != original.pop("fingerprint")
    assert len(copy.pop("history")) == len(original.pop("history"))  # both imported
    assert copy == original


def test_it_exports_the_same_csv_as_the_download(owner):
    sitting = importer.session_import(owner=owner, data=plain()).sitting
    out, _ = run("export_session", str(sitting.pk), "--format", "csv")
    assert out == sheets.payments_csv(sitting)
    assert out.startswith("\ufeff") and "Đức" in out
    totals, _ = run("export_session", str(sitting.pk), "--format", "totals-csv")
    assert totals == sheets.totals_csv(sitting)


@pytest.mark.parametrize(
    ("sitting_id", "message"), [("999999", "no sitting"), ("abc", "not a sitting id")]
)
def test_it_refuses_an_unknown_sitting(db, sitting_id, message):
    with pytest.raises(CommandError, match=message):
        call_command("export_session", sitting_id)


@pytest.mark.long
def test_it_behaves_for_a_shell_script(tmp_path):
    """Through real processes, on a database of their own: exit codes, stdout, stderr."""
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}",
        "PATH": "/usr/bin:/bin",
        "DJANGO_SUPERUSER_PASSWORD": "mat-khau-dai-123",
    }
    manage = str(Path(__file__).resolve().parents[2] / "manage.py")

    def manage_py(*args):
        return subprocess.run(
            [sys.executable, manage, *args], env=env, capture_output=True, text=True
        )

    assert manage_py("migrate", "-v", "0").returncode == 0
    assert manage_py("createsuperuser", "--noinput", "--username", "an", "--email", "a@b.vn")
    good = manage_py("import_session", str(write(tmp_path, plain())), "--owner", "an")
    assert good.returncode == 0, good.stderr
    sitting_id = good.stdout.splitlines()[-1]
    assert sitting_id.isdigit()
    exported = manage_py("export_session", sitting_id, "--format", "json")
    assert exported.returncode == 0
    assert json.loads(exported.stdout)["totals"] == {"Ánh": 3000, "Đức": -9000, "Hương": 6000}
    for args, words in (
        (
            ["import_session", str(write(tmp_path, b"{ not json", "bad.json")), "--owner", "an"],
            "JSON",
        ),
        (["import_session", str(write(tmp_path, plain())), "--owner", "nobody"], "nobody"),
        (["export_session", "12345"], "no sitting"),
        (["export_session", sitting_id, "--format", "xml"], "xml"),
    ):
        result = manage_py(*args)
        assert result.returncode != 0, args
        assert result.stdout == ""
        assert words in result.stderr
        assert "Traceback" not in result.stderr
