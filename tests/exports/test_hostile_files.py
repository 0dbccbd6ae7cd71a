"""Session files with values that used to crash the import: too-large rules, hidden characters,
look-alike names, decomposed names. Each is refused with a message, nothing written; and a
sitting at the limits exports and imports again."""

from __future__ import annotations

import json
import unicodedata
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from scoring import engine
from scoring.engine.limits import MAX_AMOUNT, max_stake
from scoring.ledger import sessionfile
from scoring.models import Settlement, Sitting
from tests.factories import open_sitting, plain, record, settle
from tests.hostile.fuzzing import counts

pytestmark = pytest.mark.django_db


def upload(client, data):
    raw = json.dumps(data, ensure_ascii=False).encode()
    return client.post(
        reverse("session_import"),
        {"file": SimpleUploadedFile("ban.json", raw, content_type="application/json")},
    )


def refused(client, data, *expected):
    before = counts()
    response = upload(client, data)
    assert response.status_code == 422
    assert counts() == before
    page = response.content.decode()
    for text in expected:
        assert text in page
    with pytest.raises(sessionfile.SessionFileError):
        sessionfile.session_check(data)
    return page


def test_a_rule_set_that_overflows_is_refused_with_the_limit(owner_client):
    rules = engine.ruleset_to_dict(engine.PRESETS["dem-la"]) | {"card_value": 10**12}
    refused(owner_client, plain(rules=rules, stake=100_000_000), "9.999.999.999.999")


def test_a_stake_that_overflows_the_rule_set_is_refused_with_the_largest_stake(owner_client):
    rules = engine.ruleset_to_dict(engine.PRESETS["dem-la"]) | {"card_value": 10**6}
    top = max_stake(engine.ruleset_from_dict(rules))
    refused(owner_client, plain(rules=rules, stake=top + 1), f"{top:,}".replace(",", "."))


@pytest.mark.parametrize("char", ["\x00", "\x07", "\u202e", "\u200d", "\ufeff"])
@pytest.mark.parametrize("where", ["name", "player", "void_reason", "settlement_reason", "rules"])
def test_a_hidden_character_anywhere_is_refused_and_named(owner_client, char, where):
    data = plain()
    if where == "name":
        data["name"] = f"Tối{char}"
    elif where == "player":
        old = data["players"][2]
        data["players"][2] = f"{old}{char}"
    elif where == "void_reason":
        data["games"][0] |= {"void": True, "void_reason": f"sai{char}"}
    elif where == "settlement_reason":
        data["settlements"] = [
            {"from": "Ánh", "to": "Đức", "amount": 1000, "void": True, "void_reason": f"x{char}"}
        ]
    else:
        data["rules"] = engine.ruleset_to_dict(engine.PRESETS["dem-la"]) | {"unit": f"lá{char}"}
    refused(owner_client, data, f"U+{ord(char):04X}")


def test_a_lone_surrogate_is_refused(owner_client):
    raw = json.dumps(plain(), ensure_ascii=False).replace('"Tối thứ Bảy"', '"T\\ud800"')
    assert "\\ud800" in raw
    raw = raw.encode()
    before = counts()
    response = owner_client.post(
        reverse("session_import"),
        {"file": SimpleUploadedFile("ban.json", raw, content_type="application/json")},
    )
    assert response.status_code == 422 and counts() == before


def test_look_alike_players_are_refused(owner_client):
    data = plain()
    data["players"].append("\u0410\u0301nh")  # Cyrillic А with an acute: looks like Ánh
    refused(owner_client, data, "Ánh")


def test_names_in_decomposed_form_match_the_same_names_composed(owner_client):
    data = json.loads(unicodedata.normalize("NFD", json.dumps(plain(), ensure_ascii=False)))
    data["players"] = [unicodedata.normalize("NFC", p) for p in data["players"]]
    response = upload(owner_client, data)
    assert response.status_code == 302
    sitting = Sitting.objects.get()
    names = [m.player.name for m in sitting.memberships.select_related("player")]
    assert names == ["Ánh", "Đức", "Hương"]
    assert all(unicodedata.is_normalized("NFC", n) for n in names)


def test_settlement_amounts_have_one_limit(owner_client):
    ok = plain(settlements=[{"from": "Ánh", "to": "Đức", "amount": MAX_AMOUNT}])
    assert upload(owner_client, ok).status_code == 302
    over = plain(settlements=[{"from": "Ánh", "to": "Đức", "amount": MAX_AMOUNT + 1}])
    refused(owner_client, over, "9.999.999.999.999")


def test_a_sitting_at_every_limit_exports_and_imports_again(owner, owner_client):
    rules = engine.ruleset_from_dict(
        engine.ruleset_to_dict(engine.PRESETS["dem-la"]) | {"card_value": 10**6}
    )
    sitting = open_sitting(owner, name="Bàn lớn", rules=rules, stake=max_stake(rules))
    worst = {
        "players": ["An", "Bình", "Chi", "Dũng"],
        "finish": ["An"],
        "cong": ["Bình", "Chi", "Dũng"],
        "hands": {p: {"cards": 13, "tq": 3} for p in ("Bình", "Chi", "Dũng")},
    }
    record(sitting, owner, worst)
    for _ in range(2):
        settle(sitting, owner, "Chi", "An", MAX_AMOUNT)
    raw = sessionfile.session_json(sitting)
    response = owner_client.post(
        reverse("session_import"),
        {"file": SimpleUploadedFile("ban.json", raw.encode(), content_type="application/json")},
    )
    assert response.status_code == 302
    copy = Sitting.objects.order_by("-id").first()
    assert copy.pk != sitting.pk
    again = json.loads(sessionfile.session_json(copy))
    assert again["totals"] == json.loads(raw)["totals"]
    assert Settlement.objects.filter(sitting=copy, amount=MAX_AMOUNT).count() == 2


@pytest.mark.parametrize("arg", ["²", "①", "１", "9" * 40, "1e309", "", "\u202e1"])
def test_export_session_refuses_a_strange_id_with_a_message(arg):
    with pytest.raises(CommandError) as error:
        call_command("export_session", arg, stdout=StringIO(), stderr=StringIO())
    assert str(error.value)


def test_import_session_refuses_an_owner_with_a_nul(tmp_path):
    path = tmp_path / "ban.json"
    path.write_text(json.dumps(plain()), encoding="utf-8")
    with pytest.raises(CommandError) as error:
        call_command("import_session", str(path), "--owner", "a\x00b", stdout=StringIO())
    assert "--owner" in str(error.value)
