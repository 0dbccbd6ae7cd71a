"""Server-rendered SVG charts.

Pure Python (no Django, no JavaScript, nothing fetched): a view renders the
string into the page as it is. The drawing is sized for a phone held upright
(a 360-unit-wide ``viewBox``, 11-12 unit text, so one unit is about one CSS
pixel there) and has no width or height, so CSS scales it up on a laptop.

Colours are presentation attributes, which any stylesheet rule overrides:
text and rules use ``currentColor`` so they follow the page (and a dark
theme); each player has a class ``chart-series-N`` and a colour from a small
fixed palette picked to stay apart for colour-blind readers.

Every string that comes from a user (player names, labels, titles) goes
through ``_esc``: names are typed at the table and may hold anything.

Money is whole đồng, written by ``scoring.text.money``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import date
from typing import NamedTuple

from django.utils.formats import date_format

from scoring.text.money import MINUS, group, vnd, vnd_short

__all__ = ["PALETTE", "bar_chart", "line_chart"]

# Okabe-Ito without its yellow and black (invisible on white / on a dark
# theme), completed with two of Paul Tol's muted colours.
PALETTE: tuple[str, ...] = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#882255",
    "#999933",
)
_POSITIVE = "#009E73"
_NEGATIVE = "#D55E00"

WIDTH = 360
_FONT = 'font-family="system-ui, sans-serif"'

# Characters XML 1.0 forbids even escaped: one in a name would make the whole
# SVG unreadable to a strict parser.
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def date_labels(days: Sequence[date]) -> list[str]:
    """A time axis's labels in the reader's date style: day and month (02/12, 2 Dec) when
    every day is in one year, the whole date (02/12/2026, 2 Dec 2026) when they span years."""
    style = "MONTH_DAY_FORMAT" if len({day.year for day in days}) <= 1 else "SHORT_DATE_FORMAT"
    return [date_format(day, style) for day in days]


def month_labels(months: Sequence[date], style: str = "m/Y") -> list[str]:
    """A time axis of months, quarters or years (each by its first day): month and year,
    11/2025, or the year alone with ``style`` "Y"."""
    return [date_format(month, style) for month in months]


def _esc(text: str) -> str:
    return html.escape(_XML_ILLEGAL.sub("", text), quote=True)


# --- drawing helpers -------------------------------------------------------


def _num(v: float) -> str:
    """A coordinate with at most one decimal: smaller SVG, no visible loss."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _truncate(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _open_svg(height: int, kind: str, title: str, desc: str) -> list[str]:
    t = _esc(title)
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'class="chart {kind}" role="img" aria-label="{t}" {_FONT} font-size="11">',
        f"<title>{t}</title>",
        f"<desc>{_esc(desc)}</desc>" if desc else "",
    ]


def _empty_svg(kind: str, title: str, empty_text: str) -> str:
    text = (
        f'<text class="chart-empty" x="{WIDTH // 2}" y="40" text-anchor="middle" '
        f'font-size="13" fill="currentColor" opacity="0.7">{_esc(empty_text)}</text>'
    )
    return "".join([*_open_svg(72, kind, title, empty_text), text, "</svg>"])


def _nice_step(span: int, intervals: int) -> int:
    """The smallest 1, 2 or 5 × 10^k that cuts ``span`` into at most ``intervals``."""
    raw = max(1, -(-span // intervals))
    magnitude = 1
    while True:
        for m in (1, 2, 5):
            if m * magnitude >= raw:
                return m * magnitude
        magnitude *= 10


def _summary(values: Mapping[str, int], fmt: str) -> str:
    return "; ".join(f"{name}: {_fmt(v, fmt)}" for name, v in values.items())


def _fmt(v: int, fmt: str) -> str:
    if fmt == "short":
        return vnd_short(v)
    if fmt == "vnd":
        return vnd(v)
    return (MINUS if v < 0 else "") + group(abs(v))


def _downsample(values: Sequence[int], buckets: int) -> list[int]:
    """Indices to draw: first, last, and each bucket's lowest and highest point.

    Keeping the extremes (not an average) means a big swing in the middle of
    a long night still shows up in the line.
    """
    n = len(values)
    if n <= 2 * buckets + 2:
        return list(range(n))
    keep = {0, n - 1}
    for b in range(buckets):
        start = 1 + (n - 2) * b // buckets
        stop = 1 + (n - 2) * (b + 1) // buckets
        if start >= stop:
            continue
        chunk = range(start, stop)
        keep.add(min(chunk, key=values.__getitem__))
        keep.add(max(chunk, key=values.__getitem__))
    return sorted(keep)


def _x_tick_indices(n: int, *, numbered: bool) -> list[int]:
    """Which of ``n`` points get an x label, at most about six.

    Game numbers read best at round values (1, 200, 400 ... 1000), so those
    are preferred; other labels are spread evenly.
    """
    if n <= 6:
        return list(range(n))
    if not numbered:
        return sorted({round(k * (n - 1) / 5) for k in range(6)})
    step = _nice_step(n - 1, 5)
    indices = [0]
    for number in [*range(step, n + 1, step), n]:
        # Skip a label that would crowd the one before it.
        if 2 * (number - 1 - indices[-1]) >= step:
            indices.append(number - 1)
    return indices


# --- line chart ------------------------------------------------------------

_PLOT_TOP = 10
_PLOT_HEIGHT = 180
_PLOT_BOTTOM = _PLOT_TOP + _PLOT_HEIGHT
_RIGHT = 14
_BUCKETS = 90  # about one point per 1.5 units of plot width
_MARKERS_UP_TO = 30  # games; beyond that dots only clutter the line
_LEGEND_ROW = 20


def line_chart(
    series: Mapping[str, Sequence[int]],
    *,
    x_labels: Sequence[str] | None = None,
    title: str,
    money: bool = True,
    empty_text: str = "Chưa có ván nào",
) -> str:
    """One line per player (e.g. running balance after each game).

    Every series has one value per game, the same number for each player.
    ``x_labels`` names the games (default "1", "2", ...). Zero is always on
    the y axis and drawn heavier. The legend under the plot gives each
    player's last value. With no games, a small SVG says ``empty_text``.
    """
    lengths = {len(values) for values in series.values()}
    if len(lengths) > 1:
        raise ValueError("Every series needs the same number of points.")
    n = lengths.pop() if lengths else 0
    if n == 0:
        return _empty_svg("line-chart", title, empty_text)
    numbered = x_labels is None
    if x_labels is None:
        x_labels = [str(i) for i in range(1, n + 1)]
    elif len(x_labels) != n:
        raise ValueError(f"{len(x_labels)} x labels for {n} points.")
    fmt = "short" if money else "plain"
    finals = {name: values[-1] for name, values in series.items()}
    ticks = _y_ticks(series, money)
    y_labels = {t: _fmt(t, fmt) for t in ticks}
    plot = _Plot(8 + 7 * max(len(label) for label in y_labels.values()), n, ticks[0], ticks[-1])
    shown = {i: x_labels[i] for i in _x_tick_indices(n, numbered=numbered)}
    legend_top = _PLOT_BOTTOM + 30
    height = legend_top + -(-len(series) // 2) * _LEGEND_ROW + 4
    parts = _open_svg(height, "line-chart", title, _summary(finals, fmt))
    parts += _axes(plot, y_labels, shown)
    for k, (name, values) in enumerate(series.items()):
        parts += _line(plot, k, name, values)
    parts += _legend(legend_top, {name: _fmt(final, fmt) for name, final in finals.items()})
    parts.append("</svg>")
    return "".join(parts)


def _y_ticks(series: Mapping[str, Sequence[int]], money: bool) -> list[int]:
    """The y axis's values: nice steps, zero always inside."""
    lo = min(0, *(min(v) for v in series.values()))
    hi = max(0, *(max(v) for v in series.values()))
    if lo == hi:
        lo, hi = (-1_000, 1_000) if money else (-1, 1)
    step = _nice_step(hi - lo, 4)
    return list(range((lo // step) * step, -(-hi // step) * step + 1, step))


class _Plot(NamedTuple):
    """Where a line chart draws: point ``i`` of ``n`` across, value ``v`` up (``lo`` to ``hi``)."""

    left: int
    n: int
    lo: int
    hi: int

    def x(self, i: int) -> float:
        plot_w = WIDTH - self.left - _RIGHT
        return self.left + plot_w / 2 if self.n == 1 else self.left + i * plot_w / (self.n - 1)

    def y(self, v: int) -> float:
        return _PLOT_BOTTOM - (v - self.lo) * _PLOT_HEIGHT / (self.hi - self.lo)


def _axes(plot: _Plot, y_labels: Mapping[int, str], x_labels: Mapping[int, str]) -> Iterator[str]:
    """The grid, the y labels, the zero line, and the x labels (the ends anchored inwards)."""
    yield '<g class="chart-axis" fill="currentColor">'
    for t, label in y_labels.items():
        ty = _num(plot.y(t))
        if t != 0:
            yield (
                f'<line class="chart-grid" x1="{plot.left}" x2="{WIDTH - _RIGHT}" y1="{ty}" '
                f'y2="{ty}" stroke="currentColor" stroke-opacity="0.15"/>'
            )
        yield (
            f'<text x="{plot.left - 5}" y="{_num(plot.y(t) + 4)}" text-anchor="end">'
            f"{_esc(label)}</text>"
        )
    y0 = _num(plot.y(0))
    yield (
        f'<line class="chart-zero" x1="{plot.left}" x2="{WIDTH - _RIGHT}" y1="{y0}" y2="{y0}" '
        'stroke="currentColor" stroke-opacity="0.7" stroke-width="1.5"/>'
    )
    for i, label in x_labels.items():
        anchor = "middle" if plot.n == 1 else {0: "start", plot.n - 1: "end"}.get(i, "middle")
        yield (
            f'<text x="{_num(plot.x(i))}" y="{_PLOT_BOTTOM + 16}" text-anchor="{anchor}">'
            f"{_esc(_truncate(label, 10))}</text>"
        )
    yield "</g>"


def _line(plot: _Plot, k: int, name: str, values: Sequence[int]) -> Iterator[str]:
    """Player ``k``'s line, with a dot per game while there are few."""
    colour = PALETTE[k % len(PALETTE)]
    yield f'<g class="chart-series chart-series-{k}"><title>{_esc(name)}</title>'
    if plot.n > 1:
        points = " ".join(
            f"{_num(plot.x(i))},{_num(plot.y(values[i]))}" for i in _downsample(values, _BUCKETS)
        )
        yield (
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2" '
            'stroke-linejoin="round" stroke-linecap="round"/>'
        )
    if plot.n <= _MARKERS_UP_TO:
        for i, v in enumerate(values):
            yield f'<circle cx="{_num(plot.x(i))}" cy="{_num(plot.y(v))}" r="3" fill="{colour}"/>'
    yield "</g>"


def _legend(top: int, finals: Mapping[str, str]) -> Iterator[str]:
    """Two columns, each player's swatch, name and last value."""
    col_w = (WIDTH - 16) // 2
    # Glyph widths are guessed on the wide side (digits about 7.5 units at
    # 12 px, letters with Vietnamese marks about 8): the name gets what the
    # swatch and the widest value leave of the column.
    value_w = 15 * max(len(label) for label in finals.values()) // 2
    name_chars = max(4, (col_w - 20 - 10 - 8 - value_w) // 8)
    yield '<g class="chart-legend" font-size="12" fill="currentColor">'
    for k, (name, final) in enumerate(finals.items()):
        colour = PALETTE[k % len(PALETTE)]
        lx = 8 + (k % 2) * col_w
        ly = top + (k // 2) * _LEGEND_ROW
        yield (
            f'<g class="chart-legend-item chart-series-{k}"><title>{_esc(name)}</title>'
            f'<line x1="{lx}" x2="{lx + 14}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" '
            'stroke-width="3" stroke-linecap="round"/>'
            f'<text x="{lx + 20}" y="{ly}">{_esc(_truncate(name, name_chars))}</text>'
            f'<text x="{lx + col_w - 10}" y="{ly}" text-anchor="end" font-weight="600">'
            f"{_esc(final)}</text></g>"
        )
    yield "</g>"


# --- bar chart -------------------------------------------------------------

_BAR_ROW = 36
_BAR_HEIGHT = 12
_BAR_NAME_CHARS = 24


def bar_chart(
    values: Mapping[str, int],
    *,
    title: str,
    money: bool = False,
    empty_text: str = "Chưa có số liệu",
) -> str:
    """One horizontal bar per name, in the mapping's order.

    Each row has the name on the left and the exact value on the right above
    its bar; bars grow right of a shared zero line for positive values and
    left of it for negative ones (colour tells the side too, the sign in the
    number says it without colour).
    """
    if not values:
        return _empty_svg("bar-chart", title, empty_text)
    fmt = "vnd" if money else "plain"
    lo = min(0, *values.values())
    hi = max(0, *values.values())
    pad = 8
    bar_w = WIDTH - 2 * pad
    span = hi - lo

    def x_of(v: int) -> float:
        # All zero: the zero line sits in the middle and no bar is drawn.
        return pad + bar_w / 2 if span == 0 else pad + (v - lo) * bar_w / span

    height = 6 + len(values) * _BAR_ROW + 4
    parts = _open_svg(height, "bar-chart", title, _summary(values, fmt))
    x0 = x_of(0)
    for k, (name, v) in enumerate(values.items()):
        top = 6 + k * _BAR_ROW
        parts.append(f'<g class="chart-bar-row"><title>{_esc(name)}</title>')
        parts.append(
            f'<text x="{pad}" y="{top + 12}" font-size="12" fill="currentColor">'
            f"{_esc(_truncate(name, _BAR_NAME_CHARS))}</text>"
            f'<text x="{WIDTH - pad}" y="{top + 12}" font-size="12" text-anchor="end" '
            f'font-weight="600" fill="currentColor">{_esc(_fmt(v, fmt))}</text>'
        )
        if v:
            # A small non-zero value still gets a visible sliver.
            width = max(abs(x_of(v) - x0), 2.0)
            cls, colour = ("chart-bar-pos", _POSITIVE) if v > 0 else ("chart-bar-neg", _NEGATIVE)
            x = x0 if v > 0 else x0 - width
            parts.append(
                f'<rect class="chart-bar {cls}" x="{_num(x)}" y="{top + 17}" '
                f'width="{_num(width)}" height="{_BAR_HEIGHT}" rx="2" fill="{colour}"/>'
            )
        parts.append("</g>")
    parts.append(
        f'<line class="chart-zero" x1="{_num(x0)}" x2="{_num(x0)}" y1="{6 + 15}" '
        f'y2="{height - 4}" stroke="currentColor" stroke-opacity="0.7" stroke-width="1.5"/>'
    )
    parts.append("</svg>")
    return "".join(parts)
