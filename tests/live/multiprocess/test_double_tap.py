"""Identical taps of one screen that reach two processes: one over the socket to A, the other over
HTTP to B, a few milliseconds apart. The double-tap window (TAP_REPEAT_WINDOW_MS) is decided in
the shared database, so they are one tap, as on one process: one applied, the other merged; a
deliberate tap after the window is its own. Before, each process kept the window in its own
memory and both copies applied."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import TYPE_CHECKING, Any

from tests.live.multiprocess.phones import Browser, close_all, connect
from tests.live.multiprocess.test_two_processes import Table
from tests.live.multiprocess.test_two_processes import pytestmark as PYTESTMARK
from tests.support.aio import run

if TYPE_CHECKING:
    from bench.servers import Server
    from tests.live.multiprocess.conftest import Cluster

# Two processes on PostgreSQL and Redis, skipped without them (as test_two_processes.py).
pytestmark = PYTESTMARK

STATUS_SECONDS = 15


async def outcome(phone: Browser, server: Server, token: str, action_id: str) -> dict[str, Any]:
    """The tap's outcome as its screen asks for it, once it is known."""
    deadline = time.monotonic() + STATUS_SECONDS
    while True:
        answer = await phone.get(f"{server.base}/p/{token}/status/{action_id}")
        assert answer.status == 200, answer
        found = json.loads(answer.body)
        if found["outcome"] not in ("not_applied", "unknown"):
            return found
        assert time.monotonic() < deadline, found
        await asyncio.sleep(0.05)


async def scenario(cluster: Cluster) -> dict[str, Any]:
    a, b = cluster.servers["A"], cluster.servers["B"]
    table = Table(cluster)
    await table.create(a)
    phones = [await table.join(a, f"玩家{n + 1}") for n in range(4)]
    await table.act(a, "options", first_game_mode="1")
    await table.act(a, "deal")
    await table.act(a, "start")
    phone, token, seat_id = phones[1]
    conn = await connect("phone", a, token, seat_id)
    try:
        fields = {"seat": str(seat_id), "delta": "-1"}
        pair = [f"pairws{secrets.token_hex(6)}", f"pairhttp{secrets.token_hex(6)}"]
        over_socket = {"type": "act", "name": "hp", "fields": fields, "action_id": pair[0]}
        # One screen's two identical taps at once: over its socket to A, over HTTP to B.
        posted, _sent = await asyncio.gather(
            phone.post(
                f"{b.base}/p/{token}/act/hp",
                {**fields, "action_id": pair[1]},
                origin=b.base,
                htmx=True,
            ),
            conn.ws.send(json.dumps(over_socket)),
        )
        assert posted.status == 204, posted
        outcomes = [await outcome(phone, a, token, action_id) for action_id in pair]
        # After the window: a deliberate second tap is its own.
        await asyncio.sleep(0.6)
        deliberate = f"again{secrets.token_hex(6)}"
        again = await phone.post(
            f"{b.base}/p/{token}/act/hp",
            {**fields, "action_id": deliberate},
            origin=b.base,
            htmx=True,
        )
        assert again.status == 204, again
        last = await outcome(phone, b, token, deliberate)
    finally:
        await close_all([conn])
    return {
        "pair": sorted(o["outcome"] for o in outcomes),
        "deliberate": last["outcome"],
        "versions": last["version"] - table.version,
    }


def test_identical_taps_on_two_processes_are_one_tap(cluster: Cluster) -> None:
    seen = run(asyncio.wait_for(scenario(cluster), 120))
    assert seen["pair"] == ["applied", "merged"], (seen, cluster.logs())
    assert seen["deliberate"] == "applied", seen
    # Two changes in all: the pair's one and the deliberate tap's.
    assert seen["versions"] == 2, seen
