"""One long-lived thread per server process that runs the taps arriving over websockets.

A tap is a short write transaction followed by rendering its frames. Running them one at a time
on one thread keeps a single open database connection (no connection per tap), lets SQLite's
write lock never be contended inside the process, and bounds the work queued under overload:
taps wait in line here instead of piling up as threads that time out on the lock.

With STOCK_PATH=1 (companion/settings.py) every call goes through Channels'
`database_sync_to_async` instead, to measure the two against each other (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
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
    """Put `func` in line on the database thread now; its result is the future's."""
    return _submit("db", func, args, kwargs)


async def run(func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run `func` on the database thread and wait for its result."""
    return await _submit("db", func, args, kwargs)


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
