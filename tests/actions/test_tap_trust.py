"""Trust under load: what a tap is answered is what became of it.

- The double-tap window counts from when a tap *arrived*, not from when the database
  thread got to it. Identical taps seconds apart both apply however busy the thread; one 100 ms
  after another is answered "merged" (never "done") and not applied; the phone's HTTP retry of a
  tap never makes its next identical tap look like a double tap.
- One action id, one outcome. Whichever copy of a tap (its socket message, its HTTP
  retry) is judged first decides; a refusal is remembered, and every answer for the id says it.
- No tap pending more than 5 s. A tap still waiting for the database thread or for the
  write lock at its deadline is answered "not applied" without running; the same id applies
  once later.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import threading
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections, transaction
from django.test import Client
from pytest_django.fixtures import Settings

from companion.infra import dbthread
from companion.models import Event, Seat, Table, TapOutcome
from companion.web import dispatch
from tests.actions.test_outcome import ask, held_lock
from tests.live.test_consumers import drain, open_socket
from tests.support.game import picked_all

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True)]

playing = database_sync_to_async(picked_all)


async def send_tap(
    comm: WebsocketCommunicator, action_id: str, name: str = "hp", **fields: Any
) -> None:
    message = {"type": "act", "name": name, "fields": fields, "action_id": action_id}
    await comm.send_to(text_data=json.dumps(message))


async def answers(
    comm: WebsocketCommunicator, ids: list[str], timeout: float = 10
) -> dict[str, dict[str, Any]]:
    """The answer to each tap: its JSON answer, or {"type": "frame"} for its change's own frame."""
    got: dict[str, dict[str, Any]] = {}
    while len(got) < len(ids):
        frame = await comm.receive_from(timeout=timeout)
        if frame.startswith("{"):
            message = json.loads(frame)
            if message.get("action_id") in ids and message.get("type") != "status":
                got.setdefault(message["action_id"], message)
            continue
        for action_id in ids:
            if f'data-action="{action_id}"' in frame:
                got.setdefault(action_id, {"type": "frame"})
    return got


class HeldThread:
    """The database thread of a table's taps, busy with something else until released."""

    def __init__(self, table: Table) -> None:
        self.release = threading.Event()
        self.job = dbthread.submit_keyed(table.code, self.release.wait, 30)

    async def done(self) -> None:
        self.release.set()
        await self.job


@database_sync_to_async
def hp_of(seat: Seat) -> int:
    return Seat.objects.get(pk=seat.pk).hp


@database_sync_to_async
def logged(table: Table, *ids: str) -> list[str]:
    return sorted(
        Event.objects.filter(table=table, action_id__in=ids).values_list("action_id", flat=True)
    )


def post(url: str, form: dict[str, Any], **headers: str) -> Any:
    return Client().post(url, form, HTTP_HX_REQUEST="true", **headers)


def in_own_thread(func: Any) -> Any:
    """Run `func` in a thread of its own, as a request runs in the server (not on the one thread
    every `database_sync_to_async` of the test and of the consumers shares)."""

    async def call(*args: Any, **kwargs: Any) -> Any:
        def run() -> Any:
            try:
                return func(*args, **kwargs)
            finally:
                connections.close_all()

        return await asyncio.to_thread(run)

    return call


apost = in_own_thread(post)
aget = in_own_thread(lambda url: Client().get(url))


# ---------------------------------------------------------------------------------------------
# The window by arrival


async def test_identical_taps_seconds_apart_both_apply_while_the_database_thread_is_busy() -> None:
    """Tap B is sent 2 s after tap A, both waiting for a busy database thread: the thread reaches
    them one right after the other, but they are two taps."""
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    held = HeldThread(table)
    await send_tap(comm, "apartaaa01", seat=me.pk, delta=-1)
    await asyncio.sleep(2.0)
    await send_tap(comm, "apartbbb02", seat=me.pk, delta=-1)
    await asyncio.sleep(0.05)
    await held.done()
    got = await answers(comm, ["apartaaa01", "apartbbb02"])
    assert got == {"apartaaa01": {"type": "frame"}, "apartbbb02": {"type": "frame"}}, got
    assert await logged(table, "apartaaa01", "apartbbb02") == ["apartaaa01", "apartbbb02"]
    assert await hp_of(me) == me.hp - 2
    await comm.disconnect()


async def test_an_identical_tap_100ms_after_another_is_answered_merged_and_not_applied() -> None:
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    held = HeldThread(table)
    await send_tap(comm, "mergeaaa01", seat=me.pk, delta=-1)
    await asyncio.sleep(0.1)
    await send_tap(comm, "mergebbb02", seat=me.pk, delta=-1)
    await asyncio.sleep(0.6)
    await held.done()
    got = await answers(comm, ["mergeaaa01", "mergebbb02"])
    assert got["mergeaaa01"] == {"type": "frame"}
    assert got["mergebbb02"] == {
        "type": "merged",
        "action_id": "mergebbb02",
        "version": table.version + 1,
    }
    assert await logged(table, "mergeaaa01", "mergebbb02") == ["mergeaaa01"]
    assert await hp_of(me) == me.hp - 1
    # Every later answer for the merged tap says the same: asked, or its copy posted again.
    status = await ask(comm, "mergebbb02")
    assert status["applied"] is False and status["outcome"] == "merged"
    form = {"seat": me.pk, "delta": "-1", "action_id": "mergebbb02"}
    response = await apost(f"/p/{me.token}/act/hp", form, HTTP_X_TAP_RETRY="1")
    assert response.status_code == 204 and response["X-Tap-Outcome"] == "merged"
    assert await hp_of(me) == me.hp - 1
    await comm.disconnect()


async def test_an_identical_tap_after_another_change_applies_however_soon() -> None:
    """-1, +1, -1 within the window: three taps (the last repeats one another change came
    after), all applied; only a repeat of the table's last change is merged."""
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    held = HeldThread(table)
    await send_tap(comm, "betweena01", seat=me.pk, delta=-1)
    await send_tap(comm, "betweenb02", seat=me.pk, delta=1)
    await send_tap(comm, "betweenc03", seat=me.pk, delta=-1)
    await send_tap(comm, "betweend04", seat=me.pk, delta=-1)
    await asyncio.sleep(0.3)
    await held.done()
    got = await answers(comm, ["betweena01", "betweenb02", "betweenc03", "betweend04"])
    assert [got[i]["type"] for i in ("betweena01", "betweenb02", "betweenc03")] == ["frame"] * 3
    assert got["betweend04"]["type"] == "merged"  # the repeat of the last change is merged
    assert await logged(table, "betweena01", "betweenb02", "betweenc03", "betweend04") == [
        "betweena01",
        "betweenb02",
        "betweenc03",
    ]
    assert await hp_of(me) == me.hp - 1
    await comm.disconnect()


async def test_the_http_retry_of_a_tap_does_not_make_the_next_identical_tap_merged() -> None:
    """Tap A waits over the socket; its HTTP retry (same id) is judged first and applies; the
    phone's next identical tap B, sent right after, is a tap of its own."""
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    held = HeldThread(table)
    await send_tap(comm, "retryaaa01", seat=me.pk, delta=-1)
    await asyncio.sleep(1.0)
    # The retry as a page without the phone's script would send it (no X-Tap-Retry): this
    # process knows when the tap first arrived.
    form = {"seat": me.pk, "delta": "-1", "action_id": "retryaaa01"}
    assert (await apost(f"/p/{me.token}/act/hp", form)).status_code == 204
    await send_tap(comm, "retrybbb02", seat=me.pk, delta=-1)
    await asyncio.sleep(0.05)
    await held.done()
    got = await answers(comm, ["retryaaa01", "retrybbb02"])
    assert got["retrybbb02"] == {"type": "frame"}, got
    assert await logged(table, "retryaaa01", "retrybbb02") == ["retryaaa01", "retrybbb02"]
    assert await hp_of(me) == me.hp - 2
    await comm.disconnect()


def test_a_retry_marked_as_such_is_never_the_reference_of_a_merge() -> None:
    """The retry may reach a process that never saw the tap's first copy: marked by the phone's
    script, it is applied as that tap, and an identical tap right after is still another tap."""
    table, seats = picked_all(4)
    me = seats[1]
    url = f"/p/{me.token}/act/hp"
    retry = post(
        url, {"seat": me.pk, "delta": "-1", "action_id": "marked0001"}, HTTP_X_TAP_RETRY="1"
    )
    assert retry.status_code == 204
    after = post(url, {"seat": me.pk, "delta": "-1", "action_id": "marked0002"})
    assert after.status_code == 204 and after.get("X-Tap-Outcome") is None
    assert Seat.objects.get(pk=me.pk).hp == me.hp - 2


# ---------------------------------------------------------------------------------------------
# One action id, one outcome


@database_sync_to_async
def lower_by_host(table: Table, seat: Seat, action_id: str) -> None:
    form = {"seat": seat.pk, "delta": "-1", "action_id": action_id}
    assert post(f"/h/{table.host_token}/act/hp", form).status_code == 204


async def test_a_retry_refused_first_decides_for_its_socket_copy() -> None:
    """The socket copy of a heal waits; its HTTP retry is judged first and refused (full HP).
    HP then drops; the socket copy would heal now, but it is that same refused tap."""
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    held = HeldThread(table)
    await send_tap(comm, "refuseaaa1", seat=me.pk, delta=1)
    form = {"seat": me.pk, "delta": "1", "action_id": "refuseaaa1"}
    retry = await apost(f"/p/{me.token}/act/hp", form, HTTP_X_TAP_RETRY="1")
    assert retry.status_code == 409
    await lower_by_host(table, me, "hostlow001")
    await held.done()
    got = (await answers(comm, ["refuseaaa1"]))["refuseaaa1"]
    assert got["type"] == "error" and got["status"] == 409, got
    assert got["message"] in retry.content.decode()
    assert await hp_of(me) == me.hp - 1
    assert await logged(table, "refuseaaa1") == []
    status = await ask(comm, "refuseaaa1")
    assert status["applied"] is False and status["outcome"] == "refused"
    assert status["status"] == 409 and status["message"] == got["message"]
    over_http = (await aget(f"/p/{me.token}/status/refuseaaa1")).json()
    assert over_http["outcome"] == "refused" and over_http["message"] == got["message"]
    await comm.disconnect()


async def test_a_socket_copy_refused_first_decides_for_its_retry() -> None:
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    await send_tap(comm, "refusebbb1", seat=me.pk, delta=1)
    got = (await answers(comm, ["refusebbb1"]))["refusebbb1"]
    assert got["type"] == "error" and got["status"] == 409, got
    await lower_by_host(table, me, "hostlow002")
    await drain(comm)
    form = {"seat": me.pk, "delta": "1", "action_id": "refusebbb1"}
    retry = await apost(f"/p/{me.token}/act/hp", form, HTTP_X_TAP_RETRY="1")
    assert retry.status_code == 409 and got["message"] in retry.content.decode()
    assert await hp_of(me) == me.hp - 1
    status = await ask(comm, "refusebbb1")
    assert (status["outcome"], status["status"], status["message"]) == (
        "refused",
        409,
        got["message"],
    )
    # Another seat learns nothing about it.
    other = (await aget(f"/p/{seats[2].token}/status/refusebbb1")).json()
    assert other["outcome"] == "not_applied" and "message" not in other
    assert await database_sync_to_async(TapOutcome.objects.count)() == 1
    await comm.disconnect()


def test_every_dispatched_action_is_atomic_so_a_refusal_leaves_only_its_record() -> None:
    """The dispatcher runs an action inside its own transaction and records a refusal there;
    the action's own atomic block (a savepoint) is what rolls its attempt back."""
    held = [dispatch.forms.FORMS[tap].function() for tap in dispatch.ACTIONS]
    funcs = {func.__qualname__: func for func in held}
    assert len(funcs) >= 25
    for name, func in sorted(funcs.items()):
        # @action (actions.core) runs it in transaction.atomic; the others say so themselves.
        wrapper = inspect.getclosurevars(func).nonlocals.get("self")
        atomic = getattr(func, "is_action", False) or isinstance(wrapper, transaction.Atomic)
        assert atomic, f"{name} is not atomic"


# ---------------------------------------------------------------------------------------------
# No tap pending more than 5 s


async def test_a_held_write_lock_gets_every_tap_answered_within_5s_and_a_retry_applies_once() -> (
    None
):
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    url = f"/p/{me.token}/act/hp"
    # Not the socket's tap (another delta): no merging between the two.
    form = {"seat": me.pk, "delta": "-2", "action_id": "heldhttp01"}

    async def over_socket() -> tuple[dict[str, Any], float]:
        start = time.monotonic()
        await send_tap(comm, "heldsock01", seat=me.pk, delta=-1)
        got = (await answers(comm, ["heldsock01"], timeout=5))["heldsock01"]
        return got, time.monotonic() - start

    async def over_http() -> tuple[Any, float]:
        start = time.monotonic()
        response = await apost(url, form)
        return response, time.monotonic() - start

    with held_lock(table):
        held_since = time.monotonic()
        (answer, socket_took), (response, http_took) = await asyncio.gather(
            over_socket(), over_http()
        )
        # Ordinary pages are read meanwhile (no write lock needed).
        assert (await aget(f"/p/{me.token}/")).status_code == 200
        await asyncio.sleep(max(0.0, 5.5 - (time.monotonic() - held_since)))
    assert socket_took < 5 and http_took < 5, (socket_took, http_took)
    assert answer["type"] == "error" and answer["status"] == 503, answer
    assert answer["outcome"] == "not_applied"
    assert response.status_code == 503 and response["X-Tap-Outcome"] == "not_applied"
    assert await hp_of(me) == me.hp
    # After the lock is released, the same ids apply, once each.
    for _ in range(2):
        await send_tap(comm, "heldsock01", seat=me.pk, delta=-1)
        assert (await answers(comm, ["heldsock01"]))["heldsock01"]["type"] in ("frame", "done")
        assert (await apost(url, form)).status_code == 204
    assert await logged(table, "heldsock01", "heldhttp01") == ["heldhttp01", "heldsock01"]
    assert await hp_of(me) == me.hp - 3
    await comm.disconnect()


async def test_a_tap_queued_past_its_deadline_is_not_run(settings: Settings) -> None:
    settings.TAP_DEADLINE_MS = 500
    table, seats = await playing(4)
    me = seats[1]
    comm, _ = await open_socket(f"/ws/{me.token}/")
    held = HeldThread(table)
    start = time.monotonic()
    await send_tap(comm, "queued0001", seat=me.pk, delta=-1)
    await asyncio.sleep(1.0)
    await held.done()
    answer = (await answers(comm, ["queued0001"]))["queued0001"]
    assert answer["type"] == "error" and answer["outcome"] == "not_applied", answer
    assert time.monotonic() - start < 5
    assert await logged(table, "queued0001") == []
    assert (await ask(comm, "queued0001"))["outcome"] == "not_applied"
    await send_tap(comm, "queued0001", seat=me.pk, delta=-1)
    assert (await answers(comm, ["queued0001"]))["queued0001"] == {"type": "frame"}
    assert await hp_of(me) == me.hp - 1
    await comm.disconnect()
