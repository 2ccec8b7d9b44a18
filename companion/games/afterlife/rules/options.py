"""The afterlife's two options, variants of the identity game (docs/rules.md §9.1, §9.2,
docs/variants.md), declared when its app is ready: one at a time (both say what becomes of the
dead), and rebirth, which draws a new hero, not with first-game mode (no heroes)."""

from __future__ import annotations

from companion.rules import modes

REBIRTH = "rebirth"
DARK_SOULS = "dark_souls"
# The mode these variants belong to, and its option they do not go with (names: data).
MODE = "identity"
FIRST_GAME = "first_game_mode"

CLASH_DARK_SOULS = "rebirth_dark_souls"
CLASH_FIRST_GAME = "rebirth_first_game"


def declare() -> None:
    """Declare its options for the identity game, first among its variants."""
    modes.add_option(
        REBIRTH,
        modes=(MODE,),
        variant=True,
        place=10,
        clashes=(
            modes.Clash(
                DARK_SOULS,
                CLASH_DARK_SOULS,
                "Rebirth and dark souls both decide what becomes of the dead: choose one.",
            ),
            modes.Clash(
                FIRST_GAME,
                CLASH_FIRST_GAME,
                "Rebirth draws a new hero, and first-game mode plays without heroes.",
            ),
        ),
    )
    modes.add_option(DARK_SOULS, modes=(MODE,), variant=True, place=20)
