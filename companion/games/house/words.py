"""The house rules' words: the other rebels on a rebel's covered card."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import conditional_escape
from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def fellows_text(names: Sequence[str]) -> str:
    """The other rebels in words, escaped (empty for nobody)."""
    if not names:
        return ""
    separator = pgettext("list separator", ", ")
    words = _("Your fellow rebels: %(names)s") % {"names": separator.join(names)}
    return str(conditional_escape(words))
