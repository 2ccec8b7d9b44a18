"""3 vs 3 and 1 vs 1 over the phones' taps: each new tap has its form and reaches its
action over HTTP (`/p/<token>/act/<name>`); a whole game of each mode runs to a winner through
taps alone once the table has the mode; a refused tap answers with its message and changes
nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from companion.models import Seat, Table
from tests.support.modeplay import (
    draft_now,
    drafter,
    free_positions,
    mode_table,
    placement_now,
    registered,
)
from tests.web.test_views import htmx_post

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]
__all__ = ["registered"]


def tap(token: str, name: str, data: dict | None = None, path: str = "p") -> int:
    # Each tap is meant as another one (`repeat`): the same death tapped again a moment later
    # is the next hero's, not a double tap (companion.web.taps).
    fields = {**(data or {}), "repeat": "1"}
    response = htmx_post(Client(enforce_csrf_checks=True), f"/{path}/{token}/act/{name}", fields)
    return response.status_code


def ok(token: str, name: str, data: dict | None = None, path: str = "p") -> None:
    status = tap(token, name, data, path)
    assert status < 300, (name, data, status)


def draft_by_taps(table: Table) -> None:
    draft = draft_now(table)
    while not draft.done:
        side = draft.turn
        assert side is not None
        ok(drafter(table, side).token, "draftpick", {"position": free_positions(draft)[0]})
        draft = draft_now(table)
    placement = placement_now(table)
    for side in placement.plan.sides:
        first, second, third = placement.held[side][:3]
        ok(
            drafter(table, side).token,
            "draftplace",
            {"first": first, "second": second, "third": third},
        )


def kill_by_taps(table: Table, victim: Seat) -> None:
    victim = Seat.objects.get(pk=victim.pk)
    ok(table.host_token, "hp", {"seat": victim.pk, "delta": -victim.hp}, "h")
    ok(victim.token, "die", {"seat": victim.pk})


def test_a_duel_is_played_to_a_winner_by_taps() -> None:
    table, seats = mode_table("duel", 2)
    ok(table.host_token, "deal", {}, "h")
    ok(table.host_token, "start", {}, "h")
    # Out of turn: refused with a message, nothing changed.
    table.refresh_from_db()
    version = table.version
    assert tap(drafter(table, "renegade").token, "draftpick", {"position": 0}) == 409
    table.refresh_from_db()
    assert table.version == version
    draft_by_taps(table)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    lord = drafter(table, "lord")
    for _ in range(3):
        kill_by_taps(table, lord)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.winner == "renegade"


def test_a_threes_game_is_played_to_a_winner_by_taps() -> None:
    table, seats = mode_table("threes", 6)
    for i, seat in enumerate(seats):
        ok(seat.token, "team", {"team": i // 3})
    ok(seats[1].token, "commander")
    ok(seats[4].token, "commander")
    ok(table.host_token, "deal", {}, "h")
    ok(table.host_token, "start", {}, "h")
    table.refresh_from_db()
    assert tap(drafter(table, "cold").token, "draftfirst", {"side": "cold"}) == 403
    ok(drafter(table, "warm").token, "draftfirst", {"side": "warm"})
    draft_by_taps(table)
    cold = drafter(table, "cold")
    assert tap(cold.token, "answer", {"answer": "nobody"}) == 409
    ok(cold.token, "answer", {"answer": "cold"})
    table.refresh_from_db()
    assert table.turn_seat_id == cold.pk
    ok(cold.token, "endturn")
    warm = drafter(table, "warm")
    ok(warm.token, "answer", {"answer": "commander"})
    table.refresh_from_db()
    assert table.turn_seat_id == warm.pk
    kill_by_taps(table, cold)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.winner == "lord"
    assert Seat.objects.get(pk=warm.pk).identity == "lord"
