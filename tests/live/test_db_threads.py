"""Websocket taps run on threads keyed by table (companion/infra/dbthread.py): a table's taps stay in
order on its one thread, and on PostgreSQL another table's taps do not wait behind them. SQLite
keeps one writer: every table's taps share one thread."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async
from pytest_django.fixtures import Settings

from companion.infra import dbthread
from companion.models import Event, Table
from tests.actions.test_tap_trust import answers, send_tap
from tests.live.test_consumers import open_socket
from tests.support.game import picked_all

pytestmark = [
    pytest.mark.backend,
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
]

playing = database_sync_to_async(picked_all)


@database_sync_to_async
def applied(table: Table) -> list[str]:
    """The table's tapped action ids, in the order of the versions they made."""
    events = Event.objects.filter(table=table).exclude(action_id="").order_by("version")
    return list(events.values_list("action_id", flat=True))


async def _two_tables() -> tuple[Any, Any]:
    """Two tables in play; on PostgreSQL, two whose taps go to different threads."""
    first = await playing(4)
    while True:
        second = await playing(4)
        if dbthread.threads() == 1 or (
            dbthread.thread_of(second[0].code) != dbthread.thread_of(first[0].code)
        ):
            return first, second


async def test_a_tables_taps_keep_their_order_and_other_tables_do_not_wait_behind_them(
    settings: Settings,
) -> None:
    settings.DB_THREADS = 4
    (table_a, seats_a), (table_b, seats_b) = await _two_tables()
    a, b = seats_a[1], seats_b[1]
    sock_a, _ = await open_socket(f"/ws/{a.token}/")
    sock_b, _ = await open_socket(f"/ws/{b.token}/")
    # Table A's thread is busy (a slow tap of A's, or of a table sharing its thread).
    release = threading.Event()
    busy = dbthread.submit_keyed(table_a.code, release.wait, 10)
    ids_a = [f"order{i:05d}" for i in range(4)]
    # Four different taps (two identical ones would merge as a double tap).
    for action_id, delta in zip(ids_a, [-1, 1, -2, 2], strict=True):
        await send_tap(sock_a, action_id, seat=a.pk, delta=delta)
    await send_tap(sock_b, "otherb0001", seat=b.pk, delta=-1)
    if dbthread.threads() > 1:
        # B's tap is applied and answered while A's thread is still held.
        assert (await answers(sock_b, ["otherb0001"], timeout=5))["otherb0001"]["type"] == "frame"
        assert await applied(table_a) == []
    else:
        # SQLite: one writer, one thread; B waits in line like everybody.
        await asyncio.sleep(0.5)
        assert await applied(table_b) == []
    release.set()
    await busy
    assert set(await answers(sock_a, ids_a, timeout=10)) == set(ids_a)
    assert await applied(table_a) == ids_a
    if dbthread.threads() == 1:
        # In line behind A's taps: applied once its own answer is back (A's may come first).
        assert (await answers(sock_b, ["otherb0001"], timeout=10))["otherb0001"]["type"] == "frame"
    assert await applied(table_b) == ["otherb0001"]
    await sock_a.disconnect()
    await sock_b.disconnect()
