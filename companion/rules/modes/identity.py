"""The identity game (身份局, RULES.md §1–§8): 4 to 10 players, a public lord.

Its options add the identity distributions of 6 and 8 players with two renegades and the first
game without heroes (新手局) to every table's options.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.rules import flow, victory
from companion.rules.flow import TurnPass
from companion.rules.heroes import max_hp
from companion.rules.identities import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Identity,
    IdentityOptions,
    can_see_identity,
)
from companion.rules.modes.base import Mode, TableOptions
from companion.rules.victory import SeatStatus, Side


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

    def _lord(self, seats: Sequence[SeatStatus]) -> int:
        return next(i for i, seat in enumerate(seats) if seat.identity == Identity.LORD)

    def leader(self, seats: Sequence[SeatStatus]) -> int | None:
        """The lord: public from the deal, first to choose a hero (RULES.md §1, §2)."""
        return self._lord(seats)

    def identity_public(self, identity: Identity, *, alive: bool, game_over: bool) -> bool:
        """The lord's from the start; the others' once dead or once the game is over."""
        return can_see_identity(
            viewer_is_target=False,
            viewer_identity=None,
            target_identity=identity,
            target_alive=alive,
            game_over=game_over,
        )

    def start_hp(
        self, seat: SeatStatus, *, hero_hp: int | None, player_count: int, first_game: bool
    ) -> int:
        """The hero's HP, +1 for the lord from five players (RULES.md §2)."""
        return max_hp(
            hero_hp=hero_hp,
            is_lord=seat.identity == Identity.LORD,
            player_count=player_count,
            first_game=first_game,
        )

    def first_turn(self, seats: Sequence[SeatStatus]) -> int:
        """The lord starts (RULES.md §3)."""
        return self._lord(seats)

    def next_turn(self, seats: Sequence[SeatStatus], current: int) -> TurnPass:
        """The next living seat; a round begins when play comes back to the lord (RULES §3)."""
        return flow.pass_turn([s.alive for s in seats], current, self._lord(seats))

    def turn_after_death(
        self, seats: Sequence[SeatStatus], current: int, dead: int
    ) -> TurnPass | None:
        return flow.turn_after_death([s.alive for s in seats], current, dead, self._lord(seats))

    def victory(self, seats: Sequence[SeatStatus]) -> Side | None:
        return victory.winning_side(seats)

    def winners(self, seats: Sequence[SeatStatus], side: Side) -> list[int]:
        return victory.winners(seats, side)

    def on_death(self, victim: SeatStatus, killer: SeatStatus | None) -> str | None:
        """A rebel's killer draws three; a lord who kills a loyalist discards everything."""
        return victory.death_consequence(
            victim=victim.identity, killer=killer.identity if killer else None
        )
