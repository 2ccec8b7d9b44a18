"""A Redis cache that is not a single point of failure.

The cache holds the guessing throttles' counters and which languages a table's screens speak:
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
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0
# Per LOCATION, shared by every thread's cache object (Django makes one per thread).
_down_until: dict[str, float] = {}
_lock = threading.Lock()

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


class FailSafeRedisCache(RedisCache):
    """Django's RedisCache, falling back to this process's memory while Redis is unreachable."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._location = server
        fallback = {k: v for k, v in params.items() if k in {"TIMEOUT", "KEY_PREFIX", "VERSION"}}
        # LocMemCache shares its storage between instances of the same name (every thread).
        self.fallback = LocMemCache(f"failsafe:{server}", fallback)

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
