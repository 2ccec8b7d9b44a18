"""Phones and screens against real server processes, for test_two_processes.py (and the browser of
tests/live/test_restart.py): what arrives (the fragments of a frame), HTTP as a phone's browser
does it, websockets and the record of changes, and the checks that every change reached every
screen exactly once, in order, and that all screens end the same.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import websockets

if TYPE_CHECKING:
    from bench.servers import Server
    from tests.live.multiprocess.conftest import Cluster

HTTP_SECONDS = 10
WS_SECONDS = 10
SNAPSHOT_SECONDS = 5
DELIVERY_SECONDS = 15
QUIET_SECONDS = 0.5  # after everything expected arrived: time for duplicates to show up

SECTION_RE = re.compile(r'<section\s[^>]*\bid="(table-state|my-seat|host-panel)"[^>]*>')
ATTR_RE = re.compile(r'([\w-]+)="([^"]*)"')
ACTION_ATTR_RE = re.compile(r' data-action="[^"]*"')


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
    # The change that revoked its link: its frames may come before the close or not (once at
    # most), the table's group and the phone's being on different Redis shards.
    maybe_version: int | None = None

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
            if change.version == self.maybe_version:
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
        pushed = Counter(f.key for f in conn.pushed())
        got = Counter({k: n for k, n in pushed.items() if k[1] != conn.maybe_version})
        maybe = {k: n for k, n in pushed.items() if k[1] == conn.maybe_version}
        want = conn.expected(log)
        context = f"{conn.label}@{conn.server}\n" + describe([conn], log, cluster)
        assert got == want, (
            f"lost: {sorted((want - got).elements())}, "
            f"extra or duplicated: {sorted((got - want).elements())}\n{context}"
        )
        assert all(n == 1 for n in maybe.values()), f"duplicated: {maybe}\n{context}"
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
