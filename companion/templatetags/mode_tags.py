"""Words of 3 vs 3 and 1 vs 1 for their screens: the draft's sides, the go's answers
and questions, the places at the table."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from companion.words.labels import draft_side_label, place_label
from companion.words.team_lines import answer_label

register = template.Library()


@register.filter
def side_name(side: str) -> str:
    return draft_side_label(side)


@register.filter
def side_tag(side: str) -> str:
    """A side in one short word, for a card it has taken."""
    return {
        "warm": pgettext("side tag", "Warm"),
        "cold": pgettext("side tag", "Cold"),
        "lord": pgettext("side tag", "2nd"),
        "renegade": pgettext("side tag", "1st"),
    }.get(side, side)


@register.filter
def answer_name(answer: str) -> str:
    return answer_label(answer)


@register.filter
def question_name(question: str) -> str:
    return {
        "first_side": _("Which side acts first?"),
        "who_acts": _("Commander or vanguards?"),
    }.get(question, question)


@register.filter
def direction_name(direction: str) -> str:
    """An area trick's way round: turn order (counter-clockwise) or against it."""
    return {
        "ccw": _("Counter-clockwise (turn order)"),
        "cw": _("Clockwise (against turn order)"),
    }.get(direction, direction)


@register.filter
def place_name(place: str) -> str:
    return place_label(place)


@register.filter
def role_hint(role: str) -> str:
    """One line under a seat's open card on its own phone: what its role means."""
    if role == "first_player":
        return _("You move first, and draw one card fewer in your first draw phase.")
    if role == "second_player":
        return _("You pick first in the draft; the other player moves first.")
    return _("Every identity is public in 3 vs 3.")


@register.filter
def slot_name(slot: str) -> str:
    return {
        "commander": _("Commander"),
        "vanguard_a": _("Vanguard A"),
        "vanguard_b": _("Vanguard B"),
        "first": _("First"),
        "second": _("Second"),
        "third": _("Third"),
    }.get(slot, slot)


@register.filter
def slot_field(index: int) -> str:
    """The placement form's field for the place at this index (DraftPlaceForm)."""
    return ("first", "second", "third")[index]


@register.simple_tag
def held_of(held: dict, side: str) -> list:  # type: ignore[type-arg]
    return list(held.get(side, []))


@register.filter
def get_item(mapping: object, key: object) -> object:
    """`mapping[key]` (a dict's value, a list's item), or "" when there is none."""
    try:
        return mapping[key]  # type: ignore[index]
    except (KeyError, IndexError, TypeError):
        return ""
