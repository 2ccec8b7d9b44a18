"""3 vs 3 and 1 vs 1 tables through the real service functions. The modes are not
offered yet (`_MODES`): `registered` adds them for a test only; a table is switched to one by
its stored `mode` (no create form offers it yet)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion import actions
from companion.games.draft import actions as draft_actions
from companion.games.draft.rules import Draft, Placement
from companion.games.duel.rules import DuelMode
from companion.games.threes import actions as threes_actions
from companion.games.threes.rules import ThreesMode
from companion.models import Seat, Table
from companion.rules import modes
from tests.support.factories import make_table
from tests.support.game import fresh


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(modes._MODES, "threes", ThreesMode())  # noqa: SLF001 - for the test
    monkeypatch.setitem(modes._MODES, "duel", DuelMode())  # noqa: SLF001 - for the test
    yield


def mode_table(key: str, players: int) -> tuple[Table, list[Seat]]:
    """A lobby of this mode with `players` seats (P1…)."""
    table, _seats = make_table(0)
    Table.objects.filter(pk=table.pk).update(mode=key)
    seats = [
        actions.seat_join(code=table.code, name=f"P{i + 1}", device=f"d-{table.code}-{i}")[0]
        for i in range(players)
    ]
    table.refresh_from_db()
    return table, seats


def threes_lobby() -> tuple[Table, list[Seat]]:
    """Six players in two full teams: P1–P3 team 0 (P2 commands), P4–P6 team 1 (P5)."""
    table, seats = mode_table("threes", 6)
    for i, seat in enumerate(seats):
        threes_actions.team_join(token=seat.token, team=i // 3)
    threes_actions.team_commander(token=seats[1].token)
    threes_actions.team_commander(token=seats[4].token)
    table.refresh_from_db()
    return table, [fresh(s) for s in seats]


def dealt_and_started(table: Table) -> list[Seat]:
    actions.identities_deal(token=table.host_token)
    actions.game_start(token=table.host_token)
    table.refresh_from_db()
    return list(table.seats.order_by("position"))


def drafter(table: Table, side: str) -> Seat:
    """The seat that drafts for this side."""
    mode = modes.get(table.mode)
    for seat in table.seats.all():
        if mode.drafts_for_side(seat.identity) and mode.draft_side(seat.identity) == side:
            return seat
    raise AssertionError(side)


def draft_now(table: Table) -> Draft:
    table.refresh_from_db()
    plan = modes.get(table.mode).draft_plan()
    assert plan is not None
    return Draft.from_data(plan, table.mode_state["draft"])


def placement_now(table: Table) -> Placement:
    table.refresh_from_db()
    plan = modes.get(table.mode).draft_plan()
    assert plan is not None
    return Placement.from_data(plan, table.mode_state["placement"])


def free_positions(draft: Draft) -> list[int]:
    taken = {p for p, _side in draft.picks}
    return [p for p in range(len(draft.pool)) if p not in taken]


def draft_all(table: Table) -> None:
    """Every step of the draft, each side taking the first free heroes (3 vs 3: warm first)."""
    draft = draft_now(table)
    if draft.first is None:
        chooser = drafter(table, draft.plan.first_chooser or "")
        draft_actions.draft_first(token=chooser.token, side=draft.plan.sides[0])
        draft = draft_now(table)
    while not draft.done:
        side = draft.turn
        assert side is not None
        draft_actions.draft_pick(
            token=drafter(table, side).token, positions=free_positions(draft)[: draft.left_in_step]
        )
        draft = draft_now(table)


def place_all(table: Table, sides: list[str] | None = None) -> None:
    """Each side (or these) places its first heroes in the order taken."""
    placement = placement_now(table)
    for side in sides or list(placement.plan.sides):
        heroes = placement.held[side][: len(placement.plan.slots)]
        draft_actions.draft_place(token=drafter(table, side).token, heroes=list(heroes))


def in_play(key: str) -> tuple[Table, list[Seat]]:
    """A game of this mode in play: teams (3 vs 3), deal, draft, placement, reveal."""
    if key == "threes":
        table, _seats = threes_lobby()
    else:
        table, _seats = mode_table("duel", 2)
    dealt_and_started(table)
    draft_all(table)
    place_all(table)
    table.refresh_from_db()
    return table, list(table.seats.order_by("position"))
