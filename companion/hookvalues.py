"""The values the games' hooks (companion.hooks) pass around: the contexts the write side hands
each game on (`HpChange`, `Death`, `TurnEnd`, `StepsLanded`) and what the read side gathers from
them (`SeatMark`, `Parts`, `RescueCard`, a value worked out when first read: `Later`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.models import Seat, Table
from companion.rules.damage import DamageStep


@dataclass
class HpChange:
    """A damage or an HP loss about to land on `seat`.

    `kind`: "damage" (a recorded damage, `source` its source or None), "lose_hp" (失去体力),
    "resolver" (a damage worked out by a game's rules: the seat's row holds what it left
    already; `source` is set for its target only), "lightning" (闪电 struck). `change` is
    negative, `hp_before` the HP before it. `hp` is the HP it would leave: a game may raise it
    (keep a last HP), or prevent part of a damage before it lands (not for "resolver", whose
    prevention is `damage_steps`): `change` then loses as much as `hp` gains, and the action
    records the damage as `-change`. What a game adds to `public` and `after` goes into the
    change's event; `private_seats` are phones to redraw; `whole_page`: every screen is redrawn
    (not a delta of the seat)."""

    table: Table
    seat: Seat
    source: Seat | None
    kind: str
    change: int
    hp: int
    hp_before: int
    public: dict[str, Any] = field(default_factory=dict)
    after: dict[str, Any] = field(default_factory=dict)
    private_seats: set[int] = field(default_factory=set)
    whole_page: bool = False


@dataclass
class Death:
    """A seat has died (`seat`, already dead in `seats`, the table in seat order). `before` and
    `after` are the death's event's (a game may add what its undo needs; `after["turn"]` is
    there when the turn passed with the death); `public` is added to its public part;
    `private_seats`: phones to redraw beside the dead seat's; `state_before`: the table's
    `mode_state` as the tap found it (before a game's `hero_fell` counted the last hero)."""

    table: Table
    seats: list[Seat]
    seat: Seat
    killer: Seat | None
    before: dict[str, Any]
    after: dict[str, Any]
    public: dict[str, Any] = field(default_factory=dict)
    private_seats: set[int] = field(default_factory=set)
    state_before: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class TurnEnd:
    """A turn or phase action has moved the turn (the table holds the new turn; `round_before`
    is the round it was in). `before` and `after` are its event's, `public` is added to its
    public part; `private_seats`: phones to redraw; `whole_page`: every screen is redrawn."""

    table: Table
    seats: list[Seat]
    round_before: int
    before: dict[str, Any]
    after: dict[str, Any]
    public: dict[str, Any] = field(default_factory=dict)
    private_seats: set[int] = field(default_factory=set)
    whole_page: bool = False


@dataclass
class StepsLanded:
    """A damage the rules worked out (a game's resolver, or the rest of a chain) has landed:
    `steps` are those applied (as `damage_steps` left them). What a game adds to `public` goes
    into the damage's event; `whole_page`: every screen is redrawn."""

    table: Table
    seats: list[Seat]
    steps: tuple[DamageStep, ...]
    public: dict[str, Any] = field(default_factory=dict)
    whole_page: bool = False


@dataclass(frozen=True)
class SeatMark:
    """A mark a game puts on a seat in the ring: `css` joins the seat's classes ("": none),
    `mark` is the class of the mark's span, `label` its words (translated when shown; `titled`:
    also its title). Marks in a row with the same `group` share one span of that class."""

    css: str
    mark: str
    label: Any
    titled: bool = False
    group: str = ""


@dataclass(frozen=True)
class RescueCard:
    """A game's card that saves its dying drinker (the dying player's own, +1 HP): `off`, why
    it is refused where the game is off; `not_own`, why it is for anyone but the dying player
    or the host."""

    off: Any
    not_own: Any


class Later:
    """A part's value worked out when first read, once (what only some screens show and costs a
    query: a seat's dialog, which reads the public parts too, never pays for it)."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self._work = work
        self._done = False
        self._value: Any = None

    def value(self) -> Any:
        if not self._done:
            self._value, self._done = self._work(), True
        return self._value

    def __eq__(self, other: object) -> bool:
        # Two are the same value when what they work out is (a state compared with another).
        return self.value() == (other.value() if isinstance(other, Later) else other)

    __hash__ = None  # type: ignore[assignment]


def _read(value: Any) -> Any:
    return value.value() if isinstance(value, Later) else value


@dataclass(frozen=True)
class Parts:
    """The games on at a table (`on`, their keys in order) and the values they add to a state,
    read by their own templates: `parts.my_key` (or `parts["my_key"]`; a `Later` is worked out
    then)."""

    on: tuple[str, ...] = ()
    values: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return _read(self.values[name])

    def __contains__(self, name: object) -> bool:
        return name in self.values

    def get(self, name: str, default: Any = None) -> Any:
        return _read(self.values[name]) if name in self.values else default

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)


NO_PARTS = Parts()
