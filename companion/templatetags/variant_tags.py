"""The identity game's variants and house rules in the host's lobby form (docs/rules.md §9,
docs/variants.md): each option with one line on what it changes, and why an option cannot be
switched on now (it excludes one that is on) or will not deal (the number of players)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.functional import Promise

from companion.actions.variants import refusal_message
from companion.rules import modes
from companion.rules.modes import OptionsError, OptionsRefused
from companion.words.variants import OPTIONS, VARIANTS, VariantOn, variants_on

register = template.Library()


@dataclass(frozen=True)
class VariantOption:
    """One line of the form: the option, whether it is on, and why it cannot be switched on
    now (empty: it can)."""

    name: str
    label: Promise
    line: Promise
    on: bool
    blocked: Promise | str


@dataclass(frozen=True)
class TableOption:
    """One option of the host's form that is not a variant: its name, words and whether on."""

    name: str
    label: Promise | str
    on: bool


@register.simple_tag
def table_options(state: Any, live: bool = False) -> list[TableOption]:
    """The options the table's mode declares, but its variants (their own form), in the mode's
    order; `live`: only those a host may change during a game. A mode shows no option it
    does not take."""
    mode = modes.get(getattr(state, "mode", modes.DEFAULT))
    try:
        options = mode.options(getattr(state, "options", {}))
    except OptionsError:
        options = mode.options({})
    return [
        TableOption(name, OPTIONS.get(name, name), options.flag(name))
        for name in options.names()
        if name not in VARIANTS and (not live or name in options.live())
    ]


@register.simple_tag
def variant_options(state: Any) -> list[VariantOption]:
    """The variants of the table's mode, for its lobby form (none for a mode without them)."""
    mode = modes.get(getattr(state, "mode", modes.DEFAULT))
    try:
        options = mode.options(getattr(state, "options", {}))
    except OptionsError:
        return []
    rows = []
    for name in options.variants():  # the mode's order
        if name not in VARIANTS:
            continue
        label, line = VARIANTS[name]
        on = options.flag(name)
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
    """Why the options on will not deal to the players seated now (docs/rules.md §9)."""
    mode = modes.get(getattr(state, "mode", modes.DEFAULT))
    try:
        options = mode.options(getattr(state, "options", {}))
    except OptionsError:
        return []
    count = len(getattr(state, "seats", ()))
    if not mode.seats_allowed(count):
        return []
    return [refusal_message(r) for r in options.refusals(count)]


@register.simple_tag
def variants_shown(state: Any) -> list[VariantOn]:
    """The variants on at this table (the display's header, the phones' rules panel)."""
    return variants_on(getattr(state, "mode", modes.DEFAULT), getattr(state, "options", {}))
