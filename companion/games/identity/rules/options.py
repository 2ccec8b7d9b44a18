"""The identity game's options (docs/rules.md §1, §2): every table's, the identity distributions
of 6 and 8 players with two renegades, and first-game mode (新手局, no heroes). Its variants and
house rules (docs/rules.md §9, docs/variants.md) are options their game packages declare for
this mode (`companion.rules.modes.add_option`), with what they do not go with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.rules.identities import IdentityOptions
from companion.rules.modes.base import TableOptions


@dataclass(frozen=True)
class IdentityGameOptions(TableOptions):
    """The identity game's options: the distributions and first-game mode (docs/rules.md §1,
    §2), off by default; the game packages add their variants to them."""

    six_two_renegades: bool = False
    eight_two_renegades: bool = False
    first_game_mode: bool = False

    MODE: ClassVar[str] = "identity"

    def identities(self) -> IdentityOptions:
        """What the dealing of identities needs of these options."""
        return IdentityOptions(
            six_two_renegades=self.six_two_renegades,
            eight_two_renegades=self.eight_two_renegades,
        )
