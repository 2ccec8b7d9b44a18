"""One tap, once: an identical tap from the same screen arriving just after another is the same tap.

A double tap on a phone sends two taps with two action ids (the phone's script drops the second
itself, but a page without it, or two of a seat's phones, may not). The second is merged with
the first (not applied, answered "merged") when it comes from the same token, names the same
action with the same fields, has another action id, and *arrived* within `TAP_REPEAT_WINDOW_MS`
of an applied one, unless the tap says it is meant as another one (`repeat=1`, for a control
whose taps add up on purpose).

Arrival is when the tap entered the process (`arrive`: the socket's receive, the HTTP view's
start), not when the database got to it: taps of different moments are never merged however
late they are judged. A later copy of the same action id (the phone's HTTP retry) is that tap
again, placed at its first copy's arrival when this process saw it; a copy marked as a retry is
never the reference point of a merge.

The window is decided in the database, so that it holds across processes (one copy over a
socket to one process, the other over HTTP to another): an applied tap's events carry its key's
hash and its arrival in seconds since the epoch (`mark`), and the next tap's first statement
looks for them (companion.actions.core.record.earlier_copies), under the table's lock, so the
second of two identical taps sees the first's outcome.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from django.conf import settings

from companion.live.broadcast import fingerprint

# Fields that are not part of what a tap asks for.
NOT_THE_TAP = frozenset({"action_id", "csrfmiddlewaretoken", "repeat"})
REPEAT_VALUES = frozenset({"1", "on", "true", "yes"})
# How long an arrival is remembered: longer than a tap and its retry may wait to be judged (the
# phone's 4 s, then the deadline, companion.web.dispatch).
KEEP_SECONDS = 15.0

Key = tuple[str, str, tuple[tuple[str, tuple[str, ...]], ...]]

_guard = threading.Lock()
# The first arrival of each (screen, action id) in this process.
_first: dict[tuple[str, str], float] = {}
# The taps this process has taken and not judged yet, by (screen, action id): asked about, one of
# them is "not known yet", never "not applied" (it may still apply).
_in_line: Counter[tuple[str, str]] = Counter()


def window_seconds() -> float:
    return float(getattr(settings, "TAP_REPEAT_WINDOW_MS", 400)) / 1000


def tap_key(name: str, post: Any, token: str) -> Key:
    """What makes two taps the same: the screen (its token's hash), the action and its fields."""
    fields = tuple(
        sorted((k, tuple(str(v) for v in post.getlist(k))) for k in post if k not in NOT_THE_TAP)
    )
    return fingerprint(token), name, fields


def plain_key(name: str, fields: Mapping[str, str | int], token: str) -> Key | None:
    """`key_of` for a tap whose fields are single values and none of `NOT_THE_TAP`, as sent
    over its socket (the same key its QueryDict gives, with no QueryDict)."""
    if window_seconds() <= 0:
        return None
    return fingerprint(token), name, tuple(sorted((k, (str(v),)) for k, v in fields.items()))


def key_of(name: str, post: Any, token: str) -> Key | None:
    """The tap's key, or None when it may never be merged (`repeat`, or no window)."""
    if window_seconds() <= 0 or post.get("repeat", "") in REPEAT_VALUES:
        return None
    return tap_key(name, post, token)


def arrive(token: str, action_id: str | None) -> float:
    """A tap enters the process now: its arrival (and its id's first, if not seen yet)."""
    now = time.monotonic()
    if action_id:
        with _guard:
            _first.setdefault((fingerprint(token), action_id), now)
            # Oldest first (a dict keeps insertion order): drop the ones past keeping.
            while _first and now - next(iter(_first.values())) > KEEP_SECONDS:
                del _first[next(iter(_first))]
    return now


def moment(token: str, action_id: str | None, arrived: float) -> float:
    """When the tap was made, as far as this process knows: its id's first arrival."""
    if not action_id:
        return arrived
    with _guard:
        first = _first.get((fingerprint(token), action_id))
    return arrived if first is None else min(first, arrived)


# A phone taps the same few keys (its seat's HP down and up): each hashed once.
@functools.lru_cache(maxsize=1024)
def key_hash(key: Key) -> str:
    """The key as the event log keeps it (Event.tap_key)."""
    return hashlib.sha256(repr(key).encode()).hexdigest()[:32]


def mark(key: Key | None, when: float) -> tuple[str, float] | None:
    """What an applied tap's events carry (its key's hash, its moment since the epoch), or
    None when it may never be merged."""
    if key is None:
        return None
    return key_hash(key), time.time() - (time.monotonic() - when)


def enter_line(token: str, action_id: str | None) -> None:
    """The tap `action_id` of this screen is taken: it may apply until `leave_line`."""
    if action_id:
        with _guard:
            _in_line[(fingerprint(token), action_id)] += 1


def leave_line(token: str, action_id: str | None) -> None:
    """The tap taken by `enter_line` is judged (applied, refused, merged or not tried)."""
    if action_id:
        key = (fingerprint(token), action_id)
        with _guard:
            _in_line[key] -= 1
            if _in_line[key] <= 0:
                del _in_line[key]


@contextlib.contextmanager
def in_line(token: str, action_id: str | None) -> Iterator[None]:
    enter_line(token, action_id)
    try:
        yield
    finally:
        leave_line(token, action_id)


def waiting(token: str, action_id: str) -> bool:
    """Whether a copy of this screen's tap `action_id` is taken and not judged yet here."""
    with _guard:
        return (fingerprint(token), action_id) in _in_line
