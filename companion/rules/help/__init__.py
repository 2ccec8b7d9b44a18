"""The rules help: an entry for every card, hero and skill of the box, the FAQ, and
the search that finds them by Chinese name, English name, toneless pinyin or words of the text.

Plain Python: the words are data (`card_texts`, `faq`, `roles`, `hero_skills.json`), the facts
of the box come from the reference tables through `companion.rules.cards` and `heroes`. The
entries are built in `entries`, searched in `find`.
"""

from __future__ import annotations

from companion.rules.help.entries import (
    CHECK_KEYS,
    KINDS,
    Entry,
    Pair,
    Section,
    added_entries,
    all_entries,
    card_entries,
    card_key,
    deck_names,
    entry,
    expansion_name,
    faq_entries,
    hero_entries,
    skill_entries,
)
from companion.rules.help.find import search

__all__ = [
    "CHECK_KEYS",
    "Entry",
    "KINDS",
    "Pair",
    "Section",
    "added_entries",
    "all_entries",
    "card_entries",
    "card_key",
    "deck_names",
    "entry",
    "expansion_name",
    "faq_entries",
    "hero_entries",
    "search",
    "skill_entries",
]
