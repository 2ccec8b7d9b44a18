"""军争 in the templates: the chained seats, for the now strip."""

from __future__ import annotations

from django import template

from companion.read.state import PublicSeat

register = template.Library()


@register.filter
def chained_names(seats: list[PublicSeat]) -> list[str]:
    """The names of the living chained seats, in play order."""
    return [s.name for s in seats if s.chained and s.alive]
