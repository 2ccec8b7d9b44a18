"""The afterlife in the templates: whose 罗汉 haunts a seat, for the damage dialogs' note."""

from __future__ import annotations

from django import template

from companion.games.afterlife.read import AfterlifeView
from companion.games.afterlife.read import luohan_owner as _luohan_owner

register = template.Library()


@register.simple_tag(name="luohan_owner")
def luohan_owner(view: AfterlifeView | None, host_id: int) -> str:
    """The name of the dead player whose 罗汉 haunts this seat (the first, if two), or ""."""
    return _luohan_owner(view, host_id)
