#!/usr/bin/env python
"""What one HP tap costs in counts: SQL statements, Redis commands, renders, group sends, frames.

    .venv/bin/python bench/tap_trace.py                    # embedded (SQLite, in-memory layer)
    DB=postgres REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/tap_trace.py
    .venv/bin/python bench/tap_trace.py --phones 8 --taps 20 --json

Times on a shared machine move by a third from run to run; counts do not. This script runs the
app in this process, as one server process runs it: `--phones` phones and one display connect
their websockets to one playing table (Channels' WebsocketCommunicator against the app's ASGI
application), one phone taps its own HP (−1, then +1) `--taps` times over its socket, and each
tap is waited for until every screen has its frame. During the taps it counts, per tap:

- the SQL statements, by thread (the database thread, the reading thread, the event loop or
  another) and by statement (its first words), and the commits;
- the Redis commands sent (PUBLISH, SUBSCRIBE, GET, ...), by thread, with PUBLISH split by what
  it is for (a group, a channel, the layer's probe) and the bytes published; and the writes to
  a Redis socket (round trips: a pipeline is one);
- the renders: the public fragment (a delta or the whole state), the host's controls, private
  fragments;
- the channel layer's group_send calls and their payload sizes (the fragment's HTML, and on
  Redis the serialized message), and how many times a message was serialized and deserialized;
- the frames the screens received.

The environment picks the setup exactly as the app's settings do (DB=postgres and REDIS_URL for
PostgreSQL + Redis, nothing for the embedded default). Run as a script it makes a database of its
own (a temporary SQLite file, or a PostgreSQL database dropped at the end, reached with
DB_HOST/DB_PORT/DB_USER/DB_PASSWORD) and a Redis prefix of its own; `trace()` is also called by
tests/bench/test_tap_trace.py on the test database.

The background probe of the Redis layer (a PUBLISH every WS_LAYER_PROBE_SECONDS while sockets
are open, companion/web/consumers/layer_probe.py) runs on a timer, not per tap: its publishes
are counted apart ("probe"), and the per-tap figures include whatever of it fell in the window.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if __name__ == "__main__" and "DJANGO_SETTINGS_MODULE" not in os.environ:
    # A database and a Redis prefix of this run's own, chosen before the settings are read.
    os.environ["DJANGO_SETTINGS_MODULE"] = "companion.settings"
    os.environ.setdefault("DATA_DIR", tempfile.mkdtemp(prefix="sgs-trace-"))
    os.environ["DEBUG"] = "0"
    if os.environ.get("DB") == "postgres":
        os.environ["DB_NAME"] = f"sgs_trace_{os.getpid()}_{secrets.token_hex(3)}"
    if os.environ.get("REDIS_URL"):
        os.environ["REDIS_PREFIX"] = f"sgstrace{secrets.token_hex(4)}"

import django  # noqa: E402
from django.apps import apps  # noqa: E402

if not apps.ready:
    django.setup()

import channels_redis.pubsub  # noqa: E402
import redis.asyncio.connection  # noqa: E402
import redis.connection  # noqa: E402
from channels.db import database_sync_to_async  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.testing import WebsocketCommunicator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.backends.base.base import BaseDatabaseWrapper  # noqa: E402
from django.db.backends.utils import CursorWrapper  # noqa: E402

from bench.servers import create_database, delete_redis_keys, drop_database  # noqa: E402
from companion import actions  # noqa: E402
from companion.asgi import application  # noqa: E402
from companion.infra import dbthread  # noqa: E402
from companion.live import broadcast, fragments  # noqa: E402
from companion.models import Seat, Table  # noqa: E402

ORIGIN = "http://testserver"
VERB_RE = re.compile(r"^\s*(\w+)")
FROM_RE = re.compile(r"\bFROM\s+\"?(\w+)\"?", re.IGNORECASE)
TABLE_RE = re.compile(r"^\s*(?:UPDATE|INSERT\s+INTO)\s+\"?(\w+)\"?", re.IGNORECASE)


def _thread() -> str:
    """Which of the process's threads this is, as the server runs them."""
    name = threading.current_thread().name
    if name.startswith("sgs-db"):
        return "db thread"
    if name.startswith("sgs-read"):
        return "read thread"
    if name == "MainThread":
        return "event loop"
    return "other thread"


def statement(sql: str) -> str:
    """A statement named by its verb and table: `SELECT companion_seat`, `SAVEPOINT`."""
    verb_match = VERB_RE.match(sql)
    verb = verb_match.group(1).upper() if verb_match else "?"
    target = TABLE_RE.match(sql) or (FROM_RE.search(sql) if verb == "SELECT" else None)
    if verb == "SET":
        return " ".join(sql.split()[:3])
    return f"{verb} {target.group(1)}" if target else verb


class Counts:
    """Everything counted while `recording` is on."""

    def __init__(self) -> None:
        self.on = False
        self.sql: Counter[tuple[str, str]] = Counter()
        self.commits: Counter[str] = Counter()
        self.redis: Counter[tuple[str, str]] = Counter()
        self.redis_writes: Counter[str] = Counter()
        self.published_bytes = 0
        self.renders: Counter[str] = Counter()
        self.group_sends: list[tuple[str, int, int]] = []
        self.serialized = 0
        self.deserialized = 0
        self.frames = 0
        self.frame_bytes = 0


COUNTS = Counts()


def _publish_kind(channel: Any) -> str:
    name = channel.decode() if isinstance(channel, bytes) else str(channel)
    if "__group__" in name:
        return "PUBLISH group"
    if name.endswith("probe"):
        return "PUBLISH probe"
    return "PUBLISH channel"


def _note_redis(args: tuple[Any, ...]) -> None:
    if not COUNTS.on or not args:
        return
    command = args[0].decode() if isinstance(args[0], bytes) else str(args[0])
    command = command.upper()
    if command == "PUBLISH" and len(args) >= 3:
        command = _publish_kind(args[1])
        payload = args[2]
        COUNTS.published_bytes += len(payload) if isinstance(payload, bytes | str) else 0
    COUNTS.redis[(_thread(), command)] += 1


@contextmanager
def instrumented() -> Iterator[Counts]:
    """Count SQL, Redis, renders and group sends (only while COUNTS.on), restored at the end."""
    patches: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, make: Callable[[Any], Any]) -> None:
        original = getattr(owner, name)
        patches.append((owner, name, original))
        setattr(owner, name, make(original))

    def sql_wrapper(original: Any) -> Any:
        def wrapped(self: Any, sql: str, params: Any, many: bool, executor: Any) -> Any:
            if COUNTS.on:
                COUNTS.sql[(_thread(), statement(sql))] += 1
            return original(self, sql, params, many, executor)

        return wrapped

    def commit_wrapper(original: Any) -> Any:
        def wrapped(self: Any) -> Any:
            if COUNTS.on:
                COUNTS.commits[_thread()] += 1
            return original(self)

        return wrapped

    def sync_send(original: Any) -> Any:
        def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
            _note_redis(args)
            return original(self, *args, **kwargs)

        return wrapped

    def async_send(original: Any) -> Any:
        async def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
            _note_redis(args)
            return await original(self, *args, **kwargs)

        return wrapped

    def sync_write(original: Any) -> Any:
        def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
            if COUNTS.on:
                COUNTS.redis_writes[_thread()] += 1
            return original(self, *args, **kwargs)

        return wrapped

    def async_write(original: Any) -> Any:
        async def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
            if COUNTS.on:
                COUNTS.redis_writes[_thread()] += 1
            return await original(self, *args, **kwargs)

        return wrapped

    def render(kind: str) -> Callable[[Any], Any]:
        def make(original: Any) -> Any:
            def wrapped(*args: Any, **kwargs: Any) -> Any:
                if COUNTS.on:
                    COUNTS.renders[kind] += 1
                return original(*args, **kwargs)

            return wrapped

        return make

    def group_send(original: Any) -> Any:
        async def wrapped(self: Any, group: str, message: dict[str, Any]) -> Any:
            if COUNTS.on:
                html = message.get("html")
                size = len(html.encode()) if isinstance(html, str) else 0
                serialized = 0
                layer = getattr(self, "channel_layer", None)
                if layer is not None and hasattr(layer, "_serializer"):
                    serialized = len(layer._serializer.serialize(message))
                COUNTS.group_sends.append((group.split(".")[0], size, serialized))
            return await original(self, group, message)

        return wrapped

    def serializer(attr: str) -> Callable[[Any], Any]:
        def make(original: Any) -> Any:
            def wrapped(self: Any, message: Any) -> Any:
                if COUNTS.on:
                    setattr(COUNTS, attr, getattr(COUNTS, attr) + 1)
                return original(self, message)

            return wrapped

        return make

    patch(CursorWrapper, "_execute_with_wrappers", sql_wrapper)
    patch(BaseDatabaseWrapper, "commit", commit_wrapper)
    patch(redis.connection.AbstractConnection, "send_command", sync_send)
    patch(redis.connection.AbstractConnection, "send_packed_command", sync_write)
    patch(redis.asyncio.connection.AbstractConnection, "send_command", async_send)
    patch(redis.asyncio.connection.AbstractConnection, "send_packed_command", async_write)
    patch(broadcast, "render_delta", render("public (delta)"))
    patch(broadcast, "render_public", render("public (whole state)"))
    patch(broadcast, "render_host", render("host controls"))
    patch(broadcast, "render_private", render("private"))
    patch(broadcast, "snapshot", render("snapshot"))
    patch(fragments, "delta", render("fragments.delta"))
    layer_class = type(get_channel_layer())
    if issubclass(layer_class, channels_redis.pubsub.RedisPubSubChannelLayer):
        patch(channels_redis.pubsub.RedisPubSubLoopLayer, "group_send", group_send)
        patch(layer_class, "serialize", serializer("serialized"))
        patch(layer_class, "deserialize", serializer("deserialized"))
    else:
        patch(layer_class, "group_send", group_send)
    try:
        yield COUNTS
    finally:
        for owner, name, original in reversed(patches):
            setattr(owner, name, original)


def _communicator(path: str) -> WebsocketCommunicator:
    headers = [(b"host", b"testserver"), (b"origin", ORIGIN.encode())]
    return WebsocketCommunicator(application, path, headers=headers)


async def _open(path: str) -> WebsocketCommunicator:
    comm = _communicator(path)
    connected, _code = await comm.connect(timeout=10)
    assert connected, path
    await comm.receive_from(timeout=10)  # the snapshot
    return comm


async def _drain(comm: WebsocketCommunicator, timeout: float = 0.2) -> int:
    count = 0
    while not await comm.receive_nothing(timeout=timeout):
        output = await comm.receive_output()
        if output["type"] != "websocket.send":
            break
        count += 1
    return count


async def _until(comm: WebsocketCommunicator, action_id: str) -> None:
    """Frames until the one that names the tap (counted); a JSON answer ends it too."""
    while True:
        frame = await comm.receive_from(timeout=10)
        COUNTS.frames += 1
        COUNTS.frame_bytes += len(frame.encode())
        if f'data-action="{action_id}"' in frame:
            return
        if frame.startswith("{") and action_id in frame:
            raise AssertionError(f"tap {action_id} answered {frame}")


@database_sync_to_async
def _playing_table(phones: int) -> tuple[Table, list[Seat]]:
    """A table in play (first-game mode: no hero picking), its seats in play order."""
    table = actions.table_create()
    actions.table_set_options(token=table.host_token, options={"first_game_mode": True})
    for i in range(phones):
        actions.seat_join(code=table.code, name=f"P{i + 1}", device=f"trace-{table.code}-{i}")
    actions.identities_deal(token=table.host_token)
    actions.game_start(token=table.host_token)
    table.refresh_from_db()
    return table, list(Seat.objects.filter(table=table).order_by("position", "slot"))


def setup_name() -> str:
    engine = "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    layer = "Redis" if "Redis" in backend else "in-memory"
    return f"{engine} + {layer} layer"


async def trace(phones: int = 8, taps: int = 10, warmup: int = 3) -> dict[str, Any]:
    """Connect `phones` phones and a display to a new table, tap HP `taps` times from one phone
    and return the counts per tap (see the module's docstring)."""
    table, seats = await _playing_table(phones)
    me = next(s for s in seats if s.identity != "lord")
    sockets = [await _open(f"/ws/{s.token}/") for s in seats]
    display = await _open(f"/ws/t/{table.code}/")
    screens = [*sockets, display]
    tapper = sockets[seats.index(me)]
    run = secrets.token_hex(4)
    # An identical tap (the same delta, every other tap) within the repeat window would be
    # merged, not applied (companion/web/taps.py): taps are spaced by half of it, and a little.
    spacing = getattr(settings, "TAP_REPEAT_WINDOW_MS", 400) / 2000 + 0.01
    with instrumented() as counts:
        for comm in screens:
            await _drain(comm)
        for i in range(warmup + taps):
            if i == warmup:
                for comm in screens:
                    await _drain(comm, 0.05)
                counts.__init__()  # type: ignore[misc]
                counts.on = True
            action_id = f"trace{run}{i:04d}"
            message = {
                "type": "act",
                "name": "hp",
                "fields": {"seat": me.pk, "delta": -1 if i % 2 == 0 else 1},
                "action_id": action_id,
            }
            await asyncio.sleep(spacing)
            await tapper.send_to(text_data=json.dumps(message))
            for comm in screens:
                await _until(comm, action_id)
        counts.on = False
        stray = 0
        for comm in screens:
            stray += await _drain(comm)
    for comm in screens:
        await comm.disconnect()
    return report(counts, phones=phones, taps=taps, stray=stray)


def report(counts: Counts, *, phones: int, taps: int, stray: int) -> dict[str, Any]:
    def per_tap(value: float) -> float:
        return round(value / taps, 2)

    sql_by_thread: Counter[str] = Counter()
    for (thread, _stmt), n in counts.sql.items():
        sql_by_thread[thread] += n
    redis_by_thread: Counter[str] = Counter()
    for (thread, _cmd), n in counts.redis.items():
        redis_by_thread[thread] += n
    groups: Counter[str] = Counter(kind for kind, _size, _ser in counts.group_sends)
    html_sizes = [size for _kind, size, _ser in counts.group_sends]
    wire_sizes = [ser for _kind, _size, ser in counts.group_sends if ser]
    return {
        "setup": setup_name(),
        "phones": phones,
        "displays": 1,
        "taps": taps,
        "sql_per_tap": per_tap(sum(counts.sql.values())),
        "sql_by_thread": {k: per_tap(v) for k, v in sorted(sql_by_thread.items())},
        "sql_statements": {
            f"{thread}: {stmt}": per_tap(n) for (thread, stmt), n in sorted(counts.sql.items())
        },
        "commits_per_tap": per_tap(sum(counts.commits.values())),
        "redis_commands_per_tap": per_tap(sum(counts.redis.values())),
        "redis_by_thread": {k: per_tap(v) for k, v in sorted(redis_by_thread.items())},
        "redis_commands": {
            f"{thread}: {cmd}": per_tap(n) for (thread, cmd), n in sorted(counts.redis.items())
        },
        "redis_writes_per_tap": per_tap(sum(counts.redis_writes.values())),
        "redis_published_bytes_per_tap": per_tap(counts.published_bytes),
        "renders_per_tap": {k: per_tap(v) for k, v in sorted(counts.renders.items())},
        "group_sends_per_tap": per_tap(len(counts.group_sends)),
        "group_sends_by_kind": {k: per_tap(v) for k, v in sorted(groups.items())},
        "group_send_html_bytes": {
            "min": min(html_sizes, default=0),
            "max": max(html_sizes, default=0),
        },
        "group_send_wire_bytes": {
            "min": min(wire_sizes, default=0),
            "max": max(wire_sizes, default=0),
        },
        "serialized_per_tap": per_tap(counts.serialized),
        "deserialized_per_tap": per_tap(counts.deserialized),
        "frames_per_tap": per_tap(counts.frames),
        "frame_bytes_per_tap": per_tap(counts.frame_bytes),
        "stray_frames_after": stray,
    }


def render_table(result: dict[str, Any]) -> str:
    """The counts as aligned lines."""
    lines = [
        f"{result['setup']}: {result['phones']} phones + {result['displays']} display, "
        f"{result['taps']} HP taps; figures per tap"
    ]

    def row(name: str, value: Any) -> None:
        lines.append(f"  {name:<44} {value}")

    row("SQL statements", result["sql_per_tap"])
    for name, value in result["sql_statements"].items():
        row(f"  {name}", value)
    row("commits", result["commits_per_tap"])
    row("Redis commands", result["redis_commands_per_tap"])
    for name, value in result["redis_commands"].items():
        row(f"  {name}", value)
    row("Redis socket writes (round trips)", result["redis_writes_per_tap"])
    row("Redis bytes published", result["redis_published_bytes_per_tap"])
    for name, value in result["renders_per_tap"].items():
        row(f"render: {name}", value)
    row("group_send calls", result["group_sends_per_tap"])
    for name, value in result["group_sends_by_kind"].items():
        row(f"  to {name}.*", value)
    html, wire = result["group_send_html_bytes"], result["group_send_wire_bytes"]
    row("group_send HTML bytes (min-max)", f"{html['min']}-{html['max']}")
    if wire["max"]:
        row("group_send serialized bytes (min-max)", f"{wire['min']}-{wire['max']}")
        row("messages serialized", result["serialized_per_tap"])
        row("messages deserialized", result["deserialized_per_tap"])
    row("frames received by the screens", result["frames_per_tap"])
    row("frame bytes received", result["frame_bytes_per_tap"])
    return "\n".join(lines)


def _cleanup() -> None:
    """Close the database threads' connections, drop this run's database and Redis keys."""
    dbthread.shutdown()
    connection.close()
    if connection.vendor == "postgresql":
        drop_database(settings.DATABASES["default"]["NAME"])
    if os.environ.get("REDIS_URL") and os.environ.get("REDIS_PREFIX"):
        delete_redis_keys(os.environ["REDIS_URL"], f"{os.environ['REDIS_PREFIX']}:*")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=8, help="phones at the table (8)")
    parser.add_argument("--taps", type=int, default=20, help="HP taps counted (20)")
    parser.add_argument("--warmup", type=int, default=3, help="HP taps first, not counted (3)")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args(argv)
    if connection.vendor == "postgresql":
        create_database(settings.DATABASES["default"]["NAME"])
    try:
        call_command("migrate", verbosity=0)
        result = asyncio.run(trace(args.phones, args.taps, args.warmup))
    finally:
        _cleanup()
    print(json.dumps(result, indent=2) if args.json else render_table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
