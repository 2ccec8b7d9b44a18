"""The last-three rule (docs/rules.md §9.4; seed 000, 详细规则 3), a table option at any table
size from 4 (at 4 the first death starts the countdown).

When only three players are alive, three more rounds are counted down; then at the end of each
round every living player loses 1 HP together (失去体力: HP loss, no source, not damage) as one
change. If that loss would take them all out together, it does not happen and the rule carries
into the next round (如一起出局则延续到下轮).

Decided here (docs/variants.md): the round in which the third-last player is out is not counted;
the three rounds after it are the countdown, and the first loss is at the end of the fourth.
Rounds are the table's, starting when play comes back to the lord (docs/rules.md §3). Once started
the countdown goes on whoever else dies (the rule is about the end of the game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.rules import modes

OPTION = "last_three"
# The mode it belongs to (its key: data).
MODE = "identity"

ALIVE = 3
COUNTDOWN_ROUNDS = 3
LOSS = 1


@dataclass(frozen=True)
class LastThree:
    """`started`: the round in which only three were left alive (None: not yet);
    `carried`: how many ends of round the loss has carried over."""

    started: int | None = None
    carried: int = 0

    def stored(self) -> dict[str, Any]:
        return {"started": self.started, "carried": self.carried}

    @classmethod
    def from_stored(cls, raw: Mapping[str, Any] | None) -> LastThree:
        if not raw:
            return cls()
        started = raw.get("started")
        return cls(
            started=None if started is None else int(started), carried=int(raw.get("carried", 0))
        )


def watch(state: LastThree, *, alive: int, round_number: int) -> LastThree:
    """After a death in `round_number`: with three alive (or fewer) the countdown starts."""
    if state.started is None and alive <= ALIVE:
        return replace(state, started=round_number)
    return state


def rounds_left(state: LastThree, round_number: int) -> int | None:
    """During `round_number`: the rounds still to play with no loss at their end, this one
    included: 4 in the round the rule starts (it is not counted), then the countdown's 3, 2,
    1; 0 in every round that ends with the loss. None before the rule starts."""
    if state.started is None:
        return None
    return max(state.started + COUNTDOWN_ROUNDS - round_number + 1, 0)


@dataclass(frozen=True)
class RoundLoss:
    """What the end of a round does: `losses`, seat index to HP lost, all as one change
    (empty: nothing); `carried`: the loss would have taken everyone out, so it carries into
    the next round."""

    losses: Mapping[int, int]
    carried: bool = False


def end_of_round(
    state: LastThree, *, round_number: int, hp: Mapping[int, int]
) -> tuple[LastThree, RoundLoss]:
    """The end of `round_number`, with the living players' HP by seat index: every living
    player loses 1 HP once the countdown is over, unless that takes them all out together."""
    left = rounds_left(state, round_number)
    if left is None or left > 0 or not hp:
        return state, RoundLoss(losses={})
    if all(value - LOSS <= 0 for value in hp.values()):
        return replace(state, carried=state.carried + 1), RoundLoss(losses={}, carried=True)
    return state, RoundLoss(losses=dict.fromkeys(sorted(hp), LOSS))


def declare() -> None:
    """Declare its option for the identity game: it fits every other option and count."""
    modes.add_option(OPTION, modes=(MODE,), variant=True, place=40)
