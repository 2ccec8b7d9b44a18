"""companion.asgi.BoundedHTTP: at most N HTTP requests inside Django at once per process; the
rest wait their turn (none refused); websockets are not held up by it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from companion.asgi import BoundedHTTP, application

pytestmark = pytest.mark.asyncio


class Recorder:
    def __init__(self) -> None:
        self.inside = 0
        self.most = 0
        self.done: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.inside += 1
        self.most = max(self.most, self.inside)
        await asyncio.sleep(0.05)
        self.inside -= 1
        self.done.append(scope["type"])


async def test_http_requests_wait_their_turn_and_none_is_refused() -> None:
    inner = Recorder()
    app = BoundedHTTP(inner, limit=2)
    await asyncio.gather(*(app({"type": "http"}, None, None) for _ in range(7)))
    assert inner.most == 2
    assert inner.done == ["http"] * 7


async def test_websockets_and_lifespan_pass_the_gate() -> None:
    inner = Recorder()
    app = BoundedHTTP(inner, limit=1)
    await asyncio.gather(*(app({"type": "websocket"}, None, None) for _ in range(4)))
    assert inner.most == 4


async def test_the_served_application_bounds_http() -> None:
    from django.conf import settings

    gate = application.application_mapping["http"]
    assert isinstance(gate, BoundedHTTP) and gate.limit == settings.HTTP_CONCURRENCY > 0
