"""ASGI entry point: HTTP through Django, websockets through Channels."""

import asyncio
import os
import weakref
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from companion.web.routing import websocket_urlpatterns  # noqa: E402


class BoundedHTTP:
    """At most `limit` HTTP requests of this process inside Django at once; the others wait
    their turn in the event loop, where waiting costs nothing.

    Django runs each request's synchronous part in a thread of its own. With 800 phones loading
    their pages at once that was hundreds of threads fighting over one interpreter lock and the
    pooled database connections, while the sockets' database work (Channels runs it on one
    thread) waited behind them: on PostgreSQL + Redis a third of the phones never got their
    socket's first state in two minutes (bench/soak.py, docs/performance.md)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit
        self._gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]
        self._gates = weakref.WeakKeyDictionary()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or self.limit <= 0:
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        gate = self._gates.get(loop)
        if gate is None:
            gate = self._gates[loop] = asyncio.Semaphore(self.limit)
        async with gate:
            await self.app(scope, receive, send)


# The consumer checks the Origin itself (same origin as the Host, and the Host allowed).
application = ProtocolTypeRouter(
    {
        "http": BoundedHTTP(django_asgi_app, settings.HTTP_CONCURRENCY),
        "websocket": URLRouter(websocket_urlpatterns),
    }
)
