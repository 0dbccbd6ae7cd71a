"""Đền by a cóng player, in Chromium on a phone: with three players cóng, the record form offers
each of them for đền, and saving moves the whole table's money onto the one chosen."""

from __future__ import annotations

import re

import pytest

from scoring.text.money import vnd
from tests.browser.conftest import phone_context
from tests.browser.test_evening import Evening
from tests.browser.test_phone_layout import _log_in
from tests.reliability.realserver import dbtool

pytestmark = pytest.mark.browser

STAKE = 2000


def test_the_record_form_offers_a_cong_player_for_den(server, browser, artifacts):
    seeded = dbtool(
        server.database_url, "seed", "--preset", "cuoc", "--stake", str(STAKE), "--players", "4"
    )
    context = phone_context(browser)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _log_in(page, server.url)
    e = Evening(page, server.url, artifacts)
    e.go(f"/s/{seeded['sitting']}/")

    # The "Luật" summary says what this table plays.
    page.locator("#rule-choices summary").click()
    assert "Thối trả cho người về ngay trên" in page.locator("#rule-choices").inner_text()

    # Order An, Bình, Chi, Dũng; Bình, Chi and Dũng never played a card; Chi holds 2♥.
    e.tap("place_1", "An")
    e.tap("place_2", "Bình")
    e.tap("place_3", "Chi")
    assert page.locator('#record-form input[name="place_4"][value="Dũng"]').is_checked()
    assert not page.locator('#record-form select[name="den"]').count()  # nobody cóng yet
    for index in (1, 2, 3):
        e.tap_on(f"cong_{index}")
        e.cards(index, 13)
    e.tap("heo_2", "2H")

    den = page.locator('#record-form select[name="den"]')
    offered = [o for o in den.locator("option").all_inner_texts() if o.strip()]
    assert offered == ["Không ai đền", "Bình (cóng)", "Chi (cóng)", "Dũng (cóng)"]
    e.choose("den", "Bình")
    preview = e.preview()
    assert "Bình → An" in preview
    assert not re.search(r"(Chi|Dũng) →", preview)  # the others pay nothing
    assert f"An {vnd(7 * STAKE)}" in preview  # 3 cóng × 2 cược + 2♥ (1 cược)
    e.shot("three-cong-den", screen=True)

    assert e.save() == 1
    totals = e.totals()
    assert totals == {
        "An": vnd(14000),
        "Bình": vnd(-14000),
        "Chi": vnd(0),
        "Dũng": vnd(0),
    }
    e.shot("three-cong-den-saved")

    # The rule editor, where a table sets when đền applies (looked at, and it fits a phone).
    e.go("/rules/new/?from=cuoc")
    assert page.locator('input[name="den_when"][value="all_cong"]').is_checked()
    e.shot("rule-editor")
    legends = ("Thối và chặt", "Cóng và đền", "Tới trắng", "Đếm lá", "Về bằng heo")
    for n, legend in enumerate(legends):
        fieldset = page.locator("form > fieldset", has=page.locator("legend", has_text=legend))
        fieldset.screenshot(path=artifacts / f"rule-editor-{n}.png")
    assert e.too_wide == []
    assert errors == []
    context.close()
