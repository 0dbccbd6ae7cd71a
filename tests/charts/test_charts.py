import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.ledger.charts import bar_chart, line_chart
from scoring.text.money import vnd, vnd_short

SVG = "{http://www.w3.org/2000/svg}"
NBSP = "\u00a0"
MINUS = "\u2212"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def running(n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    total, out = 0, []
    for _ in range(n):
        total += rng.choice([-40_000, -20_000, -10_000, 10_000, 20_000, 30_000])
        out.append(total)
    return out


# --- money formatting ------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (0, "0 ₫"),
        (500, "500 ₫"),
        (245_000, "245.000 ₫"),
        (-75_000, "−75.000 ₫"),
        (1_000_000_000, "1.000.000.000 ₫"),
        (-1_234_567, "−1.234.567 ₫"),
        (10**20 + 1, "100.000.000.000.000.000.001 ₫"),
    ],
)
def test_it_formats_dong_with_dots_a_real_minus_and_a_non_breaking_space(amount, expected):
    assert vnd(amount) == expected.replace(" ", NBSP)


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (0, "0"),
        (500, "500"),
        (-500, "−500"),
        (1_000, "1k"),
        (1_500, "1,5k"),
        (245_000, "245k"),
        (-75_000, "−75k"),
        (999_400, "999,4k"),
        (999_999, "1tr"),
        (1_000_000, "1tr"),
        (1_200_000, "1,2tr"),
        (-1_200_000, "−1,2tr"),
        (1_250_000, "1,3tr"),
        (-1_250_000, "−1,3tr"),
        (12_345_678, "12,3tr"),
        (999_960_000, "1tỷ"),
        (1_000_000_000, "1tỷ"),
        (2_500_000_000, "2,5tỷ"),
        (1_234_000_000_000, "1.234tỷ"),
        (10**18 + 1, "1.000.000.000tỷ"),
    ],
)
def test_it_formats_money_compactly(amount, expected):
    assert vnd_short(amount) == expected


@given(st.integers(min_value=-(10**30), max_value=10**30))
def test_format_vnd_is_exact_for_any_integer(amount):
    text = vnd(amount)
    assert text.endswith(NBSP + "₫")
    digits = text[: -len(NBSP + "₫")].replace(".", "")
    assert int(digits.replace(MINUS, "-")) == amount


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_format_vnd_short_is_symmetric_and_short(amount):
    text = vnd_short(amount)
    if amount > 0:
        assert vnd_short(-amount) == MINUS + text
    elif amount < 0:
        assert vnd_short(-amount) == text.removeprefix(MINUS)
    else:
        assert text == "0"
    assert len(text) <= 8  # up to a thousand tỷ: fits an axis label


# --- line chart ------------------------------------------------------------


def test_it_draws_a_titled_accessible_line_chart():
    svg = line_chart({"An": [245_000, 100_000], "Bình": [-245_000, -100_000]}, title="Số dư")
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.get("aria-label") == "Số dư"
    assert root.find(f"{SVG}title").text == "Số dư"
    assert root.get("viewBox", "").startswith("0 0 360 ")
    assert root.get("width") is None
    assert "line-chart" in root.get("class").split()
    assert "<script" not in svg
    assert len(root.findall(f".//{SVG}polyline")) == 2
    assert "100k" in texts(root)
    assert "−100k" in texts(root)


def test_it_emphasises_the_zero_line():
    root = parse(line_chart({"An": [50_000, 80_000]}, title="t"))
    (zero,) = by_class(root, "chart-zero")
    assert float(zero.get("stroke-width")) > 1
    # Zero is on the axis even when everybody is winning.
    assert "0" in texts(root)


def test_it_shows_the_empty_text_when_there_are_no_games():
    for series in ({}, {"An": [], "Bình": []}):
        root = parse(line_chart(series, title="Số dư", empty_text="Chưa chơi ván nào"))
        assert "Chưa chơi ván nào" in texts(root)
        assert root.get("role") == "img"
        assert not root.findall(f".//{SVG}polyline")


def test_it_draws_one_game_as_dots():
    root = parse(line_chart({"An": [25_000], "Bình": [-25_000]}, title="t"))
    assert not root.findall(f".//{SVG}polyline")
    assert len(root.findall(f".//{SVG}circle")) == 2
    assert "1" in texts(root)


def test_it_keeps_a_thousand_games_of_eight_players_small():
    series = {f"Người chơi {k}": running(1000, k) for k in range(8)}
    svg = line_chart(series, title="Cả đêm")
    root = parse(svg)
    assert len(svg.encode()) < 30_000
    lines = root.findall(f".//{SVG}polyline")
    assert len(lines) == 8
    assert all(len(line.get("points").split()) < 200 for line in lines)
    assert not root.findall(f".//{SVG}circle")
    assert "1000" in texts(root)


def test_downsampling_keeps_a_spike():
    values = [0] * 1000
    values[537] = 5_000_000
    root = parse(line_chart({"An": values}, title="t"))
    (line,) = root.findall(f".//{SVG}polyline")
    ys = [float(p.split(",")[1]) for p in line.get("points").split()]
    (zero,) = by_class(root, "chart-zero")
    assert min(ys) < float(zero.get("y1")) - 100


def test_the_legend_gives_each_players_last_value():
    root = parse(line_chart({"An": [10_000, 245_000], "Bình": [0, -1_200_000]}, title="t"))
    legend = " ".join(texts(by_class(root, "chart-legend")[0]))
    assert "An" in legend
    assert "245k" in legend
    assert "Bình" in legend
    assert "−1,2tr" in legend


def test_it_writes_plain_numbers_when_not_money():
    root = parse(line_chart({"An": [3, 12], "Bình": [-3, -12]}, title="Điểm", money=False))
    assert "12" in texts(root)
    assert "−12" in texts(root)
    assert not any(t.endswith("k") for t in texts(root))


def test_it_uses_given_x_labels():
    root = parse(line_chart({"An": [1, 2, 3]}, x_labels=["20:00", "20:10", "20:25"], title="t"))
    assert {"20:00", "20:10", "20:25"} <= set(texts(root))


def test_it_refuses_series_of_different_lengths():
    with pytest.raises(ValueError, match="same number"):
        line_chart({"An": [1, 2], "Bình": [1]}, title="t")
    with pytest.raises(ValueError, match="x labels"):
        line_chart({"An": [1, 2]}, x_labels=["1"], title="t")


def test_it_draws_all_zero_series():
    root = parse(line_chart({"An": [0, 0, 0]}, title="t"))
    assert len(root.findall(f".//{SVG}polyline")) == 1


def test_it_gives_up_to_eight_players_different_colours():
    root = parse(line_chart({str(k): [k, -k] for k in range(8)}, title="t"))
    colours = {line.get("stroke") for line in root.findall(f".//{SVG}polyline")}
    assert len(colours) == 8


HOSTILE = "<script>alert(\"x\")</script> & 'Tú'"


def test_it_escapes_player_names_titles_and_labels():
    svg = line_chart(
        {HOSTILE: [1_000, 2_000], "An\x01\x1b": [0, 1]},
        x_labels=["<b>1</b>", "2"],
        title="<img src=x onerror=alert(1)>",
        empty_text="<x>",
    )
    assert "<script" not in svg
    assert "<img" not in svg
    assert "<b>" not in svg
    root = parse(svg)
    assert root.find(f"{SVG}title").text == "<img src=x onerror=alert(1)>"
    names = {t.text for t in root.iter(f"{SVG}title")}
    assert HOSTILE in names
    assert "An" in names  # control characters XML cannot carry are dropped


def test_it_escapes_the_empty_text():
    svg = line_chart({}, title="t", empty_text="<script>x</script>")
    assert "<script" not in svg
    assert "<script>x</script>" in texts(parse(svg))


def test_it_shortens_long_names_in_the_legend_but_keeps_them_in_the_title():
    name = "Nguyễn Văn Thành Long Đại Ca"
    root = parse(line_chart({name: [1, 2], "An": [2, 1]}, title="t"))
    legend = texts(by_class(root, "chart-legend")[0])
    assert name not in legend
    assert any(t.endswith("…") and name.startswith(t[:-1]) for t in legend)
    assert name in {t.text for t in root.iter(f"{SVG}title")}


# --- bar chart -------------------------------------------------------------


def test_it_draws_negative_bars_left_of_zero_and_positive_to_the_right():
    root = parse(bar_chart({"An": 245_000, "Bình": -75_000, "Chi": 0}, title="Kết quả", money=True))
    (zero,) = by_class(root, "chart-zero")
    x0 = float(zero.get("x1"))
    (pos,) = by_class(root, "chart-bar-pos")
    (neg,) = by_class(root, "chart-bar-neg")
    assert float(pos.get("x")) == pytest.approx(x0)
    assert float(pos.get("width")) > 0
    assert float(neg.get("x")) + float(neg.get("width")) == pytest.approx(x0)
    assert len(by_class(root, "chart-bar")) == 2  # no bar for zero
    labels = texts(root)
    assert f"245.000{NBSP}₫" in labels
    assert f"−75.000{NBSP}₫" in labels
    assert root.get("role") == "img"
    assert root.get("aria-label") == "Kết quả"


def test_bars_are_proportional():
    root = parse(bar_chart({"An": 30, "Bình": 10}, title="t"))
    widths = sorted(float(r.get("width")) for r in by_class(root, "chart-bar"))
    # Coordinates are written with one decimal.
    assert widths[1] == pytest.approx(3 * widths[0], abs=0.3)


def test_a_tiny_bar_stays_visible():
    root = parse(bar_chart({"An": 1_000_000, "Bình": -1}, title="t"))
    (neg,) = by_class(root, "chart-bar-neg")
    assert float(neg.get("width")) >= 2


def test_it_draws_a_bar_chart_of_zeros_without_bars():
    root = parse(bar_chart({"An": 0, "Bình": 0}, title="t"))
    assert not by_class(root, "chart-bar")
    assert "0" in texts(root)


def test_it_shows_the_empty_text_for_no_bars():
    root = parse(bar_chart({}, title="t", empty_text="Chưa có ai"))
    assert "Chưa có ai" in texts(root)


def test_it_escapes_bar_names():
    svg = bar_chart({HOSTILE: 5, "An": -3}, title="<t>")
    assert "<script" not in svg
    root = parse(svg)
    assert HOSTILE in {t.text for t in root.iter(f"{SVG}title")}


def test_charts_use_no_script_or_external_resource():
    for svg in (
        line_chart({"An": running(50, 1), "Bình": running(50, 2)}, title="t"),
        bar_chart({"An": 1, "Bình": -1}, title="t"),
    ):
        lowered = svg.lower()
        for needle in ("<script", "href", "url(", "<image", "<foreignobject", " on"):
            assert needle not in lowered
