"""The sitting page's "Luật" summary lists every choice of the rule set that is not the default."""

from dataclasses import replace

import pytest

from scoring import engine
from scoring.models import Sitting
from tests.factories import open_sitting

pytestmark = pytest.mark.django_db


def _summary(client, sitting):
    html = client.get(f"/s/{sitting.pk}/").content.decode()
    return html.split('id="rule-choices"')[1].split("</details>")[0]


def _with(owner, preset, **choices):
    sitting = open_sitting(owner, preset=preset, stake=2000)
    rules = replace(engine.PRESETS[preset], id="custom", name="Luật nhà", **choices)
    Sitting.objects.filter(pk=sitting.pk).update(rules=engine.ruleset_to_dict(rules))
    return sitting


def test_a_preset_with_only_default_choices_says_so(owner_client, owner):
    summary = _summary(owner_client, open_sitting(owner))
    assert "Đếm lá: dừng khi có người tới" in summary
    assert "Không chỉnh gì khác luật mặc định." in summary


def test_it_lists_the_presets_own_choices(owner_client, owner):
    summary = _summary(owner_client, open_sitting(owner, preset="cuoc", stake=2000))
    assert "Nhất nhì ba bét" in summary and "Thối trả cho người về ngay trên" in summary
    summary = _summary(owner_client, open_sitting(owner, preset="dem-la-26"))
    assert "Kết 3 bích: mỗi người thua trả 26 cược" in summary
    assert "Heo và hàng không tính là lá rác" in summary


def test_it_lists_every_non_default_table_choice(owner_client, owner):
    sitting = _with(
        owner,
        "cuoc",
        den_when="any_cong",
        cong_thoi_to="above",
        toi_trang_counts_thoi=("6_doi_thong",),
        chops=(("3dt", ("heo", "3dt")), ("tq", ("heo", "3dt", "tq")), ("4dt", ())),
    )
    summary = _summary(owner_client, sitting)
    for line in (
        "Đền bài khi có ít nhất một người cóng",
        "Thối của người cóng trả cho người về ngay trên người cóng",
        "Tới trắng có đếm heo chỉ với: 6 đôi thông",
        "Tứ quý chặt được: heo, 3 đôi thông, tứ quý",
        "4 đôi thông chặt được: không gì",
    ):
        assert line in summary
    assert "3 đôi thông chặt được" not in summary  # that row is the default
    assert "Không có lựa chọn" not in summary


@pytest.mark.parametrize(
    ("choices", "line"),
    [
        ({"den_when": "always"}, "Đền bài cả khi không ai cóng"),
        ({"den_when": "never"}, "Không chơi đền bài"),
        ({"toi_trang_counts_thoi": True}, "Tới trắng có đếm heo (mọi bài)"),
        ({"two_out": "bet"}, "Về bằng heo là về bét"),
        ({"two_out": "bet", "two_out_cards": 13}, "Về bằng heo là về bét, tính như còn 13 lá"),
        ({"toi_trang_outside_opening": True}, "Ván khởi đầu chỉ tính các bài tới trắng"),
    ],
)
def test_it_names_each_other_choice(owner_client, owner, choices, line):
    assert line in _summary(owner_client, _with(owner, "dem-la", **choices))


@pytest.mark.parametrize(
    ("choices", "line"),
    [
        ({"ket_3_bich_mode": "plus"}, "Kết 3 bích cộng thêm vào tiền lá và thối"),
        ({"chan_ket_keeps_cards": True}, "Chặn kết 3 bích: người thua vẫn trả tiền lá và thối"),
    ],
)
def test_it_names_the_ket_3_bich_choices(owner_client, owner, choices, line):
    assert line in _summary(owner_client, _with(owner, "dem-la-26", **choices))
    assert line not in _summary(owner_client, open_sitting(owner, preset="dem-la-26"))


def test_the_presets_den_is_the_default_and_not_listed(owner_client, owner):
    summary = _summary(owner_client, open_sitting(owner, preset="cuoc", stake=2000))
    assert "Đền" not in summary


def test_it_speaks_english_too(owner_client, owner):
    sitting = _with(owner, "cuoc", den_when="never", cong_thoi_to="above")
    owner_client.cookies["django_language"] = "en"
    summary = _summary(owner_client, sitting)
    assert "Rules" in summary and "No đền" in summary
    assert "A cóng player&#x27;s thối goes to the player ranked just above them" in summary
