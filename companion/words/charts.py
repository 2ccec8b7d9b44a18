"""Server-rendered SVG charts for the session screens: offline, CSP-safe, readable on a phone.

The markup is built only from numbers and escaped text, and colours are SVG presentation
attributes (fill, stroke), never style attributes, so the page's strict Content-Security-Policy
(no inline style) holds. Theme colours for axes and text come from classes styled in app.css.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# One colour per player, distinct on the dark background. A player's colour follows the player,
# not the rank (SessionSummary.colours): the same in every chart and after every game.
# On a screen a colour means one thing: the identities have their own colours everywhere (gold,
# orange, green and blue: the --lord, --loyalist, --rebel and --renegade of app.css) and red is
# dying, so the players' colours keep clear of those hues. The first eight are far apart
# (CIE76 distance at least 35, tests/groups/test_colours.py): lavender, teal, pink, white,
# magenta, lime, taupe, violet; a ninth and tenth player get a darker teal and a grey, drawn
# dashed (DASH), so ten players stay apart.
PALETTE = (
    "#c39bf5",
    "#45cfc3",
    "#f48fb1",
    "#f0f0f0",
    "#d63fd0",
    "#d7e35a",
    "#a1887f",
    "#7455e0",
    "#26867d",
    "#6b6b6b",
)
SOLID = 8  # the first eight colours are drawn solid, the rest dashed
DASH = "9 6"

WIDTH = 600
ROW = 36
TEXT_EM = 24  # the size of .chart-text in app.css, in viewBox units


@dataclass(frozen=True)
class Series:
    """One line of the line chart: a player's name and a value after each game."""

    label: str
    values: tuple[int, ...]
    colour: str = ""


@dataclass(frozen=True)
class Bar:
    """One bar of the stacked bar chart: a player and a count per segment key."""

    label: str
    counts: tuple[tuple[str, int], ...]
    # The player's own colour: the key beside the name and the bars.
    colour: str = ""


def colour(index: int) -> str:
    """The colour of the index-th player."""
    return PALETTE[index % len(PALETTE)]


def _dash(fill: str) -> str:
    """The stroke-dasharray attribute of a player's line (the colours after SOLID are dashed)."""
    if fill in PALETTE[SOLID:]:
        return f' stroke-dasharray="{DASH}"'
    return ""


def _key(x: float, y: float, fill: str, klass: str = "chart-key") -> str:
    """A player's key: a short piece of their line (colour and dash), centred on y."""
    return (
        f'<line class="{klass}" x1="{_num(x)}" y1="{_num(y)}" x2="{_num(x + 26)}" y2="{_num(y)}" '
        f'stroke="{escape(fill)}" stroke-width="5" stroke-linecap="butt"{_dash(fill)}/>'
    )


def _num(value: float) -> str:
    """A coordinate with at most one decimal, never in exponent form."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def nice_step(span: int, ticks: int = 5) -> int:
    """A round step (1, 2, 5, 10, 20, ...) giving at most about `ticks` grid lines."""
    if span <= 0:
        return 1
    raw = span / ticks
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    for factor in (1, 2, 5, 10):
        step = int(factor * magnitude)
        if step >= raw:
            return max(step, 1)
    return int(10 * magnitude)


def _legend(items: Sequence[tuple[str, str]], top: float) -> tuple[str, float]:
    """Rows of player keys and labels, two to a row when every label fits half the width (else
    one); returns the markup and the height used. Labels are never cut."""
    columns = 2 if all(_width(label) <= (WIDTH / 2 - 44) / TEXT_EM for label, _f in items) else 1
    parts = []
    width = WIDTH / columns
    for i, (label, fill) in enumerate(items):
        x = (i % columns) * width + 4
        y = top + (i // columns) * ROW
        parts.append(
            _key(x, y + 11, fill) + f'<text class="chart-text" x="{_num(x + 34)}" '
            f'y="{_num(y + 19)}">{escape(label)}</text>'
        )
    rows = math.ceil(len(items) / columns)
    return "".join(parts), rows * ROW


def line_chart(
    series: Sequence[Series], x_labels: Sequence[str], *, title: str, y_label: str = ""
) -> SafeString:
    """Each series as a line over the x positions (x_labels, one per value), with a legend.

    Values may be negative; the zero line is drawn. Returns an <svg> element, or an empty string
    when there is nothing to draw.
    """
    if not series or not x_labels:
        return mark_safe("")  # noqa: S308 - empty
    values = [v for s in series for v in s.values]
    low = min(0, *values)
    high = max(1, *values)
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    left, right, top, plot_h = 56.0, 24.0, 16.0, 240.0
    plot_w = WIDTH - left - right
    count = len(x_labels)

    def x_at(i: int) -> float:
        return left + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y_at(v: float) -> float:
        return top + plot_h * (high - v) / (high - low)

    parts = []
    for tick in range(int(low), int(high) + 1, step):
        y = y_at(tick)
        klass = "chart-zero" if tick == 0 else "chart-grid"
        parts.append(
            f'<line class="{klass}" x1="{_num(left)}" y1="{_num(y)}" x2="{_num(WIDTH - right)}" '
            f'y2="{_num(y)}"/><text class="chart-axis" x="{_num(left - 8)}" y="{_num(y + 6)}" '
            f'text-anchor="end">{tick}</text>'
        )
    # At most about eight x labels, so they never overlap on a phone.
    every = max(1, math.ceil(count / 8))
    for i, label in enumerate(x_labels):
        if i % every == 0 or i == count - 1:
            parts.append(
                f'<text class="chart-axis" x="{_num(x_at(i))}" y="{_num(top + plot_h + 26)}" '
                f'text-anchor="middle">{escape(label)}</text>'
            )
    fills = [s.colour or colour(i) for i, s in enumerate(series)]
    for s, fill in zip(series, fills, strict=True):
        points = " ".join(f"{_num(x_at(i))},{_num(y_at(v))}" for i, v in enumerate(s.values))
        parts.append(
            f'<polyline fill="none" stroke="{fill}" stroke-width="3" stroke-linejoin="round"'
            f'{_dash(fill)} points="{points}"><title>{escape(s.label)}</title></polyline>'
        )
        for i, v in enumerate(s.values):
            parts.append(
                f'<circle cx="{_num(x_at(i))}" cy="{_num(y_at(v))}" r="4.5" fill="{fill}">'
                f"<title>{escape(s.label)}: {v}</title></circle>"
            )
    legend_top = top + plot_h + 46
    legend, legend_h = _legend(
        [(f"{s.label} {s.values[-1]}", fill) for s, fill in zip(series, fills, strict=True)],
        legend_top,
    )
    height = legend_top + legend_h + 4
    label = f"{title}. {y_label}" if y_label else title
    return mark_safe(  # noqa: S308 - built from numbers and escaped text only
        f'<svg class="chart chart-line" viewBox="0 0 {WIDTH} {_num(height)}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>{''.join(parts)}{legend}</svg>"
    )


def bar_chart(bars: Sequence[Bar], columns: Sequence[tuple[str, str]], *, title: str) -> SafeString:
    """For each player, their whole name (with their key) on a line, and under it one bar per
    column (key, label): the columns are the identities, named at the top in plain text. The
    bars are in the player's colour: in the charts a colour always means a player.

    Returns an <svg> element, or an empty string when every bar is empty.
    """
    if not bars or not any(n for bar in bars for _k, n in bar.counts):
        return mark_safe("")  # noqa: S308 - empty
    longest = max(n for bar in bars for _k, n in bar.counts)
    column_w = WIDTH / max(1, len(columns))
    room = column_w - 52  # the longest bar, leaving room for its number
    head_h, name_h, bar_h, gap = 34.0, 32.0, 20.0, 14.0
    parts = []
    for c, (_column, label) in enumerate(columns):
        parts.append(
            f'<text class="chart-axis chart-head" x="{_num(c * column_w + 4)}" y="22">'
            f"{escape(label)}</text>"
        )
    y = head_h
    for bar in bars:
        fill = bar.colour or colour(0)
        counts = dict(bar.counts)
        parts.append(
            _key(4, y + name_h / 2 - 4, fill, "chart-player")
            + f'<text class="chart-text" x="38" y="{_num(y + name_h / 2 + 4)}">'
            f"{escape(bar.label)}</text>"
        )
        top = y + name_h
        for c, (key, label) in enumerate(columns):
            n = counts.get(key, 0)
            x = c * column_w + 4
            w = room * n / longest if longest else 0
            if n:
                parts.append(
                    f'<rect x="{_num(x)}" y="{_num(top)}" width="{_num(w)}" '
                    f'height="{_num(bar_h)}" rx="3" fill="{escape(fill)}">'
                    f"<title>{escape(bar.label)}: {escape(label)} {n}</title></rect>"
                )
            parts.append(
                f'<text class="chart-axis" x="{_num(x + w + 6)}" y="{_num(top + bar_h - 2)}">'
                f"{n}</text>"
            )
        parts.append(
            f'<line class="chart-grid" x1="0" y1="{_num(top + bar_h + gap / 2)}" '
            f'x2="{WIDTH}" y2="{_num(top + bar_h + gap / 2)}"/>'
        )
        y = top + bar_h + gap
    height = y + 4
    return mark_safe(  # noqa: S308 - built from numbers and escaped text only
        f'<svg class="chart chart-bars" viewBox="0 0 {WIDTH} {_num(height)}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>{''.join(parts)}</svg>"
    )


def _width(label: str) -> float:
    """A label's width in em of the chart's text (a CJK character is one em, others about .6)."""
    return sum(1.0 if ord(ch) > 0x2E7F else 0.62 for ch in label)
