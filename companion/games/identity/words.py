"""The identity game in words, added to the core's when its app is ready: its name and who plays
(the create form), its winning sides, what its deal waits for, its options and variants with
their one line (the host's form, the header, the rules panel) and why an option is refused."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from companion.actions.variants import add_refusals
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

# Its options that are not variants, in the host's form (an expansion's is its package's).
OPTIONS: dict[str, Promise] = {
    "six_two_renegades": _("6 players: 2 rebels and 2 renegades"),
    "eight_two_renegades": _("8 players: 3 rebels and 2 renegades"),
    "first_game_mode": _("First-game mode (no heroes)"),
}

# Its own variant (docs/rules.md §9.5): name: (label, one line on what it changes). The others
# its options declare are their game packages' words (afterlife, protection, last_three, house).
VARIANTS: dict[str, tuple[Promise, Promise]] = {
    "lord_pack": (
        _("Lord pack"),
        _("The lord chooses from 3 heroes and 1 lord hero drawn from the table's box."),
    ),
}

# Why an option is refused (`OptionRefusal.code`, rules/options.py).
REFUSALS: dict[str, Promise] = {
    "rebirth_dark_souls": _(
        "Rebirth and dark souls both decide what becomes of the dead: choose one."
    ),
    "rebirth_first_game": _("Rebirth draws a new hero, and first-game mode plays without heroes."),
    "protection_dark_souls": _(
        "The protection of the first player out is the rule for tables without dark souls."
    ),
    "lord_pack_first_game": _(
        "The lord pack offers heroes, and first-game mode plays without heroes."
    ),
    "rebels_know_one_rebel": _(
        "Rebels who know each other need two rebels or more; this deal has one."
    ),
}

labels.register_mode(KEY, MODE)
variants.add_words(OPTIONS, VARIANTS)
add_refusals(REFUSALS)
