"""3 vs 3's go (docs/rules.md §9.7): which side acts, its commander or its vanguards, the cards
turned sideways and set upright, and the questions the go waits on (plain Python; the mode's
`flow_*` hooks are these)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from companion.games.threes.rules.seats import (
    COMMANDER_OF,
    VANGUARD_OF,
    Colour,
    check_layout,
    colour,
    is_commander,
    other,
    seat_of,
)
from companion.rules.errors import Refused
from companion.rules.flow import TurnPass
from companion.rules.identities import Identity
from companion.rules.modes.base import Choice, FlowStep
from companion.rules.victory import SeatStatus

FIRST_SIDE = "first_side"  # the cold commander: which side acts first
WHO_ACTS = "who_acts"  # the commander of the side with the go: commander or vanguards


class Act(StrEnum):
    """What the side with the go chooses."""

    COMMANDER = "commander"
    VANGUARDS = "vanguards"


def _vanguards(seats: Sequence[SeatStatus], side: Colour) -> list[int]:
    """A side's vanguards in turn order from the seat after its commander."""
    commander = seat_of(seats, COMMANDER_OF[side])
    ring = [(commander + k) % len(seats) for k in range(1, len(seats))]
    return [i for i in ring if seats[i].identity == VANGUARD_OF[side]]


@dataclass(frozen=True)
class Go:
    """The go's state: the side that has it (None before the first is chosen), the question
    waiting (None, FIRST_SIDE or WHO_ACTS), the seats still to act in this go after the current
    one, the seats whose card is sideways, and whether the next turn starts a round (the cards
    were just set upright, or the game starts)."""

    side: Colour | None = None
    asking: str | None = None
    queue: tuple[int, ...] = ()
    sideways: frozenset[int] = field(default_factory=frozenset)
    fresh: bool = True

    def as_data(self) -> dict[str, Any]:
        return {
            "side": self.side.value if self.side else None,
            "asking": self.asking,
            "queue": list(self.queue),
            "sideways": sorted(self.sideways),
            "fresh": self.fresh,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Go:
        if not data:
            return cls()
        return cls(
            side=Colour(data["side"]) if data.get("side") else None,
            asking=data.get("asking"),
            queue=tuple(int(i) for i in data.get("queue", ())),
            sideways=frozenset(int(i) for i in data.get("sideways", ())),
            fresh=bool(data.get("fresh", False)),
        )


def _upright(seats: Sequence[SeatStatus], go: Go, side: Colour) -> list[int]:
    return [
        i
        for i, s in enumerate(seats)
        if s.alive and colour(s.identity) == side and i not in go.sideways
    ]


def acts_open(seats: Sequence[SeatStatus], go: Go, side: Colour) -> tuple[Act, ...]:
    """What the side may choose on its go: its commander (alive and upright), its vanguards
    (one alive and upright)."""
    upright = _upright(seats, go, side)
    options = []
    if seat_of(seats, COMMANDER_OF[side]) in upright:
        options.append(Act.COMMANDER)
    if any(i in upright for i in _vanguards(seats, side)):
        options.append(Act.VANGUARDS)
    return tuple(options)


def _start_turn(go: Go, seat: int, queue: Sequence[int]) -> FlowStep:
    """`seat`'s turn begins: its card turns sideways."""
    after = replace(go, asking=None, queue=tuple(queue), sideways=go.sideways | {seat}, fresh=False)
    return FlowStep(after.as_data(), turn=TurnPass(seat, new_round=go.fresh))


def _act(seats: Sequence[SeatStatus], go: Go, side: Colour, act: Act) -> FlowStep:
    go = replace(go, side=side)
    if act is Act.COMMANDER:
        return _start_turn(go, seat_of(seats, COMMANDER_OF[side]), ())
    upright = set(_upright(seats, go, side))
    order = [i for i in _vanguards(seats, side) if i in upright]
    return _start_turn(go, order[0], order[1:])


def _give_go(seats: Sequence[SeatStatus], go: Go, side: Colour) -> FlowStep:
    """`side` has the go: its only choice is taken at once, else its commander is asked."""
    options = acts_open(seats, go, side)
    if len(options) == 1:
        return _act(seats, go, side, options[0])
    chooser = seat_of(seats, COMMANDER_OF[side])
    asked = replace(go, side=side, asking=WHO_ACTS, queue=())
    return FlowStep(
        asked.as_data(), choice=Choice(chooser, WHO_ACTS, tuple(a.value for a in options))
    )


def _over(seats: Sequence[SeatStatus]) -> bool:
    return any(not s.alive and is_commander(s.identity) for s in seats)


def go_begin(seats: Sequence[SeatStatus]) -> FlowStep:
    """The start of play: the cold commander is asked which side acts first."""
    check_layout([s.identity for s in seats])
    chooser = seat_of(seats, Identity.RENEGADE)
    answers = (Colour.WARM.value, Colour.COLD.value)
    return FlowStep(Go(asking=FIRST_SIDE).as_data(), choice=Choice(chooser, FIRST_SIDE, answers))


def go_answer(
    seats: Sequence[SeatStatus], state: Mapping[str, Any], chooser: int, answer: str
) -> FlowStep:
    """The answer to the question the go waits on. Refused, changing nothing: no question,
    the wrong seat answering, an answer not offered."""
    go = Go.from_data(state)
    if go.asking is None:
        raise Refused("no_question", "nothing is being asked")
    if go.asking == FIRST_SIDE:
        expected = seat_of(seats, Identity.RENEGADE)
        offered: tuple[str, ...] = (Colour.WARM.value, Colour.COLD.value)
    else:
        assert go.side is not None
        expected = seat_of(seats, COMMANDER_OF[go.side])
        offered = tuple(a.value for a in acts_open(seats, go, go.side))
    if chooser != expected:
        raise Refused("not_chooser", f"seat {expected} answers, not seat {chooser}")
    if answer not in offered:
        raise Refused("bad_answer", f"{answer!r} is not one of {offered}")
    if go.asking == FIRST_SIDE:
        # The first turn of the game is a commander's.
        return _act(seats, go, Colour(answer), Act.COMMANDER)
    assert go.side is not None
    return _act(seats, go, go.side, Act(answer))


def go_pending(seats: Sequence[SeatStatus], state: Mapping[str, Any]) -> Choice | None:
    """The question the go waits on, if any (as `go_begin` and `_give_go` asked it)."""
    go = Go.from_data(state)
    if go.asking == FIRST_SIDE:
        answers = (Colour.WARM.value, Colour.COLD.value)
        return Choice(seat_of(seats, Identity.RENEGADE), FIRST_SIDE, answers)
    if go.asking == WHO_ACTS and go.side is not None:
        options = tuple(a.value for a in acts_open(seats, go, go.side))
        return Choice(seat_of(seats, COMMANDER_OF[go.side]), WHO_ACTS, options)
    return None


def go_after_turn(seats: Sequence[SeatStatus], state: Mapping[str, Any], current: int) -> FlowStep:
    """The end of `current`'s turn: every living card sideways sets all upright; then the next
    vanguard of this go, or the go passes (back to this side when every living card of the
    other is sideways and this side has an upright one)."""
    go = Go.from_data(state)
    side = go.side
    if side is None or go.asking is not None:
        raise Refused("no_turn", "no turn is being played")
    alive = {i for i, s in enumerate(seats) if s.alive}
    if alive <= go.sideways:
        go = replace(go, sideways=frozenset(), fresh=True)
    queue = [i for i in go.queue if i in alive]
    if queue:
        return _start_turn(go, queue[0], queue[1:])
    next_side = other(side)
    if _upright(seats, go, next_side):
        return _give_go(seats, go, next_side)
    return _give_go(seats, go, side)


def go_after_death(
    seats: Sequence[SeatStatus], state: Mapping[str, Any], current: int, dead: int
) -> FlowStep:
    """A death: out of this go's queue; the turn passes at once if it was the dead player's.
    Once a commander is dead the game is over and nothing moves."""
    if seats[dead].alive:
        raise Refused("still_alive", f"seat {dead} is alive")
    go = Go.from_data(state)
    go = replace(go, queue=tuple(i for i in go.queue if i != dead))
    if _over(seats) or dead != current:
        return FlowStep(go.as_data())
    return go_after_turn(seats, go.as_data(), current)
