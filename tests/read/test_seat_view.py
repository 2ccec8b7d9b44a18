"""The seat dialog reads one seat's view (companion.read.seat_view), not the whole public state:
for tables of 4 to 10 seats, with the dead and the dying, equipment, 军争 on and off, dark souls,
a finished game and 3 vs 3, the view is that seat of `public_state` (with the asker's distance
rows, the living seats, the games' parts), and the dialog's HTML is byte for byte what the public
state gives."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from companion.models import Table
from companion.read import history as history_module
from companion.read import state as state_module
from companion.read import turn as turn_module
from companion.read.seat_view import SeatDialogView, SeatName, seat_dialog_view
from companion.read.state import PublicState, public_state
from companion.web.views import dialogs
from tests.support.modeplay import registered  # noqa: F401 - the 3 vs 3 scene's fixture
from tests.support.seatscenes import SCENES, maneuver_eight

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]


def from_public_state(state: PublicState, seat_id: int, asker_id: int | None) -> SeatDialogView:
    """The view as the dialog built it from the whole public state."""
    seat = next(s for s in state.seats if s.id == seat_id)
    rows = next((s.distances for s in state.seats if s.id == asker_id), [])
    return SeatDialogView(
        seat=seat,
        alive=[SeatName(s.id, s.name) for s in state.alive_seats],
        asker_rows=rows,
        games=state.games,
    )


def dialog_paths(table: Table) -> Iterator[tuple[str, int]]:
    """Every seat's dialog as the host's console, each phone and the display ask for it."""
    seats = list(table.seats.order_by("position"))
    prefixes = [f"/h/{table.host_token}", *(f"/p/{s.token}" for s in seats), f"/t/{table.code}"]
    for prefix in prefixes:
        for seat in seats:
            yield f"{prefix}/seat/{seat.pk}", seat.pk


@pytest.mark.parametrize("scene", list(SCENES))
def test_the_seat_view_is_that_seat_of_the_public_state(scene: str) -> None:
    table = SCENES[scene]()
    state = public_state(table)
    ids = [s.id for s in state.seats]
    for seat_id in ids:
        for asker_id in [None, *ids]:
            view = seat_dialog_view(table, seat_id, asker_id=asker_id)
            assert view == from_public_state(state, seat_id, asker_id), (seat_id, asker_id)
            assert view.asker_reaches == any(
                r.reach for r in view.asker_rows if r.seat_id == seat_id
            )
    assert seat_dialog_view(table, max(ids) + 1000) is None


def test_the_scenes_show_what_the_view_must_carry() -> None:
    """The equivalence above is about something: distances, the dead, the dying, chains, 酒."""
    table = maneuver_eight()
    state = public_state(table)
    assert any(not s.alive for s in state.seats) and state.dying
    assert any(s.chained for s in state.seats) and any(s.wine for s in state.seats)
    holder = state.turn_seat_id
    assert holder is not None
    view = seat_dialog_view(table, state.seats[1].id, asker_id=holder)
    assert view is not None and view.asker_rows and view.seat.distances
    assert len(view.alive) == len(state.alive_seats) < len(state.seats)


@pytest.mark.parametrize("scene", list(SCENES))
def test_the_dialog_is_byte_for_byte_what_the_public_state_gives(
    scene: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = SCENES[scene]()
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    paths = list(dialog_paths(table))
    now = {path: client.get(path) for path, _seat in paths}

    def via_public_state(
        table: Table, seat_id: int, *, asker_id: int | None = None
    ) -> SeatDialogView | None:
        state = public_state(table)
        if all(s.id != seat_id for s in state.seats):
            return None
        return from_public_state(state, seat_id, asker_id)

    monkeypatch.setattr(dialogs, "seat_dialog_view", via_public_state)
    for path, _seat in paths:
        before = client.get(path)
        assert now[path].status_code == before.status_code == 200, path
        assert now[path].content == before.content, path


def test_the_dialog_does_not_build_the_whole_public_state(monkeypatch: pytest.MonkeyPatch) -> None:
    table = maneuver_eight()

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the seat dialog built the whole public state")

    # Neither the state itself nor its table-wide parts: every distance, the history, the
    # turn bar, the seat moves waiting.
    for name in ("public_state", "_distances", "history_lines", "turn_bar", "_handovers"):
        monkeypatch.setattr(state_module, name, refused)
    # Where the turn bar and the history lines are built, too.
    monkeypatch.setattr(turn_module, "turn_bar", refused)
    monkeypatch.setattr(history_module, "history_lines", refused)
    monkeypatch.setattr(dialogs, "public_state", refused, raising=False)
    client = Client()
    for path, _seat in dialog_paths(table):
        response = client.get(path)
        assert response.status_code == 200, path
        assert 'class="dialog"' in response.content.decode()


def test_the_dialog_asks_three_queries_whatever_the_tables_size() -> None:
    """A phone's or the display's seat dialog reads the actor with its table, the seats and the
    seat's HP history: three queries for 4, 8 or 10 seats (the whole public state would also
    read the history, the seat moves waiting and more)."""
    counts: dict[str, set[int]] = {}
    client = Client()
    for scene in ("lobby", "maneuver_eight", "ten"):
        table = SCENES[scene]()
        for path, _seat in dialog_paths(table):
            client.get(path)  # the first asks of a process (the mode's caches) aside
            with CaptureQueriesContext(connection) as queries:
                assert client.get(path).status_code == 200, path
            counts.setdefault(path.split("/")[1], set()).add(len(queries))
    assert counts["p"] == counts["t"] == {3}, counts
    assert len(counts["h"]) == 1, counts  # the host's console: the same for every table too
