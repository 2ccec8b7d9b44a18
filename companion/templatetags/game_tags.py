"""The page's slots for the game packages (companion.hooks): `{% game_slot "turn_bar" t.games %}`
includes, in order, the template each game on (`parts.on`) gives for that slot, with the
page's context (`state`, `t`, `me` as there). No game on: nothing, at the cost of one check."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import Engine
from django.utils.safestring import SafeString, mark_safe

from companion import hooks

register = template.Library()


@register.simple_tag(takes_context=True)
def game_slot(context: template.Context, slot: str, parts: Any) -> SafeString | str:
    """The templates of the games on for `slot` (`parts`: a state's `games`, hooks.Parts)."""
    keys = getattr(parts, "on", ())
    if not keys:
        return ""
    engine = context.template.engine if context.template is not None else Engine.get_default()
    found = []
    for key in keys:
        game = hooks.by_key(key)
        name = game.templates.get(slot) if game is not None else None
        if name:
            with context.push():
                found.append(engine.get_template(name).render(context))
    return mark_safe("".join(found))  # noqa: S308 - the games' own templates, escaped there
