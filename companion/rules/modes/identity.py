"""The identity game (身份局, RULES.md §1–§8): 4 to 10 players, a public lord.

Its options add the identity distributions of 6 and 8 players with two renegades and the first
game without heroes (新手局) to every table's options.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.rules.identities import MAX_PLAYERS, MIN_PLAYERS, IdentityOptions
from companion.rules.modes.base import Mode, TableOptions


@dataclass(frozen=True)
class IdentityGameOptions(TableOptions):
    six_two_renegades: bool = False
    eight_two_renegades: bool = False
    first_game_mode: bool = False

    @classmethod
    def names(cls) -> tuple[str, ...]:
        # The host's form: the identity options first, then every table's.
        return (
            "six_two_renegades",
            "eight_two_renegades",
            "first_game_mode",
            "maneuvering",
            "referee_mode",
        )

    def identities(self) -> IdentityOptions:
        """What the dealing of identities needs of these options."""
        return IdentityOptions(
            six_two_renegades=self.six_two_renegades,
            eight_two_renegades=self.eight_two_renegades,
        )


class IdentityMode(Mode):
    key: ClassVar[str] = "identity"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    options_type: ClassVar[type[TableOptions]] = IdentityGameOptions
