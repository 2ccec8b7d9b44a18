"""The identity game's variants (docs/rules.md §9, docs/variants.md): the words for an option the
rules refuse (`companion.rules.modes.OptionRefusal`, by its code), translated when shown."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from companion.rules.modes import OptionRefusal

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


def refusal_message(refusal: OptionRefusal) -> Promise | str:
    """The translated words for a refused option (the rules' English for an unknown code)."""
    return REFUSALS.get(refusal.code, refusal.reason)
