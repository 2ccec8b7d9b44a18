"""The house rules' words: their names and lines in the host's form, why one is refused, and the
other rebels on a rebel's covered card."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import conditional_escape
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from companion.actions.variants import add_refusals
from companion.games.house import rules
from companion.words import variants


def fellows_text(names: Sequence[str]) -> str:
    """The other rebels in words, escaped (empty for nobody)."""
    if not names:
        return ""
    separator = pgettext("list separator", ", ")
    words = _("Your fellow rebels: %(names)s") % {"names": separator.join(names)}
    return str(conditional_escape(words))


# Its variant and house rules (docs/rules.md §9.5, §9.6): name: (label, one line on what it
# changes).
variants.add_words(
    {},
    {
        rules.LORD_PACK: (
            gettext_lazy("Lord pack"),
            gettext_lazy(
                "The lord chooses from 3 heroes and 1 lord hero drawn from the table's box."
            ),
        ),
        rules.REBELS: (
            gettext_lazy("Rebels know each other"),
            gettext_lazy(
                "Each rebel's phone shows the other rebels from the deal (5 players or more)."
            ),
        ),
        rules.LORD_FIVE: (
            gettext_lazy("The lord starts with 5 cards"),
            gettext_lazy("The lord draws one card more at the start."),
        ),
    },
)

# Why one of its options is refused (`OptionRefusal.code`, rules.py).
add_refusals(
    {
        rules.CLASH_FIRST_GAME: gettext_lazy(
            "The lord pack offers heroes, and first-game mode plays without heroes."
        ),
        rules.ONE_REBEL: gettext_lazy(
            "Rebels who know each other need two rebels or more; this deal has one."
        ),
    }
)
