"""One tap, once: an identical tap from the same screen within a short window is the same tap.

A double tap on a phone sends two taps with two action ids (the phone's script drops the second
itself, but a page without it, or two of a seat's phones, may not). `once` answers the second as
a replay of the first when it comes from the same token, names the same action with the same
fields, and arrives within `TAP_REPEAT_WINDOW_MS` of the first, unless the tap says it is meant
as another one (`repeat=1`, for a control whose taps add up on purpose).

The window is kept in this process's memory: a double tap travels over one socket (or one
phone's HTTP requests), so it reaches one process. Identical taps of one screen run one after
another (a lock per screen and tap), so the second sees the first's outcome.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

from companion.actions.core import Change
from companion.broadcast import fingerprint

# Fields that are not part of what a tap asks for.
NOT_THE_TAP = frozenset({"action_id", "csrfmiddlewaretoken", "repeat"})
REPEAT_VALUES = frozenset({"1", "on", "true", "yes"})
KEEP = 2048

Key = tuple[str, str, tuple[tuple[str, tuple[str, ...]], ...]]

_guard = threading.Lock()
_locks: dict[Key, threading.Lock] = {}
# The last applied tap per key: (when it arrived, its table, its version).
_recent: dict[Key, tuple[float, int, int]] = {}


def window_seconds() -> float:
    return float(getattr(settings, "TAP_REPEAT_WINDOW_MS", 400)) / 1000


def tap_key(name: str, post: Any, token: str) -> Key:
    """What makes two taps the same: the screen (its token's hash), the action and its fields."""
    fields = tuple(
        sorted((k, tuple(str(v) for v in post.getlist(k))) for k in post if k not in NOT_THE_TAP)
    )
    return fingerprint(token), name, fields


def once(name: str, post: Any, token: str, action_id: str | None, run: Callable[[], Any]) -> Any:
    """Run the tap, unless the same tap was applied within the window: then a replay."""
    window = window_seconds()
    if window <= 0 or post.get("repeat", "") in REPEAT_VALUES:
        return run()
    arrived = time.monotonic()
    key = tap_key(name, post, token)
    with _guard:
        lock = _locks.setdefault(key, threading.Lock())
    with lock:
        last = _recent.get(key)
        if last is not None and arrived - last[0] < window:
            return Change(table_id=last[1], version=last[2], action_id=action_id, applied=False)
        change = run()
        if isinstance(change, Change) and change.applied:
            _recent[key] = (arrived, change.table_id, change.version)
    if len(_locks) > KEEP:
        _forget(time.monotonic() - window)
    return change


def _forget(before: float) -> None:
    """Drop keys whose last tap is older than the window (and nobody waits on)."""
    with _guard:
        for key in [k for k, v in _recent.items() if v[0] < before]:
            lock = _locks.get(key)
            if lock is not None and lock.locked():
                continue
            _recent.pop(key, None)
            _locks.pop(key, None)
        for key in [k for k in _locks if k not in _recent and not _locks[k].locked()]:
            _locks.pop(key, None)
