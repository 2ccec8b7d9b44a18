"""The identity game in words, added to the core's when its app is ready: its name and who plays
(the create form), its winning sides, what its deal waits for and its own options (the host's
form). Its variants' words, and why one is refused, are their game packages'."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from companion.games.identity.rules import IdentityMode
from companion.words import labels, variants

KEY = IdentityMode.key

# The winning sides (`rules.victory.Side`).
SIDES: dict[str, Promise] = {
    "lord": _("The Lord and the Loyalists win"),
    "rebels": _("The Rebels win"),
    "renegade": _("The Renegade wins"),
}


def side_words(side: str, names: str) -> str:
    """A winning side in words (a side, not its players: `names` is not shown)."""
    text = SIDES.get(side)
    return str(text) if text is not None else ""


MODE = labels.ModeWords(
    name=_("Identity game"),
    line=_("4 to 10 players; a public lord."),
    side=side_words,
    seats_needed=_("Identities need 4 to 10 players."),
)

# Its own options, in the host's form (a variant's or an expansion's are its package's).
OPTIONS: dict[str, Promise] = {
    "six_two_renegades": _("6 players: 2 rebels and 2 renegades"),
    "eight_two_renegades": _("8 players: 3 rebels and 2 renegades"),
    "first_game_mode": _("First-game mode (no heroes)"),
}

labels.register_mode(KEY, MODE)
variants.add_words(OPTIONS, {})
