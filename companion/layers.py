"""The in-memory channel layer with its expiry sweep run at most once a second.

The stock layer walks every channel and group member on each send and receive, so its cost grows
with the square of connected phones (PERF_NOTES.md: 43 % of server time under load).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from channels.layers import InMemoryChannelLayer


class LeanInMemoryChannelLayer(InMemoryChannelLayer):
    """Same semantics as InMemoryChannelLayer, cheaper housekeeping."""

    sweep_interval = 1.0

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("group_expiry", 7 * 86400)
        super().__init__(**kwargs)
        self._last_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep < self.sweep_interval:
            return
        self._last_sweep = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Queue the message for every member, as the stock layer does, minus its per-member
        deep copy and name check: the app's messages hold only strings and numbers (immutable),
        so each member gets a shallow copy of the same dict."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        expires = time.time() + self.expiry
        for channel in list(self.groups.get(group, {})):
            queue = self.channels.setdefault(
                channel, asyncio.Queue(maxsize=self.get_capacity(channel))
            )
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait((expires, dict(message)))
