"""Which of the project's modules one tap enters, from the phone's socket back out to every
screen's (docs/architecture.md, "The path of one tap"): the tap is sent over a phone's socket and
every screen's socket is drained while `sys.setprofile` (and `threading.setprofile`, for the
database thread, started again under it) notes each project file a Python function is called in.

Three taps: an HP tap (a phone's "−" on its own HP; also by the turn's holder), a 3 vs 3
commander's go ending (the cold commander's "end turn", which passes the go to the other side)
and a 军争 chain (a 雷杀 through the resolver along four chained seats). Used by
tests/live/test_tap_path.py and bench/tap_trace_modules.py (which prints the counts)."""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from companion import actions
from companion.games.maneuvering import actions as maneuver
from companion.infra import dbthread
from companion.models import Seat, Table
from tests.actions.flow_helpers import after, holder_of
from tests.actions.test_turns import first_game
from tests.live.test_consumers import drain, open_socket
from tests.support.game import picked_all
from tests.support.modeplay import drafter, in_play

ROOT = Path(__file__).resolve().parents[2] / "companion"
# A game package's history words (companion/games/<key>/words.py): the registry asks every
# clause of a line's kind, whichever table registered games play at (one check each).
GAME_WORDS = re.compile(r"games/\w+/words\.py")
# A game package's rules are plain rules like the core's: the table's mode's (the identity
# game's, companion/games/identity/rules/) are asked on the way, as the core's rules/ are.
GAME_RULES = re.compile(r"games/\w+/rules(/\w+)?\.py")


def profiler(
    order: list[str], calls: dict[str, dict[str, None]] | None = None
) -> Callable[[FrameType, str, Any], None]:
    """A profile function that appends each project file entered (relative to companion/) to
    `order`, once per run of calls in it; and to `calls`, by file, the functions called."""

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        path = Path(frame.f_code.co_filename)
        if path.is_relative_to(ROOT):
            name = path.relative_to(ROOT).as_posix()
            if not order or order[-1] != name:
                order.append(name)
            if calls is not None:
                calls.setdefault(name, {})[frame.f_code.co_qualname] = None

    return profile


def outside_rules(order: list[str]) -> set[str]:
    """The files entered outside `rules/` (and outside the game packages' rules and history
    words)."""
    return {
        n
        for n in order
        if not n.startswith("rules/")
        and not GAME_WORDS.fullmatch(n)
        and not GAME_RULES.fullmatch(n)
    }


@dataclass
class Traced:
    """One traced tap: the files in the order entered, the table, its answer."""

    table: Table
    order: list[str]
    answer: dict[str, Any] | None
    # By file, the functions called in it, in the order first called.
    calls: dict[str, dict[str, None]]

    @property
    def outside_rules(self) -> set[str]:
        return outside_rules(self.order)


async def trace_tap(
    table: Table,
    tapper: WebsocketCommunicator,
    screens: list[WebsocketCommunicator],
    name: str,
    action_id: str,
    **fields: Any,
) -> Traced:
    """Send one tap over `tapper` and drain every screen, under the profile."""
    for comm in screens:
        await drain(comm, timeout=0.1)
    order: list[str] = []
    calls: dict[str, dict[str, None]] = {}
    profile = profiler(order, calls)
    # The database thread is stopped so that it starts again for this tap, under the profile
    # (threading.setprofile covers new threads only).
    dbthread.shutdown()
    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        answer = await _tap(tapper, name, action_id, fields)
        for comm in screens:
            await drain(comm)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    return Traced(table, order, answer, calls)


async def _tap(
    comm: WebsocketCommunicator, name: str, action_id: str, fields: dict[str, Any]
) -> dict[str, Any] | None:
    """Send a tap; None once its own frame came back (applied), else its JSON answer. The wait
    is long: a profiled tap on a busy machine takes seconds."""
    await comm.send_to(
        text_data=json.dumps(
            {"type": "act", "name": name, "fields": fields, "action_id": action_id}
        )
    )
    while True:
        frame = await comm.receive_from(timeout=30)
        if frame.startswith("{"):
            answer: dict[str, Any] = json.loads(frame)
            return answer
        if f'data-action="{action_id}"' in frame:
            return None


async def _screens(table: Table, seats: list[Seat]) -> list[WebsocketCommunicator]:
    """Every seat's phone and the display, connected (the display last)."""
    sockets = [(await open_socket(f"/ws/{s.token}/"))[0] for s in seats]
    display, _ = await open_socket(f"/ws/t/{table.code}/")
    return [*sockets, display]


async def _close(screens: list[WebsocketCommunicator]) -> None:
    for comm in screens:
        await comm.disconnect()


async def hp_tap(*, holder: bool = False) -> Traced:
    """A phone's "−" on its own HP at a 4-seat identity table in play: a seat that does not
    hold the turn, or (`holder`) the one that does (its turn bar is redrawn: the hand limit is
    its HP)."""
    table, seats = await database_sync_to_async(picked_all)(4)
    me = next(s for s in seats if (s.pk == table.turn_seat_id) == holder)
    screens = await _screens(table, seats)
    tapper = screens[seats.index(me)]
    traced = await trace_tap(table, tapper, screens, "hp", "tappath001", seat=me.pk, delta=-1)
    await _close(screens)
    return traced


async def hp_tap_holder() -> Traced:
    """The turn's holder's "−" on his own HP."""
    return await hp_tap(holder=True)


def _threes_go() -> tuple[Table, list[Seat], Seat]:
    table, seats = in_play("threes")
    cold = drafter(table, "cold")
    actions.flow_answer(token=cold.token, answer="cold")
    table.refresh_from_db()
    return table, seats, cold


async def threes_go() -> Traced:
    """The cold commander ends his go at a 3 vs 3 table (the go passes to the other side, whose
    commander is asked who acts)."""
    table, seats, cold = await database_sync_to_async(_threes_go)()
    screens = await _screens(table, seats)
    tapper = screens[[s.pk for s in seats].index(cold.pk)]
    traced = await trace_tap(table, tapper, screens, "endturn", "tappath002")
    await _close(screens)
    return traced


def _chain_table() -> tuple[Table, list[Seat], Seat, list[Seat]]:
    table, seats = first_game(6, maneuvering=True)
    source = holder_of(table)
    chained = [after(seats, source, n) for n in (1, 2, 3, 4)]
    for seat in chained:
        maneuver.seat_set_chained(token=table.host_token, seat_id=seat.pk, chained=True)
    table.refresh_from_db()
    return table, seats, source, chained


async def chain_tap() -> Traced:
    """The turn's holder resolves a 雷杀 on the first of four chained seats (军争): one change."""
    table, seats, source, chained = await database_sync_to_async(_chain_table)()
    screens = await _screens(table, seats)
    tapper = screens[[s.pk for s in seats].index(source.pk)]
    fields = {"target": chained[0].pk, "card": "雷杀", "source": source.pk}
    traced = await trace_tap(table, tapper, screens, "resolve", "tappath003", **fields)
    await _close(screens)
    return traced


TAPS: dict[str, Callable[..., Awaitable[Traced]]] = {
    "hp": hp_tap,
    "hp_holder": hp_tap_holder,
    "threes_go": threes_go,
    "chain": chain_tap,
}
