"""The app's server processes for one benchmark run (`Fleet`): the embedded default (one
process, SQLite, in-memory layer) or `--scale-out N` processes on a PostgreSQL database of their
own and a Redis prefix (with `redis_shards`, their channel layer on that many `redis-server`s of
their own, REDIS_SHARDS), pinned to cores, stopped and cleaned up once at the end; and their CPU,
memory and logged errors. Starting and stopping one process is bench/servers.py's."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from channels_redis.utils import _consistent_hash

from bench.procs import (
    plan_cores,
    proc_cpu_seconds,
    proc_cpu_split,
    proc_rss_bytes,
    thread_cpu_seconds,
)
from bench.servers import (
    BASE_DIR,
    REDIS_SERVER,
    RedisServer,
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

STARTUP_SECONDS = 90
EXCEPTION_LINE_RE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b.*")
LOG_PROBLEM_RE = re.compile(r"^[\d-]+ [\d:,]+ ((?:WARNING|ERROR|CRITICAL) .*)")


class SetupError(Exception):
    """The app could not be started or the tables could not be set up."""


class Fleet:
    """The server processes and what they need; `close()` undoes everything, once."""

    def __init__(
        self,
        scale_out: int,
        pin: bool,
        keep_logs: bool = False,
        settings: str = "companion.settings",
        redis_url: str = "",
        redis_shards: int = 0,
    ) -> None:
        """`redis_url` with one process: SQLite, and that Redis for the channel layer and the
        cache (bench/outage.py stops a private redis-server under it). `redis_shards` with
        `scale_out`: the channel layer on that many redis-servers started for the run (the cache
        stays on REDIS_URL)."""
        self.scale_out = scale_out
        self.redis_shards = redis_shards
        self.shards: list[RedisServer] = []
        self.own_redis = redis_url
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
            if self.shards:
                values["REDIS_SHARDS"] = ",".join(shard.url() for shard in self.shards)
        elif self.own_redis:
            values.update(REDIS_URL=self.own_redis, REDIS_PREFIX="sgsbench")
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
            self._start_shards()
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

    def _start_shards(self) -> None:
        if self.redis_shards and REDIS_SERVER is None:
            raise SetupError("--redis-shards needs the redis-server binary")
        for index in range(self.redis_shards):
            folder = self.tmp / f"redis-{index}"
            folder.mkdir()
            self.shards.append(RedisServer(folder))
            try:
                self.shards[-1].start()
            except RuntimeError as exc:
                raise SetupError(f"redis-server {index} did not start") from exc
        # The order the app's settings give the layer (sorted URLs): shard i is self.shards[i].
        self.shards.sort(key=lambda shard: shard.url())

    def shard_stats(self) -> list[dict[str, object]]:
        """Each shard's URL, the PUBLISH and SUBSCRIBE commands it has run so far, the run's
        pub/sub channels subscribed on it now, and how many of those are `misplaced`: not on
        the shard their name hashes to (processes that disagree lose each other's frames)."""
        found: list[dict[str, object]] = []
        for index, shard in enumerate(self.shards):
            with shard.client() as client:
                stats = client.info("commandstats")
                names = [n.decode() for n in client.pubsub_channels(f"{self.redis_prefix}-*")]
            calls = {
                name: int(stats.get(f"cmdstat_{name}", {}).get("calls", 0))
                for name in ("publish", "subscribe")
            }
            misplaced = sum(_consistent_hash(n, len(self.shards)) != index for n in names)
            found.append(
                {"url": shard.url(), **calls, "channels": len(names), "misplaced": misplaced}
            )
        return found

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
        for shard in self.shards:
            with contextlib.suppress(Exception):
                shard.stop()
        if self.keep_logs:
            print(f"server logs and data kept in {self.tmp}", file=sys.stderr)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)


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
