"""tienlen-score: the score command without Django, answering as ``manage.py score`` does."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.engine import cli

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE = {
    "players": ["A", "B", "C", "D"],
    "finish": ["B"],
    "hands": {"A": {"cards": 5, "heo": ["2H"]}, "C": {"cards": 8}, "D": {"cards": 13}},
}
BAD = {"players": ["A", "B"], "finish": ["A"], "hands": {"A": {"cards": 2}, "B": {"cards": 20}}}
# Scored with a note: dem-la does not count thối on a tới trắng, so the dealt 2 costs nothing.
NOTED = {"players": ["A", "B"], "toi_trang": {"player": "A", "hand": "6_doi"},
         "hands": {"B": {"heo": ["2S"]}}}  # fmt: skip


def script(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """``tienlen-score ARGS`` as the installed console script runs it."""
    return subprocess.run(
        [sys.executable, "-m", "scoring.engine.cli", *args],
        input=stdin, capture_output=True, text=True, timeout=60, check=False, cwd=ROOT,
    )  # fmt: skip


def command(*args: str, stdin: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        call_command("score", *args, stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, out.getvalue(), f"{err.getvalue()}summary: {exc}\n"
    return 0, out.getvalue(), err.getvalue()


def test_the_console_script_is_the_engine_cli():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"]["tienlen-score"] == "scoring.engine.cli:main"


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["--rules", "dem-la", "--stake", "5000"], json.dumps(EXAMPLE)),
        (["--rules", "dem-la", "--stake", "1000", "-"], json.dumps([EXAMPLE, EXAMPLE])),
        (["--rules", "nhat-nhi-ba-bet", "--stake=1000", "--indent", "4"], json.dumps([EXAMPLE])),
        (["--rules", "dem-la", "--stake", "1000"], json.dumps(BAD)),
        (["--rules", "dem-la", "--stake", "1000", "--lang", "vi"], json.dumps([EXAMPLE, BAD, 3])),
        (["--rules", "dem-la", "--stake", "1000"], "{not json"),
        (["--rules", "cuoc", "--stake", "5001"], json.dumps(EXAMPLE)),
        (["--rules", "poker", "--stake", "1"], json.dumps(EXAMPLE)),
        (["--rules", "dem-la", "--stake", "1000", "--lang", "vi"], json.dumps(NOTED)),
        (["--rules", "dem-la", "--stake", "1000"], json.dumps([EXAMPLE, NOTED, NOTED])),
    ],
)
def test_it_answers_as_manage_py_score(monkeypatch, args, stdin):
    done = script(*args, stdin=stdin)
    code, out, err = command(*args, stdin=stdin, monkeypatch=monkeypatch)
    assert (done.returncode, done.stdout) == (code, out)
    # The same problems, then the same summary, each said the command's own way.
    problems, _, summary = err.rpartition("summary: ")
    if code:
        assert done.stderr == f"{problems}tienlen-score: error: {summary}"
    else:
        assert done.stderr == err  # nothing, or the notes of records scored with a fact set aside
        assert all(line.startswith("note: ") for line in err.splitlines())


def test_it_refuses_bad_options_with_usage_and_no_traceback():
    for args in (["--stake", "1"], ["--rules", "dem-la", "--stake", "1", "--indent", "99"]):
        done = script(*args, stdin=json.dumps(EXAMPLE))
        assert done.returncode == 2 and done.stdout == ""
        assert "usage: tienlen-score" in done.stderr and "Traceback" not in done.stderr


def test_main_returns_the_exit_code(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    assert cli.main(["--rules", "dem-la", "--stake", "1", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["net"]["B"] == 49
    path.write_text(json.dumps(BAD), encoding="utf-8")
    assert cli.main(["--rules", "dem-la", "--stake", "1", str(path)]) == 1
    assert "hands.B.cards: " in capsys.readouterr().err
