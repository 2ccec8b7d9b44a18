"""Two real server processes (`manage.py play`) on their own PostgreSQL database and one Redis.

The `cluster` fixture creates a fresh database, migrates it once, starts processes A and B on
two free ports with the same SECRET_KEY and REDIS_PREFIX, and on the way out (pass or fail)
kills them, drops the database and deletes the prefix's Redis keys. A SIGALRM hard cap makes
sure nothing here can hang the suite.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bench.servers import (
    Server,
    child_env,
    create_database,
    delete_redis_keys,
    drop_database,
    free_ports,
    migrate,
    spawn_play,
    wait_ready,
)

HARD_CAP_SECONDS = 240
STARTUP_SECONDS = 45
MIGRATE_SECONDS = 180


class HardCapExceeded(Exception):
    """The whole multiprocess test ran past its hard cap."""


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


def _child_env(db_name: str, prefix: str, data_dir: Path, secret_key: str) -> dict[str, str]:
    return child_env(
        dict(
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
    )


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
            create_database(found.db_name)
            created = True
            migrated = migrate(env, MIGRATE_SECONDS)
            assert migrated.returncode == 0, migrated.stdout.decode() + migrated.stderr.decode()
            ports = free_ports(2)
            for name, port in zip("AB", ports, strict=True):
                log_path = tmp_path / f"server-{name}.log"
                proc = spawn_play(port, env, log_path, no_migrate=True)
                found.servers[name] = Server(name=name, port=port, proc=proc, log_path=log_path)
            deadline = time.monotonic() + STARTUP_SECONDS
            for server in found.servers.values():
                wait_ready(server, deadline, error=AssertionError)
            yield found
    finally:
        for server in found.servers.values():
            with contextlib.suppress(Exception):
                server.stop()
        with contextlib.suppress(Exception):
            delete_redis_keys(os.environ["REDIS_URL"], f"{found.redis_prefix}:*")
        if created:
            drop_database(found.db_name)
