"""The socket's life under load.

- A ping is answered at once, whatever the socket is waiting for (a slow state, a tap queued
  behind a busy database thread); the table's version follows from a read that is not queued
  behind taps.
- Display sockets (no token) are capped per table and per client; a screen asking for the whole
  state again and again is coalesced and served from one render per table version; one client
  flooding syncs does not hold up the frames and the state of the table's phones.
- An expected fault (a database lock held too long) logs one line, no stack.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import OperationalError
from django.test import override_settings

from companion.infra import dbthread, logs
from companion.live import broadcast
from companion.web.consumers import admission, faults, layer_probe
from companion.web.consumers.table import TableConsumer
from tests.live.test_consumers import drain, make, open_socket, receive_until
from tests.support.game import picked_all
from tests.web.test_harden import DEVICE_A, DEVICE_B, DEVICE_C, socket

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

playing = database_sync_to_async(picked_all)


async def json_frame(comm: WebsocketCommunicator, kind: str, timeout: float) -> dict[str, Any]:
    """The next JSON message of this type (other frames skipped)."""
    frame = await receive_until(
        comm, lambda f: f.startswith("{") and json.loads(f).get("type") == kind, timeout
    )
    return json.loads(frame)


@pytest.fixture(autouse=True)
def _fresh_log_limits() -> None:
    getattr(logs, "_last_said", {}).clear()


# The heartbeat never cuts a healthy phone ------------------------------------------------


async def test_a_ping_is_answered_at_once_while_a_slow_state_is_on_its_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _table, seats = await make(4)
    real = broadcast.snapshot

    def slow_snapshot(*args: Any, **kwargs: Any) -> str:
        time.sleep(3)
        return real(*args, **kwargs)

    monkeypatch.setattr(broadcast, "snapshot", slow_snapshot)
    comm = socket(f"/ws/{seats[0].token}/")
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    assert await comm.receive_from(timeout=1) == '{"type": "pong"}'
    # And a ping while a sync is slow too: the socket stays open, the state comes.
    state = await receive_until(comm, lambda f: 'id="table-state"' in f, timeout=10)
    assert 'id="table-state"' in state
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    assert await comm.receive_from(timeout=1) == '{"type": "pong"}'
    await receive_until(comm, lambda f: 'id="table-state"' in f, timeout=10)
    await comm.disconnect()


async def test_a_ping_is_answered_at_once_while_a_tap_waits_for_a_busy_database_thread() -> None:
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    release = threading.Event()
    # Something else holds the table's database thread (a slow tap of a table sharing it).
    busy = asyncio.ensure_future(dbthread.run_keyed(table.code, release.wait, 10))
    tap = {
        "type": "act",
        "name": "hp",
        "fields": {"seat": me.pk, "delta": -1},
        "action_id": "heartbeat1",
    }
    await comm.send_to(text_data=json.dumps(tap))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await json_frame(comm, "pong", timeout=1))["type"] == "pong"
    # The version comes from a read that does not wait behind the taps either.
    assert (await json_frame(comm, "version", timeout=2))["version"] == table.version
    answered_in = time.monotonic() - started
    release.set()
    await busy
    frame = await receive_until(comm, lambda f: 'data-action="heartbeat1"' in f, timeout=5)
    assert 'id="table-delta"' in frame
    assert answered_in < 2
    await comm.disconnect()


# Screens without a token ----------------------------------------------------------------


async def display_code(comm: WebsocketCommunicator) -> int | None:
    """None when the display socket got the state, else the code it was closed with."""
    connected, code = await comm.connect(timeout=5)
    if not connected:
        return code
    output = await comm.receive_output(timeout=5)
    if output["type"] == "websocket.close":
        return output.get("code")
    return None


@override_settings(WS_MAX_DISPLAYS_PER_TABLE=5, WS_MAX_DISPLAYS_PER_CLIENT=3)
async def test_display_sockets_are_capped_per_client_and_per_table() -> None:
    table, _seats = await make(4)
    other, _ = await make(4)
    path = f"/ws/t/{table.code}/"
    opened = []
    for _ in range(3):
        comm = socket(path, device=DEVICE_A)
        assert await display_code(comm) is None
        opened.append(comm)
    # The client's fourth display is refused, on this table or another.
    for where in (path, f"/ws/t/{other.code}/"):
        comm = socket(where, device=DEVICE_A)
        assert await display_code(comm) == faults.CLOSE_TOO_MANY
        await comm.disconnect()
    # Without a cookie the client is its address.
    for _ in range(2):
        comm = socket(path, client="10.9.9.9")
        assert await display_code(comm) is None
        opened.append(comm)
    # The table's sixth display is refused, whoever asks.
    comm = socket(path, device=DEVICE_B)
    assert await display_code(comm) == faults.CLOSE_TOO_MANY
    await comm.disconnect()
    # Phones and the host console are not displays.
    host, _ = await open_socket(f"/ws/{table.host_token}/")
    # Closing one frees a place.
    await opened.pop().disconnect()
    comm = socket(path, device=DEVICE_C)
    assert await display_code(comm) is None
    opened.append(comm)
    for comm in [*opened, host]:
        await comm.disconnect()
    assert not admission.OPEN_DISPLAYS and not admission.OPEN_DISPLAYS_OF


async def test_repeated_syncs_are_coalesced_and_rendered_once_per_version() -> None:
    table, seats = await make(4)
    displays = []
    for i in range(5):
        comm = socket(f"/ws/t/{table.code}/", client=f"10.2.0.{i}")
        assert (await comm.connect(timeout=5))[0]
        await comm.receive_from(timeout=5)
        displays.append(comm)
    before = broadcast.RENDER_COUNTS["public"]
    for comm in displays:
        for _ in range(20):
            await comm.send_to(text_data=json.dumps({"type": "sync"}))
    states = 0
    for comm in displays:
        states += len([f for f in await drain(comm, timeout=1) if 'id="table-state"' in f])
    # 100 syncs: a few snapshots a socket (one in flight, one waiting for all the syncs that
    # arrive meanwhile; a third when the first was done before the last sync came, as on a busy
    # machine over Redis), and no render: the table's version has not moved since the snapshot
    # their connects rendered.
    assert 5 <= states <= 15
    assert broadcast.RENDER_COUNTS["public"] - before == 0
    # A sync naming the version the socket has, the table's: answered without a snapshot.
    version = table.version
    await displays[0].send_to(text_data=json.dumps({"type": "sync", "version": version}))
    assert json.loads(await displays[0].receive_from(timeout=5)) == {
        "type": "version",
        "version": version,
    }
    for comm in displays:
        await comm.disconnect()


async def test_a_display_flooding_syncs_does_not_hold_up_the_tables_phones() -> None:
    table, seats = await playing(4)
    me, other = seats[1], seats[2]
    mine, _ = await open_socket(f"/ws/{me.token}/")
    theirs, _ = await open_socket(f"/ws/{other.token}/")
    floods = []
    for i in range(12):
        comm = socket(f"/ws/t/{table.code}/", client=f"10.3.0.{i}")
        assert (await comm.connect(timeout=5))[0]
        await comm.receive_from(timeout=5)
        floods.append(comm)
    stop = asyncio.Event()

    async def flood(comm: WebsocketCommunicator) -> None:
        # Within the per-socket limit (40 messages in 10 s), as fast as it goes.
        for _ in range(35):
            if stop.is_set():
                return
            await comm.send_to(text_data=json.dumps({"type": "sync"}))
            await asyncio.sleep(0)

    renders = broadcast.RENDER_COUNTS["public"]
    flooding = [asyncio.ensure_future(flood(comm)) for comm in floods]
    await asyncio.sleep(0.1)
    delays = []
    for n in range(3):
        started = time.monotonic()
        # `repeat`: taps meant to add up (not merged as a double tap).
        fields = {"seat": me.pk, "delta": -((-1) ** n), "repeat": 1}
        tap = {"type": "act", "name": "hp", "fields": fields, "action_id": f"floodtap{n}"}
        await mine.send_to(text_data=json.dumps(tap))
        await receive_until(theirs, lambda f, n=n: f'data-action="floodtap{n}"' in f, timeout=5)
        delays.append(time.monotonic() - started)
    # The other phone asking for the whole state is served meanwhile.
    started = time.monotonic()
    await theirs.send_to(text_data=json.dumps({"type": "sync"}))
    await receive_until(theirs, lambda f: 'id="table-state"' in f, timeout=5)
    delays.append(time.monotonic() - started)
    stop.set()
    await asyncio.gather(*flooding)
    for comm in floods:
        await drain(comm, timeout=0.5)
    renders = broadcast.RENDER_COUNTS["public"] - renders
    print("tap to the other phone, and a phone's sync, during the flood (s):", delays)
    print("public renders for 3 taps and 420 syncs of 12 displays:", renders)
    assert max(delays) < 2
    # The flood's work: one render per table version (the three taps' deltas, and a snapshot
    # of each version a display asked for), not one per sync.
    assert renders <= 8
    for comm in [mine, theirs, *floods]:
        await comm.disconnect()


# An expected fault logs one line, no stack ------------------------------------------------


async def test_a_database_lock_timeout_logs_one_line_without_a_stack(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from companion.web import dispatch

    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")

    def locked(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("database is locked") from sqlite3.OperationalError("locked")

    monkeypatch.setitem(dispatch.ACTIONS, "hp", locked)
    caplog.set_level(logging.DEBUG)
    for n in range(3):
        tap = {"type": "act", "name": "hp", "fields": {"seat": me.pk, "delta": 1}}
        tap["action_id"] = f"locktap{n}"
        await comm.send_to(text_data=json.dumps(tap))
        answer = await json_frame(comm, "error", timeout=5)
        assert answer.get("status") == 503, answer
        assert answer["status"] == 503 and answer["outcome"] == "not_applied"
    records = [r for r in caplog.records if r.name.startswith("companion")]
    assert not [r for r in records if r.exc_info or r.exc_text], "no stack"
    said = [r.getMessage() for r in records if r.levelno >= logging.WARNING]
    assert len(said) == 1, said
    assert "failed in the database" in said[0] and "database is locked" in said[0]
    await comm.disconnect()


class _Layer:
    """A channel layer whose sends answer, time out or find Redis gone, as told."""

    prefix = "sgs-test"

    def __init__(self) -> None:
        self.fault: BaseException | None = None

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        if self.fault is not None:
            raise self.fault


class _Socket:
    def __init__(self, layer: _Layer) -> None:
        self.channel_layer = layer
        self.closed: list[int] = []

    async def close(self, code: int) -> None:
        self.closed.append(code)


@override_settings(WS_LAYER_SLOW_SECONDS=0.3)
async def test_a_slow_layer_is_busy_not_down_until_it_stays_silent(monkeypatch) -> None:
    """A probe that times out right after an answered one (a loaded process answers late) closes
    no socket and refuses no tap: closing every socket then starts a reconnect storm. A refused
    connection is an outage at once; timeouts longer than WS_LAYER_SLOW_SECONDS are one too."""
    layer = _Layer()
    phone = _Socket(layer)
    monkeypatch.setattr(layer_probe, "LIVE", {phone})
    assert await layer_probe.probe_once(layer)
    layer.fault = TimeoutError()
    assert await layer_probe.probe_once(layer), "a timeout just after an answer: busy"
    assert phone.closed == [] and not layer_probe.layer_down(layer)
    await asyncio.sleep(0.4)
    assert not await layer_probe.probe_once(layer), "silent for longer: down"
    assert phone.closed == [faults.CLOSE_TRY_LATER] and layer_probe.layer_down(layer)

    layer.fault = None
    assert await layer_probe.probe_once(layer) and not layer_probe.layer_down(layer)
    other = _Socket(layer)
    monkeypatch.setattr(layer_probe, "LIVE", {other})
    layer.fault = ConnectionRefusedError()
    assert not await layer_probe.probe_once(layer), "Redis gone: down at once"
    assert other.closed == [faults.CLOSE_TRY_LATER]


@override_settings(WS_LAYER_PROBE_SECONDS=0.01)
async def test_the_probe_outlives_a_fault_it_did_not_foresee_and_finds_the_layer_back(
    monkeypatch,
) -> None:
    """While the layer is down, every handshake is refused and only the probe can find it back:
    a probe that ended on an unforeseen error would leave the process refusing phones for good."""
    layer = _Layer()
    monkeypatch.setattr(layer_probe, "LIVE", set())
    layer.sgs_down = True
    layer.fault = RuntimeError("not a fault of Redis")
    layer_probe.watch_layer(layer)
    await asyncio.sleep(0.1)
    assert not layer.sgs_watch.done(), "the probe ended"
    assert layer_probe.layer_down(layer)
    layer.fault = None
    # Up again and no socket open: the probe finds it back, then ends.
    await asyncio.wait_for(layer.sgs_watch, 5)
    assert not layer_probe.layer_down(layer)


async def test_an_answer_to_a_phone_that_just_left_logs_nothing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The phone closed its socket while its state was on the way (the server says
    ClientDisconnected): expected, no error and no stack (the soak logged 33 of them)."""
    from uvicorn.protocols.utils import ClientDisconnected

    table, seats = await playing(4)
    comm, _ = await open_socket(f"/ws/{seats[1].token}/")

    async def gone(self: TableConsumer, *args: Any, **kwargs: Any) -> None:
        raise ClientDisconnected()

    monkeypatch.setattr(TableConsumer, "send", gone)
    caplog.set_level(logging.DEBUG)
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    await comm.receive_nothing(timeout=0.5)
    records = [r for r in caplog.records if r.name.startswith("companion")]
    assert not [r for r in records if r.levelno >= logging.ERROR or r.exc_info], [
        r.getMessage() for r in records
    ]
    await comm.disconnect()


async def test_a_phone_that_closes_right_after_its_pong_logs_nothing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The pong goes out; the table's version that follows it (a task of its own, read on the
    reading thread) finds the socket closed (ClientDisconnected): no "Task exception was never
    retrieved" with a stack (9 in a fuzz run), nothing at all."""
    import gc

    from uvicorn.protocols.utils import ClientDisconnected

    table, seats = await playing(4)
    comm, _ = await open_socket(f"/ws/{seats[1].token}/")
    real_send = TableConsumer.send
    version_sent = asyncio.Event()

    async def gone_after_pong(self: TableConsumer, *args: Any, **kwargs: Any) -> None:
        if '"pong"' in kwargs.get("text_data", ""):
            await real_send(self, *args, **kwargs)
            return
        version_sent.set()
        raise ClientDisconnected()

    monkeypatch.setattr(TableConsumer, "send", gone_after_pong)
    caplog.set_level(logging.DEBUG)
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    assert json.loads(await comm.receive_from(timeout=5)) == {"type": "pong"}
    await asyncio.wait_for(version_sent.wait(), timeout=5)
    await comm.receive_nothing(timeout=0.2)  # the version task ends
    gc.collect()  # a finished task nobody awaited says so when it is collected
    records = [r for r in caplog.records if r.name.startswith(("companion", "asyncio"))]
    assert not [r for r in records if r.levelno >= logging.WARNING or r.exc_info or r.exc_text], [
        r.getMessage() for r in records
    ]
    await comm.disconnect()
