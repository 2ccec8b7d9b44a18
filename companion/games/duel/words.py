"""1 vs 1's words: its name on the create form and its winner, by name or by who moved first
(registered with companion.words.labels when its app is ready), and the history's line of a
hero falling (companion.words.history)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion.words.history import hero_name, line
from companion.words.labels import ModeWords, register_mode


def side_words(side: str, joined: str) -> str:
    """The winner by name (`joined`), or the card's side when no name is known."""
    if side not in ("lord", "renegade"):
        return ""
    if joined:
        return _("%(name)s wins") % {"name": joined}
    return {
        "lord": _("The second player wins"),
        "renegade": _("The first player wins"),
    }[side]


register_mode(
    "duel",
    ModeWords(
        gettext_lazy("1 vs 1"),
        gettext_lazy("Exactly 2 players: three heroes each, in a secret order."),
        side_words,
    ),
)


@line("hero_fell")
def _hero_fell(public: dict[str, Any], name: str) -> str:
    return _("%(name)s's %(fallen)s fell; %(hero)s comes in: discard its cards and draw 4") % {
        "name": name,
        "fallen": hero_name(public.get("fallen_hero", ""), public),
        "hero": hero_name(public.get("hero", ""), public),
    }
