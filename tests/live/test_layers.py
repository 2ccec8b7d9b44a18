"""The embedded layer's direct delivery: frames reach an attached screen at once, in order,
and a phone that stops reading holds up nobody else."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from companion import actions
from companion.asgi import application
from companion.live import broadcast
from companion.live.layers import LeanInMemoryChannelLayer, run_eagerly
from tests.live.test_consumers import drain, open_socket, receive_until
from tests.support.game import picked_all

pytestmark = pytest.mark.asyncio


async def test_attached_channel_gets_group_messages_at_once_in_order() -> None:
    layer = LeanInMemoryChannelLayer()
    got: list[dict[str, Any]] = []
    direct = await layer.new_channel()
    queued = await layer.new_channel()
    layer.attach(direct, got.append)
    for channel in (direct, queued):
        await layer.group_add("table.T", channel)
    await layer.group_send("table.T", {"type": "table.fragment", "html": "1"})
    await layer.group_send("table.T", {"type": "table.fragment", "html": "2"})
    # Handed over inside group_send, before it returned: no task, no queue.
    assert [m["html"] for m in got] == ["1", "2"]
    assert direct not in layer.channels
    # A channel nobody attached keeps the stock queue.
    assert (await layer.receive(queued))["html"] == "1"
    assert (await layer.receive(queued))["html"] == "2"
    # Each member gets its own dict: one screen's handler cannot change another's message.
    got[0]["html"] = "changed"
    await layer.send(direct, {"type": "x", "html": "3"})
    assert [m["html"] for m in got] == ["changed", "2", "3"]
    layer.detach(direct)
    await layer.group_send("table.T", {"type": "table.fragment", "html": "4"})
    assert len(got) == 3
    assert (await layer.receive(direct))["html"] == "4"


async def test_a_send_from_another_thread_is_delivered_on_the_receivers_loop() -> None:
    layer = LeanInMemoryChannelLayer()
    channel = await layer.new_channel()
    loop = asyncio.get_running_loop()
    arrived = asyncio.Event()
    seen: list[tuple[str, bool]] = []

    def deliver(message: dict[str, Any]) -> None:
        seen.append((message["html"], threading.current_thread() is threading.main_thread()))
        arrived.set()

    layer.attach(channel, deliver)
    await layer.group_add("g", channel)
    # An HTTP tap's thread sends with a loop of its own (async_to_sync).
    await loop.run_in_executor(
        None, lambda: asyncio.run(layer.group_send("g", {"type": "t", "html": "from a thread"}))
    )
    await asyncio.wait_for(arrived.wait(), 5)
    assert seen == [("from a thread", True)]


async def test_run_eagerly_finishes_now_or_hands_the_rest_to_a_task() -> None:
    steps: list[str] = []

    async def quick() -> None:
        steps.append("quick")

    assert run_eagerly(quick()) is None
    assert steps == ["quick"]

    gate = asyncio.Event()

    async def waits() -> None:
        steps.append("before")
        await gate.wait()
        steps.append("after")

    rest = run_eagerly(waits())
    assert rest is not None and steps == ["quick", "before"]
    task = asyncio.ensure_future(_await(rest))
    await asyncio.sleep(0)
    assert not task.done()
    gate.set()
    await asyncio.wait_for(task, 5)
    assert steps == ["quick", "before", "after"]

    async def fails_later() -> None:
        await asyncio.sleep(0)
        raise ValueError("boom")

    rest = run_eagerly(fails_later())
    assert rest is not None
    with pytest.raises(ValueError, match="boom"):
        await _await(rest)

    # Cancelling the task that finishes it reaches the coroutine.
    cancelled: list[bool] = []

    async def cancellable() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    rest = run_eagerly(cancellable())
    assert rest is not None
    task = asyncio.ensure_future(_await(rest))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert cancelled == [True]


async def _await(awaitable: Any) -> None:
    await awaitable


class SlowPhone:
    """A phone on a raw ASGI connection whose writes can be made to wait, as a phone that
    stops reading makes the server's writes wait once its buffers are full."""

    def __init__(self, token: str) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.frames: list[str] = []
        self.writable = asyncio.Event()
        self.writable.set()
        scope = {
            "type": "websocket",
            "path": f"/ws/{token}/",
            "raw_path": f"/ws/{token}/".encode(),
            "query_string": b"",
            "headers": [(b"host", b"testserver"), (b"origin", b"http://testserver")],
            "subprotocols": [],
            "client": ("127.0.0.1", 1),
            "server": ("testserver", 80),
        }
        self.task = asyncio.ensure_future(application(scope, self.inbox.get, self.send))

    async def send(self, message: dict[str, Any]) -> None:
        await self.writable.wait()
        if message["type"] == "websocket.send":
            self.frames.append(message["text"])

    async def wait_for(self, count: int) -> None:
        for _ in range(500):
            if len(self.frames) >= count:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"{len(self.frames)} frames, wanted {count}")

    async def close(self) -> None:
        self.writable.set()
        await self.inbox.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(self.task, 5)


@pytest.mark.django_db(transaction=True)
async def test_a_phone_that_stops_reading_holds_up_nobody_and_gets_every_frame_in_order() -> None:
    table, seats = await database_sync_to_async(picked_all)(4)
    slow = SlowPhone(seats[1].token)
    await slow.inbox.put({"type": "websocket.connect"})
    await slow.wait_for(1)  # the current state
    others = [(await open_socket(f"/ws/{s.token}/"))[0] for s in (seats[0], seats[2])]

    slow.writable.clear()
    hp = database_sync_to_async(actions.seat_change_hp)
    for delta in (-1, -1, 1):
        await hp(token=seats[0].token, seat_id=seats[0].pk, delta=delta)
        # Every other phone has the change at once, though one phone's write is stuck.
        for comm in others:
            await receive_until(comm, lambda f: 'id="table-delta"' in f)
    assert len(slow.frames) == 1

    # The phone reads again, and in that same moment one more frame comes: it must not overtake
    # the three that waited.
    slow.writable.set()
    await get_channel_layer().group_send(
        broadcast.table_group(table.code, "zh-hans"),
        {"type": "table.fragment", "html": '<p data-version="999">late</p>'},
    )
    await slow.wait_for(5)
    versions = [int(f.split('data-version="')[1].split('"')[0]) for f in slow.frames[1:]]
    assert versions == [table.version + 1, table.version + 2, table.version + 3, 999]
    # Back to direct delivery afterwards: the next change arrives without any waiting.
    await hp(token=seats[0].token, seat_id=seats[0].pk, delta=-1)
    await slow.wait_for(6)
    assert f'data-version="{table.version + 4}"' in slow.frames[5]
    await slow.close()
    for comm in others:
        await drain(comm)
        await comm.disconnect()
