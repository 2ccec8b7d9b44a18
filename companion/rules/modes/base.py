"""What every way to play answers, and the options every table has (plain Python).

A mode is one module of this package behind `Mode`; the rest of the app reaches it only through
the registry (`companion.rules.modes.get`). Its options are a frozen dataclass: `parse`
checks a stored or submitted mapping against it (unknown names and non-flags refused), so a
table's options are validated once and read as typed attributes everywhere.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from companion.rules.flow import TurnPass
from companion.rules.identities import Identity
from companion.rules.scoring import GameRecord, PlayerResult
from companion.rules.victory import SeatStatus, Side

O = TypeVar("O", bound="TableOptions")  # noqa: E741
K = TypeVar("K", bound=Hashable)


class OptionsError(ValueError):
    """Options that do not fit the mode: an unknown name, or a value that is not a flag."""


@dataclass(frozen=True)
class OptionRefusal:
    """Why an option does not fit (two options that exclude each other, or the number of
    players): `code` is stable, for the screens to translate; `reason` is the English text."""

    option: str
    code: str
    reason: str


class OptionsRefused(OptionsError):
    """Flags that parse but do not fit together; `refusal` says which option and why."""

    def __init__(self, refusal: OptionRefusal) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal


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

    def refusals(self, seat_count: int | None = None) -> tuple[OptionRefusal, ...]:
        """What does not fit in these options (none for a plain table); with `seat_count`, also
        what does not fit a game of that many players (checked when the game is dealt)."""
        return ()

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

    def identity_counts(self, seat_count: int, options: TableOptions) -> dict[Identity, int]:
        """How many seats the deal gives each identity (shown before the deal)."""
        raise NotImplementedError

    def deal(
        self,
        seat_count: int,
        options: TableOptions,
        *,
        fixed_leader: int | None = None,
        rng: random.Random | None = None,
    ) -> list[Identity]:
        """The identities dealt, index i to the i-th seat round the table; with `fixed_leader`
        (a tournament) that seat is the leader and the others are dealt at random."""
        raise NotImplementedError

    def is_leader(self, identity: Identity) -> bool:
        """Whether a seat of this identity is the leader (see `leader`)."""
        raise NotImplementedError

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

    def leader_offer(self, rng: random.Random | None = None) -> list[str]:
        """The hero ids offered to the leader, who chooses before the others."""
        raise NotImplementedError

    def offers(
        self,
        *,
        player_count: int,
        taken: Collection[str],
        count: int,
        rng: random.Random | None = None,
    ) -> list[list[str]]:
        """Disjoint hero offers for `count` seats (the others, once the leader has chosen),
        none of them in `taken`."""
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

    def killer_discards_equipment(self, victim: Identity, killer: Identity) -> bool:
        """Whether this death costs the (living) killer their equipment."""
        raise NotImplementedError

    def lost_final_duel(self, victim: Identity, alive_before: Sequence[Identity]) -> bool:
        """Whether this death (`alive_before` includes the victim) lost a final duel, which
        the scoring rewards."""
        raise NotImplementedError

    def may_lose_final_duel(self, identity: Identity) -> bool:
        """Whether a seat of this identity can die in a final duel (see `lost_final_duel`)."""
        raise NotImplementedError

    def final_duel_scored(self, side: Side) -> bool:
        """Whether a lost final duel scores when this side has won."""
        raise NotImplementedError

    # Scoring a session (RULES.md §8).

    # Every code a score line may have, in the order an export lists them.
    score_codes: ClassVar[tuple[str, ...]] = ()

    def score(self, players: Mapping[K, PlayerResult], side: Side) -> dict[K, GameRecord]:
        """A finished game's score for each player (and whether they won), same keys."""
        raise NotImplementedError

    def leader_rotation(self, seat_count: int, first_index: int) -> list[int]:
        """In a tournament: the leader's seat index for each game, the first at `first_index`;
        the tournament ends after the last."""
        raise NotImplementedError
