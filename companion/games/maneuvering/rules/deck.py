"""军争's option and its 52 cards (docs/rules.md §9.9): an option of every table, whatever its
mode (an expansion of the deck, not a variant), whose cards join the deck where it is on, and
whose questions join the help's FAQ."""

from __future__ import annotations

from pathlib import Path

from companion.games.maneuvering.rules import KEY
from companion.games.maneuvering.rules.faq import AFTER, FAQS
from companion.rules import modes
from companion.rules.cards import Expansion, add_expansion
from companion.rules.help.faq import add_faqs

DECK = Expansion(
    key=KEY,
    path=Path(__file__).resolve().parent.parent / "data" / "maneuvering_deck.csv",
    name=("军争", "Maneuvering 军争"),
)


def register_deck() -> None:
    """Declare the option, add the cards to the deck functions and the questions to the help's
    FAQ (from the app's `ready()`)."""
    modes.add_option(KEY)
    add_expansion(DECK)
    add_faqs(FAQS, after=AFTER)
