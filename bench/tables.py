"""Tables and phones set up through the app's own interface, as phones do (the host opens a table
and starts the game, each phone joins and connects its websocket), and what each phone
receives: every frame is matched to its tap by the fragment root's data-action."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import websockets

from bench.client import Device, HTTPFailure, Pool, Reply, open_websocket
from bench.fleet import Fleet, SetupError

MIN_PHONES = 4  # companion.models.MIN_PLAYERS: fewer seats cannot be dealt identities
SNAPSHOT_SECONDS = 20
DRAIN_SECONDS = 15
SETTLE_SECONDS = 1.0
SETUP_CONCURRENCY = 16
HOST_RETRIES = 5  # a host tap answered 503 "not applied" is tapped again, up to this often
HOST_RETRY_SECONDS = 1.0
CONNECT_CONCURRENCY = 64

SECTION_RE = re.compile(
    r'<(?:section|template|div)\s[^>]*?\bid="(table-state|table-delta|my-seat|my-hp|host-panel)"[^>]*>'
)
ATTR_RE = re.compile(r'\s([\w-]+)="([^"]*)"')
CODE_RE = re.compile(r'data-code="([A-Z0-9]+)"')
HOST_PATH_RE = re.compile(r"^/h/([A-Za-z0-9_-]+)/$")
PHONE_PATH_RE = re.compile(r"^/p/([A-Za-z0-9_-]+)/$")


def expect(reply: Reply, status: int, what: str) -> Reply:
    if reply.status != status:
        raise SetupError(f"{what}: HTTP {reply.status} (wanted {status}): {reply.text[:300]}")
    return reply


def location_path(reply: Reply) -> str:
    return urlsplit(reply.header("location")).path


@dataclass
class Tap:
    action: str
    table: TableRig
    run: int  # -1: warm-up
    due: float
    expected: tuple[int, ...]
    t0: float = 0.0
    t_reply: float = 0.0
    status: int = 0
    error: str = ""
    arrivals: dict[int, float] = field(default_factory=dict)
    private_at: float = 0.0
    duplicates: int = 0
    queued: bool = False  # had to wait for one of the generator's connections


@dataclass
class Phone:
    table: TableRig
    index: int
    device: Device
    token: str = ""
    seat_id: int = 0
    ws: Any = None
    reader: asyncio.Task[None] | None = None
    open: bool = False
    dropped: bool = False
    status: str = ""
    version: int = 0


@dataclass
class TableRig:
    index: int
    host: Device
    host_token: str = ""
    code: str = ""
    phones: list[Phone] = field(default_factory=list)
    next_delta: int = -1
    ready: bool = False
    error: str = ""

    @property
    def tapper(self) -> Phone:
        return self.phones[0]


class Tables:
    """The tables of one run, their phones and what each phone has received: set up through
    the app's own pages, then every frame is matched to its tap (`Bench` adds the load)."""

    phone_class: Callable[[TableRig, int, Device], Phone] = Phone

    def __init__(self, args: argparse.Namespace, fleet: Fleet) -> None:
        self.args = args
        self.fleet = fleet
        self.pools = [Pool(s.port) for s in fleet.servers]
        self.tables: list[TableRig] = []
        self.taps: dict[str, Tap] = {}
        self.tap_tasks: set[asyncio.Task[None]] = set()
        self.out_of_order = 0
        self.frames = 0
        self.frame_chars = 0
        self.connections_made = 0
        self.connections_failed = 0
        self.connect_errors: list[str] = []
        self.lag_samples: list[float] | None = None
        self.run_id = secrets.token_hex(2)
        self.answers: dict[str, asyncio.Future[tuple[int, float]]] = {}
        self.setup_errors: list[str] = []
        self.host_retries = 0

    def pool_for(self, table: int, phone: int | None = None) -> Pool:
        offset = 0 if phone is None else phone
        return self.pools[(table + offset) % len(self.pools)]

    # -- frames

    def on_frame(self, phone: Phone, text: str, now: float) -> None:
        self.frames += 1
        self.frame_chars += len(text)
        if text.startswith("{"):
            self.on_answer(text, now)
            return
        private_seen = False
        for match in SECTION_RE.finditer(text):
            kind = match.group(1)
            attrs = dict(ATTR_RE.findall(match.group(0)))
            action = attrs.get("data-action")
            if kind in ("table-state", "table-delta"):
                version = int(attrs.get("data-version", "0"))
                if version < phone.version:
                    self.out_of_order += 1
                phone.version = max(phone.version, version)
                phone.status = attrs.get("data-status", phone.status)
                tap = self.taps.get(action) if action else None
                if tap is None or tap.table is not phone.table:
                    continue
                if phone is tap.table.tapper:
                    # The change's own frame answers the tap over the socket.
                    waiter = self.answers.pop(action, None)
                    if waiter is not None and not waiter.done():
                        waiter.set_result((204, now))
                if phone.index in tap.arrivals:
                    tap.duplicates += 1
                else:
                    tap.arrivals[phone.index] = now
            elif kind in ("my-seat", "my-hp") and not private_seen:
                # A whole private fragment also holds its HP tracker: count the frame once.
                private_seen = True
                if not phone.seat_id and attrs.get("data-seat", "").isdigit():
                    phone.seat_id = int(attrs["data-seat"])
                tap = self.taps.get(action) if action else None
                if tap is not None and phone is tap.table.tapper:
                    if tap.private_at:
                        tap.duplicates += 1
                    else:
                        tap.private_at = now

    def on_answer(self, text: str, now: float) -> None:
        """A websocket tap's answer: {"type": "done"|"error", "action_id": ..., "status": ...}."""
        try:
            message = json.loads(text)
        except ValueError:
            return
        waiter = self.answers.pop(str(message.get("action_id")), None)
        if waiter is None or waiter.done():
            return
        if message.get("type") == "done":
            waiter.set_result((204, now))
        else:
            waiter.set_result((int(message.get("status") or 400), now))

    async def read_loop(self, phone: Phone) -> None:
        perf = time.perf_counter
        try:
            async for message in phone.ws:
                if isinstance(message, str):
                    self.on_frame(phone, message, perf())
        except websockets.ConnectionClosed:
            pass
        finally:
            if phone.open:
                phone.dropped = True
            phone.open = False

    # -- setup

    async def setup_table(self, table: TableRig) -> None:
        host = table.host
        expect(await host.get("/"), 200, "GET /")
        reply = expect(await host.post("/new/", {}), 303, "POST /new/")
        found = HOST_PATH_RE.match(location_path(reply))
        if not found:
            raise SetupError(f"POST /new/ led to {reply.header('location')!r}")
        table.host_token = found.group(1)
        page = expect(await host.get(location_path(reply)), 200, "GET host console")
        code = CODE_RE.search(page.text)
        if not code:
            raise SetupError("no data-code on the host console")
        table.code = code.group(1)
        await self.host_act(table, "options", fields="first_game_mode", first_game_mode="1")
        for index in range(self.args.phones):
            phone = self.phone_class(table, index, Device(self.pool_for(table.index, index)))
            path = f"/j/{table.code}/"
            expect(await phone.device.get(path), 200, "GET join page")
            reply = expect(
                await phone.device.post(path, {"name": f"玩家{index + 1}"}), 303, "POST join"
            )
            found = PHONE_PATH_RE.match(location_path(reply))
            if not found:
                raise SetupError(f"join led to {reply.header('location')!r}")
            phone.token = found.group(1)
            table.phones.append(phone)

    async def host_act(self, table: TableRig, name: str, **fields: str) -> None:
        """A host tap; answered 503 "not applied, try again" (the tap's deadline passed under
        load), the host taps again with the same action id, as the console lets them."""
        fields["action_id"] = f"setup{name}{secrets.token_hex(6)}"
        path = f"/h/{table.host_token}/act/{name}"
        for _attempt in range(HOST_RETRIES):
            reply = await table.host.post(path, fields, htmx=True)
            if reply.status != 503:
                break
            self.host_retries += 1
            await asyncio.sleep(HOST_RETRY_SECONDS)
        expect(reply, 204, f"host {name}")

    async def connect(self, phone: Phone) -> None:
        try:
            phone.ws = await open_websocket(phone.device, phone.token)
            first = await asyncio.wait_for(phone.ws.recv(), SNAPSHOT_SECONDS)
        except Exception as exc:
            self.connections_failed += 1
            if len(self.connect_errors) < 5:
                self.connect_errors.append(f"{type(exc).__name__}: {exc}"[:200])
            if phone.ws is not None:
                with contextlib.suppress(Exception):
                    await phone.ws.close()
            return
        self.connections_made += 1
        phone.open = True
        self.on_frame(phone, first, time.perf_counter())
        phone.reader = asyncio.create_task(self.read_loop(phone))

    async def start_game(self, table: TableRig) -> None:
        await self.host_act(table, "deal")
        await self.host_act(table, "start")

    async def each_table(self, step: Callable[[TableRig], Any]) -> None:
        """A setup step for every table without an error yet, a few at once; a failure marks
        its table and is noted in `setup_errors`."""
        limit = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def guarded(table: TableRig) -> None:
            if table.error:
                return
            async with limit:
                try:
                    await step(table)
                except (SetupError, HTTPFailure) as exc:
                    table.error = str(exc)
                    self.setup_errors.append(f"table {table.index}: {exc}"[:300])

        await asyncio.gather(*(guarded(t) for t in self.tables))

    async def setup(self) -> dict[str, Any]:
        args = self.args
        started = time.monotonic()
        info: dict[str, Any] = {"rss_idle_kb": self.fleet.rss_bytes() // 1024}
        self.tables = [
            TableRig(i, Device(self.pool_for(i))) for i in range(args.tables)
        ]  # the host console of table i talks to port i % N
        errors = self.setup_errors
        await self.each_table(self.setup_table)
        info["http_setup_seconds"] = round(time.monotonic() - started, 1)
        await asyncio.sleep(SETTLE_SECONDS)
        rss_before = self.fleet.rss_bytes()

        connect_started = time.monotonic()
        connect_limit = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def connect_one(phone: Phone) -> None:
            async with connect_limit:
                await self.connect(phone)

        phones = [p for t in self.tables if not t.error for p in t.phones]
        await asyncio.gather(*(connect_one(p) for p in phones))
        info["connect_seconds"] = round(time.monotonic() - connect_started, 1)
        await asyncio.sleep(SETTLE_SECONDS)
        rss_after = self.fleet.rss_bytes()
        connected = sum(1 for p in phones if p.open)

        for table in self.tables:
            if not table.error and not all(p.open for p in table.phones):
                table.error = "a phone's websocket did not connect"
            if not table.error and not table.tapper.seat_id:
                table.error = "no seat id in the tapping phone's snapshot"
        await self.each_table(self.start_game)
        deadline = time.monotonic() + DRAIN_SECONDS + args.tables * 0.05
        waiting = [t for t in self.tables if not t.error]
        while waiting and time.monotonic() < deadline:
            waiting = [t for t in waiting if any(p.status != "playing" for p in t.phones)]
            await asyncio.sleep(0.05)
        for table in waiting:
            table.error = "not every phone showed the game as started"
        for table in self.tables:
            table.ready = not table.error
            if table.error and not any(table.error in e for e in errors):
                errors.append(f"table {table.index}: {table.error}")
        info.update(
            tables_ready=sum(t.ready for t in self.tables),
            tables_failed=sum(not t.ready for t in self.tables),
            phones_connected=connected,
            connections_made=self.connections_made,
            connections_failed=self.connections_failed,
            rss_before_phones_kb=rss_before // 1024,
            rss_after_phones_kb=rss_after // 1024,
            memory_per_phone_kb=round((rss_after - rss_before) / 1024 / connected, 1)
            if connected
            else None,
            setup_seconds=round(time.monotonic() - started, 1),
            errors=errors[:10] + [f"websocket: {e}" for e in self.connect_errors],
        )
        return info
