"""The table options in words (docs/rules.md §9, docs/variants.md): each option's name, a
variant's one line on what it changes, and the variants on at a table or in a game's record (the
display's header, the phones' rules panel, the session history). The words of a game's options
(a mode's, a variant's, an expansion's) come from its game package."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from companion.rules import modes
from companion.rules.modes import OptionsError

# The options that are not variants, in the host's form: name: label (the form lists those the
# table's mode declares, `TableOptions.names`, in that order). The core's here; a game package
# adds its own (`add_words`: a mode's, an expansion's).
OPTIONS: dict[str, Promise] = {
    "referee_mode": _("Referee mode: anyone may adjust anyone's HP"),
}

# The variants and house rules, name: (label, one line on what it changes): added by the game
# package that plays them (`add_words`); the form lists them in the mode's order (`VARIANTS`).
VARIANTS: dict[str, tuple[Promise, Promise]] = {}


def add_words(
    options: Mapping[str, Promise], variants: Mapping[str, tuple[Promise, Promise]]
) -> None:
    """A game package's options in words (from its `words` module, imported when its app is
    ready): the options that are not variants, and the variants with their one line."""
    OPTIONS.update(options)
    VARIANTS.update(variants)


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
