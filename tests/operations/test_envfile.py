"""``.env.example`` is installed as it is (docs/operations.md): systemd reads it through
``EnvironmentFile=`` and cron's line through ``set -a && . /etc/tienlen.env``. Both must read
every variable, with the same value."""

from __future__ import annotations

import subprocess

import pytest

from tests.operations import envfile
from tests.reliability.realserver import ROOT

EXAMPLE = ROOT / ".env.example"


def by_sh(path) -> dict[str, str]:
    """The environment ``sh`` ends with after ``set -a && . FILE && set +a``, less its own."""
    script = 'env -i sh -c \'set -a && . "$1" && set +a && env -0\' sh "$0"'
    done = subprocess.run(
        ["sh", "-c", script, str(path)], capture_output=True, check=False, timeout=30
    )
    assert done.returncode == 0, done.stderr.decode()
    pairs = (item.split("=", 1) for item in done.stdout.decode().split("\0") if "=" in item)
    return {k: v for k, v in pairs if k not in {"PWD", "SHLVL", "_", "OLDPWD"}}


def test_sh_reads_every_variable_of_the_example():
    text = EXAMPLE.read_text()
    read = by_sh(EXAMPLE)
    assert read["DEFAULT_FROM_EMAIL"] == "Sổ Tiến Lên <no-reply@so-tien-len.example>"
    named = {line.split("=", 1)[0] for line in text.splitlines() if line[:1].isalpha()}
    assert set(read) == named


def test_systemd_reads_what_sh_reads():
    assert envfile.parse(EXAMPLE.read_text()) == by_sh(EXAMPLE)


def test_the_example_has_nothing_the_two_would_read_differently():
    for number, line in enumerate(EXAMPLE.read_text().splitlines(), 1):
        if line.startswith("#") or not line.strip():
            continue
        assert not set(line) & set("$`\\'"), f"line {number}: {line}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A=1\n# B=2\n; C=3\nnot a line\n", {"A": "1"}),
        ("A= spaced  out \t\n", {"A": "spaced  out"}),
        ("A=it's\n", {"A": "it's"}),
        ('A="x \\$y \\q"\n', {"A": "x $y \\q"}),
        ("A='a\nb' \nB=c\\\nd\n", {"A": "a\nb", "B": "cd"}),
        ("A=$HOME\n", {"A": "$HOME"}),
    ],
)
def test_the_parser_follows_the_manual(text, expected):
    assert envfile.parse(text) == expected


def test_the_old_example_line_is_not_read_by_sh(tmp_path):
    # The line that stopped cron's backup: sh reads < as a redirection.
    old = tmp_path / "old.env"
    old.write_text("DEFAULT_FROM_EMAIL=Sổ Tiến Lên <no-reply@so-tien-len.example>\n")
    done = subprocess.run(["sh", "-c", f'set -a && . "{old}"'], capture_output=True, check=False)
    assert done.returncode != 0
