"""Which template shows a screen or a fragment of a table: the mode's own, if it has one.

A mode's templates live in `templates/companion/modes/<key>/`, named as the shared ones they
replace (`phone.html`, `display.html`, `live/public.html`, `live/private.html`, ...). A mode that
has none (the identity game) uses the shared `templates/companion/`; so adding a mode's screens
is adding its files, and no other mode's template or any code changes.
"""

from __future__ import annotations

from functools import cache

from django.template import TemplateDoesNotExist
from django.template.loader import get_template


@cache
def template_for(mode: str, name: str) -> str:
    """`name` ("companion/live/public.html#public", "companion/phone.html"), from the mode's own
    folder when it has that file, else the shared one."""
    path, sep, partial = name.partition("#")
    own = path.replace("companion/", f"companion/modes/{mode}/", 1)
    try:
        get_template(own)
    except TemplateDoesNotExist:
        return name
    return own + sep + partial
