"""The first frame after a connect sends nothing the page already carried:
a page names the version and language it was served at in its first socket's URL, and while
the table is still there the socket answers `{"type": "current"}` instead of the whole state;
anything newer, another language or a URL that names nothing gets the whole state as before."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from companion import actions
from companion.models import Table
from tests.live.test_consumers import communicator, drain
from tests.support.game import picked_all

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

playing = database_sync_to_async(picked_all)


@database_sync_to_async
def version_of(table: Table) -> int:
    return Table.objects.get(pk=table.pk).version


async def first_frame(path: str, lang: str = "") -> tuple[object, str]:
    comm = communicator(path, lang=lang)
    connected, _code = await comm.connect()
    assert connected
    return comm, await comm.receive_from(timeout=5)


async def test_a_page_at_the_current_version_gets_no_state_again_then_every_change() -> None:
    table, seats = await playing(4)
    shown = await version_of(table)
    comm, first = await first_frame(f"/ws/{seats[1].token}/?v={shown}&lang=zh-hans")
    assert json.loads(first) == {"type": "current", "version": shown}
    assert await drain(comm) == []  # nothing else: the page holds the state already
    # A change after the connect reaches it as usual.
    change = database_sync_to_async(actions.seat_change_hp)
    await change(token=seats[2].token, seat_id=seats[2].pk, delta=-1)
    frames = await drain(comm)
    assert len(frames) == 1 and 'id="table-delta"' in frames[0]
    assert f'data-version="{shown + 1}"' in frames[0]
    # Asking for the whole state still gets it.
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    (whole,) = await drain(comm)
    assert 'id="table-state"' in whole and 'id="my-seat"' in whole
    await comm.disconnect()


async def test_the_display_too() -> None:
    table, _seats = await playing(4)
    shown = await version_of(table)
    comm, first = await first_frame(f"/ws/t/{table.code}/?v={shown}&lang=en", lang="en")
    assert json.loads(first) == {"type": "current", "version": shown}
    await comm.disconnect()


@pytest.mark.parametrize(
    "query",
    [
        "",  # a page that names nothing (a reconnect)
        "?v={old}&lang=zh-hans",  # a page served before the last change
        "?v={now}&lang=en",  # another language than the socket's
        "?v={now}",  # no language
        "?v=abc&lang=zh-hans",
        "?v=-1&lang=zh-hans",
        "?v={now}&lang=fr",
    ],
)
async def test_anything_else_gets_the_whole_state(query: str) -> None:
    table, seats = await playing(4)
    now = await version_of(table)
    path = f"/ws/{seats[1].token}/" + query.format(now=now, old=now - 1)
    comm, first = await first_frame(path)
    assert 'id="table-state"' in first
    assert f'data-version="{now}"' in first
    await comm.disconnect()
