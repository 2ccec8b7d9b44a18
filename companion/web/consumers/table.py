"""One socket per screen: it pushes the table's frames, and carries the phone's taps.

The consumer finds who is connected from the URL's token (never from a message), joins that
screen's groups, sends the current state at once and relays fragments. A tap arrives as
`{"type": "act", "name": ..., "fields": {...}, "action_id": ...}`; it runs the same action as the
HTTP view, as the seat of the socket's token, on the process's database thread
(`companion.infra.dbthread`). Its answer is the change's own frame to this screen, which carries the
action id (`data-action`); a tap that sends this screen no frame (a replay, or nothing to change)
is answered `{"type": "done", "version"}`, a refused one `{"type": "error", "status", "message"}`,
one merged with the identical tap just before it `{"type": "merged", "version"}`, all with the
action id. The consumer keeps no game state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from redis.exceptions import RedisError

from companion.live.layers import LeanInMemoryChannelLayer, LeanRedisPubSubChannelLayer, run_eagerly
from companion.web import taps
from companion.web.consumers.admission import AdmissionMixin
from companion.web.consumers.faults import (
    CLOSE_ERROR,
    CLOSE_GONE,
    CLOSE_POLICY,
    CLOSE_RECONNECT,
    CLOSE_TOO_BIG,
    CLOSE_TRY_LATER,
    GONE_FAULTS,
    layer_failed,
    relay_failed,
)
from companion.web.consumers.layer_probe import LIVE, layer_down, watch_layer
from companion.web.consumers.socket_taps import TapMixin, valid_action_id
from companion.web.consumers.sync import SyncMixin

log = logging.getLogger(__name__)


def _closing_once(send: Any) -> Any:
    """`send`, ignoring anything after the socket's websocket.close (ASGI servers raise on it:
    a tap whose own change closed the socket must not answer on it)."""
    closed = False

    async def guarded(message: dict[str, Any]) -> None:
        nonlocal closed
        if closed:
            return
        if message.get("type") == "websocket.close":
            closed = True
        await send(message)

    return guarded


async def refuse_websocket(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Any websocket path the app does not serve: the handshake is refused (HTTP 403)."""
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.close"})
        elif message["type"] == "websocket.disconnect":
            return


class TableConsumer(AdmissionMixin, SyncMixin, TapMixin, AsyncWebsocketConsumer):
    """One screen: the public display, the host console, or a seat's phone."""

    groups: list[str]
    # Group messages not yet sent, in order; None while they go straight out (see _deliver).
    _backlog: deque[dict[str, Any]] | None = None
    # The answer task of this socket's last tap (taps are answered in order).
    _tap_tail: asyncio.Future[None] | None = None
    _held: list[dict[str, Any]] | None = None
    sent_version = 0
    # Whether the layer hands this socket its messages (`_deliver`) rather than Channels' loop.
    attached = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Take group messages straight from the layer (`_deliver`) and read the socket in a
        plain loop: on the embedded layer, and on Redis (companion.live.layers); with STOCK_PATH's
        "layer", Channels' own loop.

        Whatever happens, the seat's slot under the socket cap is given back; a socket whose
        layer cannot be reached is closed (1013, the phone retries), not a traceback."""
        send = _closing_once(send)
        layer = get_channel_layer(self.channel_layer_alias)
        if isinstance(layer, LeanInMemoryChannelLayer):
            await self._attached(layer, scope, receive, send)
            return
        try:
            if layer_down(layer):
                # The probe found Redis away: the handshake is refused (HTTP 403, no accept, no
                # database read). The phone saw this process's 1013 when its socket was closed,
                # and keeps retrying calmly until a socket of it is current again. The probe
                # that will find Redis back is running (started again if it ended).
                watch_layer(layer)
                await refuse_websocket(scope, receive, send)
                return
            if isinstance(layer, LeanRedisPubSubChannelLayer) and "layer" not in (
                settings.STOCK_PARTS
            ):
                await self._attached(layer, scope, receive, send)
            else:
                await super().__call__(scope, receive, send)
        except RedisError as exc:
            layer_failed(exc)
            # A channel whose subscription failed stays in the layer's table otherwise.
            getattr(layer, "channels", {}).pop(getattr(self, "channel_name", None), None)
            with contextlib.suppress(Exception):  # the phone may be gone already
                await self._try_later(receive, send)
        finally:
            LIVE.discard(self)
            self._release_slot()

    async def _attached(self, layer: Any, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The socket's life with its channel attached to the layer (no Channels loop)."""
        self.scope = scope
        self.channel_layer = layer
        self.channel_name = await layer.new_channel()
        self.base_send = send
        self.attached = True
        # Until the current state is on its way, frames wait (`connect` sends it, then drains).
        self._backlog = deque()
        layer.attach(self.channel_name, self._deliver)
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
        finally:
            layer.detach(self.channel_name)
            self._backlog = None
            self._release_slot()
            with contextlib.suppress(RedisError, OSError):  # Redis away: nothing to leave
                for group in getattr(self, "groups", []):  # left after a crash: no frames for it
                    await layer.group_discard(group, self.channel_name)
                if isinstance(layer, LeanRedisPubSubChannelLayer):
                    await layer.forget(self.channel_name)

    async def _try_later(self, receive: Any, send: Any) -> None:
        """Close with 1013 (the phone retries soon); accepted first if it was not yet, so that
        the phone sees the code (a refused handshake is only a 1006 to it)."""
        if not getattr(self, "accepted", False):
            if (await asyncio.wait_for(receive(), 5))["type"] != "websocket.connect":
                return
            await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": CLOSE_TRY_LATER})

    def _deliver(self, message: dict[str, Any]) -> None:
        """A group message for this screen, handed over by the layer on this event loop.

        It is relayed at once, inside the sender's turn (no task, queue or wake-up per frame).
        If a write has to wait (a phone that stopped reading fills its buffer), a task finishes
        it and later messages queue behind it, so every screen gets its frames in order and no
        slow phone holds up the others."""
        if self._backlog is not None:
            self._backlog.append(message)
            return
        try:
            rest = run_eagerly(self.dispatch(message))
        except Exception as exc:  # noqa: BLE001 - one screen's failure must not stop the rest
            relay_failed(exc)
            return
        if rest is not None:
            self._backlog = deque()
            asyncio.ensure_future(self._drain(rest))

    async def _drain(self, rest: Any = None) -> None:
        """Finish a waiting write, then send what queued behind it, then go back to direct."""
        try:
            if rest is not None:
                await rest
        except Exception as exc:  # noqa: BLE001
            relay_failed(exc)
        while self._backlog:
            try:
                await self.dispatch(self._backlog.popleft())
            except Exception as exc:  # noqa: BLE001
                relay_failed(exc)
        self._backlog = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own dispatch hops to a thread before every message to close stale database
        connections. This consumer reads the database only through `database_sync_to_async`
        (which does that itself) and the database thread, so relaying a frame needs no hop.
        STOCK_PATH=1 keeps Channels' own (docs/performance.md, "Stock against hand-made")."""
        # An attached socket (every frame of a tap, on each screen) has no Channels loop: the
        # settings are not read for it.
        if not self.attached and "layer" in settings.STOCK_PARTS:
            await super().dispatch(message)
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > settings.WS_MAX_MESSAGE_BYTES:
            await self.close(code=CLOSE_TOO_BIG)
            return
        now = time.monotonic()
        if now - self.window_start > 10:
            self.window_start, self.window_count = now, 0
        self.window_count += 1
        if self.window_count > settings.WS_MAX_MESSAGES_PER_10S:
            await self.close(code=CLOSE_POLICY)
            return
        try:
            message = json.loads(text_data or "")
        except (TypeError, ValueError):
            await self._error("malformed")
            return
        if not isinstance(message, dict):
            await self._error("malformed")
            return
        kind = message.get("type")
        if kind == "ping":
            await self._pong()
        elif kind in ("sync", "act", "status"):
            if kind == "act":
                # The moment the tap arrived, set here (never taken from the message).
                message["arrived"] = taps.arrive(self.token or "", valid_action_id(message))
            self._queue(kind, message)
        else:
            await self._error("unsupported")

    def _queue(self, kind: str, message: dict[str, Any]) -> None:
        """Run a tap, a status question or a snapshot after the ones before it, in `_work`.

        A sync asked while another one waits its turn is the same sync (coalesced): a screen
        asking for the whole state again and again costs one snapshot at a time."""
        if kind in ("sync", "snapshot"):
            if self._sync_queued:
                return
            self._sync_queued = True
        self._jobs.append((kind, message))
        if self._worker is not None:
            return
        if kind != "act":
            self._worker = asyncio.ensure_future(self._work())
            return
        # A tap on an idle socket is put in line in this turn, as far as it goes without waiting
        # (on the embedded layer, all the way to the database thread): a task and a wake-up
        # fewer per tap. The worker is taken meanwhile, so a job asked for after it runs after it.
        self._worker = "eager"
        rest = run_eagerly(self._work())
        if rest is not None:
            self._worker = asyncio.ensure_future(rest)

    async def _work(self) -> None:
        """The socket's jobs in order. A fault the job did not handle is a bug: its stack is
        logged and the socket closed (1011); the phone reconnects."""
        try:
            while self._jobs:
                kind, message = self._jobs.popleft()
                if kind == "snapshot":
                    self._sync_queued = False
                    await self._send_first_state()
                    await self._release_held()
                elif kind == "sync":
                    self._sync_queued = False
                    await self._resync(message)
                elif kind == "act":
                    await self._tap(message)
                else:
                    await self._status(message.get("action_id"))
        except GONE_FAULTS:
            # The phone went away while its answer was on the way: nothing to tell it.
            self._jobs.clear()
        except Exception:
            log.exception("socket job failed")
            self._jobs.clear()
            with contextlib.suppress(Exception):
                await self.close(code=CLOSE_ERROR)
        finally:
            self._worker = None

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _error(self, code: str, action_id: str | None = None) -> None:
        answer: dict[str, Any] = {"type": "error", "error": code}
        if action_id:
            answer["action_id"] = action_id
        await self.send(text_data=json.dumps(answer))

    async def table_fragment(self, event: dict[str, Any]) -> None:
        if self._held is not None:  # the Redis layer, before the first state is sent
            self._held.append(event)
            return
        version = event.get("version")
        if version is not None and version > self.sent_version:
            self.sent_version = version
        # Straight to the socket: what `self.send(text_data=...)` does, two coroutine layers fewer
        # for the commonest message (eight of them per tap).
        await self.base_send({"type": "websocket.send", "text": event["html"]})

    async def seat_revoked(self, event: dict[str, Any]) -> None:
        if event.get("fingerprint") == self.fingerprint:
            await self.close(code=CLOSE_GONE)

    async def access_changed(self, event: dict[str, Any]) -> None:
        await self.close(code=CLOSE_RECONNECT)
