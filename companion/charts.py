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
PALETTE = (
    "#e8b64c",
    "#6aa7e8",
    "#5fbf77",
    "#e0564a",
    "#b07be0",
    "#4fd1c5",
    "#f08bb5",
    "#c8c06a",
    "#f39c4a",
    "#a3a3a3",
)
# Identity colours for the wins chart (lord and loyalist must not look alike here).
IDENTITY_COLOURS = {
    "lord": "#e8b64c",
    "loyalist": "#e07b39",
    "rebel": "#5fbf77",
    "renegade": "#6aa7e8",
}

WIDTH = 600
FONT = 20
ROW = 36


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
    # The player's own colour, as a dot beside the name (the segments keep identity colours).
    colour: str = ""


def colour(index: int) -> str:
    """The colour of the index-th player."""
    return PALETTE[index % len(PALETTE)]


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


def _legend(items: Sequence[tuple[str, str]], top: float, columns: int = 2) -> tuple[str, float]:
    """Rows of colour swatches and labels; returns the markup and the height used."""
    parts = []
    width = WIDTH / columns
    for i, (label, fill) in enumerate(items):
        x = (i % columns) * width + 8
        y = top + (i // columns) * ROW
        parts.append(
            f'<rect x="{_num(x)}" y="{_num(y)}" width="20" height="20" rx="3" fill="{fill}"/>'
            f'<text class="chart-text" x="{_num(x + 28)}" y="{_num(y + 18)}">{escape(label)}</text>'
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
            f'<polyline fill="none" stroke="{fill}" stroke-width="3" stroke-linejoin="round" '
            f'points="{points}"><title>{escape(s.label)}</title></polyline>'
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


def bar_chart(
    bars: Sequence[Bar], legend: Sequence[tuple[str, str, str]], *, title: str
) -> SafeString:
    """Horizontal stacked bars, one per player; legend holds (key, label, colour) per segment.

    Returns an <svg> element, or an empty string when every bar is empty.
    """
    if not bars or not any(n for bar in bars for _key, n in bar.counts):
        return mark_safe("")  # noqa: S308 - empty
    colours = {key: fill for key, _label, fill in legend}
    names = {key: label for key, label, _fill in legend}
    longest = max(sum(n for _key, n in bar.counts) for bar in bars)
    step = nice_step(longest, 4)
    scale_max = math.ceil(longest / step) * step
    left, right, top, bar_h, gap = 170.0, 24.0, 8.0, 30.0, 12.0
    plot_w = WIDTH - left - right
    parts = []
    axis_y = top + len(bars) * (bar_h + gap)
    for tick in range(0, scale_max + 1, step):
        x = left + plot_w * tick / scale_max
        parts.append(
            f'<line class="chart-grid" x1="{_num(x)}" y1="{_num(top)}" x2="{_num(x)}" '
            f'y2="{_num(axis_y)}"/><text class="chart-axis" x="{_num(x)}" '
            f'y="{_num(axis_y + 22)}" text-anchor="middle">{tick}</text>'
        )
    for row, bar in enumerate(bars):
        y = top + row * (bar_h + gap)
        parts.append(
            f'<text class="chart-text" x="{_num(left - 10)}" y="{_num(y + bar_h / 2 + 8)}" '
            f'text-anchor="end">{escape(_clip(bar.label))}</text>'
        )
        if bar.colour:
            parts.append(
                f'<circle class="chart-player" cx="8" cy="{_num(y + bar_h / 2)}" r="7" '
                f'fill="{escape(bar.colour)}"/>'
            )
        x = left
        for key, n in bar.counts:
            if not n:
                continue
            w = plot_w * n / scale_max
            parts.append(
                f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(bar_h)}" '
                f'fill="{colours.get(key, "#888")}"><title>{escape(bar.label)}: '
                f"{escape(names.get(key, key))} {n}</title></rect>"
            )
            if w >= 22:
                parts.append(
                    f'<text class="chart-in" x="{_num(x + w / 2)}" y="{_num(y + bar_h / 2 + 8)}" '
                    f'text-anchor="middle">{n}</text>'
                )
            x += w
    legend_top = axis_y + 40
    legend_markup, legend_h = _legend(
        [(label, fill) for _key, label, fill in legend], legend_top, columns=4
    )
    height = legend_top + legend_h + 4
    return mark_safe(  # noqa: S308 - built from numbers and escaped text only
        f'<svg class="chart chart-bars" viewBox="0 0 {WIDTH} {_num(height)}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>{''.join(parts)}{legend_markup}</svg>"
    )


def _clip(label: str, room: int = 12) -> str:
    """A name short enough for the bar chart's label column (the full name is in the title).

    Room is counted in half-width characters: a CJK character takes two.
    """
    used = 0
    for i, ch in enumerate(label):
        used += 2 if ord(ch) > 0x2E7F else 1
        if used > room:
            return label[:i].rstrip() + "…"
    return label
