"""manage.py score: JSON in, payments out; bad input → problems on stderr, nothing on stdout."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

MANAGE = Path(__file__).resolve().parents[2] / "manage.py"

EXAMPLE = {
    "players": ["A", "B", "C", "D"],
    "finish": ["B"],
    "hands": {"A": {"cards": 5, "heo": ["2H"]}, "C": {"cards": 8}, "D": {"cards": 13}},
}
CHOP = {
    "players": ["A", "B", "C", "D"],
    "finish": ["A"],
    "hands": {"B": {"cards": 1}, "C": {"cards": 1}, "D": {"cards": 1}},
    "chat": [{"steps": [{"player": "A", "play": "heo", "cards": ["2H"]},
                        {"player": "C", "play": "3dt"},
                        {"player": "D", "play": "tq", "top": "9H"}]}],
}  # fmt: skip
BAD = {"players": ["A", "B"], "finish": ["A"], "hands": {"A": {"cards": 2}, "B": {"cards": 20}}}


def run(*args: str, stdin: str | None = None, monkeypatch=None) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    call_command("score", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def fail(*args: str, stdin: str | None = None, monkeypatch=None) -> tuple[str, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(CommandError) as caught:
        call_command("score", *args, stdout=out, stderr=err)
    assert caught.value.returncode != 0
    return out.getvalue(), err.getvalue(), str(caught.value)


def write(tmp_path: Path, data: object, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_it_scores_one_record_from_a_file(tmp_path):
    out, err = run("--rules", "dem-la", "--stake", "5000", write(tmp_path, EXAMPLE))
    assert err == ""
    assert json.loads(out) == {
        "transfers": [
            {"from": "A", "to": "B", "amount": 75000, "reason": "cards",
             "detail": "5 lá + thối 2♥"},
            {"from": "C", "to": "B", "amount": 40000, "reason": "cards", "detail": "8 lá"},
            {"from": "D", "to": "B", "amount": 130000, "reason": "cong",
             "detail": "cóng: 13 lá ×2"},
        ],
        "net": {"A": -75000, "B": 245000, "C": -40000, "D": -130000},
    }  # fmt: skip


def test_it_prints_the_shape_of_the_rules_example(tmp_path):
    out, _ = run("--rules", "dem-la", "--stake", "1000", write(tmp_path, CHOP))
    result = json.loads(out)
    assert set(result) == {"transfers", "net"}
    assert {"from": "C", "to": "D", "amount": 20000, "reason": "chat",
            "detail": "chặt chồng: 2♥ + 3 đôi thông"} in result["transfers"]  # fmt: skip
    assert sum(result["net"].values()) == 0


def test_it_reads_standard_input_with_a_dash(monkeypatch):
    out, _ = run("--rules", "dem-la", "--stake", "5000", "-", stdin=json.dumps(EXAMPLE),
                 monkeypatch=monkeypatch)  # fmt: skip
    assert json.loads(out)["net"]["B"] == 245000


def test_it_reads_standard_input_without_a_file_argument(monkeypatch):
    out, _ = run("--rules", "dem-la", "--stake", "1", stdin=json.dumps(EXAMPLE),
                 monkeypatch=monkeypatch)  # fmt: skip
    assert json.loads(out)["net"]["B"] == 49


def test_it_scores_an_array_of_records_in_order(tmp_path):
    out, _ = run("--rules", "dem-la", "--stake", "1000", write(tmp_path, [EXAMPLE, CHOP]))
    results = json.loads(out)
    assert [r["net"] for r in results] == [
        {"A": -15000, "B": 49000, "C": -8000, "D": -26000},
        {"A": 3000, "B": -1000, "C": -21000, "D": 19000},
    ]


def test_it_takes_a_rule_set_json_file(tmp_path):
    rules = write(tmp_path, {"base": "dem-la", "id": "nha", "name": "Nhà", "penalties": {"2H": 12}},
                  "rules.json")  # fmt: skip
    out, _ = run("--rules", rules, "--stake", "1", write(tmp_path, EXAMPLE))
    assert json.loads(out)["net"]["A"] == -(5 + 12)


def test_it_reports_every_problem_of_a_bad_record_and_prints_nothing(tmp_path):
    out, err, _ = fail("--rules", "dem-la", "--stake", "1000", write(tmp_path, BAD))
    assert out == ""
    assert err.splitlines() == [
        "hands.B.cards: This number must be between 0 and 13; it is 20.",
        "hands.A.cards: A won, so they cannot hold cards (2 recorded); clear A's cards or fix the "
        "finish order.",
    ]


def test_it_names_the_index_of_each_bad_record_in_an_array(tmp_path):
    out, err, _ = fail("--rules", "dem-la", "--stake", "1000", write(tmp_path, [EXAMPLE, BAD, 3]))
    assert out == ""
    lines = err.splitlines()
    assert lines[0].startswith("[1].hands.B.cards: ")
    assert lines[1].startswith("[1].hands.A.cards: ")
    assert lines[2].startswith("[2]: Expected a JSON object")
    assert len(lines) == 3


def test_a_game_too_large_to_pay_is_reported_in_the_records_order(tmp_path, monkeypatch):
    # Records are all read before any is scored; a problem found while scoring (amounts past
    # the limit, which the stake check makes rare) still comes out at its record's place.
    from scoring.engine import Problem, payout

    too_large = Problem("", "game_too_large", {"amount": "245.000", "max": "200.000"})
    monkeypatch.setattr(payout, "MAX_AMOUNT", 200_000)  # EXAMPLE moves 245 000 at 5 000
    monkeypatch.setattr(payout, "check_game_limit", lambda amounts, nets: [too_large])
    path = write(tmp_path, [BAD, EXAMPLE, 3, CHOP])
    out, err, summary = fail("--rules", "dem-la", "--stake", "5000", path)
    assert out == ""
    assert [line.split(":")[0].split(".")[0] for line in err.splitlines()] == [
        "[0]", "[0]", "[1]", "[2]"
    ]  # fmt: skip
    assert "4 problem(s)" in summary


def test_it_can_report_problems_in_vietnamese(tmp_path):
    _, err, _ = fail("--rules", "dem-la", "--stake", "1000", "--lang", "vi", write(tmp_path, BAD))
    assert "A về nhất nên không thể còn bài" in err


def test_it_refuses_a_bad_rule_set_file_with_every_problem(tmp_path):
    rules = write(tmp_path, {"mode": "poker", "penalties": {"2H": -1}}, "rules.json")
    out, err, _ = fail("--rules", rules, "--stake", "1", write(tmp_path, EXAMPLE))
    assert out == ""
    assert "rules.mode: " in err and "rules.penalties.2H: " in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "poker", "--stake", "1"], "no preset 'poker'"),
        (["--rules", "missing/rules.json", "--stake", "1"], "cannot read the rule-set file"),
        (["--rules", "dem-la", "--stake", "abc"], "not a whole number"),
        (["--rules", "dem-la", "--stake", "0"], ""),
        (["--rules", "cuoc", "--stake", "5001"], ""),
    ],
)
def test_it_refuses_bad_options_cleanly(tmp_path, args, message):
    out, err, summary = fail(*args, write(tmp_path, EXAMPLE))
    assert out == ""
    assert message in summary
    if not message:
        assert err.startswith("stake: ")


def test_it_refuses_a_missing_file_and_bad_json(tmp_path):
    assert "cannot read" in fail("--rules", "dem-la", "--stake", "1", str(tmp_path / "no.json"))[2]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert "not valid JSON" in fail("--rules", "dem-la", "--stake", "1", str(bad))[2]


def manage(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(MANAGE), "score", *args],
        input=stdin, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_it_exits_non_zero_without_a_traceback_on_bad_input(tmp_path):
    for args, stdin in [
        (["--rules", "dem-la", "--stake", "1000", "-"], json.dumps(BAD)),
        (["--rules", "dem-la", "--stake", "1000", "-"], "{not json"),
        (["--rules", "dem-la", "--stake", "1000", str(tmp_path / "missing.json")], ""),
        (["--rules", "poker", "--stake", "1000", "-"], json.dumps(EXAMPLE)),
        (["--rules", "cuoc", "--stake", "5001", "-"], json.dumps(EXAMPLE)),
    ]:
        done = manage(*args, stdin=stdin)
        assert done.returncode != 0, args
        assert done.stdout == "", args
        assert "Traceback" not in done.stderr and done.stderr.strip(), args


def test_it_prints_json_on_stdout_and_exits_zero_from_the_shell():
    done = manage("--rules", "dem-la", "--stake", "5000", stdin=json.dumps(EXAMPLE))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["net"] == {"A": -75000, "B": 245000, "C": -40000, "D": -130000}


def test_it_prints_an_array_compact_with_one_result_per_line(tmp_path):
    out, _ = run("--rules", "dem-la", "--stake", "1000", write(tmp_path, [EXAMPLE, CHOP]))
    lines = out.splitlines()
    assert lines[0] == "[" and lines[-1] == "]"
    assert len(lines) == 4
    assert lines[1].startswith('{"transfers":[{"from":"A","to":"B","amount":15000,')
    assert lines[1].endswith(",") and not lines[2].endswith(",")
    assert json.loads(lines[2]) == json.loads(out)[1]


def test_it_indents_an_array_when_asked(tmp_path):
    records = write(tmp_path, [EXAMPLE, CHOP])
    compact, _ = run("--rules", "dem-la", "--stake", "1000", records)
    indented, _ = run("--rules", "dem-la", "--stake", "1000", "--indent", "2", records)
    assert indented.startswith('[\n  {\n    "transfers": [\n      {\n        "from": "A",')
    assert json.loads(indented) == json.loads(compact)


def test_it_keeps_one_record_indented_by_two_unless_told(tmp_path):
    record = write(tmp_path, EXAMPLE)
    out, _ = run("--rules", "dem-la", "--stake", "5000", record)
    assert out.startswith('{\n  "transfers": [\n    {\n      "from": "A",')
    flat, _ = run("--rules", "dem-la", "--stake", "5000", "--indent", "0", record)
    assert flat.startswith('{\n"transfers": [\n{\n"from": "A",')
    assert json.loads(flat) == json.loads(out)


def test_it_prints_an_empty_array_for_no_records(tmp_path):
    out, _ = run("--rules", "dem-la", "--stake", "1000", write(tmp_path, []))
    assert out.strip() == "[]"


def test_it_refuses_an_indent_that_is_not_a_small_whole_number(tmp_path):
    for bad in ("abc", "-1", "99"):
        done = manage(
            "--rules", "dem-la", "--stake", "1", "--indent", bad, stdin=json.dumps(EXAMPLE)
        )
        assert done.returncode != 0 and done.stdout == ""
        assert "--indent" in done.stderr and "Traceback" not in done.stderr


def call(*args: str, stdin: str, monkeypatch) -> tuple[int, str, str]:
    """``call_command`` as the shell would see it: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        call_command("score", *args, stdout=out, stderr=err)
    except CommandError as exc:
        err.write(f"CommandError: {exc}\n")
        return exc.returncode, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["--rules", "dem-la", "--stake", "5000"], json.dumps(EXAMPLE)),
        (["--rules", "dem-la", "--stake", "1000", "-"], json.dumps([EXAMPLE, CHOP])),
        (["--rules", "nhat-nhi-ba-bet", "--stake=1000", "--indent", "4"], json.dumps([CHOP])),
        (["--rules", "dem-la", "--stake", "1000"], json.dumps(BAD)),
        (["--rules", "dem-la", "--stake", "1000", "--lang", "vi"], json.dumps([EXAMPLE, BAD, 3])),
        (["--rules", "dem-la", "--stake", "1000"], "{not json"),
        (["--rules", "cuoc", "--stake", "5001"], json.dumps(EXAMPLE)),
        (["--rules", "dem-la", "--stake", "abc"], json.dumps(EXAMPLE)),
        (["--rules", "poker", "--stake", "1"], json.dumps(EXAMPLE)),
    ],
)
def test_it_answers_the_shell_exactly_as_call_command(monkeypatch, args, stdin):
    # The shell sees what a caller of the command sees: same exit code, same output.
    done = manage(*args, stdin=stdin)
    assert (done.returncode, done.stdout, done.stderr) == call(
        *args, stdin=stdin, monkeypatch=monkeypatch
    )


def test_it_leaves_what_it_does_not_read_itself_to_django():
    help_text = manage("--help").stdout
    assert "--rules RULES" in help_text and "--settings SETTINGS" in help_text
    done = manage("--rules", "dem-la", "--stake", "1", "--lang", "fr", stdin=json.dumps(EXAMPLE))
    assert done.returncode == 2 and "invalid choice: 'fr'" in done.stderr
    done = manage(
        "--rules", "dem-la", "--stake", "1", "--verbosity", "2", stdin=json.dumps(EXAMPLE)
    )
    assert done.returncode == 0 and json.loads(done.stdout)["net"]["B"] == 49


def test_the_engine_cli_imports_no_django():
    code = "import sys, scoring.engine.cli; print(any(m.startswith('django') for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=MANAGE.parent, check=True)  # fmt: skip
    assert done.stdout.strip() == "False"


def test_it_writes_compact_results_exactly_as_the_json_encoder(tmp_path):
    # The compact lines are exactly what json.dumps writes, one result per line.
    from scoring.engine import PRESETS, score_game
    from scoring.engine.cli import _result_json
    from scoring.engine.samples import random_record

    names = {"A": 'Q"uote', "B": "back\\slash", "C": "tab\tnew\nline\x01", "D": "Dũng 😀"}
    compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    rng = random.Random("compact")
    seen = ""
    for preset, rules in PRESETS.items():
        records = (
            [rename(record, names) for record in (EXAMPLE, CHOP)] if "dem-la" in preset else []
        )
        records += [random_record(rules, rng, tuple(names.values())) for _ in range(50)]
        results = [score_game(rules, record, 1000) for record in records]
        expected = "[\n" + ",\n".join(compact(_result_json(r)) for r in results) + "\n]\n"
        out, _ = run("--rules", preset, "--stake", "1000", write(tmp_path, records))
        assert out == expected, preset
        seen += expected
    assert "\\t" in seen and '\\"' in seen and "😀" in seen


def rename(value: object, names: dict[str, str]) -> object:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [rename(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): rename(v, names) for k, v in value.items()}
    return value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests arrays or objects too deeply"),
        ('[{"players": ["A", "B"], "finish": [' + "1" * 5000 + "]}]", "thousands of digits"),
    ],
)
def test_it_refuses_json_that_python_cannot_read_without_a_traceback(tmp_path, text, message):
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    for args in (
        ["--rules", "dem-la", "--stake", "1000", str(path)],
        ["--rules", str(path), "--stake", "1000", "-"],
    ):
        done = manage(*args, stdin="[]")
        assert done.returncode == 1 and done.stdout == "", args
        assert message in done.stderr and "Traceback" not in done.stderr, args
    assert message in fail("--rules", "dem-la", "--stake", "1", str(path))[2]


@pytest.mark.parametrize("indent", [[], ["--indent", "2"]])
@pytest.mark.parametrize("array", [True, False])
def test_a_lone_surrogate_in_a_name_is_written_escaped_and_reads_back_the_same(indent, array):
    # JSON may hold "\ud800"; UTF-8 cannot, so the output writes the escape again.
    record = {"players": ["\ud800", "B"], "finish": ["B"], "hands": {"\ud800": {"cards": 3}}}
    data = [record] if array else record
    done = subprocess.run(
        [sys.executable, str(MANAGE), "score", "--rules", "dem-la", "--stake", "1000", *indent],
        input=json.dumps(data).encode(), capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    result = json.loads(done.stdout.decode("utf-8"))
    assert (result[0] if array else result)["net"] == {"\ud800": -3000, "B": 3000}
    assert b"\\ud800" in done.stdout


@pytest.mark.long
@pytest.mark.parametrize("django", [[], ["--verbosity", "1"]])  # Django's own path, too
def test_it_stops_quietly_when_the_reader_stops_reading(tmp_path, django):
    # `manage.py score big.json | head`: head leaves after a few lines, and the pipe closes.
    games = [EXAMPLE, CHOP] * 20_000
    path = write(tmp_path, games, "many.json")
    args = ["score", "--rules", "dem-la", "--stake", "1000", *django, path]
    with subprocess.Popen(
        [sys.executable, str(MANAGE), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as child:
        assert child.stdout is not None and child.stderr is not None
        assert child.stdout.read(100).startswith(b"[\n{")
        child.stdout.close()
        assert child.wait(timeout=60) == 1
        assert child.stderr.read() == b""


def test_it_reads_files_saved_with_a_byte_order_mark(tmp_path, monkeypatch):
    # Windows editors start a UTF-8 file with a BOM; it is not part of the JSON.
    games = tmp_path / "games.json"
    games.write_text("\ufeff" + json.dumps([EXAMPLE]), encoding="utf-8")
    rules = tmp_path / "rules.json"
    rules.write_text("\ufeff" + json.dumps({"base": "dem-la"}), encoding="utf-8")
    out, _ = run("--rules", str(rules), "--stake", "5000", str(games))
    assert json.loads(out)[0]["net"]["B"] == 245000
    out, _ = run("--rules", "dem-la", "--stake", "5000", stdin="\ufeff" + json.dumps(EXAMPLE),
                 monkeypatch=monkeypatch)  # fmt: skip
    assert json.loads(out)["net"]["B"] == 245000
