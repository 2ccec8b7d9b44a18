"""Eight players (and more) get clearly distinct colours, far from the identities' colours and
the dying red; past eight their lines are dashed; a player keeps one colour on the group page."""

from __future__ import annotations

import itertools
import math

import pytest

from companion.groups import read
from companion.words import charts
from tests.groups.support import build_group

# The identities' colours and the dying red (static/css/app/base.css), and the page's background.
TAKEN = ("#e8b64c", "#e9a23b", "#5fbf77", "#6aa7e8", "#e0564a", "#231f1c")


def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    x = (r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047
    y = r * 0.2126 + g * 0.7152 + b * 0.0722
    z = (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883

    def f(v: float) -> float:
        return v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(a: str, b: str) -> float:
    return math.dist(lab(a), lab(b))


def test_the_first_eight_colours_are_far_apart_and_from_the_identities() -> None:
    eight = [charts.colour(i) for i in range(8)]
    closest = min(distance(a, b) for a, b in itertools.combinations(eight, 2))
    assert closest >= 35, closest  # two pinks or two purples were 11 and 14 apart
    assert min(distance(a, b) for a in charts.PALETTE for b in TAKEN) >= 30


def test_past_eight_players_lines_are_dashed_and_ten_colours_differ() -> None:
    ten = [charts.colour(i) for i in range(10)]
    assert len(set(ten)) == 10
    assert "stroke-dasharray" not in charts.line_chart(
        [charts.Series("a", (1, 2), ten[7])], ["1", "2"], title=""
    )
    assert "stroke-dasharray" in charts.line_chart(
        [charts.Series("a", (1, 2), ten[8])], ["1", "2"], title=""
    )


@pytest.mark.django_db
def test_eight_players_of_a_group_get_eight_distinct_colours() -> None:
    group, _evenings = build_group()
    people = read.page(group).people
    assert len(people) == 8
    colours = [p.colour for p in people.values()]
    assert min(distance(a, b) for a, b in itertools.combinations(colours, 2)) >= 35
