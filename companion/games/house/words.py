"""The house rules' words: their names and lines in the host's form, and the other rebels on a
rebel's covered card."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import conditional_escape
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from companion.words import variants


def fellows_text(names: Sequence[str]) -> str:
    """The other rebels in words, escaped (empty for nobody)."""
    if not names:
        return ""
    separator = pgettext("list separator", ", ")
    words = _("Your fellow rebels: %(names)s") % {"names": separator.join(names)}
    return str(conditional_escape(words))


# Its house rules (docs/rules.md §9.6): name: (label, one line on what it changes).
variants.add_words(
    {},
    {
        "rebels_know_each_other": (
            gettext_lazy("Rebels know each other"),
            gettext_lazy(
                "Each rebel's phone shows the other rebels from the deal (5 players or more)."
            ),
        ),
        "lord_five_cards": (
            gettext_lazy("The lord starts with 5 cards"),
            gettext_lazy("The lord draws one card more at the start."),
        ),
    },
)
