"""The players' words: phrases a player from the South would not write, or that mean something
else at the table, are gone from the site's strings and from the rules book.

Each entry says what it was and what replaced it, so a new string that brings one back fails
here with the word to use instead."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from scoring.engine.messages import CATALOG
from scoring.text.rulesbook import BOOK, half

ROOT = Path(__file__).resolve().parents[2]

#: Phrase the site's strings must not hold → the players' word that replaced it.
SITE_BANNED = {
    "lượt chặt": "lần chặt (to a player, bỏ lượt is passing)",
    "có người nhận": "có người chọn (nhận is money received)",
    "có ai nhận": "có ai chọn",
    "Mở lại tên": "Gỡ tên",
    "xếp ngay trên": "về ngay trên",
    "được công nhận": "những bài được tới trắng",
    "giá như thối": "phạt như thối",
    "Giá riêng": "Tới trắng bằng …",
    "Tiền mỗi đơn vị": "Mức tiền: một lá, phần, cược hay điểm bao nhiêu đồng",
    "trước các khoản đã trả": "(chưa trừ các khoản đã trả)",
    "Mã gửi": "say the payment or game was already recorded (a double tap) and to reload",
    "ghi hạng rồi chất": "ghi số rồi chất, ví dụ 2♥",
    "biên bản": "chi tiết ván",
    "Số lá {{ name }} còn": "{{ name }} còn mấy lá",
    "Số lá %(name)s còn": "%(name)s còn mấy lá",
    "chuỗi băm": "kiểm lại từng dòng lịch sử",
    "lệnh verify_ledger": "máy chủ tự kiểm sổ",
    'đánh dấu "về luôn"': 'đánh dấu "tới luôn", as the box reads',
    "về luôn bằng bài": "tới luôn bằng bài",
}

#: Phrase the rules book (either half) must not hold → what it says instead.
BOOK_BANNED = {
    "bộ luật": "luật (a bộ is a card combination)",
    "Bộ luật": "Luật",
    "bộ Cược": "cách tính Cược",
    "bộ Điểm": "cách tính Điểm",
    "bộ Đếm lá": "luật Đếm lá",
    "sám cô liền nhau": "sám cô thông",
    "12 lá cùng chất": "12 lá đồng chất",
    "Các số hạng": "Điểm các hạng",
    "bị từ chối": "trang không nhận",
    "Chín dòng": "Bảng có chín khoản",
    "kiểu kia": "bàn muốn chơi khác thì sửa ô nào",
    "nước đầu": "bài đánh ra đầu tiên",
    "xếp ngay trên": "về ngay trên",
    "xếp trên": "về trên",
    "được công nhận": "những bài được tới trắng",
    "An, Bình, Chi về": "only the players who went out are said to về",
    "An, Bình and Chi go out": "only the players who went out go out",
    "ba → nhì": "ba trả nhì, between two players who are not both losers",
    "người nợ xếp thấp nhất": "bét trả nhất, ba trả nhì",
    "lowest-ranked debtor": "bét pays nhất, ba pays nhì",
}

#: English words of the English half: one word for each thing, the site's own.
ENGLISH_BANNED = {
    "sitting": "table, as the English site says",
    "share": "phần (a share is not the unit)",
    "shares": "phần",
    "sittings": "tables",
    "placement": "1st/2nd/3rd/last, the site's name for the mode",
    "first out": "card count, the site's name for the mode",
    "first-out": "card count",
    "hàng": "bomb, as the English site says",
    "refused": "the site does not accept",
}

#: A card written as a code (2H, 10D) instead of the way players write it (2♥).
CARD_CODE = re.compile(r"(?<![\w{%])(?:[2-9]|10|[JQKA])[SCDH](?![\w}])")


def tracked(*roots: str) -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files", *roots], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / n for n in names if (ROOT / n).is_file()]


def site_texts() -> dict[str, str]:
    """Every file the site's strings live in: templates, Python (not migrations), scripts and
    the English catalogue (its msgids are the site's Vietnamese)."""
    texts = {}
    for path in tracked("templates", "scoring", "static/js", "tienlen_site", "locale/en"):
        if "migrations" in path.parts or path.suffix not in {".html", ".py", ".js", ".po", ".txt"}:
            continue
        texts[str(path.relative_to(ROOT))] = path.read_text("utf-8")
    return texts


def found(text: str, banned: dict[str, str], *, case: bool = False) -> list[str]:
    flat = re.sub(r"\s+", " ", text)
    if case:
        return [p for p in banned if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", flat)]
    low = flat.lower()
    return [p for p in banned if p.lower() in low]


def test_the_sites_strings_hold_none_of_the_banned_phrases():
    offenders = {
        name: hits for name, text in site_texts().items() if (hits := found(text, SITE_BANNED))
    }
    assert offenders == {}, {
        n: [f"{h} → {SITE_BANNED[h]}" for h in hs] for n, hs in offenders.items()
    }


def test_the_freeing_button_is_not_called_reopen():
    for name, text in site_texts().items():
        assert 'translate "Mở lại"' not in text and 'msgid "Mở lại"\n' not in text, name


def test_no_message_writes_a_card_as_a_code():
    said = [w for pair in CATALOG.values() for w in pair]
    assert [w for w in said if CARD_CODE.search(w)] == []
    catalogue = (ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po").read_text("utf-8")
    strings = re.findall(r'^(?:msgid|msgstr(?:\[\d\])?) "(.*)"$', catalogue, re.M)
    assert [s for s in strings if CARD_CODE.search(s)] == []


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_the_book_holds_none_of_the_banned_phrases(lang):
    text = half(BOOK.read_text("utf-8"), lang)
    assert found(text, BOOK_BANNED, case=True) == []


def test_the_english_book_uses_the_english_sites_words():
    text = half(BOOK.read_text("utf-8"), "en")
    # The glossary row names the Vietnamese word itself: "| hàng | bombs, …".
    text = text.replace("| hàng | bombs", "| bombs")
    assert found(text, ENGLISH_BANNED, case=True) == []


def test_the_finder_catches_what_it_looks_for():
    assert found("+ Thêm  lượt\nchặt", SITE_BANNED) == ["lượt chặt"]
    assert found("Biên bản (JSON)", SITE_BANNED) == ["biên bản"]
    assert found("các bộ luật có sẵn", BOOK_BANNED, case=True) == ["bộ luật"]
    assert found("when the sitting is set up", ENGLISH_BANNED, case=True) == ["sitting"]
    assert found("a sittingroom", ENGLISH_BANNED, case=True) == []
    assert CARD_CODE.search("ví dụ 2H hoặc 2♥") and CARD_CODE.search("10D")
    assert not CARD_CODE.search("%(n)dS") and not CARD_CODE.search("2♥")
