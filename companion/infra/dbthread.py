"""Long-lived threads per server process that run the taps arriving over websockets.

A tap is a short write transaction followed by rendering its frames. Each table's taps run one
at a time on one thread, keyed by the table (`submit_keyed`): they stay in order, each thread
keeps one open database connection (no connection per tap), and the work queued under overload
is bounded: taps wait in line here instead of piling up as threads that time out on the lock.
On PostgreSQL there are `DB_THREADS` of them, so a table's taps do not wait behind another
table's round trips; SQLite has one writer, and one thread (its write lock is then never
contended inside the process).

With STOCK_PATH=1 (companion/settings.py) every call goes through Channels'
`database_sync_to_async` instead, to measure the two against each other (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections

T = TypeVar("T")

# "db" runs the taps; "read" the cheap reads a socket must answer at once (the table's version
# for the heartbeat, a display's "am I current?", a tap's recorded outcome): never behind a tap.
_executors: dict[str, ThreadPoolExecutor] = {}
# STOCK_PATH=1: `database_sync_to_async`, as Channels ships it (companion/settings.py).
STOCK: bool = "dbthread" in getattr(settings, "STOCK_PARTS", ())
_lock = threading.Lock()


def threads() -> int:
    """How many threads run taps: `DB_THREADS` (companion/settings.py), one on SQLite."""
    if "sqlite" in settings.DATABASES["default"]["ENGINE"]:
        return 1
    return max(1, int(getattr(settings, "DB_THREADS", 1)))


def thread_of(key: str) -> str:
    """The name of the thread that runs the taps of `key` (a table's code): always the same."""
    count = threads()
    return "db" if count == 1 else f"db{zlib.crc32(key.encode()) % count}"


def _executor(name: str) -> ThreadPoolExecutor:
    with _lock:
        if name not in _executors:
            _executors[name] = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"sgs-{name}")
        return _executors[name]


def _call(func: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
    try:
        return func(*args, **kwargs)
    finally:
        # Keep the connection for the next tap unless it broke (a restarted database).
        for conn in connections.all(initialized_only=True):
            if conn.errors_occurred and conn.connection is not None and not conn.is_usable():
                conn.close()
            conn.errors_occurred = False


def _submit(name: str, func: Callable[..., T], args: Any, kwargs: Any) -> asyncio.Future[T]:
    if STOCK:
        # Channels' own way: a thread of asgiref's pool per call, stale connections closed.
        return asyncio.ensure_future(database_sync_to_async(func)(*args, **kwargs))
    loop = asyncio.get_running_loop()
    context = contextvars.copy_context()
    call = functools.partial(context.run, _call, func, args, kwargs)
    return loop.run_in_executor(_executor(name), call)


def submit(func: Callable[..., T], *args: Any, **kwargs: Any) -> asyncio.Future[T]:
    """Put `func` in line on the (first) database thread now; its result is the future's."""
    return _submit("db" if threads() == 1 else "db0", func, args, kwargs)


def submit_keyed(key: str, func: Callable[..., T], *args: Any, **kwargs: Any) -> asyncio.Future[T]:
    """Put `func` in line now on the thread of `key` (a table's code), behind that table's taps
    and those of the tables that share its thread; its result is the future's."""
    return _submit(thread_of(key), func, args, kwargs)


async def run(func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run `func` on the (first) database thread and wait for its result."""
    return await submit(func, *args, **kwargs)


async def run_keyed(key: str, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run `func` on the thread of `key` (a table's code) and wait for its result."""
    return await submit_keyed(key, func, *args, **kwargs)


async def read(func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a short read-only `func` on the reading thread, never behind a tap."""
    return await _submit("read", func, args, kwargs)


def shutdown() -> None:
    """Close the threads' database connections and stop them (tests, before dropping databases)."""
    with _lock:
        executors = list(_executors.values())
        _executors.clear()
    for executor in executors:
        executor.submit(connections.close_all).result()
        executor.shutdown(wait=True)
