"""The words for an option the rules refuse (`companion.rules.modes.OptionRefusal`, by its code),
translated when shown: added by the game package whose mode's options refuse it (the identity
game's variants, docs/rules.md §9, docs/variants.md)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise

from companion.rules.modes import OptionRefusal

REFUSALS: dict[str, Promise] = {}


def add_refusals(words: Mapping[str, Promise]) -> None:
    """A game package's refusal codes in words (from its `words` module, when its app is ready)."""
    REFUSALS.update(words)


def refusal_message(refusal: OptionRefusal) -> Promise | str:
    """The translated words for a refused option (the rules' English for an unknown code)."""
    return REFUSALS.get(refusal.code, refusal.reason)
