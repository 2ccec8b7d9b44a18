"""The group page's small pieces: a player's name in their colour, rates, records, heroes."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from companion.groups import read
from companion.groups.rules.records import Record
from companion.groups.rules.standings import Row

register = template.Library()


@register.simple_tag
def person(p: read.Person) -> SafeString:
    """The whole name after a swatch of the player's chart colour (an SVG fill: the page's
    Content-Security-Policy allows no style attribute)."""
    return format_html(
        '<span class="person"><svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">'
        '<rect width="10" height="10" rx="2" fill="{}"/></svg>{}</span>',
        p.colour,
        p.name,
    )


@register.simple_tag
def percent(value: float) -> str:
    return f"{round(value * 100)}%"


@register.simple_tag
def place_rate(row: Row, key: str) -> str:
    """Wins/games at this place with the rate, or a dash."""
    tally = row.places.get(key)
    if tally is None:
        return "—"
    return f"{tally.wins}/{tally.games} ({round(tally.rate * 100)}%)"


@register.simple_tag
def record_title(code: str) -> str:
    return read.record_title(code)


@register.simple_tag
def record_value(rec: Record) -> str:
    return read.record_text(rec)


@register.simple_tag
def game_label(game: read.GameRow) -> str:
    return read.game_label(game)


@register.simple_tag
def hero(hero_id: str) -> str:
    return read.hero_name(hero_id)
