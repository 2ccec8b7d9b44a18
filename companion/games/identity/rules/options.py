"""The identity game's options (docs/rules.md §1, §2, §9): every table's, the identity
distributions of 6 and 8 players with two renegades, first-game mode (新手局, no heroes), and the
variants and house rules, each one flag, off by default (docs/variants.md); two that exclude
each other are refused with the reason."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.rules import identities
from companion.rules.identities import MAX_PLAYERS, MIN_PLAYERS, Identity, IdentityOptions
from companion.rules.modes.base import O, OptionRefusal, OptionsRefused, TableOptions
from companion.rules.modes.options import game_options


@dataclass(frozen=True)
class IdentityGameOptions(TableOptions):
    """The identity game's options: the distributions and first-game mode (docs/rules.md §1, §2),
    and the variants and house rules of docs/rules.md §9, all off by default
    (`docs/variants.md`)."""

    six_two_renegades: bool = False
    eight_two_renegades: bool = False
    first_game_mode: bool = False
    # docs/rules.md §9, the variants in the seeds.
    rebirth: bool = False  # 转世: the dead take gifts of cards and come back with a new hero
    dark_souls: bool = False  # 暗魂: the dead haunt a living player with a one-off effect
    first_out_protection: bool = False  # without dark souls: last session game's first out
    last_three: bool = False  # three alive: three rounds, then everybody loses 1 HP a round
    lord_pack: bool = False  # the lord: 3 non-lord heroes and 1 of the box's lord heroes
    rebels_know_each_other: bool = False  # 003: each rebel sees the other rebels
    lord_five_cards: bool = False  # 003: the lord starts with 5 cards

    VARIANTS: ClassVar[tuple[str, ...]] = (
        "rebirth",
        "dark_souls",
        "first_out_protection",
        "last_three",
        "lord_pack",
        "rebels_know_each_other",
        "lord_five_cards",
    )

    @classmethod
    def names(cls) -> tuple[str, ...]:
        # The host's form: the identity options first, then the variants, then every table's
        # (those the game packages declare, then referee mode).
        return (
            "six_two_renegades",
            "eight_two_renegades",
            "first_game_mode",
            *cls.VARIANTS,
            *game_options(),
            "referee_mode",
        )

    @classmethod
    def parse(cls: type[O], raw: Mapping[str, Any]) -> O:
        """As every table's, and two options that exclude each other are refused
        (OptionsRefused, naming the option and why)."""
        options = super().parse(raw)
        refused = options.refusals()
        if refused:
            raise OptionsRefused(refused[0])
        return options

    def refusals(self, seat_count: int | None = None) -> tuple[OptionRefusal, ...]:
        """What does not fit (docs/rules.md §9, decided in docs/variants.md): rebirth and dark souls
        both say what becomes of the dead, so a table has one or the other; the protection of
        the first out is the rule for tables without dark souls; rebirth and the lord pack draw
        heroes, which first-game mode has none of. With `seat_count`: rebels who know each other
        need two rebels (4 players deal one). The last-three rule fits every count from 4
        (docs/rules.md §9.4: at 4 the first death starts its countdown)."""
        found: list[OptionRefusal] = []
        for option, code, clash, reason in _CLASHES:
            if getattr(self, option) and getattr(self, clash):
                found.append(OptionRefusal(option, code, reason))
        if seat_count is not None:
            # A count outside 4–10 deals nothing (the deal says so itself): no rebels to count.
            dealt = MIN_PLAYERS <= seat_count <= MAX_PLAYERS
            if (
                self.rebels_know_each_other
                and dealt
                and identities.distribution(seat_count, self.identities())[Identity.REBEL] < 2
            ):
                found.append(
                    OptionRefusal(
                        "rebels_know_each_other",
                        "rebels_know_one_rebel",
                        "Rebels who know each other need two rebels or more; this deal has one.",
                    )
                )
        return tuple(found)

    def identities(self) -> IdentityOptions:
        """What the dealing of identities needs of these options."""
        return IdentityOptions(
            six_two_renegades=self.six_two_renegades,
            eight_two_renegades=self.eight_two_renegades,
        )


# (option, refusal code, the option it excludes, the reason): the first of the two in the
# form's order is the one named.
_CLASHES: tuple[tuple[str, str, str, str], ...] = (
    (
        "rebirth",
        "rebirth_dark_souls",
        "dark_souls",
        "Rebirth and dark souls both decide what becomes of the dead: choose one.",
    ),
    (
        "rebirth",
        "rebirth_first_game",
        "first_game_mode",
        "Rebirth draws a new hero, and first-game mode plays without heroes.",
    ),
    (
        "dark_souls",
        "protection_dark_souls",
        "first_out_protection",
        "The protection of the first player out is the rule for tables without dark souls.",
    ),
    (
        "lord_pack",
        "lord_pack_first_game",
        "first_game_mode",
        "The lord pack offers heroes, and first-game mode plays without heroes.",
    ),
)
