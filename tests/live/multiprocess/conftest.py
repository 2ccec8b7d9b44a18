"""Two real server processes (`manage.py play`) on their own PostgreSQL database, their channel
layer sharded over two Redis servers of their own.

The `cluster` fixture creates a fresh database, migrates it once, starts two `redis-server`s on
spare ports (nothing saved) as the channel layer's shards (REDIS_SHARDS; the cache stays on
REDIS_URL), starts processes A and B on two free ports with the same SECRET_KEY and REDIS_PREFIX,
and on the way out (pass or fail) kills them and the Redis servers, drops the database and deletes
the prefix's Redis keys. A SIGALRM hard cap makes sure nothing here can hang the suite.
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
from channels_redis.utils import _consistent_hash

from bench.servers import (
    REDIS_SERVER,
    RedisServer,
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
    shards: list[RedisServer] = field(default_factory=list)  # in the layer's order

    def logs(self) -> str:
        return "\n".join(
            f"--- server {s.name} (port {s.port}) log tail:\n{s.log_tail()}"
            for s in self.servers.values()
        )

    def shard_channels(self) -> list[set[str]]:
        """The pub/sub channels of this deployment subscribed on each shard right now."""
        found = []
        for shard in self.shards:
            client = shard.client()
            try:
                names = client.pubsub_channels(f"{self.redis_prefix}-*")
            finally:
                client.close()
            found.append({n.decode() for n in names})
        return found

    def shard_publishes(self) -> list[int]:
        """PUBLISH commands each shard has run (INFO commandstats)."""
        counts = []
        for shard in self.shards:
            client = shard.client()
            try:
                stats = client.info("commandstats")
            finally:
                client.close()
            counts.append(int(stats.get("cmdstat_publish", {}).get("calls", 0)))
        return counts

    def check_shards(self) -> list[set[str]]:
        """Every channel and group is subscribed on the one shard its name hashes to (the
        processes agree where each lives), and both shards carry some; returns them."""
        found = self.shard_channels()
        for index, names in enumerate(found):
            for name in names:
                assert _consistent_hash(name, len(self.shards)) == index, (
                    f"{name} subscribed on shard {index}, not on the one its name hashes to"
                )
        assert all(found), f"a shard carries no channel: {found}"
        return found


def _child_env(
    db_name: str, prefix: str, data_dir: Path, secret_key: str, shards: list[str]
) -> dict[str, str]:
    return child_env(
        dict(
            DJANGO_SETTINGS_MODULE="companion.settings",
            DB="postgres",
            DB_NAME=db_name,
            REDIS_URL=os.environ["REDIS_URL"],
            REDIS_PREFIX=prefix,
            REDIS_SHARDS=",".join(shards),
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
    if REDIS_SERVER is None:
        pytest.skip("no redis-server binary for the channel layer's shards")
    secret_key = secrets.token_urlsafe(50)
    created = False
    try:
        with hard_cap(HARD_CAP_SECONDS):
            for index in range(2):
                folder = tmp_path / f"redis-{index}"
                folder.mkdir()
                found.shards.append(RedisServer(folder))
                found.shards[-1].start()
            # The order the settings give the layer (sorted URLs): shard i is found.shards[i].
            found.shards.sort(key=lambda shard: shard.url())
            shards = [shard.url() for shard in found.shards]
            env = _child_env(found.db_name, found.redis_prefix, tmp_path, secret_key, shards)
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
        for shard in found.shards:
            with contextlib.suppress(Exception):
                shard.stop()
        if created:
            drop_database(found.db_name)
