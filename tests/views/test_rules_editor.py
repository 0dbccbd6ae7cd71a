import re

import pytest

from scoring import engine
from scoring.forms.rules import RuleSetForm
from scoring.models import SavedRuleSet

pytestmark = pytest.mark.django_db


def _data(preset="cuoc", **changes):
    initial = RuleSetForm.initial_from(engine.PRESETS[preset], "Luật nhà")
    data = {k: v for k, v in initial.items() if v not in (None, False)}
    data.update(changes)
    return data


def test_it_lists_the_presets(owner_client):
    html = owner_client.get("/rules/").content.decode()
    for preset in engine.PRESETS.values():
        assert str(preset.name) in html


def test_a_clone_saved_unchanged_equals_the_preset(owner_client):
    response = owner_client.post("/rules/new/?from=cuoc", _data())
    assert response.status_code == 302
    saved = engine.ruleset_from_dict(SavedRuleSet.objects.get().data)
    preset = engine.PRESETS["cuoc"]
    assert saved.penalties == preset.penalties and saved.placement_4 == preset.placement_4
    assert saved.name == "Luật nhà"


def test_it_edits_a_value_with_halves(owner_client):
    owner_client.post("/rules/new/", _data(pen_2H="1½", placement_4="2 1/2 -1/2 -2"))
    saved = engine.ruleset_from_dict(SavedRuleSet.objects.get().data)
    assert str(saved.penalties["2H"]) == "3/2"


def test_it_shows_the_engines_problem_beside_the_field(owner_client):
    response = owner_client.post("/rules/new/", _data(placement_4="3 1 -1 -2"))
    html = response.content.decode()
    assert response.status_code == 200
    field = html.split('name="placement_4"')[1].split('<div class="field">')[0]
    assert 'class="field-error"' in field
    assert not SavedRuleSet.objects.exists()


def test_it_refuses_text_where_a_number_belongs(owner_client):
    response = owner_client.post("/rules/new/", _data(pen_2S="năm"))
    assert 'class="field-error"' in response.content.decode()
    assert not SavedRuleSet.objects.exists()


def test_saved_rule_sets_are_private(owner_client, owner, stranger_client):
    owner_client.post("/rules/new/", _data())
    saved = SavedRuleSet.objects.get()
    assert stranger_client.get(f"/rules/{saved.pk}/").status_code == 404
    assert owner_client.get(f"/rules/{saved.pk}/").status_code == 200


TABLE_CHOICES = {
    "den_when": "any_cong",
    "cong_thoi_to": "above",
    "toi_trang_counts_thoi": "hands",
    "toi_trang_thoi_hands": ["6_doi_thong", "sanh_rong"],
    "chops_3dt": ["heo", "3dt"],
    "chops_tq": ["heo", "3dt", "tq"],
    "chops_4dt": ["heo", "3dt", "tq", "4dt"],
}


def test_it_saves_the_table_choices_as_json(owner_client):
    response = owner_client.post("/rules/new/?from=cuoc", _data(**TABLE_CHOICES))
    assert response.status_code == 302
    data = SavedRuleSet.objects.get().data
    assert data["den_when"] == "any_cong" and data["cong_thoi_to"] == "above"
    assert data["toi_trang_counts_thoi"] == ["sanh_rong", "6_doi_thong"]
    assert data["chops"] == {
        "3dt": ["heo", "3dt"],
        "tq": ["heo", "3dt", "tq"],
        "4dt": ["heo", "3dt", "tq", "4dt"],
    }
    # Opened again, the editor shows the same choices, and saving it changes nothing.
    saved = SavedRuleSet.objects.get()
    page = owner_client.get(f"/rules/{saved.pk}/").content.decode()
    assert re.search(r'name="den_when" value="any_cong"[^>]*checked', page)
    assert re.search(r'name="chops_tq" value="3dt"[^>]*checked', page)
    assert not re.search(r'name="chops_tq" value="doi_heo"[^>]*checked', page)
    initial = RuleSetForm.initial_from(engine.ruleset_from_dict(data), "Luật nhà")
    again = {k: v for k, v in initial.items() if v not in (None, False)}
    owner_client.post(f"/rules/{saved.pk}/", again)
    saved.refresh_from_db()
    assert saved.data == data


def test_each_choice_of_the_editor_has_its_explanation_in_both_languages(owner_client):
    vi = owner_client.get("/rules/new/?from=cuoc").content.decode()
    for text in (
        "Chỉ khi mọi người thua đều cóng",
        "luật riêng của bàn",
        "Cộng thêm vào tiền lá và thối",
        "Về bằng heo",
        "Ở ván khởi đầu chỉ tính những bài của ván khởi đầu",
        "Cả khi không ai cóng",
        "Người về ngay trên người cóng",
        "Chỉ với những bài chọn bên dưới",
        "Tứ quý chặt được",
    ):
        assert text in vi
    owner_client.cookies["django_language"] = "en"
    en = owner_client.get("/rules/new/?from=cuoc").content.decode()
    for text in (
        "Only when every loser is cóng",
        "a house rule",
        "On top of each loser",
        "Going out on a 2",
        "In an opening game only the opening-game hands count",
        "Even when nobody is cóng",
        "The player ranked just above the cóng player",
        "Only for the hands ticked below",
        "Four of a kind may chop",
    ):
        assert text in en


def test_it_refuses_counting_thoi_for_chosen_hands_with_none_chosen(owner_client):
    response = owner_client.post(
        "/rules/new/?from=cuoc", _data(toi_trang_counts_thoi="hands", toi_trang_thoi_hands=[])
    )
    html = response.content.decode()
    assert response.status_code == 200 and 'class="field-error"' in html
    assert "ít nhất một bài" in html
    assert not SavedRuleSet.objects.exists()


def test_it_shows_a_choice_the_mode_cannot_take_beside_its_field(owner_client):
    response = owner_client.post("/rules/new/?from=dem-la", _data("dem-la", cong_thoi_to="above"))
    html = response.content.decode()
    field = html.split('name="cong_thoi_to"')[0].rsplit('<div class="field">', 1)[1]
    assert "Thối của người cóng" in field
    assert 'class="field-error"' in html.split('name="cong_thoi_to"')[-1].split('class="field"')[0]
    assert not SavedRuleSet.objects.exists()


def test_every_table_choice_survives_editor_json_export_and_import(owner_client, owner):
    import json
    import uuid

    from django.core.files.uploadedfile import SimpleUploadedFile

    from scoring import ledger, services
    from scoring.models import Sitting

    owner_client.post("/rules/new/?from=cuoc", _data(**TABLE_CHOICES))
    saved = SavedRuleSet.objects.get()
    owner_client.post(
        "/s/new/",
        {
            "name": "Nhà",
            "date": "2026-11-27",
            "rules": f"saved:{saved.pk}",
            "stake": "2000",
            "players": "An\nBình\nChi\nDũng",
        },
    )
    sitting = Sitting.objects.get()
    rules = sitting.ruleset()
    assert engine.ruleset_to_dict(rules) == {**saved.data, "id": rules.id}
    three_cong = {
        "players": ["An", "Bình", "Chi", "Dũng"],
        "finish": ["An", "Bình", "Chi", "Dũng"],
        "hands": {
            "Bình": {"cards": 13},
            "Chi": {"cards": 13, "heo": ["2H"]},
            "Dũng": {"cards": 13},
        },
        "cong": ["Bình", "Chi", "Dũng"],
        "den": "Bình",
    }
    services.game_record(sitting=sitting, user=owner, record=three_cong, token=uuid.uuid4())
    exported = owner_client.get(f"/s/{sitting.pk}/export/session.json").content
    data = json.loads(exported)
    for key in ("den_when", "cong_thoi_to", "toi_trang_counts_thoi", "chops"):
        assert data["rules"][key] == saved.data[key], key
    upload = SimpleUploadedFile("ban.json", exported, content_type="application/json")
    assert owner_client.post("/import/", {"file": upload}).status_code == 302
    copy = Sitting.objects.exclude(pk=sitting.pk).get()
    assert copy.ruleset() == rules
    assert copy.games.get().record["den"] == "Bình"
    names = dict(copy.members.values_list("pk", "name"))
    balances = {names[pk]: v for pk, v in ledger.balances(copy).items()}
    # Chi's 2♥ goes to Bình (cong_thoi_to: above), a payment between losers that đền drops:
    # Bình pays An the three cóng, 3 × 2 cược.
    assert balances == {"An": 12000, "Bình": -12000, "Chi": 0, "Dũng": 0}


RULES_III = {
    "ket_3_bich_mode": "plus",
    "chan_ket_keeps_cards": "on",
    "two_out": "bet",
    "two_out_cards": "13",
    "toi_trang_outside_opening": "on",
}


def test_it_saves_the_rules_iii_choices_and_shows_them_again(owner_client):
    response = owner_client.post("/rules/new/?from=dem-la-26", _data("dem-la-26", **RULES_III))
    assert response.status_code == 302
    data = SavedRuleSet.objects.get().data
    assert (data["ket_3_bich_mode"], data["chan_ket_keeps_cards"], data["two_out"]) == (
        "plus",
        True,
        "bet",
    )
    assert data["two_out_cards"] == 13 and data["toi_trang_outside_opening"] is True
    page = owner_client.get(f"/rules/{SavedRuleSet.objects.get().pk}/").content.decode()
    assert re.search(r'name="ket_3_bich_mode" value="plus"[^>]*checked', page)
    assert re.search(r'name="two_out" value="bet"[^>]*checked', page)
    assert re.search(r'name="two_out_cards" value="13"', page)


def test_a_preset_saved_unchanged_keeps_the_rules_iii_defaults(owner_client):
    owner_client.post("/rules/new/?from=dem-la-26", _data("dem-la-26"))
    data = SavedRuleSet.objects.get().data
    preset = engine.PRESETS["dem-la-26"]
    assert engine.ruleset_from_dict({**data, "id": preset.id, "name": preset.name}) == preset


def test_it_refuses_a_card_count_for_going_out_on_a_2_outside_0_to_13(owner_client):
    response = owner_client.post("/rules/new/?from=dem-la", _data("dem-la", two_out_cards="14"))
    html = response.content.decode()
    assert response.status_code == 200 and 'class="field-error"' in html
    assert not SavedRuleSet.objects.exists()
