"""What a screen may see of the draft (companion.read.modeview's draft part, through the drafted
mode's game): the pool, each side's holdings, the placements and 1 vs 1's orders, as the rules'
views give them to one side (`Draft.view`, `Placement.view`; None: every screen). A hero this
screen may not see is None."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.draft.rules import Draft, DraftPlan, Placement
from companion.models import Seat, Table
from companion.read.modeview import OrderHero, OrderLine, PoolCardView
from companion.rules import modes
from companion.rules.identities import Identity
from companion.words.names import HeroCard, table_hero_card


def _cards(table: Table, heroes: Sequence[str | None]) -> list[HeroCard | None]:
    return [table_hero_card(h, table) if h else None for h in heroes]


def draft_view(table: Table, seats: list[Seat], side: str | None, drafts: bool) -> dict[str, Any]:
    """The draft's fields of the mode's view for a screen of draft side `side` (None: every
    screen; `drafts`: that screen picks and places for its side)."""
    mode = modes.get(table.mode)
    plan = mode.draft_plan()
    if not isinstance(plan, DraftPlan):
        return {}
    state: dict[str, Any] = table.mode_state or {}
    parts: dict[str, Any] = {}
    parts.update(sides=plan.sides, slots=plan.slots, first_chooser=plan.first_chooser)
    fallen = {str(k): int(v) for k, v in state.get("fallen", {}).items()}
    parts["fallen"] = fallen
    if state.get("draft"):
        draft = Draft.from_data(plan, state["draft"])
        seen = draft.view(side)
        parts.update(
            drafting=table.status == Table.Status.HEROES and not draft.done,
            pool=[
                PoolCardView(
                    i,
                    table_hero_card(c.hero, table) if c.hero else None,
                    c.taken_by,
                    c.face_down,
                )
                for i, c in enumerate(seen.pool)
            ],
            first=seen.first,
            turn=seen.turn,
            left_in_step=seen.left_in_step,
            held={s: _cards(table, h) for s, h in seen.held.items()},
        )
    if state.get("placement"):
        placement = Placement.from_data(plan, state["placement"])
        # A side's places are its drafter's alone until both are revealed (a
        # 3 vs 3 commander places face down; his vanguards see them with everybody).
        placer = side if drafts else None
        parts.update(
            placing=not placement.revealed,
            placed_sides=[s for s in plan.sides if placement.has_placed(s)],
            lineup={s: _cards(table, h) for s, h in placement.view(placer, fallen).items()},
            revealed=placement.revealed,
        )
        if placement.revealed and mode.heroes_per_seat > 1:
            parts["orders"] = _orders(
                table, mode, seats, placement.view(side, fallen), fallen, side
            )
    return parts


def _orders(
    table: Table,
    mode: modes.Mode,
    seats: list[Seat],
    lineup: dict[str, tuple[str | None, ...]],
    fallen: dict[str, int],
    viewer: str | None,
) -> list[OrderLine]:
    """Each seat's order (1 vs 1): its fallen heroes, the one in play, the rest to come (None
    where this screen may not see them)."""
    lines = []
    for seat in seats:
        side = mode.draft_side(Identity(seat.identity)) if seat.identity else None
        if side is None or side not in lineup:
            continue
        gone = fallen.get(side, 0)
        heroes = [
            OrderHero(
                table_hero_card(hero, table) if hero else None,
                "fell" if i < gone or not seat.alive else "in_play" if i == gone else "to_come",
            )
            for i, hero in enumerate(lineup[side])
        ]
        to_come = sum(1 for h in heroes if h.state == "to_come")
        lines.append(OrderLine(seat.pk, seat.name, heroes, to_come, side == viewer))
    return lines
