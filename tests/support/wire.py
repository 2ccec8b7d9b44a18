"""What one piece of code costs on the wire: the SQL statements and round trips it sends to the
database (PostgreSQL through a counting TCP proxy, SQLite through its trace callback), and the
Redis commands it sends from its thread meanwhile."""

from __future__ import annotations

import contextlib
import select
import socket
import struct
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import redis
from django.db import connection


@dataclass
class Wire:
    """Statements (their first words; on PostgreSQL each with the round trip it went in), round
    trips, and the Redis commands sent meanwhile."""

    statements: list[str] = field(default_factory=list)
    trips: list[int] = field(default_factory=list)
    round_trips: int = 0
    redis: list[str] = field(default_factory=list)
    counting: bool = False


class _Proxy:
    """A TCP proxy in front of PostgreSQL that, while counting, notes every statement the client
    runs (a simple query 'Q' or an extended-protocol 'Execute' after its 'Parse') and every round
    trip: the client speaking again after the server answered."""

    def __init__(self, host: str, port: int, wire: Wire) -> None:
        self.target = (host, port)
        self.wire = wire
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.listener.settimeout(0.2)
        while not self.stop:
            try:
                client, _addr = self.listener.accept()
            except TimeoutError:
                continue
            server = socket.create_connection(self.target)
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        started = False  # the startup message has no type byte
        pending = b""
        parsed: str | None = None
        last = "server"
        while not self.stop:
            readable, _, _ = select.select([client, server], [], [], 0.2)
            for sock in readable:
                data = sock.recv(65536)
                if not data:
                    client.close()
                    server.close()
                    return
                if sock is client:
                    (server if sock is client else client).sendall(data)
                    if self.wire.counting and last == "server":
                        self.wire.round_trips += 1
                    last = "client"
                    pending += data
                    if not started:
                        (length,) = struct.unpack("!i", pending[:4])
                        if len(pending) < length:
                            continue
                        # An SSL or GSS encryption request (answered with one byte) comes first.
                        (code,) = struct.unpack("!i", pending[4:8])
                        started = code not in (80877103, 80877104)
                        pending = pending[length:]
                    while len(pending) >= 5:
                        kind = pending[:1]
                        (length,) = struct.unpack("!i", pending[1:5])
                        if len(pending) < 1 + length:
                            break
                        body = pending[5 : 1 + length]
                        pending = pending[1 + length :]
                        if kind == b"Q":
                            self._note(body.rstrip(b"\0"))
                        elif kind == b"P":
                            parsed_name_end = body.index(b"\0")
                            query_end = body.index(b"\0", parsed_name_end + 1)
                            parsed = body[parsed_name_end + 1 : query_end].decode()
                        elif kind == b"E" and parsed is not None:
                            self._note(parsed.encode())
                else:
                    client.sendall(data)
                    last = "server"

    def _note(self, query: bytes) -> None:
        if self.wire.counting:
            self.wire.statements.append(" ".join(query.decode().split()[:3]))
            self.wire.trips.append(self.wire.round_trips)

    def close(self) -> None:
        self.stop = True
        self.thread.join()
        self.listener.close()


@contextlib.contextmanager
def watching() -> Iterator[Wire]:
    """Inside, `wire.counting = True` counts what this thread's default connection sends.

    PostgreSQL: the connection is reopened through the proxy (and closed again afterwards).
    SQLite: every statement the library runs, BEGIN and COMMIT included; no round trips."""
    wire = Wire()
    original = redis.client.Redis.execute_command

    def execute_command(self: Any, *args: Any, **options: Any) -> Any:
        if wire.counting:
            wire.redis.append(str(args[0]))
        return original(self, *args, **options)

    redis.client.Redis.execute_command = execute_command  # type: ignore[method-assign]
    proxy = None
    try:
        if connection.vendor == "postgresql":
            settings = connection.settings_dict
            saved = (settings["HOST"], settings["PORT"], settings["OPTIONS"])
            proxy = _Proxy(settings["HOST"] or "127.0.0.1", int(settings["PORT"] or 5432), wire)
            connection.close()
            # A connection of its own, not one of the pool's (opened before the proxy was).
            settings["HOST"], settings["PORT"] = "127.0.0.1", str(proxy.port)
            settings["OPTIONS"] = {k: v for k, v in saved[2].items() if k != "pool"}
            try:
                connection.ensure_connection()
                yield wire
            finally:
                connection.close()
                settings["HOST"], settings["PORT"], settings["OPTIONS"] = saved
        else:
            connection.ensure_connection()
            raw = connection.connection
            raw.set_trace_callback(
                lambda sql: (
                    wire.statements.append(" ".join(sql.split()[:3])) if wire.counting else None
                )
            )
            try:
                yield wire
            finally:
                raw.set_trace_callback(None)
    finally:
        redis.client.Redis.execute_command = original  # type: ignore[method-assign]
        if proxy is not None:
            proxy.close()


def transaction_round_trips(wire: Wire) -> int:
    """The round trips from the first BEGIN to the first COMMIT after it, both included."""
    begin = next(i for i, s in enumerate(wire.statements) if s.startswith("BEGIN"))
    commit = next(i for i, s in enumerate(wire.statements) if s == "COMMIT" and i > begin)
    return wire.trips[commit] - wire.trips[begin] + 1
