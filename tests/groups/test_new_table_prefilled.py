"""A new table in a group starts as last night's: the group's players in last night's seating
order (untick who is absent, add a newcomer), the last table's rule set and stake, today's
date; sent as offered with only a name, it opens the table."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from scoring import engine, services
from scoring.models import Sitting
from tests.factories import new_group, open_in_group
from tests.hostile.crawl import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def group(owner):
    group = new_group(owner, "Hội thứ Năm")
    open_in_group(group, owner, ["An", "Bình", "Chi", "Dũng"], name="Tuần trước")
    last = services.sitting_open(
        owner=owner,
        name="Tối qua",
        date=timezone.localdate() - datetime.timedelta(1),
        rules=engine.PRESETS["cuoc"],
        stake=20000,
        player_names=["Dũng", "Chi", "An"],
        group=group,
    )
    assert last.group_id == group.pk
    return group


def _offered(client: Client, group) -> list[tuple[str, str]]:
    url = f"/groups/{group.pk}/sittings/new/"
    page = client.get(url)
    assert page.status_code == 200
    forms = parse(f"http://testserver{url}", page.text).forms
    form = next(f for f in forms if f.method == "post" and "token" in f.names)
    return form.fields


def _data(fields: list[tuple[str, str]]) -> dict[str, list[str]]:
    """The pairs a browser sends, as the test client takes them (a name may repeat)."""
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(value)
    return data


def test_the_form_offers_last_nights_table(owner_client, group):
    fields = _offered(owner_client, group)
    assert [v for k, v in fields if k == "seated"] == ["Dũng", "Chi", "An"]
    assert ("rules", "preset:cuoc") in fields and ("stake", "20000") in fields
    assert ("date", timezone.localdate().isoformat()) in fields
    assert ("name", "") in fields
    page = owner_client.get(f"/groups/{group.pk}/sittings/new/").text
    assert 'value="Bình"' in page  # last week's player, offered unticked


def test_sent_as_offered_with_only_a_name_it_opens_the_table(owner_client, group):
    fields = [(k, "Tối nay" if k == "name" else v) for k, v in _offered(owner_client, group)]
    opened = owner_client.post(f"/groups/{group.pk}/sittings/new/", _data(fields))
    assert opened.status_code == 302
    sitting = Sitting.objects.get(group=group, name="Tối nay")
    seats = sitting.memberships.select_related("player").order_by("position")
    assert [m.player.name for m in seats] == ["Dũng", "Chi", "An"]
    assert sitting.stake == 20000 and sitting.date == timezone.localdate()
    assert sitting.rules == engine.ruleset_to_dict(engine.PRESETS["cuoc"])


def test_untick_one_add_a_newcomer(owner_client, group):
    fields = [
        (k, "Tối nay" if k == "name" else v)
        for k, v in _offered(owner_client, group)
        if (k, v) != ("seated", "Chi")
    ]
    fields.append(("newcomers", "Em Út"))
    assert owner_client.post(f"/groups/{group.pk}/sittings/new/", _data(fields)).status_code == 302
    sitting = Sitting.objects.get(group=group, name="Tối nay")
    names = [
        m.player.name for m in sitting.memberships.select_related("player").order_by("position")
    ]
    assert names == ["Dũng", "An", "Em Út"]


def test_one_player_left_is_refused_with_a_message_and_nothing_opened(owner_client, group):
    fields = [
        (k, "Tối nay" if k == "name" else v)
        for k, v in _offered(owner_client, group)
        if k != "seated" or v == "An"
    ]
    refused = owner_client.post(f"/groups/{group.pk}/sittings/new/", _data(fields))
    assert refused.status_code == 422
    assert "Cần ít nhất 2 người chơi" in refused.text
    assert not Sitting.objects.filter(name="Tối nay").exists()


def test_rules_no_longer_saved_are_offered_as_the_last_tables(owner, owner_client):
    group = new_group(owner, "Luật riêng")
    odd = engine.ruleset_from_dict(
        {**engine.ruleset_to_dict(engine.PRESETS["dem-la"]), "name": "Luật nhà"}
    )
    services.sitting_open(
        owner=owner, name="Tối qua", date=timezone.localdate(), rules=odd, stake=3000,
        player_names=["An", "Bình"], group=group,
    )  # fmt: skip
    fields = [(k, "Tối nay" if k == "name" else v) for k, v in _offered(owner_client, group)]
    choice = dict(fields)["rules"]
    assert choice.startswith("sitting:")
    assert owner_client.post(f"/groups/{group.pk}/sittings/new/", _data(fields)).status_code == 302
    assert Sitting.objects.get(name="Tối nay").rules == engine.ruleset_to_dict(odd)


def test_a_group_without_tables_asks_for_the_players(owner_client, owner):
    group = new_group(owner, "Mới")
    fields = _offered(owner_client, group)
    assert not [k for k, _v in fields if k == "seated"]
    data = dict(fields) | {"name": "Đầu tiên", "newcomers": "An\nBình", "stake": "5000"}
    answer = owner_client.post(f"/groups/{group.pk}/sittings/new/", data)
    assert answer.status_code == 302, answer.text[answer.text.find("field-error") - 200 :][:600]
