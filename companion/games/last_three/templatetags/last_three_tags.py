"""The last three's countdown in the templates."""

from __future__ import annotations

from django import template

from companion.games.last_three.words import last_three_words

register = template.Library()


@register.filter
def last_three_label(left: int | None) -> str:
    """The last three's countdown in words ("" before it starts)."""
    return last_three_words(left)
