"""A settle-up's "Vì sao?", a player's year and the group exports read what they show.

The explanation of a suggestion shows its latest sittings and payments, each sitting's
figures from the stored totals and flows, older lines summed up in one row, and one
sitting's games between the two only when that sitting is opened. A player's year is its
nights' stored totals and flows. The same row probe as the group's other pages
(``test_pages_read_what_they_show``) counts what each reads at 3 sittings and at 30.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter

import pytest
from django.core.cache import cache
from django.urls import reverse

from scoring import services
from scoring.ledger.group_export import export_dict, statement_csv_rows
from scoring.ledger.standing import GroupLedger
from scoring.ledger.why import explain, explained, pair_games
from scoring.models import Sitting
from scoring.views import groups as group_views
from tests.factories import group_player, new_group
from tests.groups.test_pages_read_what_they_show import HISTORY, MONDAY, _add_weeks, probe

pytestmark = pytest.mark.django_db

SITTING_LINE = re.compile(r'<td><a href="/s/\d+/">')


def _why_url(group, payer, payee) -> str:
    return reverse("group_why", args=[group.pk, payer.pk, payee.pk])


def _games_url(group, payer, payee, sitting) -> str:
    return reverse("group_why_games", args=[group.pk, payer.pk, payee.pk, sitting.pk])


def _read(client, monkeypatch, url: str, **headers):
    cache.clear()  # cold: nothing kept from an earlier read
    with probe(monkeypatch) as found:
        response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    return found, response.content.decode()


# --- The explanation over the period it explains ---------------------------------------------


def test_a_closed_periods_sittings_and_games_are_not_in_the_open_periods_why(owner, owner_client):
    group = new_group(owner, "Thứ Hai")
    _add_weeks(group, owner, 0, 6)
    an, binh = group_player(group, "An"), group_player(group, "Bình")
    through = MONDAY + datetime.timedelta(weeks=3)  # the first four weeks closed
    services.period_close(group=group, user=owner, through=through)
    closed = list(Sitting.objects.filter(group=group, date__lte=through))
    open_ = list(Sitting.objects.filter(group=group, date__gt=through))
    assert len(closed) == 4 and len(open_) == 2
    why = explained(group, binh, an).why
    ledger = GroupLedger.load(group)
    assert {line.sitting_id for line in why.sittings} <= {s.pk for s in open_}
    assert why.opening == (ledger.opening[binh.pk], ledger.opening[an.pk]) != (0, 0)
    # The opening balance carried in and the open period's lines add up to the balances.
    assert why.older == 0 and why.before == why.opening
    assert why.payer_balance == why.opening[0] + sum(line.payer_total for line in why.sittings)
    page = owner_client.get(_why_url(group, binh, an), headers={"HX-Request": "true"}).text
    assert "Mang sang" in page
    for sitting in closed:
        assert f"/s/{sitting.pk}/" not in page
        # A closed sitting's games are not the explanation's: not even on request.
        assert owner_client.get(_games_url(group, binh, an, sitting)).status_code == 404
    met = [line for line in why.sittings if line.met]
    assert met
    sitting = Sitting.objects.get(pk=met[0].sitting_id)
    opened = owner_client.get(_games_url(group, binh, an, sitting), headers={"HX-Request": "true"})
    assert opened.status_code == 200 and f"/s/{sitting.pk}/g/1/#revision-1" in opened.text


def test_older_lines_are_summed_up_and_shown_on_request(owner, owner_client, monkeypatch):
    group = new_group(owner, "Thứ Hai")
    _add_weeks(group, owner, 0, 12)  # four settlements too (weeks 0, 3, 6, 9)
    an, chi = group_player(group, "An"), group_player(group, "Chi")
    whole = explain(group, chi, an, shown=None)
    latest = explain(group, chi, an, shown=3)
    assert whole.older == 0 and len(whole.sittings) == 12
    assert latest.sittings == whole.sittings[-3:]
    assert latest.settlements == whole.settlements[-3:]
    assert latest.older_sittings == 9
    assert latest.older_settlements == len(whole.settlements) - len(latest.settlements)
    # What is not shown is one row: the balances before the first line shown.
    paid = explained(group, chi, an, shown=3).paid
    assert latest.before == (
        latest.payer_balance
        - sum(line.payer_total for line in latest.sittings)
        - sum(to_payer or 0 for _st, to_payer, _to_payee in paid),
        latest.payee_balance
        - sum(line.payee_total for line in latest.sittings)
        - sum(to_payee or 0 for _st, _to_payer, to_payee in paid),
    )
    # Each line's figure between the two is what its games, opened, add up to.
    for line in whole.sittings:
        sitting = Sitting.objects.get(pk=line.sitting_id)
        games = pair_games(sitting, chi, an, 5)
        assert line.between == sum(g.amount for g in games.games)
    url = _why_url(group, chi, an)
    page = owner_client.get(url).text
    assert "dòng cũ hơn" not in page  # 12 sittings and 4 payments: under a page's 20
    monkeypatch.setattr(group_views, "WHY_SHOWN", 5)
    page = owner_client.get(url).text
    assert "dòng cũ hơn" in page and f"{url}?lines=10" in page
    assert len(SITTING_LINE.findall(page)) == 5
    more = owner_client.get(f"{url}?lines=10").text
    assert len(SITTING_LINE.findall(more)) == 10 and f"{url}?lines=15" in more
    owner_client.cookies["django_language"] = "en"
    english = owner_client.get(url + "?lines=5").text
    assert "older lines" in english and "Game by game" in english
    games = re.search(r'hx-get="(/groups/\d+/why/\d+/\d+/s/\d+/)"', english).group(1)
    alone = owner_client.get(games).text
    assert "Games between Chi and An at" in alone


# --- Rows read as the sittings grow ----------------------------------------------------------


def test_the_why_and_a_players_year_read_about_the_same_rows_at_3_and_30_sittings(
    owner, owner_client, monkeypatch
):
    monkeypatch.setattr(group_views, "WHY_SHOWN", 5)
    group = new_group(owner, "Thứ Hai")
    _add_weeks(group, owner, 0, 3)
    an, binh = group_player(group, "An"), group_player(group, "Bình")

    def pages() -> dict[str, tuple[str, dict[str, str]]]:
        # The latest night Bình paid An (An went out first): the same game at 3 and at 30.
        latest = Sitting.objects.filter(group=group, flows__payer=binh, flows__payee=an).latest(
            "date", "id"
        )
        fragment = {"HX-Request": "true"}
        return {
            "why": (_why_url(group, binh, an), fragment),
            "why page": (_why_url(group, binh, an), {}),
            "games": (_games_url(group, binh, an, latest), fragment),
            "year": (
                reverse("group_player_year", args=[group.pk, an.pk]) + f"?year={MONDAY.year}",
                {},
            ),
        }

    small = {
        name: _read(owner_client, monkeypatch, url, **headers)[0]
        for name, (url, headers) in pages().items()
    }
    _add_weeks(group, owner, 3, 30)
    large = {
        name: _read(owner_client, monkeypatch, url, **headers)[0]
        for name, (url, headers) in pages().items()
    }
    for name in ("why", "why page", "year"):
        # No game, seat or payment row: the nights' stored totals and flows (counted in
        # ``total`` below) stand for them.
        assert _games_read(small[name].rows) == _games_read(large[name].rows) == Counter(), (
            name,
            large[name].rows,
        )
    for name in ("why", "why page"):
        # Every sitting would be 27 sittings × 2 players and 2 flows more rows.
        assert large[name].total <= small[name].total + 12, (
            name,
            small[name].total,
            large[name].total,
        )
    # One sitting's games read that sitting's payments between the two, whatever came before.
    assert large["games"].rows == small["games"].rows
    assert large["games"].total == small["games"].total
    # A year shows each of its nights: one row each, none of their games.
    assert large["year"].total <= small["year"].total + 27 + 5


def test_the_probe_sees_the_old_why_reading_every_payment(owner, monkeypatch):
    """What the probe would see of a read of the pair's payments over the group."""
    group = new_group(owner, "Thứ Ba")
    _add_weeks(group, owner, 0, 3)
    from scoring.models import Payment

    an, binh = group_player(group, "An"), group_player(group, "Bình")
    with probe(monkeypatch) as found:
        rows = list(Payment.objects.filter(game__sitting__group=group, payer__in=[an, binh]))
    assert found.rows["scoring_payment"] == len(rows) > 0


def test_the_group_exports_read_stored_totals_not_games(owner, monkeypatch):
    """``export_group``'s JSON and CSV are the whole history, one row per sitting and player
    and per settlement: none from the games, seats and payments."""
    group = new_group(owner, "Thứ Tư")
    _add_weeks(group, owner, 0, 6)
    with probe(monkeypatch) as found:
        data = export_dict(group)
        rows = statement_csv_rows(group)
    assert len(data["sittings"]) == 6 and data["stats"]["flows"] and rows
    assert _games_read(found.rows) == Counter(), found.rows


def _games_read(rows: Counter[str]) -> Counter[str]:
    """The rows of the games' own tables (games, seats, payments) among those a probe saw."""
    return Counter({table: n for table, n in rows.items() if table in HISTORY and n})
