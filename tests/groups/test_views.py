"""The group pages: list, page, period, settle-up, statements, live link, sharing, closing a
period, moving a sitting, merging players — and nobody outside the group sees any of it."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring import engine, services
from scoring.ledger import standing
from scoring.ledger.standing import ledger_version
from scoring.models import Group, Invitation, PeriodClose, Player, Settlement
from tests.factories import first_out, record

pytestmark = pytest.mark.django_db

FOUR = ["An", "Bình", "Chi", "Dũng"]


def open_in(group, user, day, name, players=FOUR):
    return services.sitting_open(
        owner=user,
        name=name,
        date=day,
        rules=engine.PRESETS["dem-la"],
        stake=5000,
        player_names=players,
        group=group,
    )


@pytest.fixture
def month(owner):
    """Four Saturday sittings in November, one game each, in a group of its own."""
    group = services.group_create(owner=owner, name="Thứ Bảy").value
    sittings = []
    for n, day in enumerate((1, 8, 15, 22)):
        sitting = open_in(group, owner, datetime.date(2026, 11, day), f"Tối {day}/11")
        winner = FOUR[n % 4]
        losers = {p: 3 + i for i, p in enumerate(FOUR) if p != winner}
        record(sitting, owner, first_out(winner, **losers))
        sittings.append(sitting)
    return group, sittings


def players(group):
    return {p.name: p for p in Player.objects.filter(group=group, merged_into=None)}


def test_the_list_shows_the_groups_and_creates_one(owner_client, month):
    _group, _ = month
    page = owner_client.get("/groups/")
    assert page.status_code == 200
    assert "Thứ Bảy" in page.text
    made = owner_client.post("/groups/", {"name": "Chủ nhật"}, follow=True)
    assert made.status_code == 200
    assert Group.objects.filter(name="Chủ nhật").exists()
    assert "Chủ nhật" in made.text
    refused = owner_client.post("/groups/", {"name": "Thứ Bảy"})
    assert refused.status_code == 422


def test_an_empty_group_has_helpful_empty_states(owner_client, owner):
    group = services.group_create(owner=owner, name="Mới").value
    for url in (
        f"/groups/{group.pk}/",
        f"/groups/{group.pk}/settle/",
        f"/groups/{group.pk}/close/",
        f"/groups/{group.pk}/live/",
        f"/groups/{group.pk}/share/",
        f"/groups/{group.pk}/merge/",
        f"/groups/{group.pk}/?period=week",
        f"/groups/{group.pk}/?period=custom&start=2026-12-01&end=2026-11-01",
    ):
        response = owner_client.get(url)
        assert response.status_code == 200, url
    assert "Nhóm chưa có bàn nào" in owner_client.get(f"/groups/{group.pk}/").text
    assert "Không ai còn nợ ai" in owner_client.get(f"/groups/{group.pk}/settle/").text


def test_the_group_page_adds_up_every_sitting(owner_client, month):
    group, sittings = month
    page = owner_client.get(f"/groups/{group.pk}/?period=all")
    assert page.status_code == 200
    balances = standing.balances(group, start=datetime.date.min)
    assert sum(balances.values()) == 0
    for sitting in sittings:
        assert sitting.name in page.text
    assert "<svg" in page.text  # the chart of balances over the sittings
    by_pk = {p.pk: p for p in Player.objects.filter(group=group)}
    for pk, amount in balances.items():
        assert by_pk[pk].name in page.text
        if amount:
            assert re.sub(r"\s", " ", services_vnd(amount)) in re.sub(r"\s", " ", page.text)


def services_vnd(amount):
    from scoring.text.money import vnd

    return vnd(amount)


def test_a_closed_period_carries_the_opening_balance_and_can_be_undone(owner_client, month):
    group, sittings = month
    before = standing.balances(group, start=datetime.date.min)
    asked = owner_client.get(f"/groups/{group.pk}/close/?closes_through=2026-11-14")
    assert asked.status_code == 200
    assert "Số dư mang sang" in asked.text
    assert "Chốt sổ đến hết ngày 14/11/2026" in asked.text
    refused = owner_client.post(f"/groups/{group.pk}/close/", {})
    assert refused.status_code == 422  # a day or a sitting is needed
    assert not PeriodClose.objects.filter(group=group).exists()
    done = owner_client.post(
        f"/groups/{group.pk}/close/", {"closes_through": "2026-11-14"}, follow=True
    )
    assert done.status_code == 200
    close = PeriodClose.objects.get(group=group)
    assert "Mang sang" in done.text
    assert "đã chốt sổ đến hết ngày 14/11/2026" in done.text
    # The open period shows only the two later sittings, and nothing changed in total.
    assert (
        sittings[3].name in done.text and sittings[0].name not in done.text.split("Người chơi")[0]
    )
    assert standing.balances(group, start=datetime.date.min) == before
    undone = owner_client.post(f"/groups/{group.pk}/close/{close.pk}/undo/", follow=True)
    assert undone.status_code == 200
    close.refresh_from_db()
    assert close.undone_at is not None
    assert owner_client.post(f"/groups/{group.pk}/close/{close.pk}/undo/").status_code == 404


def test_one_tap_paid_records_a_group_settlement_once(owner_client, month):
    group, _ = month
    page = owner_client.get(f"/groups/{group.pk}/settle/")
    assert page.status_code == 200
    form = re.search(
        r'name="payer" value="(\d+)">\s*<input type="hidden" name="payee" value="(\d+)">\s*'
        r'<input type="hidden" name="amount" value="(\d+)">\s*'
        r'<input type="hidden" name="version" value="([^"]+)">',
        page.text,
    )
    assert form, "a suggestion with its one-tap button"
    payer, payee, amount, version = form.groups()
    data = {"kind": "suggestion", "payer": payer, "payee": payee, "amount": amount}
    data["version"] = version
    first = owner_client.post(
        f"/groups/{group.pk}/settlements/", data, headers={"HX-Request": "true"}
    )
    assert first.status_code == 200
    assert "Đã ghi" in first.text
    again = owner_client.post(
        f"/groups/{group.pk}/settlements/", data, headers={"HX-Request": "true"}
    )
    assert again.status_code == 200  # htmx answers 200 with the conflict inside
    assert "vừa thay đổi" in again.text
    assert Settlement.objects.filter(group=group).count() == 1
    settlement = Settlement.objects.get(group=group)
    voided = owner_client.post(
        f"/groups/{group.pk}/settlements/{settlement.pk}/void/", {"reason": "nhầm"}, follow=True
    )
    assert voided.status_code == 200
    settlement.refresh_from_db()
    assert settlement.is_void


def test_a_void_reason_too_long_is_refused_not_cut(owner_client, owner, month):
    group, _ = month
    p = players(group)
    settlement = services.group_settlement_record(
        group=group, user=owner, payer=p["An"], payee=p["Bình"], amount=5000,
        date=datetime.date(2026, 11, 23),
    ).value  # fmt: skip
    url = f"/groups/{group.pk}/settlements/{settlement.pk}/void/"
    refused = owner_client.post(url, {"reason": "x" * 201})
    assert refused.status_code == 422
    assert "tối đa 200 ký tự (đang có 201)" in refused.text  # says what to fix
    settlement.refresh_from_db()
    assert not settlement.is_void
    owner_client.post(url, {"reason": "x" * 200}, headers={"HX-Request": "true"})
    settlement.refresh_from_db()
    assert settlement.is_void and settlement.void_reason == "x" * 200


def test_a_partial_typed_payment_and_the_three_methods(owner_client, month):
    group, _ = month
    people = players(group)
    version = ledger_version(group)
    paid = owner_client.post(
        f"/groups/{group.pk}/settlements/",
        {"payer": people["An"].pk, "payee": people["Bình"].pk, "amount": "10k", "version": version},
        follow=True,
    )
    assert paid.status_code == 200
    assert Settlement.objects.get(group=group).amount == 10000
    for method in ("min", "played", "banker"):
        page = owner_client.get(f"/groups/{group.pk}/settle/?method={method}")
        assert page.status_code == 200, method
        assert "Vì sao?" in page.text or "Không ai còn nợ ai" in page.text
    fragment = owner_client.get(
        f"/groups/{group.pk}/settle/?method=banker&banker={people['Chi'].pk}",
        headers={"HX-Request": "true"},
    )
    assert fragment.status_code == 200
    assert "<html" not in fragment.text
    bad = owner_client.post(f"/groups/{group.pk}/settlements/", {"payer": people["An"].pk})
    assert bad.status_code == 422


def test_the_qr_code_shows_where_the_payee_has_a_bank_account(owner_client, month):
    group, _ = month
    for p in Player.objects.filter(group=group):
        Player.objects.filter(pk=p.pk).update(
            bank_bin="970436", bank_account="0123456789", bank_holder="NGUYEN VAN A"
        )
    page = owner_client.get(f"/groups/{group.pk}/settle/")
    assert "data-vietqr=" in page.text


def test_the_statement_runs_across_sittings_and_downloads(owner_client, month):
    group, sittings = month
    an = players(group)["An"]
    page = owner_client.get(f"/groups/{group.pk}/players/{an.pk}/?period=all")
    assert page.status_code == 200
    for sitting in sittings:
        assert reverse("player_statement_in_sitting", args=[sitting.pk, an.pk]) in page.text
        # Each sitting's games load when its "Từng ván" opens: game and revision links.
        games = reverse("group_statement_games", args=[group.pk, an.pk, sitting.pk])
        assert f'hx-get="{games}"' in page.text
        opened = owner_client.get(games, headers={"HX-Request": "true"})
        assert reverse("game", args=[sitting.pk, 1]) + "#revision-1" in opened.text
        assert "<html" not in opened.text
    csv_answer = owner_client.get(f"/groups/{group.pk}/players/{an.pk}/statement.csv?period=all")
    assert csv_answer.status_code == 200
    assert csv_answer.content.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(csv_answer.content.decode("utf-8-sig"))))
    assert [r["kind"] for r in rows] == ["sitting"] * 4
    total = standing.balances(group, start=datetime.date.min)[an.pk]
    assert int(rows[-1]["balance"]) == total
    as_json = owner_client.get(f"/groups/{group.pk}/players/{an.pk}/statement.json?period=all")
    body = json.loads(as_json.content)
    assert body["closing"] == total and body["player"] == "An"
    # A month's statement, with the opening balance carried in.
    services.period_close(group=group, user=group.owner, through=datetime.date(2026, 11, 14))
    carried = owner_client.get(f"/groups/{group.pk}/players/{an.pk}/statement.csv")
    rows = list(csv.DictReader(io.StringIO(carried.content.decode("utf-8-sig"))))
    assert rows[0]["kind"] == "opening"
    assert int(rows[-1]["balance"]) == total


def test_the_live_link_is_read_only_and_revocable(owner_client, month, client):
    group, _ = month
    assert owner_client.get(f"/groups/{group.pk}/live/").status_code == 200
    owner_client.post(f"/groups/{group.pk}/live/", {"action": "enable"})
    group.refresh_from_db()
    token = group.live_token
    assert token
    settings_page = owner_client.get(f"/groups/{group.pk}/live/")
    assert "<svg" in settings_page.text  # the QR code
    anonymous = Client()
    page = anonymous.get(f"/gl/{token}/")
    assert page.status_code == 200
    assert "Thứ Bảy" in page.text
    main = page.text.split("<main", 1)[1]
    assert "<form" not in main  # read-only: nothing to press but the language switch above
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    owner_client.post(f"/groups/{group.pk}/live/", {"action": "regenerate"})
    assert anonymous.get(f"/gl/{token}/").status_code == 404
    group.refresh_from_db()
    owner_client.post(f"/groups/{group.pk}/live/", {"action": "revoke"})
    assert anonymous.get(f"/gl/{group.live_token}/").status_code == 404
    assert owner_client.post(f"/groups/{group.pk}/live/", {"action": "x"}).status_code == 400


def test_sharing_a_group_by_invitation(owner_client, month, stranger, stranger_client):
    group, sittings = month
    assert stranger_client.get(f"/groups/{group.pk}/").status_code == 404
    owner_client.post(f"/groups/{group.pk}/share/", {"username": stranger.username})
    invitation = Invitation.objects.get(group=group)
    home = stranger_client.get("/")
    assert "Thứ Bảy" in home.text
    assert stranger_client.get(f"/invitations/{invitation.pk}/").status_code == 200
    accepted = stranger_client.post(f"/invitations/{invitation.pk}/accept/", follow=True)
    assert accepted.status_code == 200
    assert stranger_client.get(f"/groups/{group.pk}/").status_code == 200
    assert stranger_client.get(f"/s/{sittings[0].pk}/").status_code == 200
    # A scorekeeper, not the owner: the owner's pages stay closed.
    assert stranger_client.get(f"/groups/{group.pk}/share/").status_code == 404
    assert stranger_client.get(f"/groups/{group.pk}/leave/").status_code == 200
    stranger_client.post(f"/groups/{group.pk}/leave/")
    assert stranger_client.get(f"/groups/{group.pk}/").status_code == 404
    owner_client.post(f"/groups/{group.pk}/share/", {"username": "ai_do"})
    pending = Invitation.objects.get(group=group, username="ai_do")
    assert owner_client.post(f"/groups/{group.pk}/share/withdraw/{pending.pk}/").status_code == 302


def test_declining_a_group_invitation(owner_client, month, stranger, stranger_client):
    group, _ = month
    owner_client.post(f"/groups/{group.pk}/share/", {"username": stranger.username})
    invitation = Invitation.objects.get(group=group)
    declined = stranger_client.post(f"/invitations/{invitation.pk}/decline/", follow=True)
    assert declined.status_code == 200
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED


def test_opening_a_sitting_in_the_group_and_moving_it(owner_client, owner, month):
    group, _ = month
    assert owner_client.get(f"/groups/{group.pk}/sittings/new/").status_code == 200
    data = {
        "name": "Tối 29/11",
        "date": "2026-11-29",
        "rules": "preset:dem-la",
        "stake": "5000",
        "players": "An\nBình\nChi",
        "token": "7d3f0a34-3b5e-4b0f-9a54-0c7c2b7b0a11",
    }
    opened = owner_client.post(f"/groups/{group.pk}/sittings/new/", data)
    assert opened.status_code == 302
    sitting = group.sittings.get(name="Tối 29/11")
    again = owner_client.post(f"/groups/{group.pk}/sittings/new/", data)
    assert again.status_code == 302 and group.sittings.filter(name="Tối 29/11").count() == 1
    other = services.group_create(owner=owner, name="Chủ nhật").value
    assert owner_client.get(f"/groups/{group.pk}/sittings/{sitting.pk}/move/").status_code == 200
    moved = owner_client.post(
        f"/groups/{group.pk}/sittings/{sitting.pk}/move/", {"target": other.pk}, follow=True
    )
    assert moved.status_code == 200
    sitting.refresh_from_db()
    assert sitting.group_id == other.pk


def test_merging_two_names_of_one_person(owner_client, owner):
    group = services.group_create(owner=owner, name="Nhóm").value
    open_in(group, owner, datetime.date(2026, 11, 1), "Một", ["An", "Bình"])
    open_in(group, owner, datetime.date(2026, 11, 8), "Hai", ["Bình T", "Chi"])
    people = players(group)
    merged = owner_client.post(
        f"/groups/{group.pk}/merge/",
        {"keep": people["Bình"].pk, "duplicate": people["Bình T"].pk, "confirm": "on"},
    )
    assert merged.status_code == 302
    assert set(players(group)) == {"An", "Bình", "Chi"}
    refused = owner_client.post(
        f"/groups/{group.pk}/merge/", {"keep": people["An"].pk, "duplicate": people["An"].pk}
    )
    assert refused.status_code == 422


def test_renaming_and_the_history(owner_client, month):
    group, _ = month
    assert owner_client.get(f"/groups/{group.pk}/rename/").status_code == 200
    renamed = owner_client.post(f"/groups/{group.pk}/rename/", {"name": "Tối thứ Bảy"}, follow=True)
    assert renamed.status_code == 200
    group.refresh_from_db()
    assert group.name == "Tối thứ Bảy"
    assert owner_client.post(f"/groups/{group.pk}/rename/", {"name": ""}).status_code == 422
    history = owner_client.get(f"/groups/{group.pk}/history/")
    assert history.status_code == 200
    assert "“Thứ Bảy” → “Tối thứ Bảy”" in history.text


def test_a_merged_name_leads_to_the_kept_players_statement(owner_client, owner):
    group = services.group_create(owner=owner, name="Nhóm").value
    open_in(group, owner, datetime.date(2026, 11, 1), "Một", ["An", "Bình"])
    open_in(group, owner, datetime.date(2026, 11, 8), "Hai", ["Bình T", "Chi"])
    people = players(group)
    services.group_player_merge(
        group=group, keep=people["Bình"], duplicate=people["Bình T"], user=owner
    )
    answer = owner_client.get(f"/groups/{group.pk}/players/{people['Bình T'].pk}/?period=all")
    assert answer.status_code == 302
    assert answer["Location"].endswith(f"/players/{people['Bình'].pk}/?period=all")


def test_a_quiet_poll_of_the_live_page_is_answered_304(owner_client, month):
    group, _ = month
    services.group_live_link(group=group, user=group.owner, action="enable")
    group.refresh_from_db()
    anonymous = Client()
    page = anonymous.get(f"/gl/{group.live_token}/")
    etag = page["ETag"]
    assert "If-None-Match" in page.text  # the page's poll sends the tag back
    poll = {"HX-Request": "true", "If-None-Match": etag}
    assert anonymous.get(f"/gl/{group.live_token}/", headers=poll).status_code == 304
    people = players(group)
    services.group_settlement_record(
        group=group, user=group.owner, payer=people["Bình"], payee=people["An"], amount=1000
    )
    fresh = anonymous.get(f"/gl/{group.live_token}/", headers=poll)
    assert fresh.status_code == 200 and fresh["ETag"] != etag


def test_empty_live_page_and_an_empty_period_statement(owner_client, owner, month):
    empty = services.group_create(owner=owner, name="Trống").value
    services.group_live_link(group=empty, user=owner, action="enable")
    empty.refresh_from_db()
    live = Client().get(f"/gl/{empty.live_token}/")
    assert live.status_code == 200
    assert "Không ai nợ ai" in live.text and "Nhóm chưa có người chơi" in live.text
    group, _ = month
    an = players(group)["An"]
    week = owner_client.get(f"/groups/{group.pk}/players/{an.pk}/?period=week")
    assert week.status_code == 200
    assert "không chơi bàn nào" in week.text
    chart = owner_client.get(f"/groups/{empty.pk}/")
    assert "Chưa có bàn nào" in chart.text


def test_too_many_people_for_the_exact_minimum_fall_back_to_a_banker(owner_client, owner):
    group = services.group_create(owner=owner, name="Đông người").value
    for n in range(6):
        names = [f"P{n}{k}" for k in range(4)]
        sitting = open_in(group, owner, datetime.date(2026, 11, 1 + n), f"Bàn {n}", names)
        record(
            sitting,
            owner,
            {
                "players": names,
                "finish": [names[0]],
                "hands": {names[1]: {"cards": 2}, names[2]: {"cards": 5}, names[3]: {"cards": 9}},
            },
        )
    page = owner_client.get(f"/groups/{group.pk}/settle/")
    assert page.status_code == 200
    assert "Quá nhiều người" in page.text
    assert "đã trả" in page.text
    live_on = services.group_live_link(group=group, user=owner, action="enable")
    assert Client().get(f"/gl/{live_on}/").status_code == 200


def test_a_suggestion_is_explained_down_to_games_and_revisions(owner_client, month):
    group, _sittings = month
    page = owner_client.get(f"/groups/{group.pk}/settle/?method=min")
    assert "Vì sao?" in page.text
    # The explanation is loaded when it is opened, not with the page.
    assert not re.search(r"/s/\d+/g/\d+/#revision-\d+", page.text)
    why_url = re.search(r'hx-get="(/groups/\d+/why/\d+/\d+/)"', page.text).group(1)
    for why in (
        owner_client.get(why_url, headers={"HX-Request": "true"}),
        owner_client.get(why_url),
    ):
        assert why.status_code == 200
        # Each sitting the two played links to the pair's page; its games load when its
        # "Từng ván" is opened, each linked to its revision.
        assert re.search(r"/s/\d+/pair/\d+/\d+/", why.text)
        assert not re.search(r"/s/\d+/g/\d+/#revision-\d+", why.text)
        games_url = re.search(r'hx-get="(/groups/\d+/why/\d+/\d+/s/\d+/)"', why.text).group(1)
        for games in (
            owner_client.get(games_url, headers={"HX-Request": "true"}),
            owner_client.get(games_url),
        ):
            assert games.status_code == 200
            assert re.search(r"/s/\d+/g/\d+/#revision-\d+", games.text)
        assert "<html" not in owner_client.get(games_url, headers={"HX-Request": "true"}).text
        assert "<h1>Ván giữa " in owner_client.get(games_url).text
    assert "<html" not in owner_client.get(why_url, headers={"HX-Request": "true"}).text
    assert "<h1>Vì sao " in owner_client.get(why_url).text


def test_a_custom_range_and_a_refused_one(owner_client, month):
    group, sittings = month
    an = players(group)["An"]
    url = f"/groups/{group.pk}/players/{an.pk}/?period=custom&start=2026-11-08&end=2026-11-15"
    page = owner_client.get(url)
    assert page.status_code == 200
    assert sittings[1].name in page.text and sittings[2].name in page.text
    assert sittings[0].name not in page.text.split("Từng dòng")[1]
    assert "Số dư mang sang" in page.text
    refused = owner_client.get(f"/groups/{group.pk}/?period=custom&start=2026-11-20&end=2026-11-01")
    assert refused.status_code == 200
    assert "Ngày cuối không được trước ngày đầu" in refused.text


def test_a_typed_payment_may_be_dated_but_not_inside_a_closed_period(owner_client, month):
    group, _ = month
    people = players(group)
    data = {"payer": people["Chi"].pk, "payee": people["An"].pk, "amount": "5000"}
    data["version"] = ledger_version(group)
    dated = owner_client.post(f"/groups/{group.pk}/settlements/", {**data, "day": "2026-11-20"})
    assert dated.status_code == 302
    assert Settlement.objects.get(group=group).date == datetime.date(2026, 11, 20)
    services.period_close(group=group, user=group.owner, through=datetime.date(2026, 11, 24))
    data["version"] = ledger_version(group)
    frozen = owner_client.post(f"/groups/{group.pk}/settlements/", {**data, "day": "2026-11-21"})
    assert frozen.status_code == 409  # the same answer as a table's write in a closed period
    assert "đã chốt đến hết ngày 24/11/2026" in frozen.text
    assert Settlement.objects.filter(group=group).count() == 1


def test_a_long_night_is_named_in_part_and_linked_for_the_rest(owner_client, owner):
    from tests.factories import bulk_games

    group = services.group_create(owner=owner, name="Dài").value
    sitting = open_in(group, owner, datetime.date(2026, 11, 1), "Đêm dài")
    bulk_games(sitting, owner, 30, [first_out("An", Bình=2, Chi=3, Dũng=4)])
    binh = players(group)["Bình"]
    statement = owner_client.get(f"/groups/{group.pk}/players/{binh.pk}/?period=all")
    # The statement names none of the games until "Từng ván" is opened; without JavaScript
    # its link goes to the sitting's statement of the player.
    assert f"/s/{sitting.pk}/g/" not in statement.text
    assert "Xem 30 ván ở sổ của bàn" in statement.text
    games_url = reverse("group_statement_games", args=[group.pk, binh.pk, sitting.pk])
    opened = owner_client.get(games_url, headers={"HX-Request": "true"})
    assert "và 18 ván nữa" in opened.text
    assert opened.text.count(f"/s/{sitting.pk}/g/") == 2 * 12  # game and revision links
    # Opened on its own (a new tab), the same list is a page with its way back.
    alone = owner_client.get(games_url)
    assert "Ván của Bình ở Đêm dài" in alone.text
    assert reverse("group_statement", args=[group.pk, binh.pk]) in alone.text
    assert alone.text.count(f"/s/{sitting.pk}/g/") == 2 * 12
    settle = owner_client.get(f"/groups/{group.pk}/settle/")
    why = re.search(r'hx-get="(/groups/\d+/why/\d+/\d+/)"', settle.text).group(1)
    explained = owner_client.get(why, headers={"HX-Request": "true"}).text
    assert f"/s/{sitting.pk}/g/" not in explained  # the games load when the line is opened
    games = re.search(r'hx-get="(/groups/\d+/why/\d+/\d+/s/\d+/)"', explained).group(1)
    assert "và 25 ván nữa" in owner_client.get(games, headers={"HX-Request": "true"}).text
    owner_client.cookies["django_language"] = "en"
    english = owner_client.get(f"/groups/{group.pk}/players/{binh.pk}/?period=all")
    assert "See the 30 games in the table's statement" in english.text.replace("&#x27;", "'")
    english = owner_client.get(games_url, headers={"HX-Request": "true"})
    assert "and 18 more games: see the table's statement" in english.text.replace("&#x27;", "'")


def test_a_sittings_games_are_the_groups_own(owner_client, owner, month):
    group, sittings = month
    people = players(group)
    other = services.group_create(owner=owner, name="Khác").value
    elsewhere = open_in(other, owner, datetime.date(2026, 11, 2), "Bàn khác")
    url = "group_statement_games"
    # A sitting of another group, or a player of another group: 404, as for nothing at all.
    assert (
        owner_client.get(reverse(url, args=[group.pk, people["An"].pk, elsewhere.pk])).status_code
        == 404
    )
    stranger = players(other)["An"]
    assert (
        owner_client.get(reverse(url, args=[group.pk, stranger.pk, sittings[0].pk])).status_code
        == 404
    )
    # A player of the group who did not play there: said so.
    newcomer = Player.objects.create(owner=owner, group=group, name="Giang")
    empty = owner_client.get(reverse(url, args=[group.pk, newcomer.pk, sittings[0].pk]))
    assert empty.status_code == 200
    assert "Giang không có ván nào đang tính ở bàn này." in empty.text


def test_tonights_sitting_is_one_tap_from_the_group_page(owner_client, owner, month):
    from django.utils import timezone

    group, _ = month
    assert "Đang chơi" not in owner_client.get(f"/groups/{group.pk}/").text
    tonight = open_in(group, owner, timezone.localdate(), "Tối nay")
    page = owner_client.get(f"/groups/{group.pk}/").text
    assert "Đang chơi: Tối nay" in page and f'href="/s/{tonight.pk}/"' in page
