"""Real servers for the benchmark and the tests: `manage.py play` in a child process.

One implementation of what bench/run.py (its Fleet), tests/browser/conftest.py and
tests/live/multiprocess/conftest.py each need to start the app as users run it and clean up
after it: free ports on 127.0.0.1, a child that dies with its parent, the child's environment,
waiting until it serves, stopping or killing it, a PostgreSQL database of its own and deleting a
Redis prefix's keys. Plain Python: no pytest, no Django, so bench/ can use it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import psycopg
import redis

BASE_DIR = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
STOP_SECONDS = 10  # a server's stop or kill waits this long for it to exit (twice on a stop)
REDIS_SERVER = shutil.which("redis-server")


def die_with_parent() -> None:
    """In the child, before exec: get SIGKILL if the parent dies (Linux only, best effort)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def free_ports(count: int) -> list[int]:
    """Distinct ports the kernel says are free right now on 127.0.0.1."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind(("127.0.0.1", 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


@dataclass
class Server:
    """One `manage.py play` process on 127.0.0.1:`port`, its output in `log_path`."""

    name: str
    port: int
    proc: subprocess.Popen[bytes]
    log_path: Path
    core: int | None = None  # the core it is pinned to, if any (bench/run.py)
    killed: bool = False
    stop_signal: int = signal.SIGTERM  # what `stop()` sends first
    tail_chars: int = 3000  # how much of the log `log_tail()` shows

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, chars: int | None = None) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return text[-(self.tail_chars if chars is None else chars) :]

    def kill(self) -> None:
        """SIGKILL, as a crash would: no shutdown handlers, sockets dropped by the kernel."""
        self.killed = True
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=STOP_SECONDS)

    def stop(self) -> None:
        """`stop_signal`, then SIGKILL if it has not exited within STOP_SECONDS."""
        if self.proc.poll() is None:
            self.proc.send_signal(self.stop_signal)
            try:
                self.proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=STOP_SECONDS)


def child_env(
    values: Mapping[str, str],
    *,
    drop_prefixes: tuple[str, ...] = ("PYTEST",),
    drop: Iterable[str] = (),
) -> dict[str, str]:
    """This process's environment without the variables named by `drop_prefixes` and `drop`,
    then `values` on top."""
    dropped = set(drop)
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(drop_prefixes) and k not in dropped
    }
    env.update(values)
    return env


def spawn_play(
    port: int,
    env: Mapping[str, str],
    log_path: Path,
    *,
    no_migrate: bool = False,
    wrapper: Sequence[str] = (),
    preexec: Callable[[], None] = die_with_parent,
    append: bool = False,
) -> subprocess.Popen[bytes]:
    """`manage.py play` on 127.0.0.1:`port` (behind `wrapper`, e.g. taskset), in its own
    session, stdout and stderr to `log_path`; it dies with this process."""
    command = [PYTHON, "manage.py", "play", "--host", "127.0.0.1", "--port", str(port)]
    if no_migrate:
        command.append("--no-migrate")
    with log_path.open("ab" if append else "wb") as log:
        return subprocess.Popen(
            [*wrapper, *command],
            cwd=BASE_DIR,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=preexec,
        )


def migrate(env: Mapping[str, str], timeout: float) -> subprocess.CompletedProcess[bytes]:
    """`manage.py migrate` with `env`, its output captured; the caller checks the return code."""
    return subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=BASE_DIR,
        env=dict(env),
        capture_output=True,
        timeout=timeout,
        check=False,
    )


def wait_ready(
    server: Server,
    deadline: float,
    *,
    error: type[Exception] = RuntimeError,
    probe_seconds: float = 2,
) -> None:
    """Until time.monotonic() reaches `deadline`, GET / every 0.2 s until it answers 200;
    `error` (with the log's tail) if the server exits or the deadline passes."""
    last = ""
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise error(
                f"server {server.name} exited with {server.proc.returncode} before serving:\n"
                f"{server.log_tail()}"
            )
        try:
            with urllib.request.urlopen(server.base + "/", timeout=probe_seconds) as response:  # noqa: S310
                if response.status == 200:
                    return
                last = f"status {response.status}"
        except (urllib.error.URLError, OSError) as exc:
            last = repr(exc)
        time.sleep(0.2)
    raise error(f"server {server.name} not ready in time ({last}):\n{server.log_tail()}")


def pg_admin(dbname: str = "postgres") -> psycopg.Connection[tuple[object, ...]]:
    """An autocommit connection to PostgreSQL from DB_HOST/DB_PORT/DB_USER/DB_PASSWORD
    (default postgres@127.0.0.1:5432)."""
    return psycopg.connect(
        host=os.environ.get("DB_HOST", "127.0.0.1"),
        port=os.environ.get("DB_PORT", "5432"),
        user=os.environ.get("DB_USER", "postgres"),
        password=os.environ.get("DB_PASSWORD", "") or None,
        dbname=dbname,
        autocommit=True,
        connect_timeout=10,
    )


def create_database(name: str) -> None:
    with pg_admin() as conn:
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str) -> None:
    """Drop the database, also while servers are still connected to it."""
    with pg_admin() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def delete_redis_keys(url: str, pattern: str) -> None:
    """Delete the keys matching `pattern` (e.g. "<prefix>:*") in the Redis at `url`."""
    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        keys = list(client.scan_iter(match=pattern, count=500))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


class RedisServer:
    """A throwaway redis-server on 127.0.0.1: nothing saved, stopped at the end."""

    def __init__(self, directory: Path) -> None:
        self.port = free_ports(1)[0]
        self.directory = directory
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn,
            ):
                conn.sendall(b"PING\r\n")
                if conn.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None

    def client(self, db: int = 0) -> redis.Redis:
        return redis.Redis.from_url(self.url(db), socket_timeout=5)
