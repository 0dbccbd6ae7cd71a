"""``bench/bench_growth.py``'s verdict and its machinery, at a tiny scale: a page that grows
past its target fails the run, and every page it measures answers and is measured."""

from __future__ import annotations

import pytest

from bench import bench_growth
from bench.bench_growth import GROWING, PAGES, VERIFY, Figure, misses, report


def _figures(**changes: dict[str, Figure]) -> dict[int, dict[str, Figure]]:
    flat = {page: Figure(100.0, 50.0, 20_000) for page in PAGES}
    flat[VERIFY] = Figure(400.0, None, None)
    return {5: dict(flat), 50: dict(flat), 250: {**flat, **changes.get("at_250", {})}}


def test_pages_that_stay_flat_pass():
    assert misses(_figures()) == []


@pytest.mark.parametrize(
    ("figure", "what"),
    [
        (Figure(100.0, 76.0, 20_000), "warm 1.52×"),
        (Figure(201.0, 50.0, 20_000), "cold 2.01×"),
        (Figure(100.0, 50.0, 31_000), "HTML 1.55×"),
    ],
)
@pytest.mark.parametrize("page", GROWING)
def test_a_page_growing_past_its_target_at_250_sittings_fails(page, figure, what):
    found = misses(_figures(at_250={page: figure}))
    assert len(found) == 1 and found[0].startswith(f"{page} at 250 sittings: {what}")


@pytest.mark.parametrize("page", GROWING)
def test_html_is_judged_against_the_full_page_at_50_sittings(page):
    """A page of 5 sittings shows fewer than its lists hold: growing up to 50 sittings is
    filling the page; past 50, more than 1.1× (its chart aside) is showing history."""
    figures = _figures(at_250={page: Figure(100.0, 50.0, 49_000)})
    figures[50] = {**figures[50], page: Figure(100.0, 50.0, 45_000)}  # 2.25× the 5-sitting page
    assert misses(figures) == []  # full at 50, 1.09× past it
    figures[250] = {**figures[250], page: Figure(100.0, 50.0, 50_000)}
    found = misses(figures)
    assert found == [f"{page} at 250 sittings: HTML 1.11× the 50-sitting figure (target ≤ 1.1×)"]
    assert any("1.11" in line for line in report(figures, "CPU time"))


@pytest.mark.parametrize("page", GROWING)
def test_the_chart_is_judged_by_its_points_not_its_bytes(page):
    """A chart of 12 points at 50 sittings and 20 at 250 is within its bound (24): the
    rest of the page is what must stop growing; a chart past 24 points fails."""
    figures = _figures()
    figures[50] = {**figures[50], page: Figure(100.0, 50.0, 26_000, chart=6_000, points=12)}
    grown = Figure(100.0, 50.0, 31_000, chart=10_000, points=20)  # 1.19× whole, 1.05× bare
    figures[250] = {**figures[250], page: grown}
    assert misses(figures) == []
    too_many = Figure(100.0, 50.0, 31_000, chart=10_000, points=25)
    figures[250] = {**figures[250], page: too_many}
    assert misses(figures) == [f"{page} at 250 sittings: its chart has 25 points (at most 24)"]


def test_a_chart_is_found_in_a_page_and_its_points_counted():
    page = (
        '<p>x</p><div class="chart"><svg><polyline points="0,1 2,3 4,5"/>'
        '<polyline points="0,1 2,3"/></svg></div><p>y</p>'
    )
    chart, points = bench_growth.chart_of(page)
    assert points == 3 and chart == len(page.encode()) - len("<p>x</p><p>y</p>")


def test_without_a_full_page_html_is_shown_not_judged():
    flat = {page: Figure(100.0, 50.0, 20_000) for page in PAGES}
    flat[VERIFY] = Figure(400.0, None, None)
    grown = {page: Figure(100.0, 50.0, 90_000) for page in PAGES}
    grown[VERIFY] = flat[VERIFY]
    assert misses({5: flat, 40: dict(flat), 120: grown}) == []
    assert bench_growth.full_size([5, 40, 120]) == 120


def test_growth_under_100_sittings_is_shown_not_judged():
    figures = _figures()
    figures[50] = {**figures[50], "statement": Figure(900.0, 900.0, 90_000)}
    assert misses(figures) == []
    assert any("9.00" in line for line in report(figures, "CPU time"))


def test_the_absolute_targets_of_what_if_and_verify():
    slow = {
        "what-if, all time": Figure(1200.0, 150.0, 20_000),
        VERIFY: Figure(5100.0, None, None),
    }
    found = misses(_figures(at_250=slow))
    assert [line.split(":")[0] for line in found] == [
        "what-if, all time at 250 sittings",
        "what-if, all time at 250 sittings",
        "verify_ledger --group at 250 sittings",
    ]
    # Growth of what-if is not its target: its figure at 250 is (here under it).
    fast = {"what-if, all time": Figure(900.0, 90.0, 90_000)}
    assert misses(_figures(at_250=fast)) == []


@pytest.mark.django_db
def test_at_a_tiny_scale_every_page_is_measured_cold_and_warm():
    owner, groups = bench_growth.build([1, 2], games=3)
    figures = bench_growth.measure(groups, owner, rounds=1, judge_cpu=True)
    assert sorted(figures) == [1, 2]
    for size in (1, 2):
        for page in PAGES:
            got = figures[size][page]
            assert got.cold_ms > 0 and got.warm_ms is not None and got.warm_ms > 0
            assert got.html is not None and got.html > 1000
        assert figures[size][VERIFY].cold_ms > 0
    # Both groups verify: verify_ledger printed their fingerprints (else measure stops).
    assert len(report(figures, "CPU time")) == 1 + 2 * (len(PAGES) + 1)
