"""A table's settle-up in a group is the group's open period: the carried balances and
every table of the period, beside the table's own results. Paying every suggestion, from the
table or from the group, leaves nothing to pay in the group; the share text says what was
carried and what is left in the group; the close is offered on the settle-up. A table of its
owner's default group (no group chosen) keeps its own settle-up."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import services
from scoring.ledger import game_totals
from scoring.ledger.standing import GroupLedger, close_covering, last_close
from scoring.models import Settlement
from tests.factories import new_group, open_in_group, open_sitting, won

pytestmark = pytest.mark.django_db

HX = {"headers": {"HX-Request": "true"}}


@pytest.fixture
def carried(owner):
    """Last night Tú beat Lan (closed, carried); tonight Lan, Hoàng, Mai and Tú play on."""
    today = timezone.localdate()
    group = new_group(owner, "Hội thứ Bảy")
    last = open_in_group(
        group, owner, ["Lan", "Tú"], day=today - datetime.timedelta(1), name="Tối qua"
    )
    won(last, owner, "Tú", {"Lan": 9})
    services.period_close(group=group, user=owner, through=last.date, sitting=last)
    tonight = open_in_group(group, owner, ["Hoàng", "Lan", "Mai"], day=today, name="Tối nay")
    won(tonight, owner, "Lan", {"Hoàng": 3, "Mai": 2})
    won(tonight, owner, "Mai", {"Hoàng": 2, "Lan": 1})
    return group, tonight


@pytest.fixture
def client(owner) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def _settle(client, sitting, **params):
    return client.get(reverse("sitting_settle", args=[sitting.pk]), params)


def _pay_every_suggestion(client, sitting):
    """Taps each suggestion of the table's settle-up, each on the page the last tap answered."""
    page = _settle(client, sitting).context["page"]
    done: list[str] = []
    while page.suggestions:
        s = page.suggestions[0]
        answer = client.post(
            reverse("settlement_new", args=[sitting.pk]),
            {
                "kind": "suggestion", "row": len(done) + 1,
                "token": str(page.plan_rows[len(done)].token),
                "payer": s.payer.pk, "payee": s.payee.pk, "amount": s.amount,
                "version": page.version, "method": "min", "done": done,
            },
            **HX,
        )  # fmt: skip
        assert answer.status_code == 200, answer.content
        page = answer.context["page"]
        done = page.done_values
    return page


def test_it_settles_the_groups_open_period_from_the_table(client, carried):
    group, tonight = carried
    page = _settle(client, tonight).context["page"]
    assert page.group == group and page.sitting == tonight
    # The table's own results beside: tonight's games only.
    assert {r.player.pk: r.games for r in page.table_rows} == game_totals(tonight)
    assert {r.player.name for r in page.table_rows} == {"Hoàng", "Lan", "Mai"}
    # The plan is the group's: Tú, who is not at the table, is owed what Lan carried.
    expected = GroupLedger.load(group).plan()
    assert [(s.payer.pk, s.payee.pk, s.amount) for s in page.suggestions] == [
        (s.payer.pk, s.payee.pk, s.amount) for s in expected
    ]
    assert any(s.payee.name == "Tú" for s in page.suggestions)
    html = _settle(client, tonight).text
    assert 'id="group-scope"' in html and 'id="table-results"' in html


def test_paying_every_suggestion_of_the_table_leaves_nothing_in_the_group(client, carried):
    group, tonight = carried
    page = _pay_every_suggestion(client, tonight)
    assert page.suggestions == []
    assert all(amount == 0 for amount in GroupLedger.load(group).balances.values())
    group_page = client.get(reverse("group_settle", args=[group.pk])).context["page"]
    assert group_page.suggestions == []
    # The payments are the group's, dated the table's night.
    paid = Settlement.objects.filter(group=group, is_void=False)
    assert paid.count() >= 2 and {s.date for s in paid} == {tonight.date}
    assert not tonight.settlements.exists()


def test_paying_every_suggestion_of_the_group_leaves_nothing_on_the_table(client, carried):
    group, tonight = carried
    group_page = client.get(reverse("group_settle", args=[group.pk])).context["page"]
    for s in group_page.suggestions:
        services.group_settlement_record(
            group=group, user=tonight.owner, payer=s.payer, payee=s.payee, amount=s.amount
        )
    assert _settle(client, tonight).context["page"].suggestions == []


def test_the_share_text_says_what_was_carried_and_what_is_left_in_the_group(client, carried):
    group, tonight = carried
    text = _settle(client, tonight).context["page"].share_text
    assert text.startswith("Sổ Tiến Lên · Tối nay")
    carried_at = text.index("Số dư mang sang")
    assert "• Tú: +9.000\xa0₫" in text[carried_at:] and "• Lan: −9.000\xa0₫" in text[carried_at:]
    assert f"Còn cần chuyển trong nhóm {group.label}:" in text
    assert "Tú" not in text.split("Kết quả các ván:")[1].split("Số dư mang sang")[0]
    page = _pay_every_suggestion(client, tonight)
    assert f"Cả nhóm {group.label}: không ai còn nợ ai." in page.share_text
    assert "Đã trả:" in page.share_text


def test_the_close_is_offered_on_the_settle_up_and_says_what_is_carried(client, carried):
    group, tonight = carried
    page = _settle(client, tonight).context["page"]
    assert page.close is not None and page.close.owed and page.close.sitting_id == tonight.pk
    assert "được mang sang kỳ mới" in _settle(client, tonight).text
    page = _pay_every_suggestion(client, tonight)
    assert page.close is not None and not page.close.owed
    answer = client.post(page.close.url, {"sitting": page.close.sitting_id})
    assert answer.status_code == 302 and answer["Location"] == group.get_absolute_url()
    tonight.refresh_from_db()
    assert close_covering(tonight) is not None
    assert last_close(group).closes_through == tonight.date
    # Paid in full before the close: nothing is carried into the new period.
    assert not any(GroupLedger.load(group).opening.values())
    # Closed, the table's settle-up is its own again, read-only.
    closed = _settle(client, tonight).context["page"]
    assert closed.group is None and closed.frozen is not None and closed.close is None


def test_a_payment_tapped_on_the_table_is_undone_there(client, carried):
    _group, tonight = carried
    page = _settle(client, tonight).context["page"]
    s = page.suggestions[0]
    post = {
        "kind": "suggestion", "row": 1, "token": str(page.plan_rows[0].token),
        "payer": s.payer.pk, "payee": s.payee.pk, "amount": s.amount,
        "version": page.version, "method": "min",
    }  # fmt: skip
    answer = client.post(reverse("settlement_new", args=[tonight.pk]), post, **HX)
    row = answer.context["page"].plan_rows[0]
    assert row.done is not None and row.undo_url.startswith(f"/s/{tonight.pk}/")
    undone = client.post(row.undo_url, {"undo": "1", "method": "min"}, **HX)
    assert undone.status_code == 200
    assert Settlement.objects.get(pk=row.done.pk).is_void
    assert undone.context["page"].suggestions[0] == s


def test_a_table_of_the_default_group_keeps_its_own_settle_up(client, owner):
    table = open_sitting(owner, players=["An", "Bình"])
    won(table, owner, "An", {"Bình": 4})
    page = _settle(client, table).context["page"]
    assert page.group is None and page.table_rows == [] and page.close is None
    s = page.suggestions[0]
    post = {
        "kind": "suggestion", "row": 1, "token": str(page.plan_rows[0].token),
        "payer": s.payer.pk, "payee": s.payee.pk, "amount": s.amount,
        "version": page.version, "method": "min",
    }  # fmt: skip
    client.post(reverse("settlement_new", args=[table.pk]), post, **HX)
    assert table.settlements.filter(is_void=False).count() == 1
