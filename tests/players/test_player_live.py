"""A player's own page follows the table: its board polls with the ETag it was rendered with
(the group's ledger version), a poll is a 304 while nothing moved, and a save, a payment or a
"đã nhận" anywhere in the group gives the next poll the new board. The page shows tonight's
result and the player's own latest games."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from scoring import services
from scoring.ledger.player_page import link_version
from scoring.ledger.standing import GroupLedger, ledger_version
from tests.factories import group_player, new_group, open_in_group, settle, won

pytestmark = pytest.mark.django_db

POLL = {"HX-Request": "true"}


@pytest.fixture
def night(owner):
    group = new_group(owner, "Nhóm Tết")
    sitting = open_in_group(group, owner, ["An", "Bình", "Chi", "Dũng"], day=timezone.localdate())
    won(sitting, owner, "Bình", {"An": 6})
    binh = group_player(group, "Bình")
    token = services.player_link(player=binh, user=owner, action="enable")
    return group, sitting, binh, f"/p/{token}/"


def _poll(client, url, etag):
    return client.get(url, headers={**POLL, "If-None-Match": etag})


def test_the_page_carries_its_poll_and_a_quiet_poll_is_a_304(night, django_assert_max_num_queries):
    _group, _sitting, _binh, url = night
    phone = Client()
    page = phone.get(url)
    assert page.status_code == 200
    etag = page["ETag"]
    html = page.content.decode()
    assert 'id="live-board"' in html and f'hx-get="{url}"' in html and "every 2s" in html
    assert etag.strip('"') in html  # the tag the poll sends back
    assert "js/live.js" in html and page["Vary"].count("HX-Request") == 1
    with django_assert_max_num_queries(1):
        quiet = _poll(phone, url, etag)
    assert quiet.status_code == 304 and quiet.content == b""
    assert quiet["ETag"] == etag and "no-cache" in quiet["Cache-Control"]
    assert quiet["X-Robots-Tag"] == "noindex, nofollow"
    # The same tag on another player's link is not this page's.
    an = services.player_link(
        player=group_player(night[0], "An"), user=night[1].owner, action="enable"
    )
    assert _poll(phone, f"/p/{an}/", etag).status_code == 200


def test_a_save_a_payment_and_a_confirmation_each_give_the_next_poll_the_new_board(night, owner):
    _group, sitting, _binh, url = night
    phone = Client()
    etag = phone.get(url)["ETag"]
    html = phone.get(url).content.decode()
    assert 'id="tonight-net"' in html and "+18.000" not in html

    won(sitting, owner, "Bình", {"Chi": 3})
    fresh = _poll(phone, url, etag)
    assert fresh.status_code == 200 and fresh["ETag"] != etag
    board = fresh.content.decode()
    assert board.lstrip().startswith('<div id="live-board"') and "<html" not in board
    # Tonight: 6 + 3 cards at 1 000 ₫ a card (the factory's stake), and each game of Bình's.
    tonight = board[board.index('id="tonight-net"') : board.index('id="tonight-tables"')]
    assert "9.000" in tonight
    latest = board[board.index('id="latest-games"') :]
    assert latest.index("Ván 2") < latest.index("Ván 1")
    etag = fresh["ETag"]
    assert _poll(phone, url, etag).status_code == 304

    payment = settle(sitting, owner, "An", "Bình", 6000)
    fresh = _poll(phone, url, etag)
    assert fresh.status_code == 200 and f"settlement-{payment.pk}" in fresh.content.decode()
    etag = fresh["ETag"]

    services.settlement_confirm(settlement=payment, user=owner, by_payee=False)
    fresh = _poll(phone, url, etag)
    assert fresh.status_code == 200
    assert f'id="settlement-{payment.pk}"' in fresh.content.decode()
    assert _poll(phone, url, fresh["ETag"]).status_code == 304


def test_tonight_counts_only_the_players_tables_of_today_and_yesterday(night, owner):
    group, sitting, _binh, url = night
    old = open_in_group(
        group, owner, ["Bình", "Chi"], day=timezone.localdate() - datetime.timedelta(days=3)
    )
    won(old, owner, "Bình", {"Chi": 13})
    html = Client().get(url).content.decode()
    assert f'id="tonight-{sitting.pk}"' in html and f'id="tonight-{old.pk}"' not in html
    tonight = html[html.index('id="tonight-net"') : html.index('id="group-balance"')]
    # The group's balance counts both nights; tonight only tonight's table.
    whole = GroupLedger.load(group).balances[_binh.pk]
    assert whole > 6000
    assert tonight.split("</div>")[0].endswith(">6.000\xa0₫")
    balance = html[html.index('id="group-balance"') :].split("</div>")[0]
    assert balance.endswith(f">{whole:,}\xa0₫".replace(",", "."))


def test_a_link_turned_off_while_open_answers_the_poll_with_410(night, owner):
    _group, _sitting, binh, url = night
    phone = Client()
    etag = phone.get(url)["ETag"]
    services.player_link(player=binh, user=owner, action="revoke")
    assert _poll(phone, url, etag).status_code == 410


def test_the_page_and_its_poll_answer_in_english(night, owner):
    _group, sitting, _binh, url = night
    phone = Client()
    phone.cookies["django_language"] = "en"
    page = phone.get(url)
    assert "Your latest games" in page.content.decode()
    # The same version in the other language is another tag.
    vi = Client().get(url)["ETag"]
    assert page["ETag"] != vi
    won(sitting, owner, "Bình", {"Chi": 2})
    assert "Your latest games" in _poll(phone, url, page["ETag"]).content.decode()


def test_the_polls_one_query_reads_the_groups_ledger_version(night, owner):
    group, sitting, binh, url = night
    token = url.split("/")[2]
    assert link_version(token) == (binh.pk, ledger_version(group))
    won(sitting, owner, "An", {"Bình": 2})
    open_in_group(group, owner, ["Bình", "Chi"], day=timezone.localdate())  # a second table
    assert link_version(token) == (binh.pk, ledger_version(group))
    services.player_link(player=binh, user=owner, action="revoke")
    assert link_version(token) is None
