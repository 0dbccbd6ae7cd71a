import json
import re
from datetime import date
from html import unescape

import pytest
from django.contrib.auth import get_user_model

from scoring import engine, services
from scoring.models import Game
from tests.factories import SECOND, live_url, open_sitting, record

pytestmark = pytest.mark.django_db


def test_it_shows_totals_games_explanations_leader_and_settle_up(client, live_sitting):
    html = client.get(live_url(live_sitting)).content.decode()
    assert "Tối thứ Bảy" in html
    # Totals from the worked example at 5 000 ₫ a lá.
    for amount in ("245.000", "−75.000", "−40.000", "−130.000"):
        assert amount in html
    assert "Ván 1" in html
    game = Game.objects.get(sitting=live_sitting)
    for payment in game.payments.all():
        assert engine.explain(payment.detail_code, payment.detail_params) in html
    assert "Ván tới: Bình đi trước" in html
    # The settle-up: three losers each pay Bình.
    assert html.count("→ <bdi>Bình</bdi></strong>") == 3
    assert "Diễn biến" in html and "<svg" in html


def test_it_reveals_nothing_else(client, owner, live_sitting):
    helper = get_user_model().objects.create_user("ban_than", password="mat-khau-dai-456")
    services.sitting_share(sitting=live_sitting, user=owner, invitee=helper)
    other = open_sitting(
        owner,
        name="Bàn bí mật khác",
        day=date(2025, 3, 2),
        stake=1000,
        players=["Khách Lạ", "Người Khác"],
    )
    game = record(live_sitting, owner, SECOND)
    services.game_void(game=game, user=owner, reason="ghi nhầm lý do riêng")
    html = client.get(live_url(live_sitting)).content.decode()
    assert "Ván 2" in html and "đã huỷ" in html
    for secret in ("chu_ban", "ban_than", "Bàn bí mật khác", "Khách Lạ", "ghi nhầm lý do riêng"):
        assert secret not in html
    # No way into the scorekeeper's pages: no sitting, game, history or player URL.
    for url in (f"/s/{live_sitting.pk}/", f"/s/{other.pk}/", "/players/", "/history/", "/edit/"):
        assert url not in html
    # Nothing to submit but the language switch every page has.
    assert html.count("<form") == 1 and 'action="/i18n/setlang/"' in html


def test_it_needs_no_account_and_is_kept_out_of_search_engines(client, live_sitting):
    response = client.get(live_url(live_sitting))
    assert response.status_code == 200
    assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert "no-store" in response.headers["Cache-Control"]


def test_it_answers_404_to_a_wrong_token(client, live_sitting):
    assert client.get(f"/live/{'x' * 43}/").status_code == 404
    assert client.get(f"/live/{live_sitting.live_token[:-1]}/").status_code == 404


def test_it_answers_404_once_the_link_is_revoked(client, owner, live_sitting):
    url = live_url(live_sitting)
    services.sitting_live_link(sitting=live_sitting, user=owner, action="revoke")
    assert client.get(url).status_code == 404
    assert client.get(url, headers={"HX-Request": "true"}).status_code == 404


def test_it_answers_404_to_the_old_link_after_a_new_one_is_made(client, owner, live_sitting):
    old = live_url(live_sitting)
    services.sitting_live_link(sitting=live_sitting, user=owner, action="regenerate")
    assert client.get(old).status_code == 404
    assert client.get(live_url(live_sitting)).status_code == 200


def test_it_refuses_other_methods(client, live_sitting):
    assert client.post(live_url(live_sitting)).status_code == 405
    assert client.delete(live_url(live_sitting)).status_code == 405


def test_it_renders_the_board_alone_for_htmx(client, live_sitting):
    response = client.get(live_url(live_sitting), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="live-board"')
    assert "<html" not in html
    assert "Ván 1" in html


def test_it_polls_every_two_seconds_with_the_tag_it_was_rendered_with(client, live_sitting):
    html = client.get(live_url(live_sitting)).content.decode()
    poll = client.get(live_url(live_sitting), headers={"HX-Request": "true"})
    assert 'hx-trigger="every 2s"' in html
    headers = re.search(r'id="live-board"[^>]*hx-headers="([^"]+)"', html).group(1)
    assert json.loads(unescape(headers)) == {"If-None-Match": poll.headers["ETag"]}


def test_it_loads_its_script_with_the_nonce(client, live_sitting):
    response = client.get(live_url(live_sitting))
    nonce = re.search(r"'nonce-([^']+)'", response.headers["Content-Security-Policy"]).group(1)
    assert f'js/live.js" defer nonce="{nonce}"' in response.content.decode()


def test_it_shows_every_member_even_before_the_first_game(client, owner, sitting):
    services.sitting_live_link(sitting=sitting, user=owner, action="enable")
    html = client.get(live_url(sitting)).content.decode()
    assert "Chưa có ván nào" in html
    assert "Không ai nợ ai" in html
    for name in ("An", "Bình", "Chi", "Dũng"):
        assert f'<div class="name">{name}</div>' in html


def test_it_reloads_itself_where_javascript_is_off(client, live_sitting):
    html = client.get(live_url(live_sitting)).content.decode()
    assert '<noscript><meta http-equiv="refresh" content="10"></noscript>' in html
