"""What every way to play answers, and the options every table has (plain Python).

A mode is one module of this package behind `Mode`; the rest of the app reaches it only through
the registry (`companion.rules.modes.get`). Its options are a frozen dataclass: `parse`
checks a stored or submitted mapping against it (unknown names and non-flags refused), so a
table's options are validated once and read as typed attributes everywhere.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from companion.rules.flow import TurnPass
from companion.rules.identities import Identity
from companion.rules.victory import SeatStatus, Side

O = TypeVar("O", bound="TableOptions")  # noqa: E741


class OptionsError(ValueError):
    """Options that do not fit the mode: an unknown name, or a value that is not a flag."""


@dataclass(frozen=True)
class TableOptions:
    """Options of every table, whatever its mode: 军争 is an expansion of the deck (RULES.md
    §9), not a mode; referee mode is a rule about who may act (anyone seated may adjust anyone)."""

    maneuvering: bool = False
    referee_mode: bool = False

    # Options a host may still change once a game is in play.
    LIVE: ClassVar[frozenset[str]] = frozenset({"referee_mode"})

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every option of this type, in the order the host's form lists them."""
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def parse(cls: type[O], raw: Mapping[str, Any]) -> O:
        """The options a mapping names (missing ones at their defaults); OptionsError for an
        unknown name or a value that is not a flag."""
        known = set(cls.names())
        unknown = sorted(set(raw) - known)
        if unknown:
            raise OptionsError(f"unknown options: {', '.join(unknown)}")
        values: dict[str, bool] = {}
        for name, value in raw.items():
            if not isinstance(value, bool):
                raise OptionsError(f"option {name} must be true or false, not {value!r}")
            values[name] = value
        return cls(**values)

    def stored(self) -> dict[str, bool]:
        """The mapping kept in the table's one options field."""
        return dataclasses.asdict(self)

    def with_changes(self: O, changes: Mapping[str, Any]) -> O:
        """These options with some changed, validated as `parse` does."""
        return type(self).parse({**self.stored(), **changes})


class Mode:
    """One way to play. Subclasses set the class attributes and override what differs."""

    key: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_type: ClassVar[type[TableOptions]] = TableOptions

    def options(self, raw: Mapping[str, Any] | None) -> TableOptions:
        """The stored options of a table of this mode, typed (the defaults for none)."""
        return self.options_type.parse(raw or {})

    def seats_allowed(self, count: int) -> bool:
        """Whether a game of this mode may be dealt to `count` players."""
        return self.min_players <= count <= self.max_players

    # The deal: what each seat may see, who is known to all, the heroes and their HP.

    def leader(self, seats: Sequence[SeatStatus]) -> int | None:
        """The seat the deal makes known to everybody, who also chooses a hero first and whose
        side the others measure themselves against (the identity game's lord); None if none."""
        raise NotImplementedError

    def identity_public(self, identity: Identity, *, alive: bool, game_over: bool) -> bool:
        """Whether every screen may see a seat's identity (its own phone always may)."""
        raise NotImplementedError

    def start_hp(
        self, seat: SeatStatus, *, hero_hp: int | None, player_count: int, first_game: bool
    ) -> int:
        """A seat's max HP (and starting HP) for its hero (None: no heroes, first-game mode)."""
        raise NotImplementedError

    # The game's flow, over the seats in table order (index i is the i-th seat round the table).

    def first_turn(self, seats: Sequence[SeatStatus]) -> int:
        """The seat whose turn comes first."""
        raise NotImplementedError

    def next_turn(self, seats: Sequence[SeatStatus], current: int) -> TurnPass:
        """Where the turn goes after `current`'s (alive, or just dead)."""
        raise NotImplementedError

    def turn_after_death(
        self, seats: Sequence[SeatStatus], current: int, dead: int
    ) -> TurnPass | None:
        """When `dead` has just died: where the turn goes at once (it was theirs), or None."""
        raise NotImplementedError

    def victory(self, seats: Sequence[SeatStatus]) -> Side | None:
        """The side that has won, or None while the game goes on."""
        raise NotImplementedError

    def winners(self, seats: Sequence[SeatStatus], side: Side) -> list[int]:
        """The seats that win with `side`."""
        raise NotImplementedError

    def on_death(self, victim: SeatStatus, killer: SeatStatus | None) -> str | None:
        """The killer's reward or penalty for this death, if any."""
        raise NotImplementedError
