"""The tap path of bench/livephone.py's LivePhone, as js/live.js has it.

configRequest (a tap queued behind a pending one, or dropped: identical to one answered less than
TAP_SAME_MS ago, or while a tap is in doubt), startTap (over the socket, the HTTP fallback after
ACT_TIMEOUT), overHttp, afterRequest, answered, settle, doubt/askStatus and nextTap.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bench.client import HTTPFailure

if TYPE_CHECKING:
    from bench.livephone import LivePhone

# A browser waits minutes for a page, an XHR without a timeout (htmx's default) or a websocket's
# opening handshake; the bench's own 20-30 s limits would start retries a browser never makes.
BROWSER_SECONDS = 300.0


@dataclass(eq=False)
class LiveTap:
    id: str
    phone: LivePhone
    fields: dict[str, str]
    key: str
    via: str = "http"
    t0: float = 0.0  # sent (over the socket or HTTP), 0 while queued
    outcome: str = ""  # applied, merged, refused, not_applied; "" while pending
    version: int = 0  # the table version its public frame carries
    expected: tuple[LivePhone, ...] = ()  # the table's phones open when it was sent
    doubt: bool = False
    posting: bool = False
    tries: int = 0
    timer: asyncio.TimerHandle | None = None
    status: int = 0  # the HTTP status of its answer, or of its socket error
    not_applied: bool = False  # its socket copy was answered "not applied" while it was posted
    doubt_at: float = 0.0  # when it went in doubt ("checking…")
    settled_at: float = 0.0


class TapPath:
    """LivePhone's taps: its `pending`, `queue` and `answered_at` are the page's."""

    def tap(self) -> None:
        """The player taps their own HP (-1, then +1, ...), as the page's form would post it."""
        if not self.loaded:
            self.hub.count("no tap: the page has not loaded yet")
            return
        fields = {"seat": str(self.seat_id), "delta": str(self.next_delta)}
        key = "act/hp " + json.dumps(sorted(fields.items()))
        tap = LiveTap(secrets.token_hex(16), self, fields, key)
        waiting = list(self.pending.values())
        if waiting:
            same = any(t.key == key for t in waiting + self.queue)
            if any(t.doubt for t in waiting):
                self.hub.count("dropped by the page: a tap in doubt")
            elif not same and len(self.queue) < 3:
                self.queue.append(tap)
                self.made(tap)
            else:
                self.hub.count("dropped by the page: already queued")
            return
        if time.monotonic() - self.answered_at.get(key, -1e9) < self.hub.live["TAP_SAME_MS"]:
            self.hub.count("dropped by the page: a double tap")
            return
        self.made(tap)
        if not self.start_tap(tap):
            self.post(tap)

    def made(self, tap: LiveTap) -> None:
        self.hub.taps[tap.id] = tap
        self.next_delta = -self.next_delta

    def start_tap(self, tap: LiveTap) -> bool:
        self.pending[tap.id] = tap
        tap.t0 = time.monotonic()
        tap.expected = tuple(p for p in self.table.phones if p.open)
        if not self.sock or self.sock.state != "open" or self.sock.closed_by_page:
            return False
        tap.via = "ws"
        tap.timer = self.later(self.hub.live["ACT_TIMEOUT"], self.over_http, tap)
        self.send({"type": "act", "name": "hp", "fields": tap.fields, "action_id": tap.id})
        return True

    def over_http(self, tap: LiveTap) -> None:
        if tap.id in self.pending and not tap.doubt and not tap.posting:
            tap.posting = True
            self.post(tap)

    def post(self, tap: LiveTap) -> None:
        self.hub.spawn(self.post_task(tap))

    async def post_task(self, tap: LiveTap) -> None:
        fields = {"action_id": tap.id, **tap.fields}
        outcome = ""
        try:
            reply = await self.device.post(
                f"/p/{self.token}/act/hp", fields, htmx=True, timeout=BROWSER_SECONDS
            )
            status, outcome = reply.status, reply.header("x-tap-outcome")
        except HTTPFailure:
            status = 0
        tap.status = status
        if tap.id in self.pending and (tap.via == "http" or tap.posting):
            only = tap.via == "http"
            tap.posting = False
            if 200 <= status < 400:
                self.settle(tap, "merged" if outcome == "merged" else "applied")
            elif (only or tap.not_applied) and outcome == "not_applied":
                self.settle(tap, "not_applied")
            elif status == 0 or status >= 500:
                self.doubt(tap)
            else:
                self.settle(tap, "refused")
        if not self.sock or self.sock.state != "open":
            self.retry = 0
            self.connect()

    def answered(self, msg: dict[str, Any]) -> None:
        tap = self.pending.get(msg["action_id"])
        if tap is None:
            return
        if msg["type"] == "error":
            tap.status = int(msg.get("status") or 0)
            if msg.get("outcome") == "not_applied":
                # As live.js: while the same tap is on its way over HTTP, that answer decides.
                if not tap.posting:
                    self.settle(tap, "not_applied")
                elif self.hub.live["both not applied"]:
                    tap.not_applied = True
            elif (msg.get("status") or 0) >= 500:
                self.doubt(tap)
            else:
                self.settle(tap, "refused")
            return
        merged = msg["type"] == "merged" or msg.get("outcome") == "merged"
        self.settle(tap, "merged" if merged else "applied")
        if msg.get("version"):
            tap.version = tap.version or int(msg["version"])
            self.behind(int(msg["version"]))

    def settle(self, tap: LiveTap, outcome: str) -> None:
        if self.pending.pop(tap.id, None) is None:
            return
        if tap.timer:
            tap.timer.cancel()
        tap.outcome = outcome
        tap.settled_at = time.monotonic()
        if outcome == "applied":
            self.answered_at[tap.key] = tap.t0
        if tap.doubt:
            self.send({"type": "sync", "version": self.last_public})
        self.loop.call_soon(self.next_tap)

    def doubt(self, tap: LiveTap) -> None:
        if not tap.doubt:
            for queued in self.queue:
                self.hub.taps.pop(queued.id, None)
                self.hub.count("dropped by the page: a tap in doubt")
            self.queue.clear()
            tap.doubt = True
            tap.doubt_at = time.monotonic()
            tap.tries = 0
        self.ask_status(tap)

    def ask_status(self, tap: LiveTap) -> None:
        if tap.id not in self.pending:
            return
        if tap.timer:
            tap.timer.cancel()
        tap.tries += 1
        live = self.hub.live
        wait = min(live["status cap"], live["status base"] * 2**tap.tries)
        tap.timer = self.later(wait, self.ask_status, tap)
        self.send({"type": "status", "action_id": tap.id})

    def status_answer(self, tap: LiveTap, msg: dict[str, Any]) -> None:
        """As live.js's statusAnswer: `applied` null is "not known yet" (asked again)."""
        if tap.id not in self.pending or not isinstance(msg.get("applied"), bool):
            return
        if msg.get("outcome") in ("refused", "merged"):
            self.settle(tap, msg["outcome"])
        else:
            self.settle(tap, "applied" if msg["applied"] else "not_applied")

    def next_tap(self) -> None:
        if self.pending or not self.queue:
            return
        tap = self.queue.pop(0)
        if not self.start_tap(tap):
            self.post(tap)
