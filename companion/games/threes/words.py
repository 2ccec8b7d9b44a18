"""3 vs 3's words: its name on the create form and its winning side, the warm or the cold,
with the side's players (registered with companion.words.labels when its app is ready)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion.words.labels import ModeWords, register_mode


def side_words(side: str, joined: str) -> str:
    """The winning colour, with its players when their names are known (`joined`)."""
    text = {
        "lord": _("The warm side wins"),
        "renegade": _("The cold side wins"),
    }.get(side, "")
    if text and joined:
        return _("%(side)s: %(names)s") % {"side": text, "names": joined}
    return text


register_mode(
    "threes",
    ModeWords(
        gettext_lazy("3 vs 3"),
        gettext_lazy("Exactly 6 players: two teams, a commander each, a draft."),
        side_words,
    ),
)
