"""import_session --group and export_group, as a script sees them."""

from __future__ import annotations

import csv
import io
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring import ledger as sitting_ledger
from scoring.ledger.group_statements import STATEMENT_COLUMNS
from scoring.ledger.standing import GroupLedger
from scoring.models import Group, Sitting
from tests.factories import new_group, plain, session

pytestmark = pytest.mark.django_db


def write(tmp_path: Path, data, name="ban.json") -> Path:
    path = tmp_path / name
    path.write_bytes(json.dumps(data, ensure_ascii=False).encode())
    return path


def run(*args):
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_import_into_a_named_group_creates_it_once(tmp_path, owner):
    path = write(tmp_path, session("dem-la", seed=3))
    out, err = run("import_session", str(path), "--owner", owner.username, "--group", "Thứ Sáu")
    group = Group.objects.get(name="Thứ Sáu")
    assert err.splitlines()[-1] == str(group.pk)
    sitting = Sitting.objects.get(pk=int(out.splitlines()[-1]))
    assert sitting.group == group and not group.is_default
    assert {m.player.group_id for m in sitting.memberships.select_related("player")} == {group.pk}
    out, err = run("import_session", str(path), "--owner", owner.username, "--group", "Thứ Sáu")
    assert err.splitlines()[-1] == str(group.pk)
    assert group.sittings.count() == 2
    # The same names in one group are the same people across the two sittings.
    assert group.players.count() == len(session()["players"])


def test_import_without_a_group_goes_to_the_default_group(tmp_path, owner):
    _out, err = run("import_session", str(write(tmp_path, plain())), "--owner", owner.username)
    default = Group.objects.get(owner=owner, is_default=True)
    assert err.splitlines()[-1] == str(default.pk)
    assert Sitting.objects.get().group == default


def test_a_bad_group_name_is_refused_without_a_traceback(tmp_path, owner):
    with pytest.raises(CommandError) as error:
        run("import_session", str(write(tmp_path, plain())), "--owner", owner.username,
            "--group", "   ")  # fmt: skip
    assert "--group" in str(error.value)
    assert not Sitting.objects.exists()


def test_export_json_has_exactly_the_documented_shape(tmp_path, owner):
    path = write(tmp_path, session("dem-la", seed=5))
    run("import_session", str(path), "--owner", owner.username, "--group", "Tháng 5")
    run("import_session", str(write(tmp_path, plain(), "b.json")), "--owner", owner.username,
        "--group", "Tháng 5")  # fmt: skip
    group = Group.objects.get(name="Tháng 5")
    out, _err = run("export_group", str(group.pk), "--format", "json")
    data = json.loads(out)
    assert list(data) == [
        "version", "name", "players", "sittings", "settlements", "balances", "settle_up",
        "stats",
    ]  # fmt: skip
    assert data["version"] == 1 and data["name"] == "Tháng 5"
    assert len(data["sittings"]) == 2
    assert set(data["sittings"][0]) == {"name", "date", "totals"}
    assert data["settlements"] == [
        {"from": "An", "to": "Bình", "amount": 3000, "sitting": "Bàn dem-la"}
    ]
    totals: dict[str, int] = {}
    for s in data["sittings"]:
        for name, amount in s["totals"].items():
            totals[name] = totals.get(name, 0) + amount
    totals["An"] += 3000
    totals["Bình"] -= 3000
    assert {k: v for k, v in totals.items() if v} == {
        k: v for k, v in data["balances"].items() if v
    }
    after = dict(data["balances"])
    for p in data["settle_up"]:
        assert set(p) == {"from", "to", "amount"}
        after[p["from"]] += p["amount"]
        after[p["to"]] -= p["amount"]
    assert not any(after.values())
    for sitting in group.sittings.all():
        exported = next(s for s in data["sittings"] if s["name"] == sitting.name)
        assert exported["totals"] == _named(sitting)
        assert exported["date"] == sitting.date.isoformat()


def _named(sitting):
    names = dict(sitting.memberships.values_list("player_id", "player__name"))
    return {names[pk]: v for pk, v in sitting_ledger.game_totals(sitting).items()}


def test_export_csv_is_the_statement_with_a_bom(tmp_path, owner):
    run(
        "import_session", str(write(tmp_path, session("dem-la", seed=7))), "--owner", owner.username
    )
    group = Group.objects.get(owner=owner, is_default=True)
    out, _err = run("export_group", str(group.pk), "--format", "csv")
    assert out.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(out[1:])))
    assert tuple(rows[0]) == STATEMENT_COLUMNS
    ledger = GroupLedger.load(group)
    last: dict[str, int] = {}
    for row in rows[1:]:
        last[row[0]] = int(row[-1])
    assert last == {name: amount for name, amount in ledger.by_name.items() if name in last}
    assert any(row[2] == "settlement" for row in rows[1:])


def test_export_csv_holds_each_players_statement_download(tmp_path, owner, owner_client):
    """One report, two ways in: the command's rows for a player are that player's whole-history
    statement.csv, row for row, in the same columns."""
    run(
        "import_session", str(write(tmp_path, session("dem-la", seed=7))), "--owner", owner.username
    )
    group = Group.objects.get(owner=owner, is_default=True)
    out, _err = run("export_group", str(group.pk), "--format", "csv")
    everyone = list(csv.reader(io.StringIO(out.removeprefix("\ufeff"))))
    for player in group.players.filter(merged_into=None):
        url = f"/groups/{group.pk}/players/{player.pk}/statement.csv?period=all"
        body = owner_client.get(url).content.decode("utf-8")
        download = list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))
        assert download[0] == everyone[0]
        assert download[1:] == [row for row in everyone[1:] if row[0] == player.name]
        assert download[1:]


def test_list_prints_id_tab_name_per_group(owner, stranger):
    from tests.factories import open_in_group

    Group.objects.default_for(owner)
    mine = new_group(owner, "Thứ Ba")
    new_group(stranger, "Của người khác")
    open_in_group(mine, owner, ["An", "Bình"])
    out, _err = run("export_group", "--list", "--owner", owner.username)
    lines = out.splitlines()
    expected = [f"{g.pk}\t{g.name}" for g in Group.objects.filter(owner=owner).order_by("pk")]
    assert lines == expected and len(lines) == 2


def test_export_refuses_bad_input(owner):
    for args in (["999"], ["abc"], []):
        with pytest.raises(CommandError):
            run("export_group", *args)
    with pytest.raises(CommandError):
        run("export_group", "--list")
    with pytest.raises(CommandError):
        run("export_group", "--list", "--owner", "khong_co")
