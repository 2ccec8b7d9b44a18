#!/usr/bin/env python
"""Load benchmark: real server processes, real phones over HTTP and websockets, tap→phone latency.

    .venv/bin/python bench/run.py                      # embedded default, a modest run
    .venv/bin/python bench/run.py --tables 50 --phones 8 --rate 1 --duration 60 --repeat 3
    .venv/bin/python bench/run.py --scale-out 2 --tables 100 --rate 0.5 --duration 60
    .venv/bin/python bench/run.py --json > result.json  # machine-readable
    .venv/bin/python bench/run.py --profile /tmp/prof  # py-spy each server during the window
    .venv/bin/python bench/profile_summary.py /tmp/prof/run1-s0.txt

What it does, in order:

1. Starts the app the way users run it: `manage.py play --host 127.0.0.1 --port P` with
   DATA_DIR=<a temporary directory>, STATIC_PLAIN=1, DEBUG=0. The default is the embedded
   setup (SQLite, in-memory channel layer, one process). With `--scale-out N` it creates its own
   PostgreSQL database (dropped at the end), migrates it once and starts N processes with
   DB=postgres, REDIS_URL (default redis://127.0.0.1:6379/0, or $REDIS_URL), a unique
   REDIS_PREFIX (its keys deleted at the end) and one SECRET_KEY. PostgreSQL is reached with
   DB_HOST/DB_PORT/DB_USER/DB_PASSWORD (default postgres@127.0.0.1:5432). Every server listens on
   127.0.0.1 only and is stopped at the end, also on Ctrl+C or an error (and killed by the kernel
   if this script dies). Where there are two or more cores, the servers are pinned with
   `taskset` to all cores but the last, and this generator to the last one (`--no-pin` to
   switch that off).
2. Creates T tables with P phones each (P >= 4, the app's minimum for dealing) through the
   app's own interface, as phones do: the host GETs /, POSTs /new/, GETs its console and sets
   first-game mode (POST /h/<host>/act/options fields=first_game_mode first_game_mode=1); each
   phone GETs and POSTs /j/<code>/ (its own cookies, CSRF from the sgs_csrf cookie sent as
   X-CSRFToken, Origin equal to the base URL) and connects its websocket /ws/<token>/ with that
   Origin. With --scale-out, the phones of a table are spread over the ports. Then the host deals
   and starts the game (first-game mode: no hero picking), and every phone must show "playing".
3. Load: one phone per table taps its own HP (delta=-1, then +1, alternating; a unique action_id
   per tap), as its page does: over its open websocket ({"type": "act", "name": "hp", "fields":
   {"seat": <its seat>, "delta": ...}}, answered by its change's own frame to the tapping phone,
   or "done" when there is none), or with --via http as the page's
   fallback (POST /p/<token>/act/hp, answered 204), at --rate taps per table per second, open
   loop, tables evenly staggered. --warmup seconds are not counted; then --duration seconds are
   measured (--repeat times, back to back, each drained before the next).
4. Every pushed fragment root (table-state, my-seat, host-panel, and the small frames of an HP
   change: table-delta, my-hp) carries data-version and data-action; each phone records when
   the public frame of each tap arrives, matched by action id. Latency runs from just before
   the tap is written to the moment the phone has the frame. Only taps answered (204, the
   change's own frame, or "done") count: when the server is overloaded, read "failed" and the
   achieved taps/s first. The host console's own websocket is not connected (its frames would
   go to nobody's phone).

It prints:
- connections made/failed;
- taps sent, applied (204), refused (4xx/5xx) and failed (no answer within 30 s);
- deliveries expected (each applied tap is due to every phone of its table that was connected
  when it was sent) and received; lost (never received), late (received only after that run's
  drain: after each window the script waits while frames keep coming, until 10 s pass without
  one or 120 s in all), duplicated and out-of-order deliveries; the tapper's own HP tracker (in the
  public delta of an HP change, or in its private frame);
- tap→phone latency p50/p95/p99/max, tap→whole table, and the time until the tap is answered
  (over the socket: the change's own frame at the tapping phone, or "done"; or the HTTP 204);
- achieved taps/s; server CPU per tap (utime+stime from /proc/<pid>/stat over the measured
  window, summed over the server processes; with --scale-out also PostgreSQL's and Redis's),
  and of it the servers' event-loop threads (websockets, Channels, relaying frames; the rest is
  the database thread) and the kernel's part;
- server RSS and memory per connected phone (RSS delta from just before the phones' websockets
  connect to just after, divided by the phones);
- whether this generator was the bottleneck (its CPU >= 80 % of its core, or its send schedule
  slipping or its event loop lagging at p99 by >= 5 ms and >= a tenth of the measured latency
  p99), and how busy the rest of the machine was (other processes' CPU makes every figure
  unreliable: the report says so);
- a median line over --repeat runs, and the errors the servers logged, counted.
Exit status 0 when everything due arrived exactly once and no tap was refused or failed, 1
otherwise, 2 when the setup failed, 130 when interrupted.

Other options: --settings MODULE runs the servers with another DJANGO_SETTINGS_MODULE, to
measure a settings change before the app makes it (bench/settings_no_persistent_db.py);
--wait-quiet S first waits up to S seconds for an idle machine; --keep-logs keeps the servers'
logs; --no-pin.

HTTP is spoken directly over asyncio streams (HTTP/1.1, keep-alive; a tap opens another
connection when all are busy, up to 1024 per port): a third-party client would cost the
generator several times more CPU per tap. Websockets use the `websockets` package with
permessage-deflate offered, as browsers do. Measured against a stub server, the generator used
14 % of its core at 100 taps/s with 800 phones.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import websockets
from websockets.asyncio.client import connect

try:
    import uvloop
except ImportError:  # optional: a faster event loop for the simulated phones
    uvloop = None

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.servers import (  # noqa: E402
    BASE_DIR,
    PYTHON,
    Server,
    child_env,
    create_database,
    delete_redis_keys,
    die_with_parent,
    drop_database,
    free_ports,
    migrate,
    spawn_play,
    wait_ready,
)

CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
MIN_PHONES = 4  # companion.models.MIN_PLAYERS: fewer seats cannot be dealt identities

STARTUP_SECONDS = 90
HTTP_SECONDS = 30
WS_OPEN_SECONDS = 20
SNAPSHOT_SECONDS = 20
DRAIN_SECONDS = 15
DRAIN_IDLE_SECONDS = 10  # after the window: give up once nothing arrived for this long
DRAIN_MAX_SECONDS = 120
QUIET_SECONDS = 0.5
SETTLE_SECONDS = 1.0
STOP_SECONDS = 10
SETUP_CONCURRENCY = 16
HOST_RETRIES = 5  # a host tap answered 503 "not applied" is tapped again, up to this often
HOST_RETRY_SECONDS = 1.0
CONNECT_CONCURRENCY = 64
POOL_LIMIT = 1024  # open HTTP connections per port, at most (taps beyond wait, and say so)
LAG_TICK = 0.005

# Thresholds above which the generator, not the server, may be what the figures measure.
GEN_CPU_LIMIT = 80.0  # % of its core
# p99 of (time a tap was sent - time it was due), and of the generator's own event-loop lag:
# at least this, or a tenth of the measured latency p99 if that is more.
GEN_SLIP_LIMIT_MS = 5.0
GEN_LAG_LIMIT_MS = 5.0
SATURATED_PCT = 90.0  # server cores busier than this: the server is the bottleneck
OTHER_LOAD_LIMIT = 25.0  # % of a core used by other processes during the window

SECTION_RE = re.compile(
    r'<(?:section|template|div)\s[^>]*?\bid="(table-state|table-delta|my-seat|my-hp|host-panel)"[^>]*>'
)
ATTR_RE = re.compile(r'\s([\w-]+)="([^"]*)"')
CODE_RE = re.compile(r'data-code="([A-Z0-9]+)"')
EXCEPTION_LINE_RE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b.*")
LOG_PROBLEM_RE = re.compile(r"^[\d-]+ [\d:,]+ ((?:WARNING|ERROR|CRITICAL) .*)")
HOST_PATH_RE = re.compile(r"^/h/([A-Za-z0-9_-]+)/$")
PHONE_PATH_RE = re.compile(r"^/p/([A-Za-z0-9_-]+)/$")


class SetupError(Exception):
    """The app could not be started or the tables could not be set up."""


# ---------------------------------------------------------------------------------------------
# /proc


def proc_cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), in seconds."""
    return sum(proc_cpu_split(pid))


def proc_cpu_split(pid: int) -> tuple[float, float]:
    """(utime, stime) of a process (all its threads), in seconds: user and kernel time."""
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK


def thread_cpu_seconds(pid: int, tid: int) -> float:
    """utime + stime of one thread of a process (0 if it has gone)."""
    try:
        with open(f"/proc/{pid}/task/{tid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def proc_rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/statm", "rb") as f:
        return int(f.read().split()[1]) * PAGE_SIZE


def machine_busy_seconds() -> float:
    """CPU-seconds the whole machine has been busy (all cores), from /proc/stat."""
    with open("/proc/stat", "rb") as f:
        values = [int(v) for v in f.readline().split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = values
    return (user + nice + system + irq + softirq + steal) / CLK_TCK


def services_cpu_seconds(names: tuple[str, ...] = ("postgres", "redis-server")) -> float:
    """CPU of the PostgreSQL and Redis processes (all users' of them: other work on the same
    services counts too). Backends that exited are counted through their parent's cutime and
    cstime, so connections opened and closed within the window are not missed."""
    total = 0.0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                raw = f.read()
        except OSError:
            continue
        comm = raw[raw.find(b"(") + 1 : raw.rfind(b")")].decode(errors="replace")
        if comm in names:
            fields = raw.rsplit(b")", 1)[1].split()
            total += sum(int(v) for v in fields[11:15]) / CLK_TCK
    return total


def load_average() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


# ---------------------------------------------------------------------------------------------
# Server processes


def plan_cores(servers: int, pin: bool) -> tuple[list[int | None], int | None, str]:
    """Cores for each server and for the generator: the generator gets the last core."""
    cpus = sorted(os.sched_getaffinity(0))
    if not pin:
        return [None] * servers, None, "not pinned (--no-pin)"
    if len(cpus) < 2:
        return [None] * servers, None, "not pinned (one core only)"
    generator, rest = cpus[-1], cpus[:-1]
    plan: list[int | None] = [rest[i % len(rest)] for i in range(servers)]
    note = f"servers on core(s) {','.join(str(c) for c in sorted(set(rest[:servers])))}"
    return plan, generator, f"{note}, generator on core {generator}"


class Fleet:
    """The server processes and what they need; `close()` undoes everything, once."""

    def __init__(
        self,
        scale_out: int,
        pin: bool,
        keep_logs: bool = False,
        settings: str = "companion.settings",
    ) -> None:
        self.scale_out = scale_out
        self.settings = settings
        self.pin = pin
        self.keep_logs = keep_logs
        self.tmp = Path(tempfile.mkdtemp(prefix="sgs-bench-"))
        self.servers: list[Server] = []
        self.db_name = ""
        self.redis_prefix = ""
        self.redis_url = ""
        self.db_created = False
        self.generator_core: int | None = None
        self.pin_note = ""
        self.closed = False

    # -- environment

    def _env(self) -> dict[str, str]:
        values = dict(
            DJANGO_SETTINGS_MODULE=self.settings,
            DATA_DIR=str(self.tmp),
            STATIC_PLAIN="1",
            DEBUG="0",
            PYTHONUNBUFFERED="1",
            SECRET_KEY=self.secret_key,
        )
        if self.scale_out:
            for key in ("DB_HOST", "DB_PORT", "DB_USER", "DB_PASSWORD"):
                if os.environ.get(key):
                    values[key] = os.environ[key]
            values.update(
                DB="postgres",
                DB_NAME=self.db_name,
                REDIS_URL=self.redis_url,
                REDIS_PREFIX=self.redis_prefix,
            )
        return child_env(
            values,
            drop_prefixes=("PYTEST", "DB", "REDIS_", "SQLITE_"),
            drop={"DJANGO_SETTINGS_MODULE", "DEBUG", "HTTPS", "ALLOWED_HOSTS"},
        )

    # -- start

    def start(self) -> None:
        self.secret_key = secrets.token_urlsafe(50)
        count = self.scale_out or 1
        cores, self.generator_core, self.pin_note = plan_cores(count, self.pin)
        if self.scale_out:
            suffix = secrets.token_hex(4)
            self.db_name = f"sgs_bench_{os.getpid()}_{suffix}"
            self.redis_prefix = f"sgsbench{suffix}"
            self.redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
            self._check_redis()
            try:
                create_database(self.db_name)
            except Exception as exc:
                raise SetupError(f"cannot create the PostgreSQL database: {exc}") from exc
            self.db_created = True
            migrated = migrate(self._env(), STARTUP_SECONDS * 2)
            if migrated.returncode:
                output = migrated.stdout + migrated.stderr
                raise SetupError("migrate failed:\n" + output.decode())
        ports = free_ports(count)
        for index, (port, core) in enumerate(zip(ports, cores, strict=True)):
            log_path = self.tmp / f"server-{index}.log"
            self.servers.append(
                Server(
                    name=f"s{index}",
                    port=port,
                    proc=self._spawn(port, core, log_path),
                    log_path=log_path,
                    core=core,
                    stop_signal=signal.SIGINT,
                    tail_chars=2500,
                )
            )
        deadline = time.monotonic() + STARTUP_SECONDS
        for server in self.servers:
            self._wait_ready(server, deadline)
        if self.generator_core is not None:
            os.sched_setaffinity(0, {self.generator_core})

    def _spawn(self, port: int, core: int | None, log_path: Path) -> subprocess.Popen[bytes]:
        wrapper: list[str] = []
        preexec: Callable[[], None] = die_with_parent
        taskset = shutil.which("taskset")
        if core is not None and taskset:
            wrapper = [taskset, "-c", str(core)]
        elif core is not None:

            def preexec(core: int = core) -> None:
                die_with_parent()
                os.sched_setaffinity(0, {core})

        return spawn_play(
            port,
            self._env(),
            log_path,
            no_migrate=bool(self.scale_out),
            wrapper=wrapper,
            preexec=preexec,
            append=True,
        )

    def kill(self, index: int) -> None:
        """SIGKILL one server process, as a crash would (no graceful close of its sockets)."""
        self.servers[index].kill()

    def restart(self, index: int) -> None:
        """Start a killed server again on the same port, with the same database and log."""
        server = self.servers[index]
        server.proc = self._spawn(server.port, server.core, server.log_path)
        self._wait_ready(server, time.monotonic() + STARTUP_SECONDS)

    def _check_redis(self) -> None:
        parsed = urlsplit(self.redis_url)
        try:
            with socket.create_connection(
                (parsed.hostname or "127.0.0.1", parsed.port or 6379), timeout=3
            ) as sock:
                sock.sendall(b"PING\r\n")
                if not sock.recv(16).startswith(b"+PONG"):
                    raise OSError("no PONG")
        except OSError as exc:
            raise SetupError(f"Redis at {self.redis_url} is not answering: {exc}") from exc

    def _wait_ready(self, server: Server, deadline: float) -> None:
        wait_ready(server, deadline, error=SetupError, probe_seconds=3)

    # -- figures

    def cpu_seconds(self) -> float:
        return sum(proc_cpu_seconds(s.proc.pid) for s in self.servers if s.proc.poll() is None)

    def kernel_cpu_seconds(self) -> float:
        return sum(proc_cpu_split(s.proc.pid)[1] for s in self.servers if s.proc.poll() is None)

    def loop_cpu_seconds(self) -> float:
        """CPU of the servers' main threads: the event loop (websockets, Channels, relaying);
        the rest is the database thread and any thread-pool work."""
        return sum(
            thread_cpu_seconds(s.proc.pid, s.proc.pid)
            for s in self.servers
            if s.proc.poll() is None
        )

    def rss_bytes(self) -> int:
        return sum(proc_rss_bytes(s.proc.pid) for s in self.servers if s.proc.poll() is None)

    def log_problems(self) -> list[str]:
        """Errors the servers logged, counted: the final line of each traceback, and the
        ERROR/CRITICAL/WARNING log lines without their time stamps."""
        found: Counter[str] = Counter()
        for server in self.servers:
            with contextlib.suppress(OSError):
                for line in server.log_path.read_text(errors="replace").splitlines():
                    if EXCEPTION_LINE_RE.match(line):
                        found[line.strip()[:200]] += 1
                    elif match := LOG_PROBLEM_RE.match(line):
                        found[match.group(1)[:200]] += 1
        return [f"{count} × {text}" for text, count in found.most_common()]

    # -- stop

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        # A second Ctrl+C or SIGTERM must not cut the cleanup short.
        signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
        previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in signals}
        try:
            self._close()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _close(self) -> None:
        for server in self.servers:
            with contextlib.suppress(Exception):
                server.stop()
        if self.scale_out:
            with contextlib.suppress(Exception):
                delete_redis_keys(self.redis_url, f"{self.redis_prefix}*")
            if self.db_created:
                with contextlib.suppress(Exception):
                    drop_database(self.db_name)
        if self.keep_logs:
            print(f"server logs and data kept in {self.tmp}", file=sys.stderr)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# HTTP/1.1 over asyncio streams


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


def expect(reply: Reply, status: int, what: str) -> Reply:
    if reply.status != status:
        raise SetupError(f"{what}: HTTP {reply.status} (wanted {status}): {reply.text[:300]}")
    return reply


def location_path(reply: Reply) -> str:
    return urlsplit(reply.header("location")).path


# ---------------------------------------------------------------------------------------------
# Tables, phones and taps


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


class Bench:
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

    # -- load

    async def tap(self, table: TableRig, run: int, due: float) -> None:
        phone = table.tapper
        delta = table.next_delta
        table.next_delta = -delta  # decided at send time: HP stays within [max-1, max]
        action = f"b{self.run_id}{len(self.taps):07d}{secrets.token_hex(3)}"
        tap = Tap(
            action,
            table,
            run,
            due,
            expected=tuple(p.index for p in table.phones if p.open),
        )
        self.taps[action] = tap

        def sent() -> None:
            tap.t0 = time.perf_counter()

        if self.args.via == "ws":
            await self.tap_over_socket(phone, tap, delta)
            return
        tap.queued = phone.device.pool.slots.locked()
        try:
            reply = await phone.device.post(
                f"/p/{phone.token}/act/hp",
                {"seat": str(phone.seat_id), "delta": str(delta), "action_id": action},
                htmx=True,
                on_send=sent,
            )
            tap.status = reply.status
        except HTTPFailure as exc:
            tap.error = str(exc)
        tap.t_reply = time.perf_counter()

    async def tap_over_socket(self, phone: Phone, tap: Tap, delta: int) -> None:
        """The tap as the phone's page sends it while its socket is open."""
        waiter: asyncio.Future[tuple[int, float]] = asyncio.get_running_loop().create_future()
        self.answers[tap.action] = waiter
        message = json.dumps(
            {
                "type": "act",
                "name": "hp",
                "fields": {"seat": str(phone.seat_id), "delta": str(delta)},
                "action_id": tap.action,
            }
        )
        try:
            tap.t0 = time.perf_counter()
            await phone.ws.send(message)
            tap.status, tap.t_reply = await asyncio.wait_for(waiter, HTTP_SECONDS)
        except (TimeoutError, Exception) as exc:  # noqa: BLE001 - any failure is a failed tap
            self.answers.pop(tap.action, None)
            tap.error = f"{type(exc).__name__}: {exc}"
            tap.t_reply = time.perf_counter()

    async def lag_monitor(self) -> None:
        perf = time.perf_counter
        while True:
            before = perf()
            await asyncio.sleep(LAG_TICK)
            if self.lag_samples is not None:
                self.lag_samples.append(perf() - before - LAG_TICK)

    async def schedule(self, run: int, seconds: float, tables: list[TableRig]) -> dict[str, Any]:
        """Send taps for `seconds` at the configured rate; returns the window's raw figures."""
        rate = self.args.rate * len(tables)
        count = max(1, int(round(seconds * rate)))
        interval = 1.0 / rate
        slips: list[float] = []
        perf = time.perf_counter
        measured = run >= 0
        if measured:
            self.lag_samples = []
        start = perf() + 0.01
        cpu0, gen0 = self.fleet.cpu_seconds(), proc_cpu_seconds(os.getpid())
        kernel0, loop0 = self.fleet.kernel_cpu_seconds(), self.fleet.loop_cpu_seconds()
        busy0 = machine_busy_seconds()
        svc0 = services_cpu_seconds() if self.fleet.scale_out else 0.0
        for k in range(count):
            due = start + k * interval
            delay = due - perf()
            if delay > 0:
                await asyncio.sleep(delay)
            slips.append(perf() - due)
            task = asyncio.create_task(self.tap(tables[k % len(tables)], run, due))
            self.tap_tasks.add(task)
            task.add_done_callback(self.tap_tasks.discard)
        end = start + count * interval
        delay = end - perf()
        if delay > 0:
            await asyncio.sleep(delay)
        window = perf() - start
        figures = {
            "window_s": window,
            "server_cpu_s": self.fleet.cpu_seconds() - cpu0,
            "server_kernel_cpu_s": self.fleet.kernel_cpu_seconds() - kernel0,
            "server_loop_cpu_s": self.fleet.loop_cpu_seconds() - loop0,
            "generator_cpu_s": proc_cpu_seconds(os.getpid()) - gen0,
            "machine_busy_s": machine_busy_seconds() - busy0,
            "services_cpu_s": services_cpu_seconds() - svc0 if self.fleet.scale_out else None,
            "slips": slips,
            "lags": self.lag_samples or [],
            "load_average": load_average(),
            "rss_kb": self.fleet.rss_bytes() // 1024,
        }
        self.lag_samples = None
        return figures

    async def drain(self, run: int) -> float:
        """Wait for the taps' replies and every due delivery while they keep coming (bounded),
        then a quiet spell for duplicates. Returns the seconds it took."""
        started = time.monotonic()
        hard = started + DRAIN_MAX_SECONDS
        pending = list(self.tap_tasks)
        if pending:
            await asyncio.wait(pending, timeout=HTTP_SECONDS + 1)
        taps = [t for t in self.taps.values() if t.run == run and t.status == 204]
        seen, last_progress = -1, time.monotonic()
        while time.monotonic() < hard:
            incomplete = [t for t in taps if not self._complete(t)]
            if not incomplete:
                break
            count = sum(len(t.arrivals) + bool(t.private_at) for t in taps)
            if count != seen:
                seen, last_progress = count, time.monotonic()
            elif time.monotonic() - last_progress > DRAIN_IDLE_SECONDS:
                break
            await asyncio.sleep(0.1)
        took = time.monotonic() - started
        await asyncio.sleep(QUIET_SECONDS)
        return took

    @staticmethod
    def _complete(tap: Tap) -> bool:
        return len(tap.arrivals) >= len(tap.expected) and bool(tap.private_at)

    async def load(self) -> list[dict[str, Any]]:
        args = self.args
        tables = [t for t in self.tables if t.ready]
        if not tables:
            raise SetupError("no table is ready for the load")
        monitor = asyncio.create_task(self.lag_monitor())
        windows = []
        try:
            if args.warmup > 0:
                await self.schedule(-1, args.warmup, tables)
            for run in range(args.repeat):
                profilers = self.start_profilers(run) if args.profile else []
                before = self.out_of_order
                frames_before, chars_before = self.frames, self.frame_chars
                figures = await self.schedule(run, args.duration, tables)
                self.stop_profilers(profilers)
                figures["drain_s"] = await self.drain(run)
                figures["drain_end"] = time.perf_counter()
                figures["out_of_order"] = self.out_of_order - before
                frames = self.frames - frames_before
                figures["frame_kb"] = (
                    (self.frame_chars - chars_before) / frames / 1024 if frames else 0
                )
                figures["dropped"] = sum(p.dropped for t in tables for p in t.phones)
                windows.append((run, figures))
        finally:
            monitor.cancel()
        # Summarised at the end: a frame that arrived after its run's drain (during a later
        # run) counts as late, not lost.
        return [self.summarise(run, figures, tables) for run, figures in windows]

    # -- profiling (optional)

    def start_profilers(self, run: int) -> list[subprocess.Popen[bytes]]:
        spy = shutil.which("py-spy") or str(Path(PYTHON).parent / "py-spy")
        if not Path(spy).exists():
            raise SetupError("--profile needs py-spy: .venv/bin/pip install py-spy")
        out = Path(self.args.profile)
        out.mkdir(parents=True, exist_ok=True)
        procs = []
        for server in self.fleet.servers:
            command = [
                # --gil: only the thread holding the GIL is sampled, so the profile shows
                # where the CPU goes rather than threads waiting on each other.
                *(spy, "record", "--pid", str(server.proc.pid), "--nonblocking", "--gil"),
                *("--duration", str(max(1, int(self.args.duration))), "--rate", "100"),
                *("--format", "raw", "--output", str(out / f"run{run + 1}-{server.name}.txt")),
            ]
            procs.append(
                subprocess.Popen(
                    command,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    preexec_fn=die_with_parent,
                )
            )
        return procs

    @staticmethod
    def stop_profilers(procs: list[subprocess.Popen[bytes]]) -> None:
        for proc in procs:
            try:
                proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGINT)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=STOP_SECONDS)

    # -- figures

    def summarise(
        self, run: int, figures: dict[str, Any], tables: list[TableRig]
    ) -> dict[str, Any]:
        taps = [t for t in self.taps.values() if t.run == run]
        applied = [t for t in taps if t.status == 204]
        refused = [t for t in taps if t.status and t.status != 204]
        failed = [t for t in taps if not t.status]
        latencies = []
        slowest = []
        expected = received = lost = duplicated = late = 0
        private_received = 0
        drain_end = figures["drain_end"]
        for tap in applied:
            expected += len(tap.expected)
            got = [tap.arrivals[i] - tap.t0 for i in tap.expected if i in tap.arrivals]
            received += len(got)
            lost += len(tap.expected) - len(got)
            late += sum(1 for i in tap.expected if tap.arrivals.get(i, 0) > drain_end)
            latencies.extend(got)
            if got and len(got) == len(tap.expected):
                slowest.append(max(got))
            duplicated += tap.duplicates
            private_received += bool(tap.private_at)
        # A frame that arrived twice for a tap whose HTTP answer failed is a duplicate too.
        duplicated += sum(t.duplicates for t in refused + failed)
        window = figures["window_s"]
        server_cpu = figures["server_cpu_s"]
        gen_cpu = figures["generator_cpu_s"]
        gen_pct = 100 * gen_cpu / window
        slip_p99 = percentile(figures["slips"], 99) * 1000
        lag_p99 = percentile(figures["lags"], 99) * 1000
        # The generator's own delays matter when they are a real share of what it measures.
        measured_p99 = percentile(latencies, 99) * 1000
        slip_limit = max(GEN_SLIP_LIMIT_MS, 0.1 * measured_p99)
        lag_limit = max(GEN_LAG_LIMIT_MS, 0.1 * measured_p99)
        reasons = []
        if gen_pct >= GEN_CPU_LIMIT:
            reasons.append(f"its CPU {gen_pct:.0f} % of a core")
        if slip_p99 >= slip_limit:
            reasons.append(f"send schedule slipping (p99 {slip_p99:.1f} ms late)")
        if lag_p99 >= lag_limit:
            reasons.append(f"its event loop lagging (p99 {lag_p99:.1f} ms)")
        cores = {s.core for s in self.fleet.servers}
        busy_pct = (
            100 * server_cpu / window / (len(self.fleet.servers) if None in cores else len(cores))
        )
        other = figures["machine_busy_s"] - server_cpu - gen_cpu
        if figures["services_cpu_s"] is not None:
            other -= figures["services_cpu_s"]
        other_pct = max(0.0, 100 * other / window)
        if reasons and other_pct >= OTHER_LOAD_LIMIT:
            reasons.append(f"other processes used {other_pct:.0f} % of a core meanwhile")
        result = {
            "run": run + 1,
            "window_s": round(window, 2),
            "target_taps_per_s": round(self.args.rate * len(tables), 2),
            "taps_sent": len(taps),
            "taps_applied": len(applied),
            "taps_refused": len(refused),
            "taps_failed": len(failed),
            "refusals": sorted({t.status for t in refused}),
            "achieved_taps_per_s": round(len(applied) / window, 2),
            "deliveries_expected": expected,
            "deliveries_received": received,
            "lost": lost,
            "late": late,
            "duplicated": duplicated,
            "out_of_order": figures["out_of_order"],
            "dropped_connections": figures["dropped"],
            "drain_s": round(figures["drain_s"], 1),
            "frame_kchars": round(figures["frame_kb"], 1),
            "taps_queued_in_generator": sum(t.queued for t in taps),
            "private_expected": len(applied),
            "private_received": private_received,
            "latency_ms": spread(latencies),
            "table_latency_ms": spread(slowest),
            "reply_ms": spread([t.t_reply - t.t0 for t in applied]),
            "server_cpu_s": round(server_cpu, 2),
            "server_core_busy_pct": round(busy_pct, 1),
            "server_saturated": busy_pct >= SATURATED_PCT,
            "cpu_per_tap_ms": round(1000 * server_cpu / len(applied), 2) if applied else None,
            "kernel_cpu_per_tap_ms": round(1000 * figures["server_kernel_cpu_s"] / len(applied), 2)
            if applied
            else None,
            "loop_cpu_per_tap_ms": round(1000 * figures["server_loop_cpu_s"] / len(applied), 2)
            if applied
            else None,
            "services_cpu_per_tap_ms": round(1000 * figures["services_cpu_s"] / len(applied), 2)
            if applied and figures["services_cpu_s"] is not None
            else None,
            "rss_kb": figures["rss_kb"],
            "generator": {
                "cpu_pct": round(gen_pct, 1),
                "send_slip_ms": {
                    "p99": round(slip_p99, 2),
                    "max": round(max(figures["slips"], default=0) * 1000, 2),
                },
                "loop_lag_ms": {
                    "p99": round(lag_p99, 2),
                    "max": round(max(figures["lags"], default=0) * 1000, 2),
                },
                "bottleneck": bool(reasons),
                "reasons": reasons,
            },
            "other_load_pct": round(other_pct, 1),
            "load_average": figures["load_average"],
        }
        return result


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-pct * len(ordered) // 100))))
    return ordered[rank - 1]


def spread(values: list[float]) -> dict[str, float | int]:
    ms = [v * 1000 for v in values]
    return {
        "n": len(ms),
        "p50": round(percentile(ms, 50), 2),
        "p95": round(percentile(ms, 95), 2),
        "p99": round(percentile(ms, 99), 2),
        "max": round(max(ms, default=0.0), 2),
    }


def _minus(a: float | None, b: float | None) -> float | None:
    return round(a - b, 2) if a is not None and b is not None else None


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Median of each headline figure over the runs; losses and errors are summed."""

    def med(get: Callable[[dict[str, Any]], Any]) -> float | None:
        values = [get(r) for r in runs if get(r) is not None]
        return round(statistics.median(values), 2) if values else None

    return {
        "runs": len(runs),
        "latency_ms": {
            key: med(lambda r, key=key: r["latency_ms"][key])
            for key in ("p50", "p95", "p99", "max")
        },
        "achieved_taps_per_s": med(lambda r: r["achieved_taps_per_s"]),
        "cpu_per_tap_ms": med(lambda r: r["cpu_per_tap_ms"]),
        "kernel_cpu_per_tap_ms": med(lambda r: r["kernel_cpu_per_tap_ms"]),
        "loop_cpu_per_tap_ms": med(lambda r: r["loop_cpu_per_tap_ms"]),
        "services_cpu_per_tap_ms": med(lambda r: r["services_cpu_per_tap_ms"]),
        "server_core_busy_pct": med(lambda r: r["server_core_busy_pct"]),
        "lost": sum(r["lost"] for r in runs),
        "duplicated": sum(r["duplicated"] for r in runs),
        "taps_refused": sum(r["taps_refused"] for r in runs),
        "taps_failed": sum(r["taps_failed"] for r in runs),
        "generator_bottleneck": any(r["generator"]["bottleneck"] for r in runs),
    }


# ---------------------------------------------------------------------------------------------
# Report


def render_text(result: dict[str, Any]) -> str:
    """The human-readable report of a result (the same data as --json)."""
    c = result["config"]
    s = result["setup"]
    out = []
    mode = (
        f"scale-out: {c['servers']} process(es), PostgreSQL + Redis"
        if c["scale_out"]
        else "embedded default: SQLite, in-memory layer, one process"
    )
    out.append(
        f"sgs bench · {mode} · {c['tables']} tables × {c['phones']} phones · "
        f"{c['rate']} tap/table/s · {c['duration']} s × {c['repeat']} (warm-up {c['warmup']} s) · "
        f"taps over {'the websocket' if c.get('via', 'ws') == 'ws' else 'HTTP'}"
    )
    out.append(
        f"  pinning: {c['pinning']}; {c['cpus']} CPU(s); python {c['python']}; app {c['app']}; "
        f"{c['started']}"
    )
    if c.get("settings", "companion.settings") != "companion.settings":
        out.append(f"  settings: {c['settings']} (a what-if, not the app's own)")
    out.append(
        f"setup: tables ready {s['tables_ready']}, failed {s['tables_failed']} · "
        f"connections made {s['connections_made']}, failed {s['connections_failed']} · "
        f"{s['setup_seconds']} s (HTTP {s['http_setup_seconds']} s, "
        f"websockets {s['connect_seconds']} s)"
    )
    per_phone = s["memory_per_phone_kb"]
    out.append(
        f"memory: server RSS idle {s['rss_idle_kb'] / 1024:.1f} MB, before phones "
        f"{s['rss_before_phones_kb'] / 1024:.1f} MB, with {s['phones_connected']} phones "
        f"{s['rss_after_phones_kb'] / 1024:.1f} MB → "
        f"{'n/a' if per_phone is None else f'{per_phone:.1f} KB'} per connected phone"
    )
    for error in s["errors"]:
        out.append(f"  ! {error}")
    for r in result["runs"]:
        lat, tab, rep, gen = r["latency_ms"], r["table_latency_ms"], r["reply_ms"], r["generator"]
        out.append(f"run {r['run']} ({r['window_s']} s):")
        refusals = f" {r['refusals']}" if r["refusals"] else ""
        out.append(
            f"  taps sent {r['taps_sent']}: applied {r['taps_applied']}, refused "
            f"{r['taps_refused']}{refusals}, failed {r['taps_failed']} · achieved "
            f"{r['achieved_taps_per_s']} taps/s (target {r['target_taps_per_s']})"
        )
        out.append(
            f"  deliveries expected {r['deliveries_expected']}, received "
            f"{r['deliveries_received']} ({r.get('late', 0)} after the drain), lost {r['lost']}, "
            f"duplicated {r['duplicated']}, "
            f"out of order {r['out_of_order']} · tapper's own HP tracker "
            f"{r['private_received']}/{r['private_expected']} · dropped sockets "
            f"{r['dropped_connections']} · drained in {r['drain_s']} s · frames "
            f"{r.get('frame_kchars', '?')}K characters on average"
        )
        if r["taps_queued_in_generator"]:
            out.append(
                f"  ! {r['taps_queued_in_generator']} taps waited for one of the generator's "
                f"{POOL_LIMIT} connections per port (the server had that many requests open); "
                "their latency starts when they were sent, not when they were due"
            )
        out.append(
            f"  tap→phone latency ms: p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  "
            f"max {lat['max']}  (n={lat['n']})"
        )
        out.append(
            f"  tap→whole table ms: p50 {tab['p50']}  p99 {tab['p99']} · tap answered ms: "
            f"p50 {rep['p50']}  p99 {rep['p99']}"
        )
        services = (
            f" (+ PostgreSQL/Redis {r['services_cpu_per_tap_ms']} ms)"
            if r["services_cpu_per_tap_ms"] is not None
            else ""
        )
        saturated = ""
        if r["server_saturated"] or r["taps_failed"]:
            saturated = " → SATURATED" if r["server_saturated"] else " → overloaded"
            saturated += " (CPU per tap counts work on taps that then timed out or failed)"
        out.append(
            f"  server CPU {r['server_cpu_s']} s, its core(s) {r['server_core_busy_pct']} % "
            f"busy{saturated} · {r['cpu_per_tap_ms']} ms per tap (event loop "
            f"{r['loop_cpu_per_tap_ms']} ms, other threads "
            f"{_minus(r['cpu_per_tap_ms'], r['loop_cpu_per_tap_ms'])} ms; kernel "
            f"{r['kernel_cpu_per_tap_ms']} ms){services} · "
            f"RSS {r['rss_kb'] / 1024:.1f} MB"
        )
        verdict = "YES: " + "; ".join(gen["reasons"]) if gen["bottleneck"] else "no"
        out.append(
            f"  generator: CPU {gen['cpu_pct']} %, send slip p99 {gen['send_slip_ms']['p99']} "
            f"ms, loop lag p99 {gen['loop_lag_ms']['p99']} ms → bottleneck: {verdict}"
        )
        disturbed = (
            " → figures DISTURBED by other processes"
            if r["other_load_pct"] >= OTHER_LOAD_LIMIT
            else ""
        )
        out.append(
            f"  rest of the machine busy {r['other_load_pct']} % of a core "
            f"(load average {r['load_average']}){disturbed}"
        )
    m = result.get("median")
    if m and m["runs"] > 1:
        lat = m["latency_ms"]
        out.append(
            f"median of {m['runs']} runs: p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  "
            f"max {lat['max']} ms · {m['achieved_taps_per_s']} taps/s · "
            f"{m['cpu_per_tap_ms']} ms CPU per tap · lost {m['lost']}, duplicated "
            f"{m['duplicated']}"
        )
    for line in result["server_log_problems"][:8]:
        out.append(f"  server log: {line}")
    out.append("result: OK" if result["ok"] else "result: PROBLEMS (see above)")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Main


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bench/run.py",
        description="Start the app, seat phones at tables over HTTP + websockets, tap at a fixed "
        "rate and measure tap→phone latency, losses, CPU and memory.",
        epilog="Example (the issue's targets): --tables 50 --phones 8 --rate 1 --duration 60 "
        "--repeat 3; scale-out: --scale-out 2 --tables 100 --rate 0.5 --duration 60.",
    )
    parser.add_argument("--tables", type=int, default=10, help="tables (default 10)")
    parser.add_argument("--phones", type=int, default=8, help="phones per table, >= 4 (8)")
    parser.add_argument(
        "--rate", type=float, default=1.0, help="taps per table per second (default 1)"
    )
    parser.add_argument("--duration", type=float, default=15, help="measured seconds (15)")
    parser.add_argument("--warmup", type=float, default=3, help="unmeasured seconds first (3)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="measured windows back to back; prints medians (1)"
    )
    parser.add_argument(
        "--scale-out",
        type=int,
        default=0,
        metavar="N",
        help="N server processes on PostgreSQL + Redis instead of the embedded default",
    )
    parser.add_argument(
        "--via",
        choices=("ws", "http"),
        default="ws",
        help="how the tapping phone sends its tap: over its open websocket, as the page does "
        "(ws, default), or as an htmx POST, the page's fallback (http)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--no-pin", action="store_true", help="do not pin processes to cores")
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="record each server with py-spy (--gil) during each measured window, as collapsed "
        "stacks in DIR; summarise with bench/profile_summary.py",
    )
    parser.add_argument(
        "--keep-logs", action="store_true", help="keep the temporary directory with server logs"
    )
    parser.add_argument(
        "--settings",
        default="companion.settings",
        metavar="MODULE",
        help="DJANGO_SETTINGS_MODULE for the servers, to measure a settings change before the "
        "app makes it (e.g. bench.settings_no_persistent_db); default companion.settings",
    )
    parser.add_argument(
        "--wait-quiet",
        type=float,
        default=0,
        metavar="S",
        help="first wait up to S seconds for the machine to be idle (shared machines)",
    )
    args = parser.parse_args(argv)
    if args.phones < MIN_PHONES or args.phones > 10:
        parser.error(f"--phones must be {MIN_PHONES} to 10 (the app deals 4 to 10 seats)")
    if not 1 <= args.tables <= 2000:
        parser.error("--tables must be 1 to 2000")
    if not 0 < args.rate <= 20:
        parser.error("--rate must be above 0 and at most 20")
    if not 0 < args.duration <= 3600 or not 0 <= args.warmup <= 600:
        parser.error("--duration must be 0 to 3600 s and --warmup 0 to 600 s")
    if not 1 <= args.repeat <= 20 or not 0 <= args.scale_out <= 16:
        parser.error("--repeat must be 1 to 20 and --scale-out 0 to 16")
    return args


def wait_quiet(limit: float) -> float:
    """Wait (at most `limit` s) until the machine was at most 15 % of a core busy for 2 s."""
    deadline = time.monotonic() + limit
    while True:
        before = machine_busy_seconds()
        time.sleep(2)
        busy = (machine_busy_seconds() - before) / 2
        if busy <= 0.15 or time.monotonic() >= deadline:
            return busy


def app_version() -> str:
    """The commit the servers run, and whether the working tree differs from it."""
    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=BASE_DIR,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return done.stdout.strip() or "unknown"


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def close_sockets(bench: Bench) -> None:
    phones = [p for t in bench.tables for p in t.phones if p.ws is not None]

    async def close(phone: Phone) -> None:
        phone.open = False
        with contextlib.suppress(Exception):
            await asyncio.wait_for(phone.ws.close(), 3)
        if phone.reader is not None:
            phone.reader.cancel()

    await asyncio.gather(*(close(p) for p in phones))
    for pool in bench.pools:
        pool.close()


async def run_bench(args: argparse.Namespace, fleet: Fleet) -> dict[str, Any]:
    bench = Bench(args, fleet)
    try:
        setup = await bench.setup()
        runs = await bench.load()
    finally:
        await close_sockets(bench)
    return {"setup": setup, "runs": runs}


@contextlib.contextmanager
def terminate_on_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP unwind like Ctrl+C, so the servers are always stopped."""

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    # A signal already ignored (SIGHUP under nohup) stays ignored.
    previous = {
        s: signal.signal(s, handler)
        for s in (signal.SIGTERM, signal.SIGHUP)
        if signal.getsignal(s) is not signal.SIG_IGN
    }
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    raise_fd_limit()
    fleet = Fleet(
        args.scale_out, pin=not args.no_pin, keep_logs=args.keep_logs, settings=args.settings
    )
    runner: Callable[[Any], Any] = uvloop.run if uvloop is not None else asyncio.run
    config = {
        "tables": args.tables,
        "phones": args.phones,
        "rate": args.rate,
        "duration": args.duration,
        "warmup": args.warmup,
        "repeat": args.repeat,
        "scale_out": args.scale_out,
        "servers": args.scale_out or 1,
        "via": args.via,
        "settings": args.settings,
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "app": app_version(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    try:
        with terminate_on_signals():
            if args.wait_quiet:
                config["busy_before_start_pct"] = round(100 * wait_quiet(args.wait_quiet), 1)
            try:
                fleet.start()
                config["pinning"] = fleet.pin_note
                config["ports"] = [s.port for s in fleet.servers]
                measured = runner(run_bench(args, fleet))
            except SetupError as exc:
                print(f"setup failed: {exc}", file=sys.stderr)
                for server in fleet.servers:
                    print(f"--- {server.name} log:\n{server.log_tail()}", file=sys.stderr)
                return 2
            problems = fleet.log_problems()
    except KeyboardInterrupt as exc:
        print(f"interrupted ({exc or 'Ctrl+C'}); servers stopped", file=sys.stderr)
        return 130
    finally:
        fleet.close()
    runs = measured["runs"]
    setup = measured["setup"]
    ok = (
        setup["tables_failed"] == 0
        and setup["connections_failed"] == 0
        and all(
            r["lost"] == 0
            and r["duplicated"] == 0
            and r["taps_failed"] == 0
            and r["taps_refused"] == 0
            and r["private_received"] == r["private_expected"]
            and r["out_of_order"] == 0
            for r in runs
        )
    )
    result = {
        "config": config,
        "setup": setup,
        "runs": runs,
        "median": median_of(runs),
        "server_log_problems": problems,
        "ok": ok,
    }
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(render_text(result))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
