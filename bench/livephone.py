"""A simulated phone that behaves like the real page's js/live.js (for bench/soak.py).

What it copies from live.js, function by function: connect() and schedule() (one socket at a
time, "open" only once the socket's first frame arrived, the backoff 250 ms × 2^n capped at 5 s
times 0.5–1, 5 s after a 1008 close, 4404 means gone); onclose (a socket tap that is not being
posted is in doubt); handleFrame/applyDelta (a delta applies only on the version it names,
otherwise "sync"; a gap in public versions asks "sync", counted from a whole state's
`data-since`; a frame or "done" naming a pending tap answers it); the tap path, in
bench/livetaps.py (configRequest, startTap, overHttp, nextTap, afterRequest: over the socket
with a fresh action id, the same tap over HTTP after ACT_TIMEOUT without an answer, queued
behind a pending tap, dropped when identical to a tap answered less than TAP_SAME_MS ago;
doubt: askStatus every 500 ms << tries, capped at 5 s, the queue dropped); behind() ("sync"
after 1 s still behind); the heartbeat. The timings are read from live.js when
it names them (see `timings`); the heartbeat has two models, picked from live.js's text unless
given:

- legacy: the page as it was before the heartbeat learned to spare a slow phone: a ping after
  HEARTBEAT_MS without a message once the socket is open (before its state arrived too), one
  pong timer for the page that closes whatever socket is current when it fires, and is not
  cleared on close;
- fixed: the page now: no ping before the socket's state arrived, and a pong timer
  that belongs to its socket and dies with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from bench.client import HTTPFailure, open_websocket
from bench.livetaps import BROWSER_SECONDS, LiveTap, TapPath
from bench.tables import ATTR_RE, SECTION_RE, Phone
from companion.infra.staticstorage import joined_text

MY_SEAT_RE = re.compile(r'<body[^>]*\sdata-my-seat="(\d+)"')
PAGE_RETRY_SECONDS = 2.0
# The legacy heartbeat's pong timer: one for the page, closing whichever socket is current.
LEGACY_PONG_RE = re.compile(r"pongTimer = setTimeout\(function \(\) \{ if \(socket\) socket\.close")
HEARTBEAT_RE = re.compile(r"\n  function heartbeat\(\) \{\n[\s\S]*?\n  \}\n")

# live.js's timings in seconds (their names there), and how each is found in live.js's text.
DEFAULTS = {
    "ACT_TIMEOUT": 4.0,  # a socket tap goes over HTTP after this long without an answer
    "TAP_SAME_MS": 0.4,  # an identical tap this soon after an answer is dropped by the page
    "HEARTBEAT_MS": 12.0,  # ping after this long without a message
    "heartbeat check": 3.0,  # setInterval(heartbeat, ...)
    "pong wait": 5.0,  # close when no pong came this long after a ping
    "backoff cap": 5.0,  # schedule(): min(cap, base × 2^retry) × (0.5 + random / 2)
    "backoff base": 0.25,
    "status cap": 5.0,  # askStatus(): min(cap, base << tries)
    "status base": 0.5,
    "behind wait": 1.0,  # behind(): "sync" when still behind after this long
    "policy wait": 5.0,  # reconnect no sooner after a 1008 close
}
PATTERNS = {
    "ACT_TIMEOUT": r"var ACT_TIMEOUT = (\d+)",
    "TAP_SAME_MS": r"var TAP_SAME_MS = (\d+)",
    "HEARTBEAT_MS": r"data-heartbeat-ms'\), 10\) \|\| (\d+)",
    "heartbeat check": r"setTimeout\(beat, Math\.min\((\d+)",
    "pong wait": r"data-pong-ms'\), 10\) \|\| (\d+)",
    "backoff cap": r"Math\.min\(maxDelay \|\| (\d+), \d+ \* Math\.pow\(2, retry\)\)",
    "backoff base": r"Math\.min\(maxDelay \|\| \d+, (\d+) \* Math\.pow\(2, retry\)\)",
    "status cap": r"Math\.min\((\d+), \d+ << tap\.tries\)",
    "status base": r"Math\.min\(\d+, (\d+) << tap\.tries\)",
    "policy wait": r"schedule\(ev\.code === 1008 \? (\d+)",
    "behind wait": r"function behind\(version\)[\s\S]*?\}, (\d+)\);",
}


# The reconnect after a "try later" (1013): how live.js has it. "sticky": the retry count is reset
# only once a socket is current, and after a 1013 every retry waits between the two delays of
# `schedule(min, max)` until then; "legacy": the count is reset on every open, so an open that
# ends in 1013 starts the backoff again (the reconnect storm of a Redis outage).
RESET_ON_OPEN_RE = re.compile(r"sock\.onopen = function \(\) \{ retry = 0; \};")
TRY_LATER_RE = re.compile(r"else if \(tryLater\) schedule\((\d+), (\d+)\)")
LEGACY_1013_RE = re.compile(r"ev\.code === 1013 \? (\d+)")


def reconnect_model() -> tuple[str, float, float]:
    """live.js's reconnect after 1013: its model, and the least and most delay (seconds)."""
    text = joined_text("js/live.js")
    sticky = TRY_LATER_RE.search(text)
    if sticky and not RESET_ON_OPEN_RE.search(text):
        return "sticky", int(sticky.group(1)) / 1000, int(sticky.group(2)) / 1000
    legacy = LEGACY_1013_RE.search(text)
    return "legacy", 0.0, int(legacy.group(1)) / 1000 if legacy else DEFAULTS["backoff cap"]


# What live.js does or not (1.0 or 0.0 in `timings`): a tap whose socket copy and HTTP copy both
# said "not applied" is not applied.
FLAGS = {"both not applied": r"else tap\.notApplied = true"}


def timings() -> tuple[dict[str, float], str, list[str]]:
    """live.js's timings (seconds), its heartbeat model, and the names not found in it."""
    text = joined_text("js/live.js")
    beat = HEARTBEAT_RE.search(text)
    heartbeat = beat.group(0) if beat else ""
    found = dict(DEFAULTS)
    missing = []
    for name, pattern in PATTERNS.items():
        match = re.search(pattern, text)
        if match:
            found[name] = int(match.group(1)) / 1000
        else:
            missing.append(name)
    for name, pattern in FLAGS.items():
        found[name] = 1.0 if re.search(pattern, text) else 0.0
    return found, "legacy" if LEGACY_PONG_RE.search(heartbeat) else "fixed", missing


@dataclass
class Hub:
    """What all phones share: the model, the taps and the counts."""

    live: dict[str, float]
    heartbeat: str  # legacy, fixed or off
    taps: dict[str, LiveTap] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    reconnects: list[float] = field(default_factory=list)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    stopped: bool = False
    reconnect: tuple[str, float, float] = field(default_factory=reconnect_model)

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task


@dataclass(eq=False)
class Sock:
    state: str = "connecting"  # connecting, open, closed
    current: bool = False  # its first frame (the whole state) arrived
    ws: Any = None
    task: asyncio.Task[None] | None = None
    pong_timer: asyncio.TimerHandle | None = None
    closed_by_page: bool = False


@dataclass(eq=False)
class LivePhone(TapPath, Phone):
    hub: Hub | None = None
    sock: Sock | None = None
    conn: str = "connecting"  # what setConn shows: connecting, open, closed, gone
    ever_open: bool = False
    retry: int = 0
    retry_timer: asyncio.TimerHandle | None = None
    try_later: bool = False
    attempts: list[float] = field(default_factory=list)  # when it tried to open a socket
    last_public: int = 0
    shown: int = 0  # the version of the #table-state on the page
    shown_at: list[tuple[float, int]] = field(default_factory=list)
    pushed_last: int = 0  # the public version of this socket's last pushed change (0: none yet)
    last_frame_at: float = 0.0
    pong_timer: asyncio.TimerHandle | None = None
    behind_timer: asyncio.TimerHandle | None = None
    pending: dict[str, LiveTap] = field(default_factory=dict)
    queue: list[LiveTap] = field(default_factory=list)
    answered_at: dict[str, float] = field(default_factory=dict)
    next_delta: int = -1
    down_since: float = 0.0
    opens: list[float] = field(default_factory=list)
    gone: bool = False
    loaded: bool = False  # the page has loaded: the player can tap

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    def later(self, delay: float, fn: Any, *args: Any) -> asyncio.TimerHandle:
        return self.loop.call_later(delay, fn, *args)

    async def open_page(self) -> None:
        """The player opens the page (again 2 s after a failed load); then live.js starts."""
        while not self.hub.stopped:
            try:
                reply = await self.device.get(f"/p/{self.token}/", timeout=BROWSER_SECONDS)
                if reply.status == 200:
                    break
            except HTTPFailure:
                pass
            self.hub.count("page loads failed")
            await asyncio.sleep(PAGE_RETRY_SECONDS)
        else:
            return
        if found := MY_SEAT_RE.search(reply.text):
            self.seat_id = int(found.group(1))
        for match in SECTION_RE.finditer(reply.text):
            if match.group(1) == "table-state":
                attrs = dict(ATTR_RE.findall(match.group(0)))
                self.show(int(attrs.get("data-version", "0")))
                self.status = attrs.get("data-status", "")
                break
        self.loaded = True
        self.start()

    def start(self) -> None:
        self.last_frame_at = time.monotonic()
        check = self.hub.live["heartbeat check"]
        self.later(random.uniform(0, check), self.heartbeat_tick)  # noqa: S311
        self.connect()

    def set_conn(self, state: str) -> None:
        now = time.monotonic()
        if state == "open":
            self.ever_open = self.open = True
            self.opens.append(now)
            if self.down_since:
                self.hub.reconnects.append(now - self.down_since)
                self.down_since = 0.0
        else:
            if self.open and state in ("closed", "gone"):
                self.down_since = now
            self.open = False
        self.conn = state

    # -- the socket

    def connect(self) -> None:
        if self.gone or self.hub.stopped:
            return
        if self.retry_timer:
            self.retry_timer.cancel()
        if self.sock and self.sock.state in ("connecting", "open"):
            return
        self.set_conn("connecting")
        self.last_public = 0
        self.pushed_last = 0
        self.attempts.append(time.monotonic())
        self.sock = Sock()
        self.sock.task = self.hub.spawn(self.run_socket(self.sock))

    async def run_socket(self, sock: Sock) -> None:
        code = 1006
        try:
            sock.ws = await open_websocket(self.device, self.token, "sgs-soak", BROWSER_SECONDS)
            sock.state = "open"
            if self.hub.reconnect[0] == "legacy":
                self.retry = 0
            async for message in sock.ws:
                if isinstance(message, str) and not sock.closed_by_page:
                    self.on_message(sock, message)
            code = sock.ws.close_code or 1006
        except asyncio.CancelledError:
            if self.hub.stopped or not sock.closed_by_page:
                raise
        except Exception:  # noqa: BLE001 - a refused or broken connection closes it, as in a browser
            code = (sock.ws and sock.ws.close_code) or 1006
        self.on_close(sock, code)

    def close_sock(self, sock: Sock | None, why: str) -> None:
        if sock is None or sock.state == "closed" or sock.closed_by_page:
            return
        self.hub.count(why)
        sock.closed_by_page = True
        if sock.ws is None and sock.task is not None:
            sock.task.cancel()  # a socket still connecting fails at once
        else:
            self.hub.spawn(sock.ws.close())

    def send(self, obj: dict[str, Any]) -> None:
        sock = self.sock
        if sock and sock.state == "open" and not sock.closed_by_page:
            self.hub.spawn(self.send_quietly(sock, json.dumps(obj)))

    @staticmethod
    async def send_quietly(sock: Sock, text: str) -> None:
        with contextlib.suppress(Exception):  # a socket closing meanwhile: its onclose follows
            await sock.ws.send(text)

    def on_message(self, sock: Sock, text: str) -> None:
        self.last_frame_at = time.monotonic()
        self.handle_frame(text)
        if not sock.current:
            sock.current = True
            if self.hub.reconnect[0] == "sticky":
                self.retry, self.try_later = 0, False
            self.set_conn("open")
            for tap in list(self.pending.values()):
                if tap.doubt:
                    self.ask_status(tap)

    def on_close(self, sock: Sock, code: int) -> None:
        sock.state = "closed"
        if sock.pong_timer:
            sock.pong_timer.cancel()
        self.sock = None  # as live.js: whichever socket closes
        if self.hub.stopped:
            return
        self.hub.count("sockets closed" if sock.ws else "connection attempts failed")
        for tap in list(self.pending.values()):
            if tap.via != "ws":
                continue
            if code == 4404:
                self.settle(tap, "refused")
            elif not tap.posting:
                self.doubt(tap)
        if code == 4404:
            self.gone = True
            self.set_conn("gone")
            return
        self.set_conn("closed")
        model, least, most = self.hub.reconnect
        if model == "sticky":
            self.try_later = self.try_later or code == 1013
            if self.try_later:
                self.schedule(least, most)
                return
        elif code == 1013:
            self.schedule(0, most)
            return
        self.schedule(self.hub.live["policy wait"] if code == 1008 else 0)

    def schedule(self, min_delay: float = 0, max_delay: float | None = None) -> None:
        if self.retry_timer:
            self.retry_timer.cancel()
        live = self.hub.live
        delay = min(max_delay or live["backoff cap"], live["backoff base"] * 2**self.retry)
        delay *= 0.5 + random.random() / 2  # noqa: S311
        self.retry += 1
        self.retry_timer = self.later(max(min_delay, delay), self.connect)

    # -- the heartbeat

    def heartbeat_tick(self) -> None:
        if self.hub.stopped:
            return
        self.later(self.hub.live["heartbeat check"], self.heartbeat_tick)
        sock, live, model = self.sock, self.hub.live, self.hub.heartbeat
        if model == "off" or not sock or sock.state != "open" or sock.closed_by_page:
            return
        if model == "fixed" and not sock.current:
            return
        now = time.monotonic()
        if self.pending or now - self.last_frame_at < live["HEARTBEAT_MS"]:
            return
        self.last_frame_at = now
        self.cancel_pong(sock)
        self.send({"type": "ping", "version": self.last_public})
        self.hub.count("heartbeat pings")
        if model == "legacy":
            self.pong_timer = self.later(live["pong wait"], self.pong_missed, None)
        else:
            sock.pong_timer = self.later(live["pong wait"], self.pong_missed, sock)

    def cancel_pong(self, sock: Sock | None) -> None:
        for timer in (self.pong_timer, sock and sock.pong_timer):
            if timer:
                timer.cancel()

    def pong_missed(self, sock: Sock | None) -> None:
        self.close_sock(sock or self.sock, "closed by the phone's heartbeat")

    # -- frames

    def handle_frame(self, text: str) -> None:
        if text.startswith("{"):
            try:
                msg = json.loads(text)
            except ValueError:
                return
            kind = msg.get("type")
            if kind == "pong":
                self.cancel_pong(self.sock)
                if msg.get("version"):
                    self.behind(msg["version"])
            if kind in ("done", "error", "merged") and msg.get("action_id"):
                self.answered(msg)
            if kind == "status" and msg.get("action_id"):
                tap = self.pending.get(msg["action_id"])
                if tap:
                    self.status_answer(tap, msg)
            return
        sections = [
            (m.group(1), dict(ATTR_RE.findall(m.group(0)))) for m in SECTION_RE.finditer(text)
        ]
        delta = next((a for k, a in sections if k == "table-delta"), None)
        self.count_pushed(delta or next((a for k, a in sections if k == "table-state"), None))
        for kind, attrs in sections:
            tap = self.hub.taps.get(attrs.get("data-action", ""))
            if tap and not tap.version and kind in ("table-state", "table-delta"):
                tap.version = int(attrs.get("data-version", "0"))
            if kind == "my-seat" and not self.seat_id and attrs.get("data-seat", "").isdigit():
                self.seat_id = int(attrs["data-seat"])
        acted = delta or next((a for _k, a in sections if "data-action" in a), None)
        if acted and acted.get("data-action") in self.pending:
            self.answered({"type": "done", "action_id": acted["data-action"]})
        if delta is not None:
            version = int(delta.get("data-version", "0"))
            if version <= self.shown:
                return
            if int(delta.get("data-base", "-1")) != self.shown:
                self.send({"type": "sync", "version": self.shown})
                return
            self.show(version)
            return
        pub = next((a for k, a in sections if k == "table-state"), None)
        if pub is None:
            return
        version = int(pub.get("data-version", "0"))
        self.status = pub.get("data-status", self.status)
        # One transaction's changes come as one state, which names the first of them.
        since = int(pub.get("data-since", version))
        gap = self.last_public and since > self.last_public + 1
        self.show(version)
        if gap:
            self.send({"type": "sync", "version": self.last_public})

    def count_pushed(self, public: dict[str, str] | None) -> None:
        """A change's public frame (it names its tap: a snapshot does not) must follow the
        socket's previous one by exactly one version (or name that one as its first, `data-since`,
        when one transaction made several changes): every change reaches every phone, once,
        in order. A gap is a frame missed; a version not above the last, one repeated or out of
        order (the page would sync or ignore it: the soak counts them)."""
        if public is None or "data-action" not in public:
            return
        version = int(public.get("data-version", "0"))
        last, self.pushed_last = self.pushed_last, max(self.pushed_last, version)
        self.hub.count("frames pushed")
        if not last:
            return
        if version <= last:
            self.hub.count("frames repeated or out of order")
        elif int(public.get("data-since", version)) > last + 1:
            since = int(public.get("data-since", version))
            self.hub.counts["frames missed"] = (
                self.hub.counts.get("frames missed", 0) + since - last - 1
            )

    def show(self, version: int) -> None:
        self.last_public = max(self.last_public, version)
        if version > self.shown:
            self.shown = version
            self.shown_at.append((time.monotonic(), version))

    def behind(self, version: int) -> None:
        if not version > self.last_public or self.behind_timer:
            return

        def check() -> None:
            self.behind_timer = None
            if version > self.last_public:
                self.send({"type": "sync", "version": self.last_public})

        self.behind_timer = self.later(self.hub.live["behind wait"], check)
