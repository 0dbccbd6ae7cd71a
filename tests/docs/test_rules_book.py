"""docs/rules.md cannot drift from the engine.

The book is for players: its worked examples ("Ví dụ N" / "Example N") are told in words and
tables, and each one's record (rule set, stake, game) lives in docs/record-format.md under the
same number. These tests score every record and compare the result with the amounts the book's
tables state, in both halves; they also check the preset tables hold the shipped values, that the
book holds no JSON, field name, code or command, and that every citation of a section points at
a heading that exists."""

from __future__ import annotations

import json
import re
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scoring.engine import HANDS, PRESETS, REASONS, load_rules, ruleset_to_dict, score_game
from scoring.text.rulesbook import BOOK, HALVES, half, headings, slugify

ROOT = BOOK.parent.parent
TEXT = BOOK.read_text(encoding="utf-8")
RECORD_FORMAT = ROOT / "docs" / "record-format.md"

#: How each half calls an example, and the two tables an example may state its money in.
EXAMPLE_WORD = {"vi": "Ví dụ", "en": "Example"}
PAYMENTS_HEADER = {
    "vi": "| ai trả | cho ai | bao nhiêu | tiền gì |",
    "en": "| who pays | to whom | how much | for |",
}
NET_HEADER = {"vi": "| người chơi | cả ván |", "en": "| player | whole game |"}
#: The words of the "for" column → the engine's reasons.
REASON_WORDS = {
    "vi": {"lá": "cards", "cóng": "cong", "hạng": "placement", "thối": "thoi", "chặt": "chat",
           "tới trắng": "toi_trang", "đền": "den", "kết 3 bích": "ket_3_bich",
           "chặn kết 3 bích": "chan_ket_3_bich"},
    "en": {"cards": "cards", "cóng": "cong", "rank": "placement", "thối": "thoi", "chop": "chat",
           "tới trắng": "toi_trang", "đền": "den", "kết 3 bích": "ket_3_bich",
           "chặn kết 3 bích": "chan_ket_3_bich"},
}  # fmt: skip


def dong(cell: str) -> int:
    """ "−75.000 ₫" → -75000, "+245.000 ₫" → 245000, "0 ₫" → 0 (the site's way of writing money)."""
    text = cell.replace("₫", "").replace(".", "").replace("\u00a0", "").strip()
    assert re.fullmatch(r"[+−]?\d+", text), f"not an amount: {cell!r}"
    return -int(text[1:]) if text.startswith("−") else int(text.lstrip("+"))


def table_rows(block: str, header: str) -> list[list[str]] | None:
    """The body rows of the table under ``header`` in ``block``, as cells; None without one."""
    lines = block.splitlines()
    if header not in lines:
        return None
    rows = []
    for line in lines[lines.index(header) + 2 :]:
        if not line.startswith("| "):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def book_examples(text: str, lang: str) -> dict[int, dict[str, Any]]:
    """Number → what the example's tables say: ``payments`` as [payer, payee, đồng, reason] and
    ``net`` as {player: đồng} (from the payments when the example gives them)."""
    found: dict[int, dict[str, Any]] = {}
    parts = re.split(rf"^#### {EXAMPLE_WORD[lang]} (\d+)\n", text, flags=re.M)
    for number, body in zip(parts[1::2], parts[2::2], strict=True):
        block = re.split(r"^#{1,4} ", body, maxsplit=1, flags=re.M)[0]
        n = int(number)
        assert n not in found, f"{EXAMPLE_WORD[lang]} {n} twice"
        payments = table_rows(block, PAYMENTS_HEADER[lang])
        net_rows = table_rows(block, NET_HEADER[lang])
        assert (payments is None) != (net_rows is None), f"{EXAMPLE_WORD[lang]} {n}: one table"
        if payments is not None:
            paid = [[p, q, dong(a), REASON_WORDS[lang][r]] for p, q, a, r in payments]
            net: dict[str, int] = {}
            for payer, payee, amount, _ in paid:
                net[payer] = net.get(payer, 0) - amount
                net[payee] = net.get(payee, 0) + amount
            found[n] = {"payments": paid, "net": net}
        else:
            assert net_rows is not None
            found[n] = {"payments": None, "net": {p: dong(a) for p, a in net_rows}}
    return found


def records() -> dict[int, dict[str, Any]]:
    """Number → the record of that example in docs/record-format.md."""
    text = RECORD_FORMAT.read_text(encoding="utf-8")
    section = text.split("\n## The rules book's examples as records\n", 1)[1].split("\n## ", 1)[0]
    found = {}
    for number, body in re.findall(r"^### Example (\d+)\n(.*?)(?=^### |\Z)", section, re.M | re.S):
        block = re.search(r"^```json\n(.*?)^```$", body, re.M | re.S)
        assert block, f"Example {number} of the record format has no JSON record"
        found[int(number)] = json.loads(block.group(1))
    return found


BOOK_EXAMPLES = {lang: book_examples(half(TEXT, lang), lang) for lang in HALVES}
RECORDS = records()


def test_every_example_of_the_book_has_its_record_and_every_record_its_example():
    assert len(RECORDS) >= 23
    assert sorted(RECORDS) == list(range(1, len(RECORDS) + 1))
    for lang in HALVES:
        assert sorted(BOOK_EXAMPLES[lang]) == sorted(RECORDS), lang


@pytest.mark.parametrize("lang", HALVES)
@pytest.mark.parametrize("number", sorted(RECORDS))
def test_every_worked_example_pays_what_the_book_says(number, lang):
    data = RECORDS[number]
    result = score_game(load_rules(data["rules"]), data["record"], data["stake"])
    said = BOOK_EXAMPLES[lang][number]
    assert sum(result.net.values()) == 0
    engine_net = {p: a for p, a in result.net.items() if a or p in said["net"]}
    assert said["net"] == engine_net
    if said["payments"] is not None:
        assert said["payments"] == [
            [t.payer, t.payee, t.amount, t.reason] for t in result.transfers
        ]


def test_both_halves_state_the_same_amounts():
    assert BOOK_EXAMPLES["vi"] == BOOK_EXAMPLES["en"]


def test_the_reason_words_name_every_reason_of_the_engine():
    for lang in HALVES:
        assert sorted(REASON_WORDS[lang].values()) == sorted(REASONS)


def test_it_holds_the_hoi_quan_bai_example():
    assert BOOK_EXAMPLES["vi"][1]["net"] == {
        "An": -75000, "Bình": 245000, "Chi": -40000, "Dũng": -130000,
    }  # fmt: skip
    assert RECORDS[1]["rules"] == "dem-la" and RECORDS[1]["stake"] == 5000
    assert "49 lá = 245.000 ₫" in half(TEXT, "vi") and "49 lá = 245.000 ₫" in half(TEXT, "en")


def test_the_amount_reader_refuses_what_is_not_an_amount():
    assert dong("−75.000 ₫") == -75000 and dong("+245.000\u00a0₫") == 245000 and dong("0 ₫") == 0
    with pytest.raises(AssertionError):
        dong("75 lá")


ROWS = {  # first cell of a preset-table row → the engine's value for that row
    "2♠": lambda r: r.penalties["2S"],
    "2♣": lambda r: r.penalties["2C"],
    "2♦": lambda r: r.penalties["2D"],
    "2♥": lambda r: r.penalties["2H"],
    "3 đôi thông": lambda r: r.penalties["3dt"],
    "tứ quý": lambda r: r.penalties["tq"],
}


def amount(cell: str) -> Fraction:
    cell = cell.replace("−", "-").strip()
    whole, half_sign, _ = cell.partition("½")
    return Fraction(int(whole) if whole not in ("", "-") else 0) + (
        Fraction(1, 2) if half_sign else 0
    )


def preset_name(rules: Any) -> str:
    """The name a player reads: "Đếm lá 26 (kết 3 bích)" is "Đếm lá 26" in the table."""
    return str(rules.name).split(" (", 1)[0]


@pytest.mark.parametrize("lang", HALVES)
def test_the_preset_tables_hold_the_shipped_values(lang):
    lines = half(TEXT, lang).splitlines()
    names = [preset_name(r) for r in PRESETS.values()]
    header = next(line for line in lines if line.endswith(" | " + " | ".join(names) + " |"))
    assert header.startswith("| ")
    for first, value_of in ROWS.items():
        row = next(line for line in lines if line.startswith(f"| {first} |"))
        cells = [c.strip() for c in row.strip("|").split("|")][1:]
        assert [amount(c) for c in cells] == [value_of(r) for r in PRESETS.values()], row


@pytest.mark.parametrize("lang", HALVES)
def test_the_dem_la_26_table_holds_its_nine_rows(lang):
    rules = PRESETS["dem-la-26"]
    header = {"vi": "| khoản | giá (cược) |", "en": "| item | price (cược) |"}[lang]
    rows = table_rows(half(TEXT, lang), header)
    assert rows is not None and len(rows) == 9
    numbers = [int(re.findall(r"\d+", price)[-1]) for _, price in rows]
    assert numbers == [
        rules.card_value,
        rules.penalties["2S"],
        rules.penalties["2D"],
        rules.penalties["3dt"],
        rules.penalties["tq"],
        rules.penalties["4dt"],
        13 * rules.card_value * rules.cong_multiplier,
        rules.ket_3_bich,
        rules.ket_3_bich,
    ]
    assert rules.penalties["2S"] == rules.penalties["2C"]
    assert rules.penalties["2D"] == rules.penalties["2H"]


def test_every_link_inside_the_book_points_at_one_of_its_headings():
    anchors = {slugify(title) for _, title in headings(TEXT)}
    links = re.findall(r"\]\(#([^)]+)\)", TEXT)
    assert links
    assert sorted(set(links) - anchors) == []


def cited_anchors(document: str, roots: list[str], suffixes: set[str]) -> dict[str, str]:
    files = subprocess.run(
        ["git", "ls-files", *roots], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    cited: dict[str, str] = {}
    for name in files:
        path = ROOT / name
        if path.suffix not in suffixes or not path.is_file():
            continue
        for anchor in re.findall(rf"{re.escape(document)}#([\w\-]+)", path.read_text("utf-8")):
            cited[anchor] = name
    return cited


def test_every_citation_of_the_book_names_a_section_that_exists():
    anchors = {slugify(title) for _, title in headings(TEXT)}
    roots = ["scoring", "tests", "bench", "docs", "README.md", "templates"]
    cited = cited_anchors("rules.md", roots, {".py", ".md", ".html"})
    assert len(cited) >= 5
    assert {a: f for a, f in cited.items() if a not in anchors} == {}


def test_every_citation_of_the_record_format_names_a_section_that_exists():
    anchors = {slugify(t) for _, t in headings(RECORD_FORMAT.read_text(encoding="utf-8"))}
    cited = cited_anchors(
        "record-format.md", ["scoring", "tests", "docs", "README.md"], {".py", ".md"}
    )
    assert {"game-record-format", "bad-records", "engine-choices"} <= set(cited)
    assert {a: f for a, f in cited.items() if a not in anchors} == {}


def integrator_words() -> set[str]:
    """Words that belong to programs, never to the players' book: rule-set field names and
    values, record fields, hand ids, reasons and preset ids (read from the engine itself)."""
    words: set[str] = set(HANDS) | {r for r in REASONS if "_" in r}
    words |= {"first_out", "victim_out", "last_round"}
    for rules in PRESETS.values():
        data = ruleset_to_dict(rules)
        words |= {key for key in data if "_" in key}
        words |= {v for v in data.values() if isinstance(v, str) and ("_" in v or "-" in v)}
    return words | {"5dt", "3dt", "4dt", "doi_heo", "any_cong", "all_cong"}


@pytest.mark.parametrize("lang", HALVES)
def test_the_players_book_holds_no_json_field_name_code_or_command(lang):
    text = half(TEXT, lang)
    assert "```" not in text and "`" not in text  # no JSON block, no code span
    assert not re.search(r"\b(?:[2-9]|10|[JQKA])[SCDH]\b", text)  # cards are 3♠, never 3S
    found = sorted(
        w for w in integrator_words() if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)
    )
    assert found == []
    for word in ("manage.py", "score --rules", "stderr", "JSON", ".md", "Mã trong ngoặc"):
        assert word not in text
    titles = [t for _, t in headings(text)]
    for title in ("Cách ghi một ván", "Ván ghi sai", "Lệnh score", "Các lựa chọn thêm của bộ luật",
                  "Game record format", "Bad records", "The score command", "Engine choices",
                  "Extra rule-set choices"):  # fmt: skip
        assert title not in titles
    assert "record-format.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_integrators_words_are_found_where_they_are_written():
    # The check above cannot pass by looking for the wrong thing: the record format holds them.
    record_format = RECORD_FORMAT.read_text(encoding="utf-8")
    assert {"sanh_rong", "toi_trang", "victim_out", "chan_ket_3_bich"} <= integrator_words()
    assert all(w in record_format for w in ("sanh_rong", "victim_out", "chan_ket_3_bich"))


HOUSE = {"vi": "Luật mặc định của trang", "en": "House choices"}


def house_choices(lang: str) -> list[str]:
    section = half(TEXT, lang).split(f"### {HOUSE[lang]}\n", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^- (.*?)(?=^- |\Z)", section, re.M | re.S)


@pytest.mark.parametrize("lang", HALVES)
def test_every_house_choice_of_the_book_is_starred_and_explained(lang):
    choices = house_choices(lang)
    assert len(choices) >= 14
    assert len(choices) == len(house_choices("en" if lang == "vi" else "vi"))
    for choice in choices:
        assert "\\*" in choice, choice
    # What the sources say is quoted in their own words, at least in most of the choices.
    assert sum('"' in choice for choice in choices) >= 10


SOURCE_SENTENCES = (
    "Được phép đánh heo ở cuối bài",
    "Được đánh cuối",
    "Đền bài là khi 1 người có bài đánh chặn mà không muốn đánh để người khác bị cóng",
    "Cóng 2 nhà … không xét đền",
    "Cóng 3 nhà: lúc này sẽ xét đến việc đền bài",
    "có 4 cây heo trong bộ thì chia lại bài",
    "người về bét",
    "trở lên",
    "đền tới trắng",
    "hai người còn lại … không được thưởng",
    "mất 26 cược",
    "tại các ván khác",
    "Nếu tới cuối bộ bài mà người chơi lại có lá bài 2 thì họ sẽ về bét",
    "quyền đánh trước là ngẫu nhiên",
    "Người được hưởng là người về thứ ba",
    "Phạt thối heo bao nhiêu thì phạt 'chặt' heo bấy nhiêu",
    "mỗi con 3 cược",
)

#: Each reading of the book that is the site's, not the sources' words: the house choice it is
#: starred under (its title, in each half) and the source's sentence it quotes whole.
READINGS = {
    "going out on a 2": (
        {"vi": "Về bằng heo là về bét", "en": "Going out on a 2 is last place"},
        "Nếu tới cuối bộ bài mà người chơi lại có lá bài 2 thì họ sẽ về bét",
    ),
    "who leads the first game": (
        {"vi": "Ván đầu buổi: ai giữ 3♠ đánh trước", "en": "Whoever holds 3♠ leads the first game"},
        "quyền đánh trước là ngẫu nhiên",
    ),
    "đền only when every loser is cóng": (
        {"vi": "Đền chỉ khi mọi người thua đều cóng", "en": "Đền only when every loser is cóng"},
        "Cóng 2 nhà … không xét đền",
    ),
    "tới trắng of Cược and Điểm": (
        {"vi": "Tới trắng của cách tính Cược", "en": "The tới trắng values of Cược"},
        "đền tới trắng",
    ),
    "Đếm lá 26 chops a đôi heo": (
        {"vi": "Đếm lá 26: tứ quý và 4 đôi thông chặt", "en": "Đếm lá 26: tứ quý and 4 đôi thông"},
        "mỗi con 3 cược",
    ),
}


@pytest.mark.parametrize("lang", HALVES)
def test_both_halves_cite_the_sources_in_their_own_words(lang):
    text = re.sub(r"\s+", " ", half(TEXT, lang))
    assert [s for s in SOURCE_SENTENCES if s not in text] == []


@pytest.mark.parametrize("lang", HALVES)
def test_going_out_on_a_2_is_the_sources_default_not_a_house_choice(lang):
    section = half(TEXT, lang).split(
        {"vi": "### Về bằng heo\n", "en": "### Going out on a 2\n"}[lang]
    )[1]
    first_paragraph = section.split("\n\n", 1)[0]
    assert "\\*" not in first_paragraph
    assert not any("heo như mọi lá" in c or "like any card" in c for c in house_choices(lang))


EXTERNAL = "RULES" + ".md"  # the rules file that used to live outside the repository


def test_nothing_cites_a_rules_file_outside_the_repository():
    files = subprocess.run(
        ["git", "ls-files", "scoring", "tests", "bench", "docs", "README.md", "templates"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    offenders = [
        name
        for name in files
        if Path(ROOT / name).suffix in {".py", ".md", ".html"}
        and (ROOT / name).is_file()
        and EXTERNAL in (ROOT / name).read_text(encoding="utf-8")
    ]
    assert offenders == []


#: The rules editor's labels the book tells a table to use, in each half's language.
EDITOR_LABELS = {
    "vi": (
        "Cóng: trả gấp mấy lần tiền lá",
        "Heo và hàng cũng đếm vào số lá",
        "Cộng thêm vào tiền lá và thối của người thua",
        "Chặn kết 3 bích: người thua vẫn trả tiền lá và thối cho người nhất",
        "Ở ván khởi đầu chỉ tính những bài của ván khởi đầu",
        "Khi có ít nhất một người cóng (luật riêng của bàn)",
        "Những bài được tới trắng",
        "Tới trắng: mỗi người thua trả",
        "Về bét",
    ),
    "en": (
        "Cóng: how many times the card money",
        "2s and bombs also count as cards",
        "On top of each loser's card and thối money",
        "Chặn kết 3 bích: the losers still pay the winner their card and thối money",
        "In an opening game only the opening-game hands count",
        "When at least one loser is cóng (a house rule)",
        "Hands that count as an instant win",
        "Instant win (tới trắng): each loser pays",
        "The player ranks last",
    ),
}


@pytest.mark.parametrize("lang", HALVES)
def test_the_editor_labels_the_book_quotes_are_the_editors_own(lang):
    text = re.sub(r"\s+", " ", half(TEXT, lang))
    catalogue = (ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po").read_text("utf-8")
    said = re.findall(rf'^{"msgid" if lang == "vi" else "msgstr"} "(.*)"$', catalogue, re.M)
    for label in EDITOR_LABELS[lang]:
        assert f'"{label}' in text, label
        assert any(s.startswith(label) for s in said), label


@pytest.mark.parametrize("lang", HALVES)
@pytest.mark.parametrize("reading", sorted(READINGS))
def test_each_reading_is_starred_and_names_its_sources_sentence(lang, reading):
    titles, sentence = READINGS[reading]
    choices = [re.sub(r"\s+", " ", c) for c in house_choices(lang)]
    choice = next((c for c in choices if c.startswith(f"**{titles[lang]}")), None)
    assert choice is not None, titles[lang]
    assert "\\*" in choice and f'"{sentence}' in choice.replace("“", '"'), choice


@pytest.mark.parametrize("lang", HALVES)
def test_no_quote_is_cut_to_fit_a_reading(lang):
    """003's sentence on a 2 was once quoted from its middle ("… có lá bài 2 thì họ sẽ về
    bét"), which reads as the site's reading: it is quoted whole."""
    text = re.sub(r"\s+", " ", half(TEXT, lang))
    assert '"… có lá bài 2' not in text


@pytest.mark.parametrize("lang", HALVES)
def test_the_readings_the_sources_do_not_give_are_starred_in_the_tables(lang):
    lines = half(TEXT, lang).splitlines()
    den = next(line for line in lines if line.startswith(("| đền bài |", "| đền |")))
    assert den.split("|")[2].strip().endswith("\\*") and den.split("|")[3].strip().endswith("\\*")
    cong = next(line for line in lines if line.startswith("| cóng\\* |"))
    assert "26" in cong
