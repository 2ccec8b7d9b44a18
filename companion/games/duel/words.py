"""1 vs 1's words: its name on the create form and its winner, by name or by who moved first
(registered with companion.words.labels when its app is ready)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
