"""The identity game's variants and house rules in words (docs/rules.md §9, docs/variants.md): each
option's name and one line on what it changes, and the variants on at a table or in a game's
record (the display's header, the phones' rules panel, the session history)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from companion.rules import modes
from companion.rules.modes import OptionsError

# The options that are not variants, in the host's form: name: label (the form lists those the
# table's mode declares, `TableOptions.names`, in that order).
OPTIONS: dict[str, Promise] = {
    "six_two_renegades": _("6 players: 2 rebels and 2 renegades"),
    "eight_two_renegades": _("8 players: 3 rebels and 2 renegades"),
    "first_game_mode": _("First-game mode (no heroes)"),
    "maneuvering": _("Maneuvering (军争) expansion cards in the deck"),
    "referee_mode": _("Referee mode: anyone may adjust anyone's HP"),
}

# name: (label, one line on what it changes), in the form's order.
VARIANTS: dict[str, tuple[Promise, Promise]] = {
    "rebirth": (
        _("Rebirth"),
        _(
            "The dead stay: each player may give them one card a turn; at 4 cards (3 with 4–5 "
            "players) they come back with a new hero at 1 HP, still dead for victory."
        ),
    ),
    "dark_souls": (
        _("Dark souls"),
        _(
            "A dead loyalist, rebel or renegade becomes a dark soul and haunts a living player "
            "with a one-off effect."
        ),
    ),
    "first_out_protection": (
        _("Protect the first out"),
        _(
            "The previous game's first player out keeps his last HP until someone else is out "
            "or he strikes back."
        ),
    ),
    "last_three": (
        _("Last three"),
        _(
            "With three alive, after three rounds everyone loses 1 HP at the end of each round "
            "(from 4 players: at 4 the first death starts it)."
        ),
    ),
    "lord_pack": (
        _("Lord pack"),
        _("The lord chooses from 3 heroes and 1 lord hero drawn from the table's box."),
    ),
    "rebels_know_each_other": (
        _("Rebels know each other"),
        _("Each rebel's phone shows the other rebels from the deal (5 players or more)."),
    ),
    "lord_five_cards": (
        _("The lord starts with 5 cards"),
        _("The lord draws one card more at the start."),
    ),
}


@dataclass(frozen=True)
class VariantOn:
    """A variant switched on: its option, its name and one line on what it changes."""

    name: str
    label: Promise
    line: Promise


def variants_on(mode: str, options: Mapping[str, Any] | None) -> list[VariantOn]:
    """The variants on in these stored options of this mode, in the form's order (none for a
    mode without variants, or options that no longer read)."""
    try:
        parsed = modes.get(mode).options(dict(options or {}))
    except (OptionsError, KeyError, ValueError):
        return []
    return [VariantOn(name, *VARIANTS[name]) for name in parsed.variants_on() if name in VARIANTS]
