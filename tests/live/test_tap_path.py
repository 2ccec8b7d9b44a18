"""The path of one tap (docs/architecture.md, "The path of one tap"): an HP change sent over a
phone's socket goes through five stops, in this order, and calls only the helpers the document
names beside them. A new detour (a module entered that the document does not name) fails here,
so the document and the code cannot drift apart."""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from companion import hooks
from companion.infra import dbthread
from tests.live.test_socket_taps import drain, open_socket, playing, tap_seeing

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ROOT = Path(__file__).resolve().parents[2] / "companion"

# The five stops, in the order the tap goes through them: from the phone's socket back out to
# every screen's.
STOPS = (
    "web/consumers/table.py",  # the phone's socket receives the tap
    "web/consumers/socket_taps.py",  # checked, queued on the database thread
    "web/dispatch.py",  # judged once: the tap's form, then its action
    "actions/hp.py",  # the write: one transaction, one event, the version bumped
    "live/broadcast.py",  # on commit: rendered once per language, handed to the layer
    "web/consumers/table.py",  # every screen's socket sends its frame
)

# What the stops call on the way, as docs/architecture.md lists it beside each stop.
HELPERS = {
    "web/taps.py",  # the tap's arrival and the merging of identical taps
    "infra/dbthread.py",  # the one database thread
    "web/forms.py",  # the tap's form
    "web/tapform.py",  # the base of every tap's form
    "web/fields.py",  # its fields
    "actions/core/actors.py",  # who may change a seat
    "actions/core/credentials.py",  # the acting seat
    "actions/core/record.py",  # the action's frame, `record`
    "actions/play.py",  # the change as a delta of the seats it touched
    "actions/outcomes.py",  # a tap judged before?
    "infra/fastsql.py",  # the statements every tap runs
    "models.py",
    "outbox.py",  # the change, announced on commit
    "read/delta.py",  # what the change touched, as the screens show it
    "read/history.py",  # the history line
    "read/private.py",  # the seat's own HP tracker
    "read/public_seat.py",  # a seat as every screen sees it
    "read/state.py",
    "read/turn.py",  # the turn bar, when a touched seat has the turn
    "live/fragments.py",  # the delta's pieces
    "words/history.py",  # the history line: its kind's line, looked up
    "words/play_lines.py",  # the HP line's words
    "words/names.py",  # hero and card names
    "words/labels.py",  # identities, phases
    "hooks.py",  # the games on at the table (none here: a game that is off is never entered)
}
REQUIRED = {
    "infra/dbthread.py",
    "web/forms.py",
    "actions/core/record.py",
    "infra/fastsql.py",
    "outbox.py",
    "read/delta.py",
    "live/fragments.py",
}
# Entered or not depending on what the process did before (a cache already warm, a module's
# first use): allowed on the way, not required.
MAYBE = {
    "actions/inputs.py",
    # The seats as the rules' inputs (distances, the turn bar's statuses), read by the delta.
    "queries/seats.py",
    "templatetags/sgs.py",
    # The page's slots for the games on (none here: one check, when a piece with a slot renders).
    "templatetags/game_tags.py",
}
# A game package's history words (companion/games/<key>/words.py): the registry asks every
# clause of the HP line's kind, whichever table registered games play at (one check each).
GAME_WORDS = re.compile(r"games/\w+/words\.py")
# A game package's rules are plain rules like the core's: the table's mode's (the identity game's,
# companion/games/identity/rules/) are asked on the way, as the core's rules/ are.
GAME_RULES = re.compile(r"games/\w+/rules(/\w+)?\.py")
# On the in-memory layer only: its delivery (Redis delivers on several processes).
IN_MEMORY = {"live/layers.py"}
# On Redis only: the socket checks that the layer is reachable before it takes a tap, and the
# throttles count in the shared cache.
ON_REDIS = {"web/consumers/layer_probe.py", "infra/cache.py"}


def _entered(order: list[str]) -> Any:
    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        path = Path(frame.f_code.co_filename)
        if path.is_relative_to(ROOT):
            name = path.relative_to(ROOT).as_posix()
            if not order or order[-1] != name:
                order.append(name)

    return profile


async def test_an_hp_tap_goes_through_the_five_stops_the_architecture_names() -> None:
    table, seats = await playing(4)
    me = seats[1]
    sockets = [(await open_socket(f"/ws/{s.token}/"))[0] for s in seats]
    display, _ = await open_socket(f"/ws/t/{table.code}/")
    order: list[str] = []
    profile = _entered(order)
    # The database thread may have been started by an earlier test: stopped here, it starts
    # again for this tap, under the profile (threading.setprofile covers new threads only).
    dbthread.shutdown()
    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        answer, _frames = await tap_seeing(sockets[1], "hp", "tappath001", seat=me.pk, delta=-1)
        for comm in [*sockets, display]:
            await drain(comm)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    assert answer is None  # answered by its own frame: the tap was applied
    assert len(set(STOPS)) == 5
    at = 0
    for stop in STOPS:  # the stops in this order (with anything between them)
        assert stop in order[at:], (stop, order)
        at = order.index(stop, at) + 1
    outside_rules = {
        name
        for name in order
        if not name.startswith("rules/")
        and not GAME_WORDS.fullmatch(name)
        and not GAME_RULES.fullmatch(name)
    }
    # No other file of a game's package but the hooks of the games on at this table (the house
    # rules, on at every identity table: their slot is padded alike for every phone).
    on_here = {f"games/{game.key}/hooks.py" for game in hooks.on(table)}
    assert on_here <= {"games/house/hooks.py"}, on_here
    assert not [n for n in outside_rules if n.startswith("games/") and n not in on_here]
    outside_rules -= on_here
    assert outside_rules - set(STOPS) - HELPERS - MAYBE - ON_REDIS - IN_MEMORY == set()
    # The helpers that do the tap's work are on the way whatever ran before in this process
    # (others, such as the names, may be answered from a cache warmed by an earlier test).
    assert REQUIRED - outside_rules == set()
    for comm in [*sockets, display]:
        await comm.disconnect()
