"""The hostile values of the crawl, in session files and on the command line.

A session file: the owner's full sitting exported, then each field of it (one of each kind:
the sitting's name, the rules' values, a player, a game's cards, a settlement's amount, a void
reason…) replaced by each hostile value, as text and as JSON numbers. Uploaded, each file is
imported whole or refused with a 422 that wrote nothing; through ``import_session`` it gives a
new sitting or a ``CommandError`` with a message, never another exception.

The commands: every argument that reads a number or a name gets each hostile value.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.urls import reverse

from scoring.ledger import sessionfile
from scoring.models import Sitting
from tests.factories import atomic_in_test
from tests.hostile.conftest import Table
from tests.hostile.crawl import HOSTILE
from tests.hostile.fuzzing import counts, ledger_problems

pytestmark = pytest.mark.django_db

MANAGE = Path(__file__).resolve().parents[2] / "manage.py"
# JSON values a hand-edited file can hold that a form cannot: numbers beyond any column,
# infinity (json reads 1e309 as inf), a fraction where đồng are whole.
NUMBERS: dict[str, Any] = {
    "int-40-digits": 10**40,
    "float-1e309": float("inf"),
    "ten-trillion": 10**13,
    "half": 0.5,
}
VALUES: dict[str, Any] = {**HOSTILE, **NUMBERS}
# Keys of an export the import does not read (scoring.ledger.sessionfile: it recomputes the payments
# to suggest and leaves the history with the original sitting); ``totals`` it compares, to warn.
IGNORED = ("history", "settle_up", "fingerprint")
assert set(IGNORED) <= sessionfile.EXPORT_ONLY_KEYS


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _leaves(child, (*path, key))
    elif isinstance(value, list) and value:
        for index, child in enumerate(value):
            yield from _leaves(child, (*path, index))
    else:
        yield path


def _family(path: tuple[Any, ...]) -> str:
    """Leaves read by the same code: the cards of each hand, each penalty of the rules, and
    everything under a key the import does not read (the history, the suggested payments, the
    fingerprint: ``IGNORED``), whose values all take one way through it."""
    if path and path[0] in IGNORED:
        return str(path[0])
    text = ".".join(str(p) for p in path)
    return re.sub(r"\b[0-9]+\b|hands\.[^.]+|penalties\.[^.]+", "N", text)


def _set(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return document


def hostile_files(table: Table) -> Iterator[tuple[str, bytes]]:
    """(what was changed, file) for each value in each family of leaves of the export."""
    original = sessionfile.session_json(table.sitting)
    families: dict[str, list[tuple[Any, ...]]] = {}
    for path in _leaves(json.loads(original)):
        families.setdefault(_family(path), []).append(path)
    labels = list(VALUES)
    for members in families.values():
        for j in range(len(labels)):
            path, label = members[j % len(members)], labels[j]
            document = _set(json.loads(original), path, VALUES[label])
            raw = json.dumps(document, ensure_ascii=False).encode("utf-8", "surrogatepass")
            yield f"{'.'.join(map(str, path))}={label}", raw


#: The files are dealt round in turn over this many tests, so parallel workers share them.
FILE_SHARES = 6


def test_the_shares_cover_every_hostile_file(table: Table):
    files = list(hostile_files(table))
    assert len(files) > 600
    shares = [files[share::FILE_SHARES] for share in range(FILE_SHARES)]
    assert sum(len(s) for s in shares) == len(files) and all(shares)


@pytest.mark.long
@pytest.mark.parametrize("share", range(FILE_SHARES))
def test_every_hostile_value_in_every_field_of_a_session_file(
    table: Table, owner_client, owner, share: int
):
    failures: list[str] = []
    files = 0
    for index, (where, raw) in enumerate(hostile_files(table)):
        if index % FILE_SHARES != share:
            continue
        files += 1
        with atomic_in_test():
            before = counts()
            upload = SimpleUploadedFile("ban.json", raw, content_type="application/json")
            try:
                response = owner_client.post(reverse("session_import"), {"file": upload})
            except Exception as error:
                failures.append(f"upload {where}: {type(error).__name__}: {error}")
                transaction.set_rollback(True)
                continue
            if response.status_code == 302:
                new = Sitting.objects.order_by("-id").first()
                if counts()["Sitting"] != before["Sitting"] + 1 or ledger_problems(new.pk):
                    failures.append(f"upload {where}: imported but not whole")
            elif response.status_code != 422 or counts() != before:
                failures.append(f"upload {where}: {response.status_code}, rows changed")
            transaction.set_rollback(True)
        # The command shares the checks: a third of each share's files is enough.
        if index // FILE_SHARES % 3 == 0:
            failures.extend(_through_the_command(where, raw, owner))
    assert files > 600 // FILE_SHARES
    assert failures == [], "\n".join(failures[:40])


def _through_the_command(where: str, raw: bytes, owner: Any) -> list[str]:
    from tempfile import NamedTemporaryFile

    with NamedTemporaryFile(suffix=".json") as handle, atomic_in_test():
        handle.write(raw)
        handle.flush()
        before = counts()
        err = StringIO()
        try:
            call_command(
                "import_session", handle.name, "--owner", owner.username,
                stdout=StringIO(), stderr=err,
            )  # fmt: skip
        except CommandError as error:
            problems = [] if counts() == before else [f"command {where}: refused, rows changed"]
            if not str(error) or not err.getvalue():
                problems.append(f"command {where}: refused without saying why")
            transaction.set_rollback(True)
            return problems
        except Exception as error:
            transaction.set_rollback(True)
            return [f"command {where}: {type(error).__name__}: {error}"]
        transaction.set_rollback(True)
        return []


def _command(*args: str) -> str:
    """The CommandError message of a refused command ("" when it ran)."""
    try:
        call_command(*args, stdout=StringIO(), stderr=StringIO())
    except CommandError as error:
        assert str(error), args
        return str(error)
    return ""


@pytest.mark.parametrize("label", list(HOSTILE))
def test_the_commands_refuse_every_hostile_argument_with_a_message(table: Table, label, tmp_path):
    value = HOSTILE[label]
    assert _command("export_session", value)
    assert _command("export_session", str(table.sitting.pk), "--format", value)
    assert _command("score", "--rules", "dem-la", "--stake", value)
    assert _command("score", "--rules", value or "-", "--stake", "1000")
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"players": [value, "B"], "finish": ["B"]}), encoding="utf-8")
    assert _command("score", "--rules", "dem-la", "--stake", "1000", str(record))
    before = counts()
    assert _command("import_session", str(record), "--owner", value or " ")
    assert _command("import_session", str(record), "--owner", table.user.username)
    assert counts() == before


@pytest.mark.parametrize(
    "args",
    [
        ["export_session", "²"],
        ["export_session", "9" * 40],
        ["score", "--rules", "dem-la", "--stake", "①", "-"],
        ["import_session", "-", "--owner", "a\u202eb"],
    ],
)
def test_a_refused_command_exits_non_zero_with_a_message_and_no_traceback(args):
    done = subprocess.run(
        [sys.executable, str(MANAGE), *args],
        input="{}",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert done.stderr.strip() and "Traceback" not in done.stderr
