"""Words of the modes' own screens (the draft, the go): sides, answers, questions, places and
slots, as each mode's package words its codes (companion.words.labels.game_word), and the
directions of an area trick."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from companion.words.labels import answer_label, draft_side_label, game_word, place_label

register = template.Library()


@register.filter
def side_name(side: str) -> str:
    return draft_side_label(side)


@register.filter
def side_tag(side: str) -> str:
    """A side in one short word, for a card it has taken."""
    return game_word("side_tag", side) or side


@register.filter
def answer_name(answer: str) -> str:
    return answer_label(answer)


@register.filter
def question_name(question: str) -> str:
    return game_word("question", question) or question


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
    return game_word("role_hint", role) or ""


@register.filter
def slot_name(slot: str) -> str:
    return game_word("slot", slot) or slot


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


@register.filter
def damage_type_name(kind: str) -> str:
    """A damage type's name: "normal" the core's, the others their game's."""
    if kind == "normal":
        return _("Normal")
    return game_word("damage_type", kind) or kind
