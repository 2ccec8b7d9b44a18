"""A hero draft between two sides, then each side's secret placement (plain data).

3 vs 3 and 1 vs 1 (docs/rules.md §9.7, §9.8) share the shape: a pool of heroes on the table (some
may be face down), picks alternating between two sides in steps of a fixed size (1-2-2-…-1), then
each side puts some of its heroes on its places (3 vs 3: the commander and the two vanguards; 1 vs
1: first, second, third) face down, and both sides are revealed together. A mode gives the shape
as a `DraftPlan`; `Draft` and `Placement` are frozen values: each step returns a new one, and a
refused step (`DraftError`) changes nothing. `as_data` / `from_data` keep them in a table's JSON.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.rules import chance
from companion.rules.errors import Refused


class DraftError(Refused):
    """A pick, a choice or a placement the draft refuses; nothing changed."""


@dataclass(frozen=True)
class DraftPlan:
    """The shape of a mode's draft.

    `sides`: the two sides' names. `pool_size` heroes are dealt, `face_down` of them face down.
    `steps`: how many heroes each pick takes, sides alternating from the first. The side that
    picks first is `first_side`, or, when that is None, chosen by `first_chooser`'s player.
    `slots`: the places each side fills, in order, from the heroes it took. `reveal_all`: the
    reveal shows every place (else the first only, the next as heroes fall)."""

    sides: tuple[str, str]
    pool_size: int
    face_down: int
    steps: tuple[int, ...]
    slots: tuple[str, ...]
    first_side: str | None
    first_chooser: str | None
    reveal_all: bool

    def __post_init__(self) -> None:
        if len(set(self.sides)) != 2:
            raise ValueError("a draft has two different sides")
        if sum(self.steps) != self.pool_size or any(step < 1 for step in self.steps):
            raise ValueError("the steps take the whole pool, one hero or more each")
        if not 0 <= self.face_down <= self.pool_size:
            raise ValueError("face_down outside the pool")
        if (self.first_side is None) == (self.first_chooser is None):
            raise ValueError("the first side is either fixed or chosen, not both")
        for side in (self.first_side, self.first_chooser):
            if side is not None and side not in self.sides:
                raise ValueError(f"unknown side {side}")
        if len(self.slots) > min(self.taken_by_each()):
            raise ValueError("more places than heroes a side takes")

    def taken_by_each(self) -> tuple[int, int]:
        """How many heroes the first and the second picker take in all."""
        return sum(self.steps[0::2]), sum(self.steps[1::2])

    def other(self, side: str) -> str:
        """The other side."""
        self.check_side(side)
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def check_side(self, side: str) -> None:
        if side not in self.sides:
            raise DraftError("bad_side", f"{side!r} is not a side of this draft")


@dataclass(frozen=True)
class PoolCard:
    """One hero of the pool as a viewer sees it: the hero (None: face down to this viewer) and
    the side that took it (None: still on the table)."""

    hero: str | None
    taken_by: str | None
    face_down: bool


@dataclass(frozen=True)
class DraftView:
    """The draft as one viewer (a side, or None: every screen) may see it: the pool, whose pick
    it is and how many heroes that pick still takes, and what each side holds (a hero this
    viewer may not see is None)."""

    pool: tuple[PoolCard, ...]
    first: str | None
    turn: str | None
    left_in_step: int
    held: dict[str, tuple[str | None, ...]]


@dataclass(frozen=True)
class Draft:
    """A draft in progress: the pool (positions 0…), the positions dealt face down, the side
    that picks first (None until chosen), and every pick so far as (position, side)."""

    plan: DraftPlan
    pool: tuple[str, ...]
    face_down: frozenset[int]
    first: str | None
    picks: tuple[tuple[int, str], ...] = ()

    # Starting --------------------------------------------------------------------------------

    @classmethod
    def deal(
        cls, plan: DraftPlan, heroes: Collection[str], rng: random.Random | None = None
    ) -> Draft:
        """A pool drawn at random from `heroes` (the table's), with `plan.face_down` of its
        positions face down at random."""
        distinct = sorted(set(heroes))
        if len(distinct) < plan.pool_size:
            raise DraftError(
                "too_few_heroes", f"{plan.pool_size} heroes needed, {len(distinct)} given"
            )
        rng = chance.given_or_source(rng)
        pool = tuple(rng.sample(distinct, plan.pool_size))
        down = frozenset(rng.sample(range(plan.pool_size), plan.face_down))
        return cls(plan=plan, pool=pool, face_down=down, first=plan.first_side)

    @classmethod
    def entered(
        cls,
        plan: DraftPlan,
        pool: Sequence[str],
        *,
        known: Collection[str] | None = None,
        face_down: Collection[int] = (),
    ) -> Draft:
        """A pool entered by hand (the heroes laid out on the table): the plan's number of
        different heroes, each one the table has (`known`), and which positions lie face down."""
        if len(pool) != plan.pool_size:
            raise DraftError("pool_size", f"{plan.pool_size} heroes needed, {len(pool)} given")
        if len(set(pool)) != len(pool):
            raise DraftError("pool_repeats", "a hero is entered twice")
        if known is not None:
            unknown = sorted(set(pool) - set(known))
            if unknown:
                raise DraftError("unknown_hero", f"not among the table's heroes: {unknown}")
        down = frozenset(face_down)
        if len(down) != plan.face_down or not down <= set(range(plan.pool_size)):
            raise DraftError("face_down", f"{plan.face_down} positions lie face down")
        return cls(plan=plan, pool=tuple(pool), face_down=down, first=plan.first_side)

    def choose_first(self, side: str) -> Draft:
        """The first chooser's player names the side that picks first."""
        if self.first is not None:
            raise DraftError("first_chosen", f"{self.first} picks first already")
        self.plan.check_side(side)
        return replace(self, first=side)

    # Whose pick ------------------------------------------------------------------------------

    def _step(self) -> tuple[int, int]:
        """The current step's index and how many picks it still takes (index = len(steps)
        once the draft is over)."""
        made = len(self.picks)
        for index, size in enumerate(self.plan.steps):
            if made < size:
                return index, size - made
            made -= size
        return len(self.plan.steps), 0

    @property
    def done(self) -> bool:
        return len(self.picks) == self.plan.pool_size

    @property
    def turn(self) -> str | None:
        """The side whose pick it is; None before the first side is chosen or once all is
        picked."""
        if self.first is None or self.done:
            return None
        index, _ = self._step()
        return self.first if index % 2 == 0 else self.plan.other(self.first)

    @property
    def left_in_step(self) -> int:
        """How many heroes the current pick still takes (0 when nobody is picking)."""
        return self._step()[1] if self.turn is not None else 0

    @property
    def step_sizes(self) -> tuple[tuple[str, int], ...]:
        """Every step of the draft as (side, heroes), once the first side is known."""
        if self.first is None:
            return ()
        second = self.plan.other(self.first)
        return tuple(
            (self.first if i % 2 == 0 else second, size) for i, size in enumerate(self.plan.steps)
        )

    # Picking ---------------------------------------------------------------------------------

    def pick(self, side: str, positions: Sequence[int]) -> Draft:
        """`side` takes the heroes at these pool positions (one pick, or a whole step at once).
        Refused, changing nothing: before the first side is chosen, once the draft is over, out
        of turn (`step_done` when the side has just taken its step), more heroes than the step
        has left, a position twice, off the pool, or taken."""
        self.plan.check_side(side)
        if self.first is None:
            raise DraftError("first_not_chosen", "who picks first is not chosen yet")
        if self.done:
            raise DraftError("draft_over", "every hero is taken")
        turn = self.turn
        if side != turn:
            if self.picks and self.picks[-1][1] == side:
                raise DraftError("step_done", f"{side} has taken this step; {turn} picks")
            raise DraftError("out_of_turn", f"{turn} picks now, not {side}")
        if not positions:
            raise DraftError("no_pick", "no hero named")
        if len(positions) > self.left_in_step:
            raise DraftError(
                "too_many", f"this pick takes {self.left_in_step}, not {len(positions)}"
            )
        if len(set(positions)) != len(positions):
            raise DraftError("repeated", "a hero named twice")
        taken = {position for position, _ in self.picks}
        for position in positions:
            if not isinstance(position, int) or not 0 <= position < self.plan.pool_size:
                raise DraftError("not_in_pool", f"no hero at position {position!r}")
            if position in taken:
                raise DraftError("taken", f"the hero at position {position} is taken")
        return replace(self, picks=(*self.picks, *((p, side) for p in positions)))

    def position_of(self, hero: str) -> int:
        """The pool position of a face-up hero (a face-down one is picked by its position)."""
        for position, pooled in enumerate(self.pool):
            if pooled == hero and position not in self.face_down:
                return position
        raise DraftError("not_in_pool", f"{hero} is not face up in the pool")

    def held(self, side: str) -> tuple[str, ...]:
        """The heroes `side` has taken, in pick order."""
        self.plan.check_side(side)
        return tuple(self.pool[p] for p, taker in self.picks if taker == side)

    # What each screen sees -------------------------------------------------------------------

    def _visible(self, position: int, viewer: str | None) -> bool:
        if position not in self.face_down:
            return True
        return any(p == position and taker == viewer for p, taker in self.picks)

    def view(self, viewer: str | None) -> DraftView:
        """The draft as `viewer` sees it (None: every screen): a face-down hero is shown only
        to the side that took it."""
        if viewer is not None:
            self.plan.check_side(viewer)
        takers = dict(self.picks)
        pool = tuple(
            PoolCard(
                hero=hero if self._visible(position, viewer) else None,
                taken_by=takers.get(position),
                face_down=position in self.face_down,
            )
            for position, hero in enumerate(self.pool)
        )
        held = {
            side: tuple(
                self.pool[p] if self._visible(p, viewer) else None
                for p, taker in self.picks
                if taker == side
            )
            for side in self.plan.sides
        }
        return DraftView(
            pool=pool, first=self.first, turn=self.turn, left_in_step=self.left_in_step, held=held
        )

    # Stored ----------------------------------------------------------------------------------

    def as_data(self) -> dict[str, Any]:
        return {
            "pool": list(self.pool),
            "face_down": sorted(self.face_down),
            "first": self.first,
            "picks": [[position, side] for position, side in self.picks],
        }

    @classmethod
    def from_data(cls, plan: DraftPlan, data: Mapping[str, Any]) -> Draft:
        return cls(
            plan=plan,
            pool=tuple(data["pool"]),
            face_down=frozenset(data["face_down"]),
            first=data["first"],
            picks=tuple((int(p), str(s)) for p, s in data["picks"]),
        )


@dataclass(frozen=True)
class Placement:
    """Each side puts heroes it holds on its places (`plan.slots`), in secret; both are revealed
    together once both have placed. `placed[side]` is the side's heroes in slot order."""

    plan: DraftPlan
    held: dict[str, tuple[str, ...]]
    placed: dict[str, tuple[str, ...]]

    @classmethod
    def after(cls, draft: Draft) -> Placement:
        """The placement that follows a finished draft."""
        if not draft.done:
            raise DraftError("draft_not_done", "the draft is still on")
        return cls(
            plan=draft.plan,
            held={side: draft.held(side) for side in draft.plan.sides},
            placed={},
        )

    def place(self, side: str, heroes: Sequence[str]) -> Placement:
        """`side` puts these heroes on its places, in slot order. Refused, changing nothing:
        a side that has placed, the wrong number, a hero twice, a hero the side does not hold."""
        self.plan.check_side(side)
        if side in self.placed:
            raise DraftError("already_placed", f"{side} has placed its heroes")
        if len(heroes) != len(self.plan.slots):
            raise DraftError(
                "wrong_count", f"{len(self.plan.slots)} heroes to place, not {len(heroes)}"
            )
        if len(set(heroes)) != len(heroes):
            raise DraftError("repeated", "a hero placed twice")
        missing = [hero for hero in heroes if hero not in self.held[side]]
        if missing:
            raise DraftError("not_held", f"{side} does not hold {', '.join(missing)}")
        return replace(self, placed={**self.placed, side: tuple(heroes)})

    def has_placed(self, side: str) -> bool:
        self.plan.check_side(side)
        return side in self.placed

    @property
    def revealed(self) -> bool:
        """Both sides have placed: their heroes are revealed together."""
        return all(side in self.placed for side in self.plan.sides)

    def lineup(self, side: str) -> tuple[str, ...]:
        """The heroes `side` placed, in slot order."""
        self.plan.check_side(side)
        if side not in self.placed:
            raise DraftError("not_placed", f"{side} has not placed yet")
        return self.placed[side]

    def view(
        self, viewer: str | None, fallen: Mapping[str, int] | None = None
    ) -> dict[str, tuple[str | None, ...]]:
        """Each side's places as `viewer` sees them (None: hidden; an empty tuple: not placed
        yet). A side sees its own; nothing of the other side shows before both have placed;
        then every place (`plan.reveal_all`), or each side's first place and one more for each
        of its heroes that has fallen (`fallen`)."""
        if viewer is not None:
            self.plan.check_side(viewer)
        fallen = fallen or {}
        seen: dict[str, tuple[str | None, ...]] = {}
        for side in self.plan.sides:
            heroes = self.placed.get(side, ())
            if side == viewer:
                shown = len(heroes)
            elif not self.revealed:
                shown = 0
            elif self.plan.reveal_all:
                shown = len(heroes)
            else:
                shown = 1 + fallen.get(side, 0)
            seen[side] = tuple(hero if i < shown else None for i, hero in enumerate(heroes))
        return seen

    def as_data(self) -> dict[str, Any]:
        return {
            "held": {side: list(heroes) for side, heroes in self.held.items()},
            "placed": {side: list(heroes) for side, heroes in self.placed.items()},
        }

    @classmethod
    def from_data(cls, plan: DraftPlan, data: Mapping[str, Any]) -> Placement:
        return cls(
            plan=plan,
            held={side: tuple(heroes) for side, heroes in data["held"].items()},
            placed={side: tuple(heroes) for side, heroes in data["placed"].items()},
        )
