"""Throttling of failed lookups (guessing tokens or table codes), per client address."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

WINDOW_SECONDS = 60


def _key(request: HttpRequest) -> str:
    return f"badlookup:{request.META.get('REMOTE_ADDR', '?')}"


def blocked(request: HttpRequest) -> bool:
    """Whether this client has failed too many lookups in the last minute."""
    return int(cache.get(_key(request), 0)) >= settings.BAD_TOKEN_LIMIT_PER_MINUTE


def failed(request: HttpRequest) -> None:
    """Count one failed lookup."""
    key = _key(request)
    if cache.add(key, 1, WINDOW_SECONDS):
        return
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, WINDOW_SECONDS)
