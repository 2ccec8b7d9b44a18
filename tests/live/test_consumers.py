"""The websocket: who gets which frame, reconnects, and everything a socket may try."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from companion import actions
from companion.asgi import application
from companion.models import Seat, Table
from tests.support.factories import make_table

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = "http://testserver"


def communicator(
    path: str, *, origin: str | None = ORIGIN, lang: str = ""
) -> WebsocketCommunicator:
    headers = [(b"host", b"testserver")]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if lang:
        headers.append((b"cookie", f"sgs_lang={lang}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def open_socket(path: str, **kwargs: object) -> tuple[WebsocketCommunicator, str]:
    """Connect and return the socket with its first frame (the snapshot)."""
    comm = communicator(path, **kwargs)  # type: ignore[arg-type]
    connected, _code = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=5)
    return comm, first


def version(html: str, element: str = "table-state") -> int:
    match = re.search(rf'id="{element}"[^>]*data-version="(\d+)"', html)
    assert match, html[:200]
    return int(match.group(1))


async def drain(comm: WebsocketCommunicator, timeout: float = 0.3) -> list[str]:
    """Every text frame until the socket goes quiet (or is closed)."""
    frames = []
    while not await comm.receive_nothing(timeout=timeout):
        output = await comm.receive_output()
        if output["type"] != "websocket.send":
            break
        frames.append(output["text"])
    return frames


async def drain_all(comms: list[WebsocketCommunicator], timeout: float = 0.3) -> list[list[str]]:
    """`drain` of every socket at once: each waits for its own quiet, side by side."""
    return list(await asyncio.gather(*(drain(comm, timeout=timeout) for comm in comms)))


async def receive_until(comm: WebsocketCommunicator, predicate, timeout: float = 5) -> str:
    async def loop() -> str:
        while True:
            frame = await comm.receive_from(timeout=timeout)
            if predicate(frame):
                return frame

    return await asyncio.wait_for(loop(), timeout)


make = database_sync_to_async(make_table)


@database_sync_to_async
def call(fn, /, **kwargs):  # type: ignore[no-untyped-def]
    return fn(**kwargs)


async def test_snapshot_first_then_updates_reach_every_socket_of_the_table_only() -> None:
    table, seats = await make(4)
    other, other_seats = await make(4)
    socks = []
    for seat in seats:
        comm, first = await open_socket(f"/ws/{seat.token}/")
        assert 'id="table-state"' in first and 'id="my-seat"' in first
        assert version(first) == table.version
        socks.append(comm)
    display, first = await open_socket(f"/ws/t/{table.code}/")
    assert 'id="my-seat"' not in first and 'id="host-panel"' not in first
    stranger, _ = await open_socket(f"/ws/{other_seats[0].token}/")

    change = await call(
        actions.table_lock, token=table.host_token, locked=True, action_id="lock-tap-1"
    )
    for comm in [*socks, display]:
        frame = await comm.receive_from(timeout=5)
        assert version(frame) == change.version
        assert 'data-action="lock-tap-1"' in frame
    assert await stranger.receive_nothing(timeout=0.3)
    for comm in [*socks, display, stranger]:
        await comm.disconnect()


async def test_private_frames_reach_only_their_owner() -> None:
    table, seats = await make(4)
    socks = [(await open_socket(f"/ws/{s.token}/"))[0] for s in seats]
    await call(actions.identities_deal, token=table.host_token)
    refreshed = [await database_sync_to_async(Seat.objects.get)(pk=s.pk) for s in seats]
    for seat, comm in zip(refreshed, socks, strict=True):
        frames = await drain(comm, timeout=0.5)
        private = [f for f in frames if 'id="my-seat"' in f]
        assert len(private) == 1
        assert f'data-seat="{seat.pk}"' in private[0]
        others = {s.pk for s in refreshed} - {seat.pk}
        for other in others:
            assert 'id="my-seat" class="my-seat" hx-swap-oob="true" data-version' in private[0]
            assert f'data-seat="{other}"' not in private[0]
        await comm.disconnect()


async def test_host_panel_goes_only_to_the_host() -> None:
    table, seats = await make(4)
    console, first = await open_socket(f"/ws/{table.host_token}/")
    assert 'id="host-panel"' in first
    player, first = await open_socket(f"/ws/{seats[0].token}/")
    # A phone gets only an empty place for the controls (they may come to it).
    assert 'class="host-panel card"' not in first and "host-panel-none" in first
    await call(actions.table_lock, token=table.host_token, locked=True)
    host_frames = "".join(await drain(console))
    player_frames = "".join(await drain(player))
    assert 'id="host-panel"' in host_frames
    assert 'id="host-panel"' not in player_frames
    await console.disconnect()
    await player.disconnect()


async def test_reconnect_gets_current_state_after_missed_changes() -> None:
    table, seats = await make(4)
    comm, _ = await open_socket(f"/ws/{seats[0].token}/")
    await comm.disconnect()
    await call(actions.table_lock, token=table.host_token, locked=True)
    await call(actions.table_lock, token=table.host_token, locked=False)
    await call(actions.seat_move, token=table.host_token, seat_id=seats[3].pk, position=0)
    await call(actions.identities_deal, token=table.host_token)
    await call(actions.game_start, token=table.host_token)
    fresh = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    comm, first = await open_socket(f"/ws/{seats[0].token}/")
    assert version(first) == fresh.version
    assert version(first, "my-seat") == fresh.version
    assert 'data-status="heroes"' in first
    # Asking again after a suspected gap answers with the same full state.
    await comm.send_to(text_data=json.dumps({"type": "sync", "version": 3}))
    again = await comm.receive_from(timeout=5)
    assert version(again) == fresh.version
    await comm.disconnect()


@pytest.mark.parametrize(
    "origin", ["https://evil.example", None, "http://testserver.evil.example", "null"]
)
async def test_foreign_or_missing_origin_is_refused(origin: str | None) -> None:
    _table, seats = await make(4)
    comm = communicator(f"/ws/{seats[0].token}/", origin=origin)
    connected, _code = await comm.connect()
    assert not connected


async def test_unknown_token_or_code_closes_with_gone() -> None:
    for path in ["/ws/" + "A" * 32 + "/", "/ws/t/ZZZZZ/"]:
        comm = communicator(path)
        connected, _ = await comm.connect()
        assert connected
        output = await comm.receive_output(timeout=5)
        assert output["type"] == "websocket.close" and output["code"] == 4404


async def test_socket_cannot_act_for_any_seat() -> None:
    table, seats = await make(4, deal=True)
    comm, _ = await open_socket(f"/ws/{seats[0].token}/")
    before = await database_sync_to_async(
        lambda: list(
            Seat.objects.filter(table=table).values_list("pk", "identity", "alive", "position")
        )
    )()
    forged = [
        {"type": "hp", "seat": seats[1].pk, "delta": -1},
        {"type": "deal", "confirm": True},
        {"type": "move", "seat": 999999, "position": 0},
        {"type": "table.fragment", "html": "<div id='my-seat'>x</div>"},
    ]
    for message in forged:
        await comm.send_to(text_data=json.dumps(message))
        reply = json.loads(await comm.receive_from(timeout=5))
        assert reply == {"type": "error", "error": "unsupported"}
    after = await database_sync_to_async(
        lambda: list(
            Seat.objects.filter(table=table).values_list("pk", "identity", "alive", "position")
        )
    )()
    assert before == after
    await comm.disconnect()


@pytest.mark.parametrize("payload", ["not json", "[1,2]", '"text"', "{bad", "123"])
async def test_malformed_messages_get_an_error(payload: str) -> None:
    _table, seats = await make(4)
    comm, _ = await open_socket(f"/ws/{seats[0].token}/")
    await comm.send_to(text_data=payload)
    reply = json.loads(await comm.receive_from(timeout=5))
    assert reply["type"] == "error"
    await comm.disconnect()


async def test_oversized_message_closes_with_1009_and_others_keep_working() -> None:
    table, seats = await make(4)
    big, _ = await open_socket(f"/ws/{seats[0].token}/")
    other, _ = await open_socket(f"/ws/{seats[1].token}/")
    await big.send_to(text_data="x" * (2 * 1024 * 1024))
    output = await big.receive_output(timeout=5)
    assert output == {"type": "websocket.close", "code": 1009}
    await call(actions.table_lock, token=table.host_token, locked=True)
    assert 'id="table-state"' in await other.receive_from(timeout=5)
    await other.disconnect()


async def test_flooding_socket_is_closed_and_others_still_updated() -> None:
    table, seats = await make(4)
    flood, _ = await open_socket(f"/ws/{seats[0].token}/")
    calm, _ = await open_socket(f"/ws/{seats[1].token}/")
    closed_with = None
    for _ in range(200):
        await flood.send_to(text_data=json.dumps({"type": "ping"}))
    while True:
        output = await flood.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            closed_with = output["code"]
            break
    assert closed_with == 1008
    loop = asyncio.get_running_loop()
    started = loop.time()
    await call(actions.table_lock, token=table.host_token, locked=True)
    assert 'id="table-state"' in await calm.receive_from(timeout=1)
    assert loop.time() - started < 1.0
    await calm.disconnect()


async def test_connection_cap_per_seat() -> None:
    from django.conf import settings

    _table, seats = await make(4)
    opened = []
    refused = 0
    for _ in range(settings.WS_MAX_CONNECTIONS_PER_SEAT + 6):
        comm = communicator(f"/ws/{seats[0].token}/")
        await comm.connect()
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            refused += 1
            assert output["code"] == 1008
        else:
            opened.append(comm)
    assert len(opened) == settings.WS_MAX_CONNECTIONS_PER_SEAT
    assert refused == 6
    # Closing one frees a place.
    await opened.pop().disconnect()
    comm, _ = await open_socket(f"/ws/{seats[0].token}/")
    opened.append(comm)
    for comm in opened:
        await comm.disconnect()


async def test_kicked_and_handed_over_seats_are_closed() -> None:
    table, seats = await make(5)
    kicked, _ = await open_socket(f"/ws/{seats[1].token}/")
    moved, _ = await open_socket(f"/ws/{seats[2].token}/")
    await call(actions.seat_remove, token=table.host_token, seat_id=seats[1].pk)
    output = None
    while True:
        output = await kicked.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
    assert output["code"] == 4404
    _change, claim = await call(actions.seat_handover, token=table.host_token, seat_id=seats[2].pk)
    _handover, new = await call(actions.handover_claim, claim_token=claim)
    # The new phone joins the same seat group; only the old token's socket is closed.
    fresh, _ = await open_socket(f"/ws/{new}/")
    while True:
        output = await moved.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
    assert output["code"] == 4404
    # The new phone's socket stays open: it was not closed along with the old one.
    await drain(fresh, timeout=0.2)
    await call(actions.table_lock, token=table.host_token, locked=True)
    frames = await drain(fresh)
    assert any('id="table-state"' in f for f in frames)
    await fresh.disconnect()
    for token in (seats[1].token, seats[2].token):
        comm = communicator(f"/ws/{token}/")
        await comm.connect()
        assert (await comm.receive_output(timeout=5))["code"] == 4404


async def test_host_pass_makes_host_sockets_reconnect() -> None:
    table, seats = await make(4)
    console, _ = await open_socket(f"/ws/{table.host_token}/")
    future_host, _ = await open_socket(f"/ws/{seats[0].token}/")
    await call(actions.host_pass, token=table.host_token, seat_id=seats[0].pk)
    for comm in (console, future_host):
        while True:
            output = await comm.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                break
        assert output["code"] == 1012
    again, first = await open_socket(f"/ws/{seats[0].token}/")
    assert 'id="host-panel"' in first
    await again.disconnect()
    comm = communicator(f"/ws/{table.host_token}/")
    await comm.connect()
    assert (await comm.receive_output(timeout=5))["code"] == 4404


async def test_language_of_frames_follows_the_phone() -> None:
    table, seats = await make(4)
    zh, first_zh = await open_socket(f"/ws/{seats[0].token}/", lang="zh-hans")
    en, first_en = await open_socket(f"/ws/{seats[1].token}/", lang="en")
    assert "Table history" in first_en
    assert "Table history" not in first_zh
    await call(actions.table_lock, token=table.host_token, locked=True)
    frame_zh = await zh.receive_from(timeout=5)
    frame_en = await en.receive_from(timeout=5)
    assert "Locked" in frame_en and "Locked" not in frame_zh
    await zh.disconnect()
    await en.disconnect()


async def test_public_fragment_rendered_once_per_change_whatever_the_phones() -> None:
    from companion.live import broadcast

    for players in (4, 10):
        table, seats = await make(players)
        socks = [(await open_socket(f"/ws/{s.token}/"))[0] for s in seats]
        before = broadcast.RENDER_COUNTS["public"]
        await call(actions.table_lock, token=table.host_token, locked=True)
        for comm in socks:
            await comm.receive_from(timeout=5)
        renders = broadcast.RENDER_COUNTS["public"] - before
        # One render per language in use at the table (all Chinese here), not per phone.
        assert renders == 1
        english, _ = await open_socket(f"/ws/{seats[0].token}/", lang="en")
        before = broadcast.RENDER_COUNTS["public"]
        await call(actions.table_lock, token=table.host_token, locked=False)
        assert 'id="table-state"' in await english.receive_from(timeout=5)
        assert broadcast.RENDER_COUNTS["public"] - before == 2
        for comm in [*socks, english]:
            await comm.disconnect()
