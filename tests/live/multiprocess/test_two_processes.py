"""Two server processes, one table: PostgreSQL holds the truth, two Redis shards carry the
fragments.

Phones join through either process and listen on "their" process; the host changes the table
through A and B in turn. Every change must reach every screen on both processes exactly once, in
order, with the version and action id of the tap that caused it. Then A is killed: B's phones
keep receiving, and A's phones reconnect to B, get the current state at once and what follows.
The channel layer is sharded over two Redis servers: each group is subscribed on the shard its
name hashes to, by both processes, and both shards carry frames.
The phones' side (HTTP, websockets, the checks of every screen) is in phones.py.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from typing import TYPE_CHECKING, Any

import pytest
import websockets

from tests.live.multiprocess.phones import (
    WS_SECONDS,
    Browser,
    Change,
    Conn,
    check_same_final,
    check_screens,
    close_all,
    connect,
    delivered,
    parse_fragments,
)
from tests.support.aio import run

if TYPE_CHECKING:
    from bench.servers import Server
    from tests.live.multiprocess.conftest import Cluster

pytestmark = [
    pytest.mark.backend,
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        os.environ.get("DB") != "postgres" or not os.environ.get("REDIS_URL"),
        reason="multiprocess test needs PostgreSQL and Redis: set DB=postgres and REDIS_URL "
        "(as the second pass of scripts/test does)",
    ),
]

SCENARIO_SECONDS = 150  # the whole asyncio part; the cluster fixture's SIGALRM caps everything
PHONES = 6
SIX_TWO = Counter({"lord": 1, "loyalist": 1, "rebel": 2, "renegade": 2})
SEAT_ORDER_RE = re.compile(r'<li class="seat[^"]*" data-seat="(\d+)"')
LORD_SEAT_RE = re.compile(r'<li class="seat[^"]*\bis-lord\b[^"]*" data-seat="(\d+)"')
MY_IDENTITY_RE = re.compile(r'class="identity-card[^"]*\bidn-(lord|loyalist|rebel|renegade)\b')


# ---------------------------------------------------------------------------------------------
# The scenario


class Table:
    """The host's side: POSTs to either process, and the record of changes they made."""

    def __repr__(self) -> str:
        return f"<Table {self.code} v{self.version}>"

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.host = Browser()
        self.token = ""
        self.code = ""
        self.log: list[Change] = []
        self.version = 0

    async def create(self, server: Server) -> None:
        await self.host.get(server.base + "/")
        response = await self.host.post(server.base + "/new/", {}, origin=server.base)
        assert response.status == 200, response
        match = re.search(r"/h/([A-Za-z0-9_-]+)/$", response.url)
        assert match, response.url
        self.token = match.group(1)
        code = re.search(r'data-code="(\w+)"', response.body)
        assert code, "no table code on the host page"
        self.code = code.group(1)
        self.version = parse_fragments(response.body)[0].version

    async def join(self, server: Server, name: str) -> tuple[Browser, str, int]:
        phone = Browser()
        page = await phone.get(f"{server.base}/j/{self.code}/")
        assert page.status == 200, page
        response = await phone.post(
            f"{server.base}/j/{self.code}/", {"name": name}, origin=server.base
        )
        assert response.status == 200, (response.status, response.body[:500])
        match = re.search(r"/p/([A-Za-z0-9_-]+)/$", response.url)
        assert match, response.url
        seat = re.search(r'data-my-seat="(\d+)"', response.body)
        assert seat, "no seat id on the phone page"
        self.version += 1
        shown = [f.version for f in parse_fragments(response.body) if f.id == "table-state"]
        assert shown == [self.version], f"join of {name} via {server.name}: page shows {shown}"
        self.log.append(Change(self.version, None, server.name, "join"))
        return phone, match.group(1), int(seat.group(1))

    async def act(self, server: Server, name: str, **fields: str) -> None:
        action_id = f"mp{len(self.log):02d}{name}{secrets.token_hex(4)}"
        response = await self.host.post(
            f"{server.base}/h/{self.token}/act/{name}",
            {**fields, "action_id": action_id},
            origin=server.base,
            htmx=True,
        )
        assert response.status == 204, (name, server.name, response.status, response.body[:500])
        self.version += 1
        private = name in ("deal", "start")
        self.log.append(Change(self.version, action_id, server.name, name, private))

    async def handover(self, server: Server, seat_id: int, token: str) -> str:
        """The seat's own phone moves it to a new phone; returns the new phone's token.

        The dialog carries a one-time claim link (never the seat's own token), which the new phone posts to."""
        action_id = f"mp{len(self.log):02d}handover{secrets.token_hex(4)}"
        phone = Browser()
        await phone.get(f"{server.base}/p/{token}/")
        response = await phone.post(
            f"{server.base}/p/{token}/act/handover",
            {"seat": str(seat_id), "action_id": action_id},
            origin=server.base,
            htmx=True,
        )
        assert response.status == 200, (response.status, response.body[:500])
        match = re.search(r'href="(http://[^"/]+/n/[A-Za-z0-9_-]+/)"', response.body)
        assert match, "no claim link in the handover dialog"
        self.version += 1
        self.log.append(Change(self.version, action_id, server.name, "handover"))
        new_phone = Browser()
        await new_phone.get(match.group(1))
        taken = await new_phone.post(match.group(1), {}, origin=server.base)
        found = re.search(r"/p/([A-Za-z0-9_-]+)/$", taken.url)
        assert taken.status == 200 and found, (taken.status, taken.url)
        return found.group(1)


async def expect_gone(server: Server, token: str) -> None:
    """A revoked token's socket is refused with 4404 and gets no state at all."""
    async with websockets.connect(
        f"ws://127.0.0.1:{server.port}/ws/{token}/",
        origin=server.base,  # type: ignore[arg-type]
        open_timeout=WS_SECONDS,
        close_timeout=2,
        ping_interval=None,
    ) as ws:
        try:
            message = await asyncio.wait_for(ws.recv(), WS_SECONDS)
        except websockets.ConnectionClosed:
            message = None
        assert message is None, f"revoked token got a frame on {server.name}: {message[:200]}"
        assert ws.close_code == 4404, ws.close_code


def move(order: list[int], seat: int, position: int) -> None:
    order.remove(seat)
    order.insert(position, seat)


async def scenario(cluster: Cluster) -> dict[str, Any]:
    a, b = cluster.servers["A"], cluster.servers["B"]
    servers = {"A": a, "B": b}
    table = Table(cluster)
    conns: list[Conn] = []
    stats: dict[str, Any] = {}
    try:
        # -- 1. A table, its host console on A, phones joining through A and B in turn.
        await table.create(a)
        assert table.version == 1
        host_console = await connect("host", a, table.token, None)
        conns.append(host_console)
        assert {f.id for f in host_console.snapshot} == {"table-state", "host-panel"}
        seats: list[int] = []
        for index in range(PHONES):
            server = a if index % 2 == 0 else b
            _browser, token, seat_id = await table.join(server, f"玩家{index + 1}")
            await delivered(conns, table.log, cluster)
            conn = await connect(f"phone{index + 1}", server, token, seat_id)
            # A phone's snapshot keeps an empty #host-panel, where host controls land if the
            # role passes to it.
            assert {f.id for f in conn.snapshot} == {"table-state", "my-seat", "host-panel"}
            assert "host-panel-none" in conn.latest("host-panel").html  # type: ignore[union-attr]
            assert {f.version for f in conn.snapshot} == {table.version}, conn.snapshot
            assert all(f.action is None for f in conn.snapshot)
            conns.append(conn)
            seats.append(seat_id)
        check_screens(conns, table.log, cluster)

        # -- The host taps through A and B in turn, without waiting for the pushes in between.
        order = list(seats)
        steps: list[tuple[Server, str, dict[str, str]]] = [
            (a, "move", {"seat": str(seats[5]), "position": "0"}),
            (b, "lock", {"locked": "1"}),
            # First-game mode: `start` then goes straight to play and updates every phone.
            (a, "options", {"six_two_renegades": "1", "first_game_mode": "1"}),
            (b, "lock", {"locked": "0"}),
            (a, "move", {"seat": str(seats[0]), "position": "5"}),
            (b, "deal", {}),
            (a, "deal", {"confirm": "1"}),
            (b, "move", {"seat": str(seats[2]), "position": "1"}),
        ]
        for server, name, fields in steps:
            await table.act(server, name, **fields)
            if name == "move":
                move(order, int(fields["seat"]), int(fields["position"]))
        await delivered(conns, table.log, cluster)
        check_screens(conns, table.log, cluster)
        final = check_same_final(conns, table.version)
        assert [int(s) for s in SEAT_ORDER_RE.findall(final)] == order

        # Both directions crossed processes: A's screens saw B's changes and B's saw A's.
        by_version = {change.version: change for change in table.log}
        crossed = Counter(
            (conn.server, by_version[f.version].via)
            for conn in conns
            for f in conn.pushed()
            if f.id == "table-state"
        )
        assert crossed[("A", "B")] > 0 and crossed[("B", "A")] > 0, crossed
        assert {c.server for c in conns if not c.is_host} == {"A", "B"}

        # The redeal through A reached every seat on both processes: one identity each, the
        # option set through A counted, the public lord is the seat whose phone says lord.
        identities = {}
        for conn in conns:
            mine = conn.latest("my-seat")
            if conn.is_host or mine is None:
                continue
            assert mine.version == table.version - 1 and mine.action == table.log[-2].action
            found = MY_IDENTITY_RE.search(mine.html)
            assert found, f"{conn.label}: no identity shown"
            identities[conn.seat_id] = found.group(1)
        assert Counter(identities.values()) == SIX_TWO, identities
        lord = LORD_SEAT_RE.findall(final)
        assert lord == [str(k) for k, v in identities.items() if v == "lord"], lord

        # A seat handed to a new phone through B: the old socket on A closes (4404) right after
        # the change, the old link is refused on both processes, the new one works on A.
        old = next(c for c in conns if c.label == "phone1")
        assert old.server == "A"
        new_token = await table.handover(b, old.seat_id, old.token)  # type: ignore[arg-type]
        # Everything before the handover is due to the old socket; the handover's own frame may
        # come after its close (Conn.maybe_version): the table's group and the phone's may be on
        # different Redis shards, which keep no order between them.
        old.last_version = old.maybe_version = table.version
        await asyncio.wait_for(old.closed.wait(), WS_SECONDS)
        assert old.close_code == 4404, (old.close_code, old.close_info)
        await delivered(conns, table.log, cluster)
        for server in (a, b):
            await expect_gone(server, old.token)
        renewed = await connect("phone1~", a, new_token, old.seat_id)
        assert {f.version for f in renewed.snapshot} == {table.version}
        conns.append(renewed)
        check_screens(conns, table.log, cluster)
        # The layer's shards: each channel on the one its name hashes to, both in use, and the
        # table's group there with a subscriber in each process.
        placed = await asyncio.to_thread(cluster.check_shards)
        table_group = next(
            (i, n) for i, names in enumerate(placed) for n in names if f"table.{table.code}." in n
        )
        with cluster.shards[table_group[0]].client() as client:
            listeners = client.pubsub_numsub(table_group[1])
        assert listeners[0][1] == 2, (table_group, listeners)
        stats["shard_channels"] = [len(names) for names in placed]
        stats["phase1_changes"] = len(table.log)
        stats["phase1_frames"] = sum(len(c.messages) for c in conns)

        # -- 2. Kill A. Its screens lose their sockets; B's keep receiving B's changes.
        kill_version = table.version
        a.kill()
        on_a = [c for c in conns if c.server == "A" and not c.closed.is_set()]
        on_b = [c for c in conns if c.server == "B"]
        for conn in on_a:
            conn.last_version = kill_version
        await asyncio.wait_for(asyncio.gather(*(c.closed.wait() for c in on_a)), WS_SECONDS)
        try:
            refused = await table.host.post(
                f"{a.base}/h/{table.token}/act/lock", {"locked": "0"}, origin=a.base, htmx=True
            )
        except (urllib.error.URLError, OSError):
            refused = None
        assert refused is None, f"killed process A still answered: {refused}"

        await table.act(b, "move", seat=str(seats[1]), position="0")
        move(order, seats[1], 0)
        await table.act(b, "deal", confirm="1")
        await delivered(on_b, table.log, cluster)
        check_screens(conns, table.log, cluster)
        assert not any(c.closed.is_set() for c in on_b)
        b_view = check_same_final(on_b, table.version)

        # A's screens come back through B: the first frame is the whole current state.
        for old in on_a:
            conn = await connect(old.label + "'", b, old.token, old.seat_id)
            want = {"table-state", "host-panel"}
            if not conn.is_host:
                want.add("my-seat")
            assert {f.id for f in conn.snapshot} == want, conn.snapshot
            assert {f.version for f in conn.snapshot} == {table.version}, conn.snapshot
            assert all(f.action is None for f in conn.snapshot)
            if not conn.is_host:
                assert MY_IDENTITY_RE.search(conn.latest("my-seat").html)  # type: ignore[union-attr]
            conns.append(conn)
        live = [c for c in conns if not c.closed.is_set()]
        assert len(live) == PHONES + 1
        assert check_same_final(live, table.version) == b_view

        # Later changes reach everyone, all on B now.
        await table.act(b, "start")
        await table.act(b, "lock", locked="0")
        await delivered(live, table.log, cluster)
        check_screens(conns, table.log, cluster)
        final = check_same_final(live, table.version)
        assert [int(s) for s in SEAT_ORDER_RE.findall(final)] == order
        assert 'data-status="playing"' in final
        publishes = await asyncio.to_thread(cluster.shard_publishes)
        assert all(publishes), f"a shard carried no frame: PUBLISH calls {publishes}"
        stats["shard_publishes"] = publishes
        stats["changes"] = len(table.log)
        stats["frames"] = sum(len(c.messages) for c in conns)
        stats["servers"] = {name: s.port for name, s in servers.items()}
        return stats
    finally:
        await close_all(conns)


def test_changes_cross_processes_and_survive_a_dead_process(cluster: Cluster) -> None:
    started = time.monotonic()
    stats = run(asyncio.wait_for(scenario(cluster), SCENARIO_SECONDS))
    print(f"multiprocess: {stats} in {time.monotonic() - started:.1f} s")
