"""A Redis cache that is not a single point of failure.

The cache holds the guessing throttles' counters:
nothing that must survive or be shared exactly. While Redis cannot be reached, each process
answers from its own memory instead (one warning when Redis goes away, one when it is back,
no traceback per request), and tries Redis again every `RETRY_SECONDS`. Pages keep loading and
the throttles keep counting, per process, during the outage. Changes are refused meanwhile
(`companion.web.middleware.RedisOutageMiddleware`): Redis also carries every frame to the screens.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0
# Per LOCATION, shared by every thread's cache object (Django makes one per thread).
_down_until: dict[str, float] = {}
_lock = threading.Lock()
# One client (with its connection pool) per LOCATION and options, shared by every cache object
# of the process. Django makes a cache object per thread *and asyncio context* (its handler is
# an asgiref Local), and each opened its own pool: the database thread runs every tap in a copy
# of the caller's context, so each tap's cache read opened a new connection to Redis (a TCP
# connect, HELLO and two CLIENT SETINFO before its GET), left for the garbage collector to close.
_clients: dict[str, RedisCacheClient] = {}

WRAPPED = (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
)


class SharedRedisCacheClient(RedisCacheClient):
    """Django's client, keeping one redis-py client per pool: Django builds a new `Redis` for
    every operation, and each copies its table of some 170 response callbacks."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._redis_clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._redis_clients.get(id(pool))
        if client is None:
            client = self._redis_clients[id(pool)] = self._client(connection_pool=pool)
        return client


class FailSafeRedisCache(RedisCache):
    """Django's RedisCache, falling back to this process's memory while Redis is unreachable."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedRedisCacheClient
        self._location = server
        fallback = {k: v for k, v in params.items() if k in {"TIMEOUT", "KEY_PREFIX", "VERSION"}}
        # LocMemCache shares its storage between instances of the same name (every thread).
        self.fallback = LocMemCache(f"failsafe:{server}", fallback)

    @cached_property
    def _cache(self) -> SharedRedisCacheClient:
        """The process's client for this LOCATION and options (redis-py's pools are
        thread-safe), made once, instead of one per cache object."""
        key = repr((self._servers, sorted(self._options.items(), key=lambda kv: kv[0])))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client

    def redis_down(self) -> bool:
        """Whether Redis failed within the last RETRY_SECONDS (the fallback answers)."""
        return time.monotonic() < _down_until.get(self._location, 0.0)

    def reachable(self) -> bool:
        """Whether Redis answers now (a PING, unless it failed within RETRY_SECONDS)."""
        if self.redis_down():
            return False
        try:
            self._cache.get_client(write=True).ping()
        except (RedisError, OSError) as exc:
            self._failed(exc)
            return False
        if self._location in _down_until:
            self._recovered()
        return True

    def _failed(self, exc: Exception) -> None:
        with _lock:
            first = self._location not in _down_until
            _down_until[self._location] = time.monotonic() + RETRY_SECONDS
        if first:
            log.warning("Redis cache unreachable (%s): this process uses its own memory", exc)

    def _recovered(self) -> None:
        with _lock:
            was_down = _down_until.pop(self._location, None) is not None
        if was_down:
            log.warning("Redis cache reachable again")


def _failsafe(name: str) -> Callable[..., Any]:
    redis_method = getattr(RedisCache, name)

    def method(self: FailSafeRedisCache, *args: Any, **kwargs: Any) -> Any:
        if not self.redis_down():
            try:
                result = redis_method(self, *args, **kwargs)
            except (RedisError, OSError) as exc:
                self._failed(exc)
            else:
                if self._location in _down_until:
                    self._recovered()
                return result
        return getattr(self.fallback, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = redis_method.__doc__
    return method


for _name in WRAPPED:
    setattr(FailSafeRedisCache, _name, _failsafe(_name))
