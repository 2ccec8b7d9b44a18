"""Two real server processes (`manage.py play`) on their own PostgreSQL database and one Redis.

The `cluster` fixture creates a fresh database, migrates it once, starts processes A and B on
two free ports with the same SECRET_KEY and REDIS_PREFIX, and on the way out (pass or fail)
kills them, drops the database and deletes the prefix's Redis keys. A SIGALRM hard cap makes
sure nothing here can hang the suite.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[3]
PYTHON = sys.executable
HARD_CAP_SECONDS = 240
STARTUP_SECONDS = 45
MIGRATE_SECONDS = 180


class HardCapExceeded(Exception):
    """The whole multiprocess test ran past its hard cap."""


def _die_with_parent() -> None:
    """In the child, before exec: get SIGKILL if pytest itself dies (Linux only, best effort)."""
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
    name: str
    port: int
    proc: subprocess.Popen[bytes]
    log_path: Path
    killed: bool = False

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, chars: int = 3000) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return text[-chars:]

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, sockets dropped by the kernel."""
        self.killed = True
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@dataclass
class Cluster:
    db_name: str
    redis_prefix: str
    servers: dict[str, Server] = field(default_factory=dict)

    def logs(self) -> str:
        return "\n".join(
            f"--- server {s.name} (port {s.port}) log tail:\n{s.log_tail()}"
            for s in self.servers.values()
        )


def _pg_admin():  # type: ignore[no-untyped-def]
    import psycopg

    return psycopg.connect(
        host=os.environ.get("DB_HOST", "127.0.0.1"),
        port=os.environ.get("DB_PORT", "5432"),
        user=os.environ.get("DB_USER", "postgres"),
        password=os.environ.get("DB_PASSWORD", "") or None,
        dbname="postgres",
        autocommit=True,
        connect_timeout=10,
    )


def _create_database(name: str) -> None:
    with _pg_admin() as conn:
        conn.execute(f'CREATE DATABASE "{name}"')


def _drop_database(name: str) -> None:
    with _pg_admin() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _delete_redis_keys(prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=5)
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=500))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def _child_env(db_name: str, prefix: str, data_dir: Path, secret_key: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        DJANGO_SETTINGS_MODULE="companion.settings",
        DB="postgres",
        DB_NAME=db_name,
        REDIS_URL=os.environ["REDIS_URL"],
        REDIS_PREFIX=prefix,
        DATA_DIR=str(data_dir),
        SECRET_KEY=secret_key,
        # Plain static storage: `play` would otherwise run collectstatic in both processes at
        # once, into the shared staticfiles/ directory.
        STATIC_PLAIN="1",
        DEBUG="0",
        PYTHONUNBUFFERED="1",
    )
    return env


def _wait_ready(server: Server, deadline: float) -> None:
    last = ""
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise AssertionError(
                f"server {server.name} exited with {server.proc.returncode} before serving:\n"
                f"{server.log_tail()}"
            )
        try:
            with urllib.request.urlopen(server.base + "/", timeout=2) as response:  # noqa: S310
                if response.status == 200:
                    return
                last = f"status {response.status}"
        except (urllib.error.URLError, OSError) as exc:
            last = repr(exc)
        time.sleep(0.2)
    raise AssertionError(f"server {server.name} not ready in time ({last}):\n{server.log_tail()}")


@contextlib.contextmanager
def hard_cap(seconds: int) -> Iterator[None]:
    """Raise HardCapExceeded in the main thread after `seconds`, whatever it is doing."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise HardCapExceeded(f"multiprocess test exceeded its hard cap of {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    suffix = secrets.token_hex(4)
    found = Cluster(db_name=f"sgs_mp_{os.getpid()}_{suffix}", redis_prefix=f"sgsmp{suffix}")
    secret_key = secrets.token_urlsafe(50)
    env = _child_env(found.db_name, found.redis_prefix, tmp_path, secret_key)
    created = False
    try:
        with hard_cap(HARD_CAP_SECONDS):
            _create_database(found.db_name)
            created = True
            migrate = subprocess.run(
                [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
                cwd=BASE_DIR,
                env=env,
                capture_output=True,
                timeout=MIGRATE_SECONDS,
                check=False,
            )
            assert migrate.returncode == 0, migrate.stdout.decode() + migrate.stderr.decode()
            ports = free_ports(2)
            for name, port in zip("AB", ports, strict=True):
                log_path = tmp_path / f"server-{name}.log"
                with log_path.open("wb") as log:
                    proc = subprocess.Popen(
                        [
                            *(PYTHON, "manage.py", "play"),
                            *("--host", "127.0.0.1", "--port", str(port), "--no-migrate"),
                        ],
                        cwd=BASE_DIR,
                        env=env,
                        stdin=subprocess.DEVNULL,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                        preexec_fn=_die_with_parent,
                    )
                found.servers[name] = Server(name=name, port=port, proc=proc, log_path=log_path)
            deadline = time.monotonic() + STARTUP_SECONDS
            for server in found.servers.values():
                _wait_ready(server, deadline)
            yield found
    finally:
        for server in found.servers.values():
            with contextlib.suppress(Exception):
                server.stop()
        with contextlib.suppress(Exception):
            _delete_redis_keys(found.redis_prefix)
        if created:
            _drop_database(found.db_name)
