"""The in-memory channel layer with its expiry sweep run at most once a second.

The stock layer walks every channel and group member on each send and receive, so its cost grows
with the square of connected phones (PERF_NOTES.md: 43 % of server time under load).
"""

from __future__ import annotations

import time
from typing import Any

from channels.exceptions import ChannelFull
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
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            try:
                await self.send(channel, message)
            except ChannelFull:
                pass
