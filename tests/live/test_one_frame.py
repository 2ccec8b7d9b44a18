"""One transaction, one frame per screen: an action that records several changes (the last hero
pick records the pick, then the reveal; a death that ends the game, the death, then the game's
end) reaches every screen once per group at the final version, carrying what each change showed:
every history line, in order, and every private part any of them redraws, each to its own phone
only (companion.outbox.announce)."""

from __future__ import annotations

import contextlib
import html
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.utils import translation

from companion import actions, outbox
from companion.models import Event, Seat, Table
from companion.words.history import describe
from tests.live.test_consumers import drain, open_socket
from tests.support.factories import make_table
from tests.support.game import by_identity, fresh, kill, picked_all, started

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PICKED = "P{n} has chosen a hero (3 of 3)"
REVEALED = "All heroes revealed: take your hero card from the box"


@database_sync_to_async
def _all_but_one_picked() -> tuple[Table, list[Seat], Seat]:
    """Four seats; the lord and two others have picked: the last pick reveals every hero."""
    table, seats = started(4)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
    others = [fresh(s) for s in seats if s.pk != lord.pk]
    for seat in others[:-1]:
        actions.hero_pick(token=seat.token, hero_id=seat.hero_candidates[-1])
    table.refresh_from_db()
    return table, [fresh(s) for s in seats], fresh(others[-1])


@database_sync_to_async
def _now(table: Table) -> Table:
    return Table.objects.get(pk=table.pk)


@database_sync_to_async
def _lines(table: Table, kinds: list[str]) -> list[str]:
    """The history's English lines of the table's last events of these kinds."""
    with translation.override("en"):
        return [
            describe(kind, Event.objects.filter(table=table, kind=kind).latest("version").public)[
                "text"
            ]
            for kind in kinds
        ]


@database_sync_to_async
def _heroes(seats: list[Seat]) -> dict[int, str]:
    return {s.pk: fresh(s).hero for s in seats}


def _version(frame: str) -> int:
    match = re.search(r'data-version="(\d+)"', frame)
    assert match, frame[:200]
    return int(match.group(1))


def _roots(frame: str) -> list[str]:
    """The ids of the fragments a frame swaps in (its out-of-band roots)."""
    return re.findall(r'<\w+ id="([\w-]+)"[^>]*hx-swap-oob', frame)


async def _screens(table: Table, seats: list[Seat]) -> dict[str, WebsocketCommunicator]:
    """Every phone, the host's console and the display, in English."""
    screens = {f"seat {s.pk}": (await open_socket(f"/ws/{s.token}/", lang="en"))[0] for s in seats}
    screens["host"] = (await open_socket(f"/ws/{table.host_token}/", lang="en"))[0]
    screens["display"] = (await open_socket(f"/ws/t/{table.code}/", lang="en"))[0]
    return screens


async def _frames(comm: WebsocketCommunicator) -> list[str]:
    """The frames a screen receives for the change: the first waited for (long: a loaded
    machine with Redis can take more than the quiet below to deliver it), then any more until
    the socket is quiet for half a second."""
    first = await comm.receive_output(timeout=10)
    assert first["type"] == "websocket.send", first
    return [first["text"], *await drain(comm, timeout=0.5)]


def _check_one_frame_per_group(name: str, frames: list[str], version: int) -> dict[str, str]:
    """Each swapped part once, all at `version`; the frames by the part they carry."""
    assert frames, f"{name}: no frame"
    assert not [f for f in frames if f.startswith("{")], (name, frames)
    by_root: dict[str, str] = {}
    for frame in frames:
        assert _version(frame) == version, f"{name}: a frame at {_version(frame)}"
        roots = _roots(frame)
        assert roots, frame[:200]
        for root in roots:
            assert root not in by_root, f"{name}: #{root} sent twice at {version}"
            by_root[root] = frame
    expected = {"table-state"}
    if name.startswith("seat"):
        expected.add("my-seat")
    if name == "host":
        expected.add("host-panel")
    assert expected <= set(by_root), (name, sorted(by_root))
    return by_root


async def _tap(comm: WebsocketCommunicator, action_id: str, hero: str) -> None:
    message = {"type": "act", "name": "pick", "fields": {"hero": hero}, "action_id": action_id}
    await comm.send_to(text_data=json.dumps(message))


@pytest.mark.parametrize("way", ["socket", "call"])
async def test_the_last_hero_pick_sends_each_screen_one_frame_with_both_changes(way: str) -> None:
    table, seats, last = await _all_but_one_picked()
    screens = await _screens(table, seats)
    hero = last.hero_candidates[-1]
    if way == "socket":
        await _tap(screens[f"seat {last.pk}"], "lastpick01", hero)
    else:  # as over HTTP: the change sends its own frames after the commit
        await database_sync_to_async(actions.hero_pick)(
            token=last.token, hero_id=hero, action_id="lastpick01"
        )
    received = {name: await _frames(comm) for name, comm in screens.items()}
    now = await _now(table)
    assert now.version == table.version + 2  # the pick, then the reveal
    assert now.status == Table.Status.PLAYING
    heroes = await _heroes(seats)
    assert heroes[last.pk] == hero
    picked = PICKED.format(n=last.position + 1)
    for name, frames in received.items():
        by_root = _check_one_frame_per_group(name, frames, now.version)
        public = by_root["table-state"]
        # The tap's own frame names it (the socket's answer), and it holds both history lines,
        # newest first.
        assert 'data-action="lastpick01"' in public
        # It names the first of the two versions: a phone at the one before has missed nothing
        # (js/live/socket.js asks for no state again).
        assert f'data-since="{table.version + 1}"' in public
        assert picked in public and REVEALED in public, name
        assert public.index(REVEALED) < public.index(picked)
        if not name.startswith("seat"):
            continue
        mine = by_root["my-seat"]
        seat_id = int(name.split()[1])
        # Each phone's private part is its own: its seat, its hero, nobody else's.
        assert f'data-seat="{seat_id}"' in mine
        assert heroes[seat_id] in mine
        others = {pk for pk in heroes if pk != seat_id}
        assert not [pk for pk in others if f'data-seat="{pk}"' in mine]
    for comm in screens.values():
        await comm.disconnect()


async def test_a_death_that_ends_the_game_sends_each_screen_one_frame() -> None:
    table, seats = await database_sync_to_async(picked_all)(4)
    lord = (await database_sync_to_async(by_identity)(table, "lord"))[0]
    screens = await _screens(table, seats)
    await database_sync_to_async(kill)(table, lord, None)
    now = await _now(table)
    assert now.status == Table.Status.FINISHED
    died, game_over = await _lines(table, ["died", "game_over"])
    for name, comm in screens.items():
        frames = await _frames(comm)
        # The damage first, then the death and the game's end as one.
        assert now.version - 1 not in [_version(f) for f in frames], name
        last = [f for f in frames if _version(f) == now.version]
        by_root = _check_one_frame_per_group(name, last, now.version)
        # Both history lines, newest first; the standings the game's end scored ride along.
        shown = html.unescape(re.sub(r"<[^>]+>", "", by_root["table-state"]))
        assert 0 <= shown.index(game_over) < shown.index(died), name
        assert "session-panel" in by_root
    for comm in screens.values():
        await comm.disconnect()


def _heard(table_id: int, *transactions: Callable[[], None]) -> tuple[list[Any], list[int]]:
    """What `change_committed` and `whole_change_committed` hear while these run."""
    heard: list[outbox.Change] = []
    whole: list[int] = []

    def listen(sender: object, change: outbox.Change, **kwargs: Any) -> None:
        if change.table_id == table_id:
            heard.append(change)

    def listen_whole(sender: object, change: outbox.Change, **kwargs: Any) -> None:
        if change.table_id == table_id:
            whole.append(change.version)

    outbox.change_committed.connect(listen, dispatch_uid="test.one_frame")
    outbox.whole_change_committed.connect(listen_whole, dispatch_uid="test.one_frame")
    try:
        for run in transactions:
            with contextlib.suppress(RuntimeError):
                run()
    finally:
        outbox.change_committed.disconnect(dispatch_uid="test.one_frame")
        outbox.whole_change_committed.disconnect(dispatch_uid="test.one_frame")
    return heard, whole


@database_sync_to_async
def _announced(table: Table, seats: list[Seat]) -> tuple[list[Any], list[int]]:
    t, v = table.pk, table.version
    a, b, c, d = (s.pk for s in seats)

    def two_then_a_savepoint_rolled_back() -> None:
        with transaction.atomic():
            outbox.announce(outbox.Change(t, v + 1, private_seats={a}, host_panel=False))
            outbox.announce(outbox.Change(t, v + 2, private_seats={b}, action_id="tap0000001"))
            with contextlib.suppress(RuntimeError), transaction.atomic():
                outbox.announce(outbox.Change(t, v + 3, private_seats={c}))
                raise RuntimeError("rolled back to its savepoint")

    def rolled_back() -> None:
        with transaction.atomic():
            outbox.announce(outbox.Change(t, v + 3, private_seats={d}))
            raise RuntimeError("rolled back")

    def two_more() -> None:
        with transaction.atomic():
            outbox.announce(outbox.Change(t, v + 3, private_seats={c}))
            outbox.announce(outbox.Change(t, v + 4, private_seats={d}))

    return _heard(t, two_then_a_savepoint_rolled_back, rolled_back, two_more)


async def test_one_transactions_changes_are_heard_once_and_a_rolled_back_one_never() -> None:
    table, seats = await database_sync_to_async(make_table)(4)
    heard, whole = await _announced(table, seats)
    v = table.version
    a, b, c, d = (s.pk for s in seats)
    # One change per transaction committed, at its last version, standing for all of them.
    assert [h.version for h in heard] == [v + 2, v + 4]
    assert [h.since for h in heard] == [v + 1, v + 3]
    first, second = heard
    # Every private part either change redraws, the tap's id, the host's controls if either
    # shows something new.
    assert first.private_seats == {a, b} and second.private_seats == {c, d}
    assert first.action_id == "tap0000001" and first.host_panel
    # What listens for whole changes hears each one at its own version.
    assert whole == [v + 1, v + 2, v + 3, v + 4]
