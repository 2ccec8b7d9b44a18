"""Two server processes, one table: PostgreSQL holds the truth, Redis carries the fragments.

Phones join through either process and listen on "their" process; the host changes the table
through A and B in turn. Every change must reach every screen on both processes exactly once, in
order, with the version and action id of the tap that caused it. Then A is killed: B's phones
keep receiving, and A's phones reconnect to B, get the current state at once and what follows.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import os
import re
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
import websockets

from tests.support.aio import run

if TYPE_CHECKING:
    from bench.servers import Server
    from tests.live.multiprocess.conftest import Cluster

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        os.environ.get("DB") != "postgres" or not os.environ.get("REDIS_URL"),
        reason="multiprocess test needs PostgreSQL and Redis: set DB=postgres and REDIS_URL "
        "(as the second pass of scripts/test does)",
    ),
]

SCENARIO_SECONDS = 150  # the whole asyncio part; the cluster fixture's SIGALRM caps everything
HTTP_SECONDS = 10
WS_SECONDS = 10
SNAPSHOT_SECONDS = 5
DELIVERY_SECONDS = 15
QUIET_SECONDS = 0.5  # after everything expected arrived: time for duplicates to show up
PHONES = 6
SIX_TWO = Counter({"lord": 1, "loyalist": 1, "rebel": 2, "renegade": 2})

SECTION_RE = re.compile(r'<section\s[^>]*\bid="(table-state|my-seat|host-panel)"[^>]*>')
ATTR_RE = re.compile(r'([\w-]+)="([^"]*)"')
ACTION_ATTR_RE = re.compile(r' data-action="[^"]*"')
SEAT_ORDER_RE = re.compile(r'<li class="seat[^"]*" data-seat="(\d+)"')
LORD_SEAT_RE = re.compile(r'<li class="seat[^"]*\bis-lord\b[^"]*" data-seat="(\d+)"')
MY_IDENTITY_RE = re.compile(r'class="identity-card[^"]*\bidn-(lord|loyalist|rebel|renegade)\b')


# ---------------------------------------------------------------------------------------------
# What arrives


@dataclass(frozen=True)
class Fragment:
    id: str
    version: int
    action: str | None
    html: str

    @property
    def key(self) -> tuple[str, int, str | None]:
        return (self.id, self.version, self.action)


def parse_fragments(text: str) -> list[Fragment]:
    """Split a frame (or a page) into its live fragments: table-state, my-seat, host-panel."""
    starts = list(SECTION_RE.finditer(text))
    found = []
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        attrs = dict(ATTR_RE.findall(match.group(0)))
        found.append(
            Fragment(
                id=match.group(1),
                version=int(attrs["data-version"]),
                action=attrs.get("data-action"),
                html=text[match.start() : end].strip(),
            )
        )
    return found


def without_action(html: str) -> str:
    return ACTION_ATTR_RE.sub("", html)


# ---------------------------------------------------------------------------------------------
# HTTP, as a phone's browser does it


@dataclass
class Response:
    status: int
    url: str
    body: str


class Browser:
    """One device: its own cookies (CSRF, device id)."""

    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        for cookie in self.jar:
            if cookie.name == "sgs_csrf" and cookie.value:
                return cookie.value
        raise AssertionError("no sgs_csrf cookie yet: GET a page first")

    def _request(
        self, url: str, data: dict[str, str] | None, origin: str | None, htmx: bool
    ) -> Response:
        headers = {}
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data).encode()
            headers["X-CSRFToken"] = self.csrf()
            headers["Origin"] = origin or ""
        if htmx:
            headers["HX-Request"] = "true"
        request = urllib.request.Request(url, data=body, headers=headers)  # noqa: S310
        try:
            with self.opener.open(request, timeout=HTTP_SECONDS) as response:
                return Response(response.status, response.geturl(), response.read().decode())
        except urllib.error.HTTPError as exc:
            return Response(exc.code, exc.geturl(), exc.read().decode(errors="replace"))

    async def get(self, url: str) -> Response:
        return await asyncio.to_thread(self._request, url, None, None, False)

    async def post(
        self, url: str, data: dict[str, str], *, origin: str, htmx: bool = False
    ) -> Response:
        return await asyncio.to_thread(self._request, url, data, origin, htmx)


# ---------------------------------------------------------------------------------------------
# Websockets and the record of changes


@dataclass
class Change:
    version: int
    action: str | None
    via: str  # the process the POST went to
    kind: str
    private: bool = False  # every seat also gets its my-seat fragment


@dataclass(repr=False)
class Conn:
    label: str
    server: str
    token: str
    seat_id: int | None  # None: the host console
    ws: Any = None
    messages: list[list[Fragment]] = field(default_factory=list)
    others: list[str] = field(default_factory=list)
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    close_info: str = ""
    reader: asyncio.Task[None] | None = None
    last_version: int | None = None  # set when its process dies: nothing after that is due

    def __repr__(self) -> str:
        return f"<Conn {self.label}@{self.server} messages={len(self.messages)}>"

    @property
    def is_host(self) -> bool:
        return self.seat_id is None

    @property
    def close_code(self) -> int | None:
        return self.ws.close_code if self.ws is not None else None

    @property
    def snapshot(self) -> list[Fragment]:
        return self.messages[0]

    @property
    def first_version(self) -> int:
        return max(f.version for f in self.snapshot)

    def pushed(self) -> list[Fragment]:
        """Every fragment that arrived after the snapshot, in arrival order."""
        return [f for message in self.messages[1:] for f in message]

    def latest(self, fragment_id: str) -> Fragment | None:
        every = [f for message in self.messages for f in message if f.id == fragment_id]
        return every[-1] if every else None

    def expected(self, log: list[Change]) -> Counter[tuple[str, int, str | None]]:
        """The fragments this screen must receive after its snapshot, each exactly once."""
        wanted: Counter[tuple[str, int, str | None]] = Counter()
        for change in log:
            if change.version <= self.first_version:
                continue
            if self.last_version is not None and change.version > self.last_version:
                continue
            wanted[("table-state", change.version, change.action)] += 1
            if self.is_host:
                wanted[("host-panel", change.version, change.action)] += 1
            elif change.private:
                wanted[("my-seat", change.version, change.action)] += 1
        return wanted

    def missing(self, log: list[Change]) -> Counter[tuple[str, int, str | None]]:
        return self.expected(log) - Counter(f.key for f in self.pushed())


async def _read(conn: Conn) -> None:
    try:
        async for message in conn.ws:
            text = message if isinstance(message, str) else message.decode()
            fragments = parse_fragments(text)
            if fragments:
                conn.messages.append(fragments)
            else:
                conn.others.append(text[:300])
        conn.close_info = f"closed: {conn.ws.close_code}"
    except Exception as exc:  # recorded, asserted on later
        conn.close_info = repr(exc)
    finally:
        conn.closed.set()


async def connect(label: str, server: Server, token: str, seat_id: int | None) -> Conn:
    """Open a screen's socket and wait for its first frame, which must come at once."""
    conn = Conn(label=label, server=server.name, token=token, seat_id=seat_id)
    conn.ws = await asyncio.wait_for(
        websockets.connect(
            f"ws://127.0.0.1:{server.port}/ws/{token}/",
            origin=server.base,  # type: ignore[arg-type]
            open_timeout=WS_SECONDS,
            close_timeout=2,
            ping_interval=None,
        ),
        WS_SECONDS,
    )
    conn.reader = asyncio.create_task(_read(conn))
    started = time.monotonic()
    while not conn.messages:
        assert not conn.closed.is_set(), (
            f"{label}: socket closed before any frame ({conn.close_info})"
        )
        assert time.monotonic() - started < SNAPSHOT_SECONDS, f"{label}: no snapshot in time"
        await asyncio.sleep(0.01)
    return conn


async def close_all(conns: list[Conn]) -> None:
    for conn in conns:
        if conn.ws is not None:
            try:
                await asyncio.wait_for(conn.ws.close(), 3)
            except Exception:  # noqa: S110 - best-effort cleanup
                pass
        if conn.reader is not None:
            conn.reader.cancel()


def describe(conns: list[Conn], log: list[Change], cluster: Cluster) -> str:
    lines = [f"changes: {[(c.version, c.kind, c.via, c.action) for c in log]}"]
    for conn in conns:
        lines.append(
            f"{conn.label}@{conn.server}: snapshot v{conn.first_version}, "
            f"got {[(f.id, f.version) for f in conn.pushed()]}, "
            f"missing {sorted(conn.missing(log).elements())}, "
            f"closed={conn.closed.is_set()} {conn.close_info} others={conn.others}"
        )
    return "\n".join(lines) + "\n" + cluster.logs()


async def delivered(conns: list[Conn], log: list[Change], cluster: Cluster) -> None:
    """Wait until every live screen has every fragment due to it, then a short quiet spell."""
    deadline = time.monotonic() + DELIVERY_SECONDS
    while any(conn.missing(log) for conn in conns):
        if time.monotonic() > deadline:
            raise AssertionError("changes lost or late:\n" + describe(conns, log, cluster))
        await asyncio.sleep(0.02)
    await asyncio.sleep(QUIET_SECONDS)


def check_screens(conns: list[Conn], log: list[Change], cluster: Cluster) -> None:
    """Exactly the due fragments, once each, with the right action ids, in version order."""
    for conn in conns:
        got = Counter(f.key for f in conn.pushed())
        want = conn.expected(log)
        context = f"{conn.label}@{conn.server}\n" + describe([conn], log, cluster)
        assert got == want, (
            f"lost: {sorted((want - got).elements())}, "
            f"extra or duplicated: {sorted((got - want).elements())}\n{context}"
        )
        assert not conn.others, context
        for fragment_id in ("table-state", "my-seat", "host-panel"):
            versions = [f.version for m in conn.messages for f in m if f.id == fragment_id]
            assert versions == sorted(set(versions)), f"out of order {fragment_id}: {context}"


def check_same_final(conns: list[Conn], version: int) -> str:
    """Every screen's last table-state is the given version and shows the same table."""
    finals = {conn.label: conn.latest("table-state") for conn in conns}
    assert all(f is not None and f.version == version for f in finals.values()), {
        label: f and f.version for label, f in finals.items()
    }
    shown = {without_action(f.html) for f in finals.values() if f is not None}
    assert len(shown) == 1, f"screens disagree on the final table: {len(shown)} variants"
    return shown.pop()


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

        Issue 10: the dialog carries a one-time claim link, which the new phone posts to."""
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
        old.last_version = table.version
        await asyncio.wait_for(old.closed.wait(), WS_SECONDS)
        assert old.close_code == 4404, (old.close_code, old.close_info)
        await delivered(conns, table.log, cluster)
        for server in (a, b):
            await expect_gone(server, old.token)
        renewed = await connect("phone1~", a, new_token, old.seat_id)
        assert {f.version for f in renewed.snapshot} == {table.version}
        conns.append(renewed)
        check_screens(conns, table.log, cluster)
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
