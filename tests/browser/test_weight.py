"""What a phone downloads to open a sitting page: nothing from any other host, and a size
printed for the record (``bench/weight.py`` measures production mode; see
docs/reliability.md). The size guard is generous on purpose: it catches a vendored library
or an image pulled in by mistake, not a few hundred bytes of markup."""

import pytest

from bench.weight import measure, record_evening
from tests.reliability.realserver import dbtool

pytestmark = pytest.mark.browser

GUARD_BYTES = 400 * 1024


def test_the_sitting_page_loads_nothing_from_other_hosts(server, browser):
    seeded = dbtool(server.database_url, "seed", "--live")
    phone = record_evening(server, seeded["sitting"], seeded["members"], 12)
    cold, warm = measure(
        browser, server.url, f"/s/{seeded['sitting']}/", phone.cookies["sessionid"]
    )
    print(
        f"\nsitting page, 12 games, DEBUG server: {cold.requests} requests, "
        f"{cold.wire_bytes / 1024:.1f} KiB cold, {warm.wire_bytes / 1024:.1f} KiB warm\n"
        + cold.table()
    )
    assert cold.other_hosts == [] and warm.other_hosts == []
    assert cold.responses, "the page was measured"
    assert all(r["status"] == 200 for r in cold.responses)
    assert cold.wire_bytes < GUARD_BYTES


def test_the_live_page_loads_nothing_from_other_hosts(server, browser):
    seeded = dbtool(server.database_url, "seed", "--live")
    phone = record_evening(server, seeded["sitting"], seeded["members"], 12)
    cold, _warm = measure(
        browser, server.url, f"/live/{seeded['live_token']}/", phone.cookies["sessionid"]
    )
    print(
        f"\nlive page: {cold.requests} requests, {cold.wire_bytes / 1024:.1f} KiB\n" + cold.table()
    )
    assert cold.other_hosts == []
    assert cold.wire_bytes < GUARD_BYTES
