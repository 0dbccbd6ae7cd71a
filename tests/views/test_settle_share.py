"""The settle-up pages' "Chia sẻ" text (both languages), the typed payment form's token, a
group payment inside a closed period, and the bank-account note said once."""

import datetime
import html
import re
import uuid

import pytest

from scoring import services
from scoring.models import Settlement
from tests.factories import first_out, live_link, open_sitting, player, record
from tests.groups.test_views import month, players  # noqa: F401 (a fixture and a helper)

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def night(owner):
    sitting = open_sitting(owner)
    record(sitting, owner, first_out("Bình", An=3, Chi=2, Dũng=1))
    return sitting


def shared(page: str) -> str:
    found = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', page, re.S)
    assert found, "the share button's text"
    return html.unescape(found.group(1))


def test_a_sittings_share_text_has_the_totals_the_payments_and_the_live_link(
    owner_client, owner, night
):
    page = owner_client.get(f"/s/{night.pk}/settle/").text
    assert "data-share=" in page and ">Chia sẻ</button>" in page
    text = shared(page)
    lines = text.splitlines()
    assert lines[0] == f"Sổ Tiến Lên · {night.name} · {night.date:%d/%m/%Y}"
    assert "Kết quả các ván:" in lines
    assert "• Bình: +30.000\xa0₫" in lines  # the winner first, with a sign
    assert "• An: \u221215.000\xa0₫" in lines
    assert "Cần chuyển:" in lines
    assert "• An → Bình: 15.000\xa0₫" in lines
    assert "Xem trực tiếp" not in text  # no live link yet
    assert "<" not in text  # plain text for a chat

    token = live_link(night, owner)
    text = shared(owner_client.get(f"/s/{night.pk}/settle/").text)
    assert text.endswith(f"Xem trực tiếp: http://testserver/live/{token}/")


def test_the_share_text_is_in_english_too(owner_client, night):
    owner_client.cookies["django_language"] = "en"
    text = shared(owner_client.get(f"/s/{night.pk}/settle/").text)
    lines = text.splitlines()
    assert lines[0].startswith("Tiến Lên Scorebook · ")
    assert "Result of the games:" in lines and "Payments to make:" in lines
    assert "• An → Bình: 15,000\xa0₫" in lines


def test_the_share_text_follows_the_payments_made(owner_client, owner, night):
    for payer, amount in (("An", 15000), ("Chi", 10000), ("Dũng", 5000)):
        services.settlement_record(
            sitting=night,
            user=owner,
            payer=player(night, payer),
            payee=player(night, "Bình"),
            amount=amount,
        )
    text = shared(owner_client.get(f"/s/{night.pk}/settle/").text)
    lines = text.splitlines()
    assert "Đã trả xong: không ai còn nợ ai." in lines
    assert "Cần chuyển:" not in text
    # After a tap, the answer's text is the new plan's.
    assert "• Bình: +30.000\xa0₫" in text  # what the games came to is unchanged
    # …and the payments made are named, so −15.000 with nothing to pay is not a debt skipped.
    assert lines[lines.index("Đã trả:") + 1] == "• An → Bình: 15.000\xa0₫ · Bình chưa xác nhận"


def test_the_share_text_names_payments_made_and_confirmed_and_what_is_left(
    owner_client, owner, night
):
    paid = services.settlement_record(
        sitting=night, user=owner, payer=player(night, "An"), payee=player(night, "Bình"),
        amount=15000,
    )  # fmt: skip
    services.settlement_confirm(settlement=paid, user=None, by_payee=True)
    services.settlement_record(
        sitting=night, user=owner, payer=player(night, "Chi"), payee=player(night, "Bình"),
        amount=4000,
    )  # fmt: skip
    lines = shared(owner_client.get(f"/s/{night.pk}/settle/").text).splitlines()
    done = lines.index("Đã trả:")
    assert lines[done + 1 : done + 3] == [
        "• An → Bình: 15.000\xa0₫ · Bình đã nhận",
        "• Chi → Bình: 4.000\xa0₫ · Bình chưa xác nhận",
    ]
    left = lines.index("Còn cần chuyển:")
    assert left > done
    assert "• Chi → Bình: 6.000\xa0₫" in lines[left:]
    assert "• Dũng → Bình: 5.000\xa0₫" in lines[left:]
    owner_client.cookies["django_language"] = "en"
    lines = shared(owner_client.get(f"/s/{night.pk}/settle/").text).splitlines()
    assert "Paid already:" in lines and "Still to pay:" in lines
    assert "• An → Bình: 15,000\xa0₫ · Bình confirmed receipt" in lines
    assert "• Chi → Bình: 4,000\xa0₫ · Bình has not confirmed yet" in lines


def test_a_groups_share_text_in_both_languages(owner_client, owner, month):  # noqa: F811
    group, _sittings = month
    services.group_live_link(group=group, user=owner, action="enable")
    group.refresh_from_db()
    text = shared(owner_client.get(f"/groups/{group.pk}/settle/").text)
    lines = text.splitlines()
    assert lines[0] == "Sổ Tiến Lên · Thứ Bảy"
    assert "Số dư cả nhóm:" in lines and "Cần chuyển:" in lines
    assert sum(1 for line in lines if " → " in line) >= 1
    assert lines[-1] == f"Xem trực tiếp: http://testserver/gl/{group.live_token}/"
    owner_client.cookies["django_language"] = "en"
    text = shared(owner_client.get(f"/groups/{group.pk}/settle/").text)
    assert "Group balances:" in text and "Follow live: http://testserver/gl/" in text
    owner_client.cookies["django_language"] = "vi"
    names = players(group)
    services.group_settlement_record(
        group=group, user=owner, payer=names["An"], payee=names["Bình"], amount=1000
    )
    lines = shared(owner_client.get(f"/groups/{group.pk}/settle/").text).splitlines()
    assert "Kết quả (chưa trừ các khoản đã trả):" in lines
    assert "• An → Bình: 1.000\xa0₫ · Bình chưa xác nhận" in lines
    assert "Còn cần chuyển:" in lines or "Đã trả xong: không ai còn nợ ai." in lines


def test_a_groups_share_text_names_its_latest_payments(owner_client, owner, month, monkeypatch):  # noqa: F811
    """Past ``PAID_SHARED`` payments in the period, the text names the latest ones and its
    results are before those only: each result plus what the named payments moved is the
    balance, whatever came before them."""
    from scoring.ledger import settleup
    from scoring.ledger.standing import GroupLedger
    from scoring.text.money import vnd

    monkeypatch.setattr(settleup, "PAID_SHARED", 2)
    group, _sittings = month
    names = players(group)
    paid = [("An", "Bình", 1000), ("Chi", "Dũng", 2000), ("Bình", "Chi", 3000)]
    for payer, payee, amount in paid:
        services.group_settlement_record(
            group=group, user=owner, payer=names[payer], payee=names[payee], amount=amount
        )
    lines = shared(owner_client.get(f"/groups/{group.pk}/settle/").text).splitlines()
    heading = "Kết quả, trước 2 khoản trả gần nhất (các khoản trước đó đã tính vào):"
    assert heading in lines
    named = [line for line in lines if " → " in line and "xác nhận" in line]
    assert named == [
        "• Chi → Dũng: 2.000\xa0₫ · Dũng chưa xác nhận",
        "• Bình → Chi: 3.000\xa0₫ · Chi chưa xác nhận",
    ]
    balances = GroupLedger.load(group).balances
    moved = {"Chi": 2000 - 3000, "Dũng": -2000, "Bình": 3000}
    for name, someone in names.items():
        before = balances[someone.pk] - moved.get(name, 0)
        sign = "+" if before > 0 else ""
        assert f"• {name}: {sign}{vnd(before)}" in lines, (name, lines)
    owner_client.cookies["django_language"] = "en"
    text = shared(owner_client.get(f"/groups/{group.pk}/settle/").text)
    assert "Results, before the latest 2 payments (earlier ones counted in):" in text


def test_the_typed_form_carries_its_token_and_a_resend_records_once(owner_client, night):
    page = owner_client.get(f"/s/{night.pk}/settle/").text
    form = re.search(r"<form [^>]*data-pay-form[^>]*>(.*?)</form>", page, re.S)
    assert form and "hx-post" not in form.group(0)  # sent by the queue, not by htmx
    token = re.search(r'name="token" value="([^"]+)"', form.group(1)).group(1)
    version = re.search(r'name="version" value="(\d+)"', form.group(1)).group(1)
    data = {
        "kind": "free",
        "token": token,
        "payer": player(night, "Chi").pk,
        "payee": player(night, "Bình").pk,
        "amount": "5.000",
        "version": version,
    }
    first = owner_client.post(f"/s/{night.pk}/settlements/", data, headers=HX)
    again = owner_client.post(f"/s/{night.pk}/settlements/", data, headers=HX)
    assert first.status_code == again.status_code == 200
    assert "Đã ghi: Chi trả Bình 5.000" in again.text
    assert Settlement.objects.filter(sitting=night).count() == 1
    assert Settlement.objects.get(sitting=night).submission_token == uuid.UUID(token)


def test_a_second_tap_queued_from_the_same_plan_is_refused_as_stale(owner_client, night):
    page = owner_client.get(f"/s/{night.pk}/settle/").text
    form = re.search(r"<form [^>]*data-pay>(.*?)</form>", page, re.S).group(1)
    tap = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
    owner_client.post(f"/s/{night.pk}/settlements/", tap, headers=HX)
    # The same suggestion tapped again on another copy of the page (another token), sent
    # when the network came back: the ledger moved on, so nothing is recorded.
    second = {**tap, "token": str(uuid.uuid4())}
    answer = owner_client.post(f"/s/{night.pk}/settlements/", second, headers=HX)
    assert answer.status_code == 200
    assert "Sổ vừa thay đổi" in answer.text
    assert Settlement.objects.filter(sitting=night).count() == 1


def test_a_group_payment_in_a_closed_period_has_no_void_button(owner_client, owner, month):  # noqa: F811
    group, _sittings = month
    names = players(group)
    old = services.group_settlement_record(
        group=group,
        user=owner,
        payer=names["An"],
        payee=names["Bình"],
        amount=1000,
        date=datetime.date(2026, 11, 10),
    ).value
    new = services.group_settlement_record(
        group=group, user=owner, payer=names["Chi"], payee=names["Bình"], amount=2000
    ).value
    services.period_close(group=group, user=owner, through=datetime.date(2026, 11, 14))
    page = owner_client.get(f"/groups/{group.pk}/settle/").text
    assert f"/groups/{group.pk}/settlements/{old.pk}/void/" not in page
    assert f"/groups/{group.pk}/settlements/{new.pk}/void/" in page
    old_row = re.search(rf'id="settlement-{old.pk}">(.*?)</article>', page, re.S).group(1)
    assert "đã chốt sổ" in old_row


def test_a_payee_without_a_bank_account_is_named_once(owner_client, month):  # noqa: F811
    group, _sittings = month
    page = owner_client.get(f"/groups/{group.pk}/settle/").text
    assert page.count("chưa lưu tài khoản ngân hàng") == 0
    assert page.count("Chưa lưu tài khoản ngân hàng:") == 1
    assert page.count('class="btn primary block"') == 0  # no full-width solid pay buttons


def test_why_is_loaded_on_request_and_only_for_two_players_of_the_group(
    owner_client,
    owner,
    month,  # noqa: F811
):
    group, _sittings = month
    names = players(group)
    an, binh = names["An"].pk, names["Bình"].pk
    assert owner_client.get(f"/groups/{group.pk}/why/{an}/{binh}/").status_code == 200
    assert owner_client.get(f"/groups/{group.pk}/why/{an}/{an}/").status_code == 404
    other = services.group_create(owner=owner, name="Chủ nhật").value
    outsider = open_sitting(owner, group=other).memberships.first().player
    assert owner_client.get(f"/groups/{group.pk}/why/{outsider.pk}/{binh}/").status_code == 404
    assert owner_client.get(f"/groups/{other.pk}/why/{an}/{binh}/").status_code == 404
