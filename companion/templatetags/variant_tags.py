"""The identity game's variants and house rules in the host's lobby form (RULES §9,
docs/variants.md): each option with one line on what it changes, and why an option cannot be
switched on now (it excludes one that is on) or will not deal (the number of players)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from companion.actions.variants import refusal_message
from companion.rules import modes
from companion.rules.modes import OptionsError, OptionsRefused

register = template.Library()

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
            "(5 players or more)."
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
class VariantOption:
    """One line of the form: the option, whether it is on, and why it cannot be switched on
    now (empty: it can)."""

    name: str
    label: Promise
    line: Promise
    on: bool
    blocked: Promise | str


@register.simple_tag
def variant_options(state: Any) -> list[VariantOption]:
    """The variants of the table's mode, for its lobby form (none for a mode without them)."""
    mode = modes.get(getattr(state, "mode", modes.DEFAULT))
    try:
        options = mode.options(getattr(state, "options", {}))
    except OptionsError:
        return []
    rows = []
    for name, (label, line) in VARIANTS.items():
        if name not in options.names():
            continue
        on = bool(getattr(options, name))
        blocked: Promise | str = ""
        if not on:
            try:
                options.with_changes({name: True})
            except OptionsRefused as refused:
                blocked = refusal_message(refused.refusal)
        rows.append(VariantOption(name, label, line, on, blocked))
    return rows


@register.simple_tag
def variant_refusals(state: Any) -> list[Promise | str]:
    """Why the options on will not deal to the players seated now (RULES §9)."""
    mode = modes.get(getattr(state, "mode", modes.DEFAULT))
    try:
        options = mode.options(getattr(state, "options", {}))
    except OptionsError:
        return []
    count = len(getattr(state, "seats", ()))
    if not mode.seats_allowed(count):
        return []
    return [refusal_message(r) for r in options.refusals(count)]
