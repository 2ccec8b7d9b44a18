"""The house rules' covered-card slot, padded so that its length tells nobody who is a rebel."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from companion.games.house.words import fellows_text

register = template.Library()


@register.simple_tag
def secret_fellows(parts: Any) -> SafeString:
    """Rebels know each other: the other rebels on a rebel's covered card (`parts.fellows`),
    padded to what the table's longest names would take (`parts.fellows_pad`), the same for
    every seat, so that the fragment's length cannot tell a rebel from anyone else."""
    text = fellows_text(parts.get("fellows", ()))
    width = len(fellows_text(parts.get("fellows_pad", ())).encode())
    return mark_safe(text + " " * max(0, width - len(text.encode())))  # noqa: S308 - escaped
