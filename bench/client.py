"""The simulated phones' client: HTTP/1.1 spoken directly over asyncio streams (keep-alive, a new
connection when all are busy, up to POOL_LIMIT per port), a browser's cookies and CSRF header
(`Device`), and a phone's websocket as its page opens it."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from websockets.asyncio.client import connect

HTTP_SECONDS = 30
WS_OPEN_SECONDS = 20
POOL_LIMIT = 1024  # open HTTP connections per port, at most (taps beyond wait, and say so)


class HTTPFailure(Exception):
    pass


@dataclass
class Reply:
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    keep_alive: bool

    def header(self, name: str) -> str:
        return next((v for k, v in self.headers if k == name), "")

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


async def read_reply(reader: asyncio.StreamReader) -> Reply:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head[:-4].decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = []
    for line in lines[1:]:
        name, _sep, value = line.partition(":")
        headers.append((name.strip().lower(), value.strip()))
    get = dict(headers)
    keep_alive = get.get("connection", "").lower() != "close"
    if "chunked" in get.get("transfer-encoding", "").lower():
        parts = []
        while True:
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while (await reader.readline()) not in (b"\r\n", b""):
                    pass
                break
            parts.append((await reader.readexactly(size + 2))[:-2])
        body = b"".join(parts)
    elif "content-length" in get:
        body = await reader.readexactly(int(get["content-length"]))
    elif status in (204, 304) or status < 200:
        body = b""
    else:
        body = await reader.read()
        keep_alive = False
    return Reply(status, headers, body, keep_alive)


class Pool:
    """Keep-alive connections to one port; a request opens a new one when all are busy."""

    def __init__(self, port: int, limit: int = POOL_LIMIT) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.host = f"127.0.0.1:{port}"
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.slots = asyncio.Semaphore(limit)
        self.opened = 0
        self.peak_busy = 0
        self.busy = 0

    async def request(
        self,
        method: str,
        path: str,
        headers: list[tuple[str, str]],
        body: bytes = b"",
        on_send: Callable[[], None] | None = None,
        timeout: float = HTTP_SECONDS,
    ) -> Reply:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}"]
        lines += [f"{k}: {v}" for k, v in headers]
        if method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        async with self.slots:
            self.busy += 1
            self.peak_busy = max(self.peak_busy, self.busy)
            try:
                return await asyncio.wait_for(self._send(raw, on_send), timeout)
            except TimeoutError as exc:
                raise HTTPFailure(f"{method} {path[:12]}…: no answer in {timeout} s") from exc
            finally:
                self.busy -= 1

    async def _send(self, raw: bytes, on_send: Callable[[], None] | None) -> Reply:
        for attempt in range(2):
            reused = False
            conn = None
            while self.idle:
                candidate = self.idle.pop()
                if candidate[0].at_eof() or candidate[1].is_closing():
                    candidate[1].close()
                    continue
                conn, reused = candidate, True
                break
            if conn is None:
                try:
                    conn = await asyncio.open_connection("127.0.0.1", self.port)
                except OSError as exc:
                    raise HTTPFailure(f"connect to port {self.port}: {exc}") from exc
                self.opened += 1
                sock = conn[1].get_extra_info("socket")
                if sock is not None:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            reader, writer = conn
            try:
                if on_send is not None:
                    on_send()
                writer.write(raw)
                reply = await read_reply(reader)
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
                writer.close()
                # A keep-alive connection the server closed while idle: once more on a new one
                # (taps carry an action id, so a repeat is applied once at most).
                if reused and attempt == 0:
                    continue
                raise HTTPFailure(f"port {self.port}: {exc!r}") from exc
            except BaseException:
                writer.close()
                raise
            if reply.keep_alive:
                self.idle.append(conn)
            else:
                writer.close()
            return reply
        raise HTTPFailure("unreachable")

    def close(self) -> None:
        for _reader, writer in self.idle:
            writer.close()
        self.idle.clear()


class Device:
    """One browser: its own cookies."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.cookies: dict[str, str] = {}

    def _headers(self) -> list[tuple[str, str]]:
        headers = [("User-Agent", "sgs-bench"), ("Accept", "text/html")]
        if self.cookies:
            headers.append(("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items())))
        return headers

    def _absorb(self, reply: Reply) -> None:
        for name, value in reply.headers:
            if name != "set-cookie":
                continue
            pair, _sep, attrs = value.partition(";")
            key, _eq, val = pair.strip().partition("=")
            if val in ("", '""') or "max-age=0" in attrs.lower():
                self.cookies.pop(key, None)
            else:
                self.cookies[key] = val

    async def get(self, path: str, timeout: float = HTTP_SECONDS) -> Reply:
        reply = await self.pool.request("GET", path, self._headers(), timeout=timeout)
        self._absorb(reply)
        return reply

    async def post(
        self,
        path: str,
        fields: dict[str, str] | list[tuple[str, str]],
        *,
        htmx: bool = False,
        on_send: Callable[[], None] | None = None,
        timeout: float = HTTP_SECONDS,
    ) -> Reply:
        headers = self._headers()
        headers += [
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Origin", self.pool.base),
            ("X-CSRFToken", self.cookies.get("sgs_csrf", "")),
        ]
        if htmx:
            headers.append(("HX-Request", "true"))
        reply = await self.pool.request(
            "POST", path, headers, urlencode(fields).encode(), on_send=on_send, timeout=timeout
        )
        self._absorb(reply)
        return reply


async def open_websocket(
    device: Device, token: str, agent: str = "sgs-bench", timeout: float = WS_OPEN_SECONDS
) -> Any:
    """A phone's websocket as its page opens it: its cookies, its Origin, deflate offered."""
    pool = device.pool
    return await connect(
        f"ws://127.0.0.1:{pool.port}/ws/{token}/",
        origin=pool.base,  # type: ignore[arg-type]
        additional_headers={"Cookie": "; ".join(f"{k}={v}" for k, v in device.cookies.items())},
        proxy=None,
        open_timeout=timeout,
        close_timeout=2,
        ping_interval=None,
        max_size=2**22,
        max_queue=None,
        user_agent_header=agent,
    )
