"""No tap whose outcome is in doubt.

- A phone can ask whether one of its taps (by action id) was applied, over its socket or over
  HTTP, and only about its own taps; a tap still queued is answered before the question.
- A tap that committed is never answered with an error: not when the broadcast after the commit
  fails (Redis down), and a tap the database refused (its lock held past the timeout) is
  answered "not applied", which the status agrees with.
- An identical tap from the same screen within the short window is the same tap, unless it says
  it is meant (`repeat`).
- The heartbeat's pong carries the table's version, so a phone that missed a frame sees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client
from pytest_django.fixtures import Settings

from companion import actions
from companion.infra import dbthread
from companion.live import broadcast
from companion.models import Event, Seat, Table
from tests.live.test_consumers import drain, open_socket, receive_until
from tests.live.test_socket_taps import fresh, tap
from tests.support.factories import make_table
from tests.support.game import picked_all

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True)]

playing = database_sync_to_async(picked_all)
SQLITE = connection.vendor == "sqlite"


async def ask(comm: WebsocketCommunicator, action_id: str) -> dict[str, Any]:
    """Ask the socket whether the tap `action_id` was applied; its answer."""
    await comm.send_to(text_data=json.dumps({"type": "status", "action_id": action_id}))
    frame = await receive_until(comm, lambda f: f.startswith("{") and '"status"' in f)
    answer = json.loads(frame)
    assert answer["type"] == "status" and answer["action_id"] == action_id, answer
    return answer


async def ping(comm: WebsocketCommunicator) -> dict[str, Any]:
    """The pong (at once), with the table's version that follows it."""
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    answer = json.loads(await receive_until(comm, lambda f: '"pong"' in f))
    assert answer["type"] == "pong"
    version = json.loads(await receive_until(comm, lambda f: '"version"' in f))
    return answer | {"version": version["version"]}


@database_sync_to_async
def applied(table: Table, action_id: str) -> bool:
    return Event.objects.filter(table=table, action_id=action_id).exists()


@database_sync_to_async
def hp_of(seat: Seat) -> int:
    return Seat.objects.get(pk=seat.pk).hp


@database_sync_to_async
def version_of(table: Table) -> int:
    return Table.objects.get(pk=table.pk).version


def hp_event_count(table: Table) -> int:
    return Event.objects.filter(table=table, kind__in=("damage", "recover")).count()


# ---------------------------------------------------------------------------------------------
# The status of a tap


async def test_a_screen_can_ask_whether_its_own_tap_was_applied_and_no_other() -> None:
    table, seats = await playing(4)
    me, other = seats[1], seats[2]
    mine, _ = await open_socket(f"/ws/{me.token}/")
    theirs, _ = await open_socket(f"/ws/{other.token}/")
    assert await tap(mine, "hp", "outcome001", seat=me.pk, delta=-1) is None
    await drain(theirs)
    now = table.version + 1
    assert await ask(mine, "outcome001") == {
        "type": "status",
        "action_id": "outcome001",
        "applied": True,
        "version": now,
        "outcome": "applied",
    }
    assert (await ask(mine, "outcome999"))["applied"] is False
    # Another seat's phone cannot learn anything about this seat's taps.
    assert (await ask(theirs, "outcome001"))["applied"] is False
    await mine.send_to(text_data=json.dumps({"type": "status", "action_id": "x"}))
    assert json.loads(await mine.receive_from(timeout=5))["type"] == "error"

    # The same over HTTP, on the seat's private address, with the private headers.
    http = Client()
    response = await database_sync_to_async(http.get)(f"/p/{me.token}/status/outcome001")
    assert response.status_code == 200
    assert response.json() == {
        "type": "status",
        "action_id": "outcome001",
        "applied": True,
        "version": now,
        "outcome": "applied",
    }
    assert response["Cache-Control"] == "no-store, private"
    assert response["Referrer-Policy"] == "no-referrer"
    response = await database_sync_to_async(http.get)(f"/p/{other.token}/status/outcome001")
    assert response.json()["applied"] is False
    response = await database_sync_to_async(http.get)(f"/p/{me.token}A/status/outcome001")
    assert response.status_code == 404
    await mine.disconnect()
    await theirs.disconnect()


# ---------------------------------------------------------------------------------------------
# The database's lock held by somebody else


@contextlib.contextmanager
def held_lock(table: Table) -> Iterator[None]:
    """Another connection holds the write lock (SQLite: BEGIN IMMEDIATE; PostgreSQL: the
    table's row FOR UPDATE) until the block ends."""
    settings = connection.settings_dict
    if SQLITE:
        other = sqlite3.connect(settings["NAME"], isolation_level=None, timeout=0)
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    import psycopg

    with psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        host=settings["HOST"],
        port=settings["PORT"] or None,
    ) as other:
        other.execute(
            f"SELECT id FROM {Table._meta.db_table} WHERE id = %s FOR UPDATE",  # noqa: S608
            [table.pk],
        )
        yield
        other.rollback()


def short_lock_wait(ms: int) -> None:
    """This thread's connection waits `ms` for a lock instead of its usual time."""
    connection.ensure_connection()
    with connection.cursor() as cursor:
        if SQLITE:
            cursor.execute(f"PRAGMA busy_timeout = {int(ms)}")
        else:
            cursor.execute(f"SET lock_timeout = '{int(ms)}ms'")


def usual_lock_wait() -> None:
    connection.close()


async def test_a_socket_tap_refused_by_a_held_lock_is_answered_not_applied_and_status_agrees(
    settings: Settings,
) -> None:
    table, seats = await playing(4)
    me = seats[1]
    before = me.hp
    comm, _ = await open_socket(f"/ws/{me.token}/")
    # A tap waits for the lock until its deadline (companion.web.dispatch), here a short one.
    settings.TAP_DEADLINE_MS = 300
    try:
        with held_lock(table):
            answer = await tap(comm, "hp", "locked0001", seat=me.pk, delta=-1)
        assert answer is not None and answer["type"] == "error", answer
        assert answer["action_id"] == "locked0001"
        assert answer["status"] == 503 and answer["outcome"] == "not_applied"
        assert not await applied(table, "locked0001")
        assert await hp_of(me) == before
        # Asked again, the server agrees; the same tap now goes through, once.
        assert (await ask(comm, "locked0001"))["applied"] is False
        assert await tap(comm, "hp", "locked0001", seat=me.pk, delta=-1) is None
        assert (await ask(comm, "locked0001"))["applied"] is True
        assert await hp_of(me) == before - 1
    finally:
        await comm.disconnect()


async def test_a_status_question_is_answered_at_once_while_the_tap_still_waits_for_the_lock() -> (
    None
):
    """A phone that got no answer in time asks while its tap still waits on the lock (and the
    database thread with it). The answer comes at once, read beside the writer: "not known yet"
    (`applied` null), never "not applied" for a tap that then applies; asked again once the tap
    is through, "applied"."""
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    await dbthread.run_keyed(table.code, short_lock_wait, 5000)
    try:
        with held_lock(table):
            message = {
                "type": "act",
                "name": "hp",
                "fields": {"seat": me.pk, "delta": -1},
                "action_id": "waiting001",
            }
            await comm.send_to(text_data=json.dumps(message))
            asked = time.monotonic()
            answer = await ask(comm, "waiting001")
            waited = time.monotonic() - asked
            # A question about a tap nobody has sent is answered at once too.
            assert (await ask(comm, "neversent1"))["outcome"] == "not_applied"
        frame = await receive_until(comm, lambda f: 'data-action="waiting001"' in f, timeout=10)
    finally:
        await dbthread.run_keyed(table.code, usual_lock_wait)
    assert answer["applied"] is None and answer["outcome"] == "unknown", answer
    assert waited < 1, waited
    assert frame
    assert (await ask(comm, "waiting001"))["applied"] is True
    assert await hp_of(me) == me.hp - 1
    await comm.disconnect()


def test_an_http_tap_refused_by_a_held_lock_is_answered_not_applied_and_status_agrees(
    settings: Settings,
) -> None:
    table, seats = picked_all(4)
    me = seats[1]
    http = Client()
    tap_url = f"/p/{me.token}/act/hp"
    form = {"seat": me.pk, "delta": "-1", "action_id": "httplock01"}
    settings.TAP_DEADLINE_MS = 300
    with held_lock(table):
        response = http.post(tap_url, form, HTTP_HX_REQUEST="true")
    assert response.status_code == 503
    assert response["X-Tap-Outcome"] == "not_applied"
    assert response["Cache-Control"] == "no-store, private"
    assert Seat.objects.get(pk=me.pk).hp == me.hp
    assert http.get(f"/p/{me.token}/status/httplock01").json()["applied"] is False
    assert http.post(tap_url, form, HTTP_HX_REQUEST="true").status_code == 204
    assert http.get(f"/p/{me.token}/status/httplock01").json()["applied"] is True
    assert Seat.objects.get(pk=me.pk).hp == me.hp - 1


# ---------------------------------------------------------------------------------------------
# The broadcast after the commit fails


async def test_a_committed_tap_whose_broadcast_fails_is_still_answered_applied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    layer = get_channel_layer()

    async def down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("the channel layer is down")

    monkeypatch.setattr(layer, "group_send", down)
    answer = await tap(comm, "hp", "nolayer001", seat=me.pk, delta=-1)
    assert answer == {"type": "done", "action_id": "nolayer001", "version": table.version + 1}
    assert await hp_of(me) == me.hp - 1
    # Over HTTP: 204, not a 500 for a tap that is in the database.
    response = await database_sync_to_async(Client().post)(
        f"/p/{me.token}/act/hp",
        {"seat": me.pk, "delta": "-2", "action_id": "nolayer002"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 204
    assert await applied(table, "nolayer002")
    assert (await ask(comm, "nolayer002"))["applied"] is True
    await comm.disconnect()


# ---------------------------------------------------------------------------------------------
# A double tap is one tap


async def test_an_identical_tap_within_the_window_is_the_same_tap() -> None:
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    theirs, _ = await open_socket(f"/ws/{table.host_token}/")
    start = me.hp
    # The second copy leaves right behind the first, before its answer: the window counts
    # when taps arrive, so the test holds however slowly the machine answers.
    for action_id in ("double0001", "double0002"):
        message = {"type": "act", "name": "hp", "fields": {"seat": me.pk, "delta": -1}}
        await comm.send_to(text_data=json.dumps({**message, "action_id": action_id}))
    answers: dict[str, Any] = {}
    while len(answers) < 2:
        frame = await comm.receive_from(timeout=10)
        if frame.startswith("{"):
            answers[json.loads(frame)["action_id"]] = json.loads(frame)
        elif 'data-action="double0001"' in frame:
            answers["double0001"] = None
    assert answers["double0001"] is None
    # Answered "merged", never "done": the phone says it counted once.
    assert answers["double0002"] == {
        "type": "merged",
        "action_id": "double0002",
        "version": table.version + 1,
    }
    assert await hp_of(me) == start - 1
    assert not await applied(table, "double0002")
    # The host console's identical tap at the same moment is its own tap.
    await drain(theirs)
    assert await tap(theirs, "hp", "double0003", seat=me.pk, delta=-1) is None
    assert await hp_of(me) == start - 2
    # A tap that says it is meant as another one adds up; so does one after the window.
    assert await tap(comm, "hp", "double0004", seat=me.pk, delta=-1, repeat=1) is None
    assert await hp_of(me) == start - 3
    await asyncio.sleep(0.45)
    await drain(comm)
    assert await tap(comm, "hp", "double0005", seat=me.pk, delta=-1) is None
    assert await hp_of(me) == start - 4
    await comm.disconnect()
    await theirs.disconnect()


def test_an_identical_http_tap_within_the_window_is_the_same_tap(settings: Any) -> None:
    # The second request leaves when the first is answered: within the window however slowly a
    # busy machine answers it.
    settings.TAP_REPEAT_WINDOW_MS = 5000
    table, seats = picked_all(4)
    me = seats[1]
    http = Client()
    url = f"/p/{me.token}/act/hp"
    start = me.hp
    outcomes = []
    for action_id in ("httpdbl001", "httpdbl002"):
        form = {"seat": me.pk, "delta": "-1", "action_id": action_id}
        response = http.post(url, form, HTTP_HX_REQUEST="true")
        assert response.status_code == 204
        outcomes.append(response.get("X-Tap-Outcome"))
    assert outcomes == [None, "merged"]
    assert Seat.objects.get(pk=me.pk).hp == start - 1
    assert hp_event_count(table) == 1
    status = http.get(f"/p/{me.token}/status/httpdbl002").json()
    assert status["applied"] is False and status["outcome"] == "merged"


def test_a_double_tap_on_deal_deals_once_without_asking_to_confirm(settings: Any) -> None:
    # Two taps of one finger (within the window however slow a busy machine renders the deal).
    settings.TAP_REPEAT_WINDOW_MS = 5000
    table, _ = make_table(4)
    http = Client()
    url = f"/h/{table.host_token}/act/deal"
    for action_id in ("dealdbl001", "dealdbl002"):
        response = http.post(url, {"action_id": action_id}, HTTP_HX_REQUEST="true")
        assert response.status_code == 204
    assert Event.objects.filter(table=table, kind__startswith="identities").count() == 1


def test_next_phase_taps_made_from_the_same_phase_are_one_tap(settings: Any) -> None:
    """The Next phase button names the phase it advances from (`from`): twice from the same
    phase is a double tap; from the phase that followed, another tap however soon."""
    # A wide window: a loaded test machine may take longer between two posts than a thumb.
    settings.TAP_REPEAT_WINDOW_MS = 5000
    table, _seats = picked_all(4)
    http = Client()
    url = f"/h/{table.host_token}/act/next"
    start = Table.objects.get(pk=table.pk).phase
    for action_id, made_from in (("nextdbl001", "a"), ("nextdbl002", "a")):
        form = {"from": made_from, "action_id": action_id}
        assert http.post(url, form, HTTP_HX_REQUEST="true").status_code == 204
    assert Event.objects.filter(table=table, action_id__startswith="nextdbl").count() == 1
    second = Table.objects.get(pk=table.pk).phase
    assert second != start
    form = {"from": "b", "action_id": "nextdbl003"}
    assert http.post(url, form, HTTP_HX_REQUEST="true").status_code == 204
    assert Event.objects.filter(table=table, action_id__startswith="nextdbl").count() == 2
    assert Table.objects.get(pk=table.pk).phase != second


# ---------------------------------------------------------------------------------------------
# The heartbeat tells a phone it is behind


async def test_the_heartbeat_carries_the_table_version_so_a_missed_frame_is_noticed() -> None:
    table, seats = await playing(4)
    me, other = seats[1], seats[2]
    comm, _ = await open_socket(f"/ws/{other.token}/")
    assert (await ping(comm))["version"] == table.version

    @database_sync_to_async
    def change_without_its_frame() -> None:
        # The change commits; its frames are collected and never sent (a lost publish).
        with broadcast.collecting():
            actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-1)

    await change_without_its_frame()
    assert await drain(comm) == []
    assert (await ping(comm))["version"] == table.version + 1 == await version_of(table)
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    state = await receive_until(comm, lambda f: 'id="table-state"' in f)
    assert f'data-version="{table.version + 1}"' in state
    assert (await fresh(me)).hp == me.hp - 1
    await comm.disconnect()
