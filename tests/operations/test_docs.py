"""docs/operations.md followed as written: its restore drill run line by line (only the paths
and the scratch database's name replaced), the backup run as deploy/systemd's timer runs it,
with the environment read from ``.env.example`` as systemd and sh read it, and every unit the
page installs shipped and well-formed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.db import connection

from tests.operations import envfile
from tests.operations.conftest import ok, postgres_url
from tests.reliability.realserver import ROOT, database_url_for_test, server_env

DOC = ROOT / "docs" / "operations.md"
UNITS = ROOT / "deploy" / "systemd"

pytestmark = pytest.mark.django_db(transaction=True)


def blocks(heading: str) -> list[str]:
    """The ``sh`` code blocks under ``## heading``."""
    text = DOC.read_text()
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)```", section, re.DOTALL)


def env_file(tmp_path: Path, url: str, backups: Path) -> Path:
    """``.env.example`` filled in as the page says (``install -m 600`` then edited)."""
    text = (ROOT / ".env.example").read_text()
    for name, value in {
        "DATABASE_URL": url,
        "SECRET_KEY": "drill-" + "x" * 60,
        "CACHE_URL": "",
        "STATIC_ROOT": str(tmp_path / "static"),
        "BACKUP_DIR": str(backups),
    }.items():
        text = re.sub(rf"^{name}=.*$", f"{name}={value}", text, flags=re.MULTILINE)
    path = tmp_path / "tienlen.env"
    path.write_text(text)
    path.chmod(0o600)
    return path


def as_systemd_runs(unit: Path, env: dict[str, str]) -> list[str]:
    """The unit's ExecStart, its ``${NAME}`` replaced from ``env`` as systemd does."""
    line = next(x for x in unit.read_text().splitlines() if x.startswith("ExecStart="))
    words = line.removeprefix("ExecStart=").split()
    words = [re.sub(r"\$\{(\w+)\}", lambda m: env.get(m.group(1), ""), w) for w in words]
    return [w.replace("/srv/tienlen/.venv/bin/python", sys.executable) for w in words]


def test_the_restore_drill_runs_as_written(tmp_path):
    live = database_url_for_test(tmp_path)
    ok(live, "build", module="tests.operations.ledger")
    backups = tmp_path / "backups"
    # "sudo install -d -m 700 -o tienlen -g tienlen /var/backups/tienlen", as the site's user.
    install = next(x for x in blocks("On a fresh machine")[0].splitlines() if "install -d" in x)
    command = install.replace("sudo ", "").replace("-o tienlen -g tienlen ", "")
    subprocess.run(command.replace("/var/backups/tienlen", str(backups)), shell=True, check=True)
    assert backups.stat().st_mode & 0o777 == 0o700
    env_path = env_file(tmp_path, live, backups)
    env = envfile.parse(env_path.read_text())

    # The timer's backup, twice in a row (two names), with the environment as systemd reads it.
    for _night in range(2):
        done = subprocess.run(
            as_systemd_runs(UNITS / "tienlen-backup.service", env),
            cwd=ROOT, env={**server_env(live), **env}, capture_output=True, text=True,
            timeout=600, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert len(list(backups.glob("tienlen-*.tar.gz"))) == 2

    drill = blocks("The restore drill")[0]
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))}
    clean.pop("DATABASE_URL", None)
    if connection.vendor == "postgresql":
        # createdb and dropdb as written, on the test's server, under a name of the test's own.
        s = connection.settings_dict
        name = f"{s['NAME']}_drill_{uuid.uuid4().hex[:8]}"
        clean.update(PGHOST=s["HOST"] or "127.0.0.1", PGPORT=str(s["PORT"] or 5432),
                     PGUSER=s["USER"], PGPASSWORD=s["PASSWORD"] or "")  # fmt: skip
        url = postgres_url(name)
        drill = drill.replace("postgres://tienlen:change-me@127.0.0.1:5432/tienlen_drill", url)
        drill = drill.replace("tienlen_drill", name)
    else:
        scratch_file = tmp_path / "tienlen-drill.sqlite3"
        drill = re.sub(
            r"^drill=.*$", f"drill=sqlite:///{scratch_file} && rm -f {scratch_file}", drill,
            flags=re.MULTILINE,
        )  # fmt: skip
        drill = drill.replace("dropdb tienlen_drill", f"rm {scratch_file}")
    drill = (
        drill.replace("/srv/tienlen", str(ROOT))
        .replace("/etc/tienlen.env", str(env_path))
        .replace("/var/backups/tienlen", str(backups))
        .replace("drill.txt", str(tmp_path / "drill.txt"))
        .replace("live.txt", str(tmp_path / "live.txt"))
    )
    for _attempt in range(2):  # the drill can be run twice
        done = subprocess.run(
            ["sh", "-e", "-c", drill], env=clean, capture_output=True, text=True, timeout=900,
            check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert "whole: its gzip stream" in done.stdout
        assert "8 books: every fingerprint agrees with the backup" in done.stdout
    assert not (tmp_path / "drill.txt").exists()


def test_every_unit_the_page_installs_is_shipped():
    text = DOC.read_text()
    named = set(re.findall(r"\b(tienlen(?:-\w+)?\.(?:service|timer))\b", text))
    shipped = {p.name for p in UNITS.iterdir()}
    assert named <= shipped, named - shipped
    assert {"tienlen.service", "tienlen-worker.service", "tienlen-backup.timer",
            "tienlen-books.timer"} <= shipped  # fmt: skip
    for timer in UNITS.glob("*.timer"):
        assert timer.with_suffix(".service").exists()


def test_the_units_use_only_what_the_env_file_sets():
    env = envfile.parse((ROOT / ".env.example").read_text())
    for unit in UNITS.iterdir():
        text = unit.read_text()
        assert "EnvironmentFile=/etc/tienlen.env" in text or unit.suffix == ".timer"
        for name in re.findall(r"\$\{(\w+)\}", text):
            assert env.get(name), f"{unit.name} uses {name}, which .env.example leaves empty"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_finds_nothing_wrong_but_the_missing_install(tmp_path):
    for unit in UNITS.iterdir():
        shutil.copy(unit, tmp_path / unit.name)
    names = sorted(str(p) for p in tmp_path.iterdir())
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *names], cwd=tmp_path, capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip
    complaints = [
        line for line in (done.stdout + done.stderr).splitlines()
        if line.strip() and "/srv/tienlen/.venv/bin/" not in line
    ]  # fmt: skip
    assert complaints == []
