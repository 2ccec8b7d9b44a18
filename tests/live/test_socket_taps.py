"""Taps over the websocket: the socket's token is the actor, checks as over HTTP, and the small
delta frames of an HP change (docs/threats.md 7 and 8 for the socket side)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from companion import actions
from companion.live import broadcast
from companion.models import Event, Seat, Table
from tests.live.test_consumers import drain, make, open_socket, receive_until
from tests.support.game import picked_all

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

playing = database_sync_to_async(picked_all)


@database_sync_to_async
def fresh(model: Any) -> Any:
    return type(model).objects.get(pk=model.pk)


@database_sync_to_async
def events(table: Table) -> list[tuple[int, str, str]]:
    return list(
        Event.objects.filter(table=table)
        .order_by("version")
        .values_list("version", "kind", "actor")
    )


async def tap(
    comm: WebsocketCommunicator, name: str, action_id: str | None = None, **fields: Any
) -> dict[str, Any] | None:
    """Send a tap and wait for its answer (frames that come first are skipped)."""
    answer, _frames = await tap_seeing(comm, name, action_id, **fields)
    return answer


async def tap_seeing(
    comm: WebsocketCommunicator, name: str, action_id: str | None = None, **fields: Any
) -> tuple[dict[str, Any] | None, list[str]]:
    """Send a tap; its answer and the frames the tapping socket got until then.

    An applied tap with an id is answered by its change's own frame (it names the tap in
    `data-action`; the last of the frames returned) and the answer is None; otherwise the
    answer is the JSON "done" or "error"."""
    message: dict[str, Any] = {"type": "act", "name": name, "fields": fields}
    if action_id:
        message["action_id"] = action_id
    await comm.send_to(text_data=json.dumps(message))
    frames: list[str] = []
    while True:
        frame = await comm.receive_from(timeout=5)
        if frame.startswith("{"):
            return json.loads(frame), frames
        frames.append(frame)
        if action_id and f'data-action="{action_id}"' in frame:
            return None, frames


def delta_of(frames: list[str]) -> str:
    found = [f for f in frames if 'id="table-delta"' in f]
    assert len(found) == 1, frames
    return found[0]


def attr(html: str, element: str, name: str) -> str:
    match = re.search(rf'id="{element}"[^>]*?\s{name}="([^"]*)"', html)
    assert match, html[:300]
    return match.group(1)


def seat_item(html: str, seat_id: int) -> str:
    match = re.search(rf'<li class="seat[^"]*" data-seat="{seat_id}".*?</li>', html, re.S)
    assert match, html[:300]
    return match.group(0)


async def test_own_hp_tap_applies_once_and_reaches_every_screen_as_a_delta() -> None:
    table, seats = await playing(4)
    me = seats[1]
    socks = [(await open_socket(f"/ws/{s.token}/"))[0] for s in seats]
    display, _ = await open_socket(f"/ws/t/{table.code}/")
    recorded = len(await events(table))
    answer, seen = await tap_seeing(socks[1], "hp", "tapone0001", seat=me.pk, delta=-1)
    # Answered by its own delta (no separate "done" frame is sent).
    assert answer is None
    assert attr(seen[-1], "table-delta", "data-action") == "tapone0001"
    after = await fresh(me)
    assert after.hp == me.hp - 1
    last = (await events(table))[-1]
    assert last == (table.version + 1, "damage", f"seat:{me.pk}")
    for comm in [*socks, display]:
        frames = [*seen, *await drain(comm)] if comm is socks[1] else await drain(comm)
        assert not [f for f in frames if f.startswith("{")]
        delta = delta_of(frames)
        assert attr(delta, "table-delta", "data-version") == str(table.version + 1)
        assert attr(delta, "table-delta", "data-base") == str(table.version)
        assert attr(delta, "table-delta", "data-action") == "tapone0001"
        assert f'class="hp-num">{after.hp}/{after.max_hp}<' in seat_item(delta, me.pk)
        # One frame per screen: the delta also holds the seat's HP tracker (HP is public), which
        # only the seat's own phone puts in place; no private frame is needed.
        assert frames == [delta]
        assert 'id="my-hp"' in delta and f'<span class="hp-big">{after.hp}<' in delta
    # The same tap again (a retry after a lost answer): answered, not applied twice.
    again = await tap(socks[1], "hp", "tapone0001", seat=me.pk, delta=-1)
    assert again == {"type": "done", "action_id": "tapone0001", "version": table.version + 1}
    assert (await fresh(me)).hp == after.hp
    assert len(await events(table)) == recorded + 1
    for comm in [*socks, display]:
        await comm.disconnect()


async def test_delta_shows_the_seat_exactly_as_the_whole_state_does() -> None:
    from companion.read.state import public_state

    table, seats = await playing(5)
    turn_seat = (await fresh(table)).turn_seat_id
    for seat in seats:
        comm, _ = await open_socket(f"/ws/{seat.token}/")
        answer, seen = await tap_seeing(comm, "hp", seat=seat.pk, delta=-1)
        assert answer["type"] == "done"
        delta = delta_of([*seen, *await drain(comm)])
        now = await fresh(table)
        whole = await database_sync_to_async(
            lambda now=now: broadcast.render_public(public_state(now), "zh-hans")
        )()
        assert seat_item(delta, seat.pk) == seat_item(whole, seat.pk)
        # The seat whose turn it is: its hand limit (its HP) is in the turn bar, which comes too.
        assert ('class="turn-bar"' in delta) == (seat.pk == turn_seat)
        await comm.disconnect()


async def test_a_change_into_dying_comes_as_a_delta_with_the_banner() -> None:
    """Dying no longer sends the whole state; the delta carries the dying
    banner and the now strip, and the dying phone gets its own page (its dying panel)."""
    table, seats = await playing(4)
    me = seats[2]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    answer, seen = await tap_seeing(comm, "hp", seat=me.pk, delta=-me.hp)
    assert answer["type"] == "done"
    frames = [*seen, *await drain(comm)]
    assert not [f for f in frames if 'id="table-state"' in f]
    delta = delta_of(frames)
    assert "banner-dying" in delta and 'id="now-strip"' in delta
    assert [f for f in frames if 'id="my-seat"' in f and "dying-panel" in f]
    await comm.disconnect()


async def test_socket_acts_only_as_its_own_seat() -> None:
    """docs/threats.md 7: another seat named in the fields, a made-up seat, another seat's token in
    the payload: nothing changes for anybody and the sender gets an error frame."""
    table, seats = await playing(4)
    mine, other = seats[0], seats[1]
    comm, _ = await open_socket(f"/ws/{mine.token}/")
    watcher, _ = await open_socket(f"/ws/{other.token}/")
    before = await database_sync_to_async(
        lambda: list(Seat.objects.filter(table=table).values_list("pk", "hp", "dying"))
    )()
    refused = [
        ("hp", {"seat": other.pk, "delta": -1}, 403),
        ("hp", {"seat": 999999, "delta": -1}, 404),
        ("hp", {"seat": other.pk, "delta": -1, "token": other.token}, 403),
        ("maxhp", {"seat": other.pk, "max_hp": 9}, 403),
        ("die", {"seat": other.pk}, None),
    ]
    for i, (name, fields, status) in enumerate(refused):
        # Each its own tap: one action id has one outcome, its first.
        action_id = f"forged000{i}"
        answer = await tap(comm, name, action_id, **fields)
        assert answer["type"] == "error" and answer["action_id"] == action_id, answer
        if status is not None:
            assert answer["status"] == status, answer
        assert answer["message"]
    after = await database_sync_to_async(
        lambda: list(Seat.objects.filter(table=table).values_list("pk", "hp", "dying"))
    )()
    assert before == after
    assert (await fresh(table)).version == table.version
    assert await drain(watcher) == []
    # The payload's token is ignored: this tap acts for the socket's own seat.
    answer = await tap(comm, "hp", seat=mine.pk, delta=-1, token=other.token)
    assert answer["type"] == "done"
    assert (await events(table))[-1][2] == f"seat:{mine.pk}"
    await comm.disconnect()
    await watcher.disconnect()


@pytest.mark.parametrize(
    ("name", "fields"),
    [
        ("deal", {"confirm": "1"}),
        ("lock", {"locked": "1"}),
        ("options", {"fields": ["referee_mode"], "referee_mode": "1"}),
        ("host", {"seat": "SEAT1"}),
        ("remove", {"seat": "SEAT1"}),
        ("move", {"seat": "SEAT1", "position": "0"}),
    ],
)
async def test_host_actions_from_a_player_socket_are_refused(
    name: str, fields: dict[str, Any]
) -> None:
    """docs/threats.md 8 over the websocket: 403 error frame, no change, no broadcast."""
    table, seats = await make(4, deal=True)
    non_host = seats[1]
    fields = {k: (str(seats[1].pk) if v == "SEAT1" else v) for k, v in fields.items()}
    comm, _ = await open_socket(f"/ws/{non_host.token}/")
    display, _ = await open_socket(f"/ws/t/{table.code}/")
    answer = await tap(comm, name, **fields)
    assert answer["type"] == "error" and answer["status"] == 403, answer
    assert (await fresh(table)).version == table.version
    assert await drain(display) == []
    await comm.disconnect()
    await display.disconnect()


async def test_host_console_socket_acts_as_host() -> None:
    table, _seats = await make(4)
    comm, _ = await open_socket(f"/ws/{table.host_token}/")
    answer, seen = await tap_seeing(comm, "lock", "lockit0001", locked="1")
    assert answer is None
    assert f'data-version="{table.version + 1}"' in seen[-1]
    assert (await fresh(table)).locked
    frames = [*seen, *await drain(comm)]
    assert any('id="table-state"' in f and 'data-action="lockit0001"' in f for f in frames)
    await comm.disconnect()


async def test_display_socket_and_http_only_taps_cannot_act() -> None:
    table, seats = await make(4)
    display, _ = await open_socket(f"/ws/t/{table.code}/")
    answer = await tap(display, "lock", locked="1")
    assert answer == {"type": "error", "error": "unsupported"}
    phone, _ = await open_socket(f"/ws/{seats[0].token}/")
    answer = await tap(phone, "handover", "handme0001", seat=seats[0].pk)
    assert answer == {"type": "error", "error": "unsupported", "action_id": "handme0001"}
    answer = await tap(phone, "nosuchtap", seat=seats[0].pk)
    assert answer["error"] == "unsupported"
    assert (await fresh(seats[0])).token == seats[0].token
    assert not (await fresh(table)).locked
    for comm in (display, phone):
        await comm.disconnect()


@pytest.mark.parametrize(
    "message",
    [
        {"type": "act", "name": "hp", "fields": "seat=1"},
        {"type": "act", "name": "hp", "fields": {"seat": {"id": 1}}},
        {"type": "act", "name": "hp", "fields": {"Seat Id": "1"}},
        {"type": "act", "name": "hp", "fields": {"seat": [{"a": 1}]}},
        {"type": "act", "name": "hp", "fields": {}, "action_id": "bad id!"},
        {"type": "act", "name": "hp", "fields": {}, "action_id": 12345678},
    ],
)
async def test_malformed_taps_get_an_error_and_change_nothing(message: dict[str, Any]) -> None:
    table, seats = await playing(4)
    comm, _ = await open_socket(f"/ws/{seats[0].token}/")
    await comm.send_to(text_data=json.dumps(message))
    answer = json.loads(await comm.receive_from(timeout=5))
    assert answer["type"] == "error" and answer["error"] == "malformed"
    assert (await fresh(table)).version == table.version
    await comm.disconnect()


async def test_a_revoked_token_cannot_act_and_its_socket_closes() -> None:
    table, seats = await make(4)
    comm, _ = await open_socket(f"/ws/{seats[1].token}/")
    # The seat moves to another phone while this socket is open: the old token stops at once.
    await database_sync_to_async(actions.seat_handover)(token=table.host_token, seat_id=seats[1].pk)
    closed = False
    for _ in range(20):
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            closed = output["code"] == 4404
            break
    assert closed


async def test_delta_render_counts_once_per_change_whatever_the_phones() -> None:
    for players in (4, 10):
        table, seats = await playing(players)
        socks = [(await open_socket(f"/ws/{s.token}/"))[0] for s in seats]
        before = broadcast.RENDER_COUNTS["public"]
        answer, seen = await tap_seeing(socks[0], "hp", seat=seats[0].pk, delta=-1)
        assert answer is not None and answer["type"] == "done"
        # A tap without an id is answered "done" as soon as its messages are handed to the
        # layer; on Redis its own delta may arrive after that answer.
        if not [f for f in seen if 'id="table-delta"' in f]:
            await receive_until(socks[0], lambda f: 'id="table-delta"' in f)
        for comm in socks[1:]:
            assert 'id="table-delta"' in await receive_until(
                comm, lambda f: 'id="table-delta"' in f
            )
        assert broadcast.RENDER_COUNTS["public"] - before == 1
        for comm in socks:
            await comm.disconnect()
