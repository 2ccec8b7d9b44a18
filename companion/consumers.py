"""One socket per screen: it pushes the table's frames, and carries the phone's taps.

The consumer finds who is connected from the URL's token (never from a message), joins that
screen's groups, sends the current state at once and relays fragments. A tap arrives as
`{"type": "act", "name": ..., "fields": {...}, "action_id": ...}`; it runs the same action as the
HTTP view, as the seat of the socket's token, on the process's database thread
(`companion.dbthread`). Its answer is the change's own frame to this screen, which carries the
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
import re
import time
import weakref
from collections import Counter, deque
from typing import Any
from urllib.parse import urlsplit

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http.request import split_domain_port, validate_host
from django.utils import translation
from django.utils.translation import gettext as _
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError
from uvicorn.protocols.utils import ClientDisconnected
from websockets.exceptions import InvalidState

from companion import broadcast, dbthread, logs
from companion.actions import ActionError, NotFound, actor_for
from companion.actions.core import TapAnswer, tap_outcome
from companion.layers import LeanInMemoryChannelLayer, run_eagerly
from companion.models import Table
from companion.web import dispatch, taps, throttle

log = logging.getLogger(__name__)

# Close codes the phone's script understands: 4404 = this link no longer works (do not retry),
# 1008 = policy (too many messages), 1009 = message too big, 1012 = reconnect now.
CLOSE_GONE = 4404
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_RECONNECT = 1012
CLOSE_TRY_LATER = 1013  # the channel layer (Redis) cannot be reached: the phone retries
CLOSE_ERROR = 1011  # the server failed unexpectedly on this socket
CLOSE_TOO_MANY = 4429  # too many display screens for this table or this client

# Faults the app expects and answers (a lock held too long, a lost connection, Redis away): one
# line in the log, no stack.
EXPECTED_DB_FAULTS = (OperationalError, InterfaceError)
EXPECTED_LAYER_FAULTS = (RedisError, OSError, asyncio.TimeoutError)
LAYER_TIMEOUTS = (asyncio.TimeoutError, RedisTimeoutError)
# A send to a socket its phone has just closed (the server's own words for it).
GONE_FAULTS = (ClientDisconnected, InvalidState)

FIELD_NAME_RE = re.compile(r"^[a-z_]{1,32}$")

# Sockets per seat in this process (THREATS.md 16: one seat token cannot open fifty sockets).
OPEN_PER_SEAT: Counter[int] = Counter()
# Display sockets (no token) in this process, per table code and per client (issue 19, item 10).
OPEN_DISPLAYS: Counter[str] = Counter()
OPEN_DISPLAYS_OF: Counter[str] = Counter()
# Every open socket of this process on a layer other than the embedded one (closed together when
# that layer cannot be reached).
LIVE: weakref.WeakSet[TableConsumer] = weakref.WeakSet()


def origin_allowed(headers: dict[bytes, bytes]) -> bool:
    """Only a page of this very site may open the socket: the Origin must match the Host."""
    origin = headers.get(b"origin", b"").decode("latin1")
    host = headers.get(b"host", b"").decode("latin1")
    if not origin or not host:
        return False
    parsed = urlsplit(origin)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        return False
    if parsed.netloc.lower() != host.lower():
        return False
    domain, _port = split_domain_port(host)
    try:
        return bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS)
    except DisallowedHost:
        return False


def _lang_from_scope(scope: dict[str, Any]) -> str:
    headers = dict(scope.get("headers", []))
    cookies = headers.get(b"cookie", b"").decode("latin1")
    for part in cookies.split(";"):
        key, _sep, value = part.strip().partition("=")
        if key == settings.LANGUAGE_COOKIE_NAME:
            return broadcast.lang_of(value)
    accept = headers.get(b"accept-language", b"").decode("latin1").lower()
    first = accept.split(",")[0].strip() if accept else ""
    if first.startswith("en"):
        return "en"
    return broadcast.lang_of(None)


class Throttled(Exception):
    """This client failed too many lookups in the last minute (companion.web.throttle)."""


def _layer_failed(exc: BaseException) -> None:
    """One line, at most every ten seconds, when Redis is away: not a traceback per socket."""
    logs.expected(
        log,
        "layer",
        "channel layer unreachable, sockets closed with %s (the phones retry): %s: %s",
        CLOSE_TRY_LATER,
        type(exc).__name__,
        exc,
    )


def _layer_down(layer: Any) -> bool:
    """Whether this process's probe last found the channel layer unreachable (`_watch_layer`)."""
    return bool(getattr(layer, "sgs_down", False))


def _watch_layer(layer: Any) -> None:
    """Start the probe of a Redis channel layer on this event loop, unless it runs already."""
    task = getattr(layer, "sgs_watch", None)
    if task is None or task.done():
        layer.sgs_watch = asyncio.ensure_future(_probe_layer(layer))


async def _probe_layer(layer: Any) -> None:
    """While sockets are open on it (or it is down), publish a tiny probe every
    WS_LAYER_PROBE_SECONDS. When Redis cannot be reached, every socket of this process is closed
    with 1013 (its phone retries, and gets the current state once Redis is back) and taps are
    refused before anything is written, as over HTTP; one line in the log each way."""
    while any(c.channel_layer is layer for c in list(LIVE)) or _layer_down(layer):
        await _probe_once(layer)
        await asyncio.sleep(settings.WS_LAYER_PROBE_SECONDS)


async def _probe_once(layer: Any) -> bool:
    """Publish one tiny message; whether the layer took it. The first failure closes this
    process's sockets on that layer (1013), the first success after it says so."""
    channel = f"{getattr(layer, 'prefix', 'sgs')}probe"
    try:
        await asyncio.wait_for(layer.send(channel, {"type": "probe"}), 1.0)
    except EXPECTED_LAYER_FAULTS as exc:
        if _only_slow(layer, exc):
            return True
        if not _layer_down(layer):
            layer.sgs_down = True
            sockets = [c for c in list(LIVE) if c.channel_layer is layer]
            log.warning(
                "channel layer unreachable (%s: %s): %d sockets closed with %s, taps refused "
                "until it is back",
                type(exc).__name__,
                exc,
                len(sockets),
                CLOSE_TRY_LATER,
            )
            for consumer in sockets:
                LIVE.discard(consumer)
                with contextlib.suppress(Exception):
                    await consumer.close(code=CLOSE_TRY_LATER)
        return False
    layer.sgs_answered_at = time.monotonic()
    if _layer_down(layer):
        layer.sgs_down = False
        log.warning("channel layer reachable again: sockets and taps accepted")
    return True


def _only_slow(layer: Any, exc: BaseException) -> bool:
    """A probe that timed out while the layer answered another one less than
    WS_LAYER_SLOW_SECONDS ago: the process is busy (a loaded event loop answers late), not cut
    off. Closing every socket then would start the reconnect storm that makes it busier (the
    soak in bench/soak.py: 259 sockets closed at once under load). A refused connection, or
    timeouts for longer than that, is an outage."""
    if not isinstance(exc, LAYER_TIMEOUTS) or _layer_down(layer):
        return False
    answered = getattr(layer, "sgs_answered_at", None)
    if answered is None or time.monotonic() - answered > settings.WS_LAYER_SLOW_SECONDS:
        return False
    logs.expected(
        log, "layer-slow", "channel layer slow to answer (%s): taken as busy, not down", exc
    )
    return True


def _db_failed(exc: DatabaseError, message: str, *args: Any) -> None:
    """A lock held past its timeout or a lost connection is expected: one line. Anything else
    the database says is a bug: its stack."""
    if isinstance(exc, EXPECTED_DB_FAULTS):
        logs.expected(log, "db", message + ": %s: %s", *args, type(exc).__name__, exc)
    else:
        log.error(message, *args, exc_info=exc)


def _broadcast_failed(exc: BaseException, name: str) -> None:
    if isinstance(exc, EXPECTED_LAYER_FAULTS):
        logs.expected(
            log,
            "broadcast",
            "tap %s committed and answered as applied; its frames did not go out (%s: %s): the "
            "other screens catch up when they reconnect",
            name,
            type(exc).__name__,
            exc,
        )
    else:
        log.error("tap %s committed, its broadcast failed", name, exc_info=exc)


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


def _known_answer(action_id: str, known: TapAnswer) -> dict[str, Any]:
    """The answer to a tap whose outcome was decided by another copy of it."""
    if known.outcome == "applied":
        return {"type": "done", "action_id": action_id, "version": known.version}
    if known.outcome == "merged":
        return {"type": "merged", "action_id": action_id, "version": known.version}
    answer = {"type": "error", "action_id": action_id, "status": known.status}
    return {**answer, "message": known.message}


def _valid_id(message: dict[str, Any]) -> str | None:
    action_id = message.get("action_id")
    if isinstance(action_id, str) and dispatch.ACTION_ID_RE.fullmatch(action_id):
        return action_id
    return None


def _relay_failed(exc: Exception) -> None:
    if isinstance(exc, OSError):  # the phone went away; its socket's own loop cleans up
        log.debug("frame not relayed: %r", exc)
    else:
        log.error("frame not relayed", exc_info=exc)


class TableConsumer(AsyncWebsocketConsumer):
    """One screen: the public display, the host console, or a seat's phone."""

    groups: list[str]
    # Group messages not yet sent, in order; None while they go straight out (see _deliver).
    _backlog: deque[dict[str, Any]] | None = None
    # The answer task of this socket's last tap (taps are answered in order).
    _tap_tail: asyncio.Future[None] | None = None
    _held: list[dict[str, Any]] | None = None
    sent_version = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """On the embedded layer, take group messages straight from it (`_deliver`) and read
        the socket in a plain loop; on any other layer (Redis), run Channels' own loop.

        Whatever happens, the seat's slot under the socket cap is given back; a socket whose
        layer cannot be reached is closed (1013, the phone retries), not a traceback."""
        send = _closing_once(send)
        layer = get_channel_layer(self.channel_layer_alias)
        if not isinstance(layer, LeanInMemoryChannelLayer):
            try:
                if _layer_down(layer):
                    # The probe found Redis away: refused at once, no database read.
                    await self._try_later(receive, send)
                    return
                await super().__call__(scope, receive, send)
            except RedisError as exc:
                _layer_failed(exc)
                # A channel whose subscription failed stays in the layer's table otherwise.
                getattr(layer, "channels", {}).pop(getattr(self, "channel_name", None), None)
                with contextlib.suppress(Exception):  # the phone may be gone already
                    await self._try_later(receive, send)
            finally:
                LIVE.discard(self)
                self._release_slot()
            return
        self.scope = scope
        self.channel_layer = layer
        self.channel_name = await layer.new_channel()
        self.base_send = send
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
            for group in getattr(self, "groups", []):  # left after a crash: no frames for it
                await layer.group_discard(group, self.channel_name)

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
            _relay_failed(exc)
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
            _relay_failed(exc)
        while self._backlog:
            try:
                await self.dispatch(self._backlog.popleft())
            except Exception as exc:  # noqa: BLE001
                _relay_failed(exc)
        self._backlog = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own dispatch hops to a thread before every message to close stale database
        connections. This consumer reads the database only through `database_sync_to_async`
        (which does that itself) and the database thread, so relaying a frame needs no hop."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.groups = []
        self.seat_id: int | None = None
        self.fingerprint = ""
        self.counted = False
        self.display_keys: tuple[str, str] | None = None
        self.window_start = time.monotonic()
        self.window_count = 0
        # The newest table version this socket was sent (a snapshot or a relayed frame).
        self.sent_version = 0
        # Taps, status questions and snapshots run one after another in `_work`, a task of their
        # own, so that the socket is read (and a ping answered) meanwhile.
        self._jobs: deque[tuple[str, dict[str, Any]]] = deque()
        self._worker: asyncio.Task[None] | None = None
        self._sync_queued = False
        self._reading_version = False
        self._tasks: set[asyncio.Future[Any]] = set()
        # On the Redis layer, frames wait here until the state is sent (embedded: `_backlog`).
        self._held: list[dict[str, Any]] | None = None
        if not origin_allowed(dict(self.scope.get("headers", []))):
            await self.close(code=CLOSE_POLICY)
            return
        self.lang = _lang_from_scope(self.scope)
        kwargs = self.scope["url_route"]["kwargs"]
        try:
            found = await self._resolve(kwargs.get("token"), kwargs.get("code"))
        except Throttled:
            await self.accept()
            await self.close(code=CLOSE_POLICY)
            return
        except NotFound:
            await self.accept()
            await self.close(code=CLOSE_GONE)
            return
        code, seat_id, is_host, token = found
        if seat_id is not None:
            if OPEN_PER_SEAT[seat_id] >= settings.WS_MAX_CONNECTIONS_PER_SEAT:
                await self.accept()
                await self.close(code=CLOSE_POLICY)
                return
            OPEN_PER_SEAT[seat_id] += 1
            self.counted = True
            self.seat_id = seat_id
            self.fingerprint = broadcast.fingerprint(token)
        elif not token and not self._take_display_slot(code):
            await self.accept()
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.code = code
        self.is_host = is_host
        self.token = kwargs.get("token")
        wanted = [broadcast.table_group(code, self.lang)]
        if is_host:
            wanted.append(broadcast.host_group(code, self.lang))
        if seat_id is not None:
            wanted.append(broadcast.seat_group(seat_id, self.lang))
        embedded = isinstance(self.channel_layer, LeanInMemoryChannelLayer)
        if not embedded:
            self._held = []
        # Accepted before joining: a layer that fails to join closes with 1013, which the phone
        # sees (a refused handshake would be a bare 1006 to it).
        await self.accept()
        self.accepted = True
        for group in wanted:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups.append(group)
        if not embedded:
            LIVE.add(self)
            _watch_layer(self.channel_layer)
        # Join first, then read: a change committed in between reaches us twice, never zero times.
        self._queue("snapshot", {})

    def _take_display_slot(self, code: str) -> bool:
        """A socket without a token (a public display): within the caps per table and per
        client (its device, else its address, as companion.web.throttle counts), or refused."""
        client = throttle.of_scope(self.scope)
        who = f"dev:{client.device}" if client.device else f"ip:{client.address}"
        if (
            OPEN_DISPLAYS[code] >= settings.WS_MAX_DISPLAYS_PER_TABLE
            or OPEN_DISPLAYS_OF[who] >= settings.WS_MAX_DISPLAYS_PER_CLIENT
        ):
            logs.expected(
                log,
                "displays",
                "display socket refused (%s): too many for its table or client",
                CLOSE_TOO_MANY,
            )
            return False
        OPEN_DISPLAYS[code] += 1
        OPEN_DISPLAYS_OF[who] += 1
        self.display_keys = (code, who)
        return True

    @database_sync_to_async
    def _resolve(self, token: str | None, code: str | None) -> tuple[str, int | None, bool, str]:
        """The screen a socket's URL names; failed lookups count towards the guessing
        throttle, as over HTTP."""
        client = throttle.of_scope(self.scope)
        if throttle.blocked(client):
            raise Throttled()
        try:
            return self._find(token, code)
        except NotFound:
            throttle.failed(client)
            raise

    def _find(self, token: str | None, code: str | None) -> tuple[str, int | None, bool, str]:
        if token:
            actor = actor_for(token)
            seat_id = actor.seat.pk if actor.seat else None
            broadcast.note_language(actor.table.code, self.lang)
            return actor.table.code, seat_id, actor.is_host, token
        table = Table.objects.filter(code=code or "").first()
        if table is None:
            raise NotFound()
        broadcast.note_language(table.code, self.lang)
        return table.code, None, False, ""

    @database_sync_to_async
    def _snapshot(self) -> tuple[str, int] | None:
        """Everything this screen shows, with the table version it shows."""
        try:
            if self.token:
                actor = actor_for(self.token)
                if actor.table.code != self.code:
                    return None
                html = broadcast.snapshot(
                    actor.table, seat=actor.seat, is_host=actor.is_host, lang=self.lang
                )
                return html, actor.table.version
            table = Table.objects.get(code=self.code)
            html = broadcast.snapshot(table, seat=None, is_host=False, lang=self.lang)
            return html, table.version
        except (NotFound, Table.DoesNotExist):
            return None

    async def _send_snapshot(self) -> None:
        found = await self._snapshot()
        if found is None:
            await self.close(code=CLOSE_GONE)
            return
        html, version = found
        self.sent_version = max(self.sent_version, version)
        await self.send(text_data=html)

    def _release_slot(self) -> None:
        """Give the seat's slot under the per-seat socket cap back (once), or the display's."""
        if getattr(self, "counted", False) and self.seat_id is not None:
            OPEN_PER_SEAT[self.seat_id] -= 1
            if OPEN_PER_SEAT[self.seat_id] <= 0:
                del OPEN_PER_SEAT[self.seat_id]
            self.counted = False
        keys = getattr(self, "display_keys", None)
        if keys is not None:
            self.display_keys = None
            for counter, key in zip((OPEN_DISPLAYS, OPEN_DISPLAYS_OF), keys, strict=True):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        """Channels' own leaves the groups first and turns a failing Redis connection into an
        InvalidChannelLayerError; `disconnect` leaves them, and a Redis outage is expected."""
        await self.disconnect(message.get("code", 1000))
        raise StopConsumer()

    async def disconnect(self, code: int) -> None:
        LIVE.discard(self)
        self._release_slot()
        groups, self.groups = getattr(self, "groups", []), []
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except (RedisError, OSError, AttributeError) as exc:  # redis-py: a dropped writer
                _layer_failed(exc)
                return

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
                message["arrived"] = taps.arrive(self.token or "", _valid_id(message))
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
        if self._worker is None:
            self._worker = asyncio.ensure_future(self._work())

    async def _work(self) -> None:
        """The socket's jobs in order. A fault the job did not handle is a bug: its stack is
        logged and the socket closed (1011); the phone reconnects."""
        try:
            while self._jobs:
                kind, message = self._jobs.popleft()
                if kind == "snapshot":
                    self._sync_queued = False
                    await self._send_snapshot()
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

    async def _release_held(self) -> None:
        """After the first state: the frames that waited for it, in order."""
        if self._backlog is not None:
            await self._drain()
        held, self._held = self._held, None
        for event in held or ():
            await self.table_fragment(event)

    async def _resync(self, message: dict[str, Any]) -> None:
        """The whole state again; or, when the screen names the version it has, this socket was
        sent it and the table is still there, just that version (no rendering)."""
        wanted = message.get("version")
        if isinstance(wanted, int) and wanted > 0 and wanted == self.sent_version:
            try:
                current = await dbthread.read(self._read_version)
            except DatabaseError:
                current = None
            if current == wanted:
                await self.send(text_data=json.dumps({"type": "version", "version": current}))
                return
        await self._send_snapshot()

    async def _tap(self, message: dict[str, Any]) -> None:
        """A tap, unless this process cannot reach the channel layer: then it is refused before
        anything is written, as over HTTP (companion.web.middleware.RedisOutageMiddleware)."""
        layer = self.channel_layer
        if not isinstance(layer, LeanInMemoryChannelLayer):
            reachable = not _layer_down(layer)
            if reachable:
                LIVE.discard(self)  # answered first, closed after, if the probe fails
                reachable = await _probe_once(layer)
            if not reachable:
                await self._refuse_in_outage(message.get("action_id"))
                await self.close(code=CLOSE_TRY_LATER)
                return
            LIVE.add(self)
        await self._act(message)

    async def _refuse_in_outage(self, action_id: Any) -> None:
        if isinstance(action_id, str) and dispatch.ACTION_ID_RE.fullmatch(action_id) and self.token:
            # A tap applied before (sent again after its socket dropped) gets its true answer.
            with contextlib.suppress(DatabaseError, NotFound):
                known = await dbthread.read(self._tap_outcome, action_id)
                if known.outcome != "not_applied":
                    await self.send(text_data=json.dumps(_known_answer(action_id, known)))
                    return
        with translation.override(self.lang):
            text = str(
                _(
                    "The screens cannot reach each other right now: nothing was changed. "
                    "Try again in a moment."
                )
            )
        answer = {
            "type": "error",
            "action_id": action_id if isinstance(action_id, str) else None,
            "status": 503,
            "message": text,
            "outcome": "not_applied",
        }
        await self.send(text_data=json.dumps(answer))

    async def _act(self, message: dict[str, Any]) -> None:
        """A tap: the acting seat (or host console) is the socket's token, never the message's.

        It is put in line on the database thread at once, with the moment it arrived, and
        answered by a task: the socket keeps reading while it waits (so a second tap's arrival
        is its own, and its deadline counts from it). Taps of one socket are answered in order."""
        name = message.get("name")
        action_id = message.get("action_id")
        fields = message.get("fields", {})
        if action_id is not None and not (
            isinstance(action_id, str) and dispatch.ACTION_ID_RE.fullmatch(action_id)
        ):
            await self._error("malformed")
            return
        if (
            not self.token
            or not isinstance(name, str)
            or name not in dispatch.ACTIONS
            or name in dispatch.HTTP_ONLY
        ):
            await self._error("unsupported", action_id)
            return
        if not isinstance(fields, dict) or not all(
            isinstance(k, str)
            and FIELD_NAME_RE.fullmatch(k)
            and (
                isinstance(v, str | int)
                or (isinstance(v, list) and all(isinstance(i, str | int) for i in v))
            )
            for k, v in fields.items()
        ):
            await self._error("malformed", action_id)
            return
        arrived = message.get("arrived") or taps.arrive(self.token, action_id)
        judged = dbthread.submit(self._run_act, name, fields, action_id, arrived)
        previous = self._tap_tail
        self._tap_tail = asyncio.ensure_future(self._answer(name, action_id, judged, previous))

    async def _answer(
        self, name: str, action_id: str | None, judged: Any, previous: Any = None
    ) -> None:
        """Wait for the tap's judgement (and the previous tap's answer), then answer it."""
        try:
            try:
                outcome: Any = await judged
            except Exception as exc:  # noqa: BLE001 - answered below, after the previous tap
                outcome = exc
            if previous is not None:
                await asyncio.wait([previous])
            await self._answer_judged(name, action_id, outcome)
        except OSError as exc:  # the phone went away meanwhile
            log.debug("tap %s not answered: %r", name, exc)
        except Exception:
            log.exception("tap %s not answered", name)

    async def _answer_judged(self, name: str, action_id: str | None, outcome: Any) -> None:
        if isinstance(outcome, dispatch.TooLate):
            log.info("tap %s not judged within its deadline: answered not applied", name)
            await self._act_failed(action_id)
            return
        if isinstance(outcome, DatabaseError):
            # The database failed (gone, broken): the tap may or may not have committed.
            # Answer what the event log says, never a guess.
            _db_failed(outcome, "tap %s failed in the database, answered from the event log", name)
            await self._act_failed(action_id)
            return
        if isinstance(outcome, BaseException):
            raise outcome
        result, box = outcome
        try:
            await broadcast.send_all(box)
        except Exception as exc:  # noqa: BLE001 - the tap is committed: answered as applied
            _broadcast_failed(exc, name)
            box = []
        if isinstance(result, int):
            if action_id and any(
                group in self.groups and message.get("type") == "table.fragment"
                for group, message in box
            ):
                # The change's own frame, which names the tap (data-action), has reached this
                # screen already: it is the answer.
                return
            # The table's version after the tap (for a replayed tap: the version it finds).
            answer = {"type": "done", "action_id": action_id, "version": result}
            await self.send(text_data=json.dumps(answer))
            return
        await self.send(text_data=json.dumps(result))
        if result.get("status") == 404 and not await dbthread.run(self._token_valid):
            await self.close(code=CLOSE_GONE)

    def _run_act(
        self, name: str, fields: dict[str, Any], action_id: str | None, arrived: float
    ) -> tuple[int | dict[str, Any], broadcast.Outbox]:
        """The tap's new table version, or its answer when it changed nothing new (refused, in
        the phone's language, or merged); with the messages its change sends."""
        with broadcast.collecting() as box:
            try:
                change = dispatch.ACTIONS[name](
                    dispatch.Fields(fields), self.token, action_id, arrived=arrived, lang=self.lang
                )
            except ActionError as exc:
                with translation.override(self.lang):
                    text = str(exc.message)
                answer = {"type": "error", "action_id": action_id, "status": exc.status}
                return {**answer, "message": text}, box
        version = int(getattr(change, "version", 0))
        if getattr(change, "merged", False):
            return {"type": "merged", "action_id": action_id, "version": version}, box
        return version, box

    async def _act_failed(self, action_id: str | None) -> None:
        """After a tap was not judged (its deadline passed, the database failed): what became of
        it after all (another copy of it may have been judged: applied, refused or merged),
        otherwise an error the phone knows to check again (status 503, `outcome`
        "not_applied", or "unknown" when that cannot be read either). Read beside the
        database thread, not behind the taps queued on it."""
        outcome = "unknown"
        if action_id:
            try:
                known = await dbthread.read(self._tap_outcome, action_id)
            except (DatabaseError, NotFound):
                pass
            else:
                if known.outcome != "not_applied":
                    await self.send(text_data=json.dumps(_known_answer(action_id, known)))
                    return
                outcome = "not_applied"
        with translation.override(self.lang):
            text = str(_("The server could not record this tap. Checking…"))
        answer = {
            "type": "error",
            "action_id": action_id,
            "status": 503,
            "message": text,
            "outcome": outcome,
        }
        await self.send(text_data=json.dumps(answer))

    def _tap_outcome(self, action_id: str) -> TapAnswer:
        return tap_outcome(self.token, action_id)

    async def _status(self, action_id: Any) -> None:
        """What became of this screen's tap? Asked by a phone whose tap failed or went
        unanswered: `outcome` "applied", "refused" (with the `status` and `message` it was
        refused with), "merged" or "not_applied"; `applied` true for the first only.

        It runs on the database thread, behind every tap this process still has queued, so a tap
        sent before the question has its outcome by then. `applied` is null when the database
        cannot answer now (the phone asks again)."""
        if not self.token or not (
            isinstance(action_id, str) and dispatch.ACTION_ID_RE.fullmatch(action_id)
        ):
            await self._error("malformed")
            return
        answer: dict[str, Any] = {"type": "status", "action_id": action_id}
        try:
            known = await dbthread.run(self._tap_outcome, action_id)
        except NotFound:
            await self.close(code=CLOSE_GONE)
            return
        except DatabaseError as exc:
            _db_failed(exc, "tap status unavailable, the phone asks again")
            answer["applied"] = None
        else:
            answer["applied"], answer["version"] = known.applied, known.version
            answer["outcome"] = known.outcome
            if known.outcome == "refused":
                answer["status"], answer["message"] = known.status, known.message
        await self.send(text_data=json.dumps(answer))

    async def _pong(self) -> None:
        """The heartbeat's answer, at once, whatever this socket is waiting for; then the
        table's version (`{"type": "version"}`, read on the reading thread, not behind taps): a
        phone that missed a frame (a Redis outage, a lost publish) sees it is behind."""
        await self.send(text_data='{"type": "pong"}')
        if not self._reading_version:
            self._reading_version = True
            self._spawn(self._send_version())

    async def _send_version(self) -> None:
        try:
            version = await dbthread.read(self._read_version)
        except DatabaseError as exc:
            logs.expected(log, "version", "table version unavailable for a pong: %r", exc)
            return
        finally:
            self._reading_version = False
        if version is not None:
            await self.send(text_data=json.dumps({"type": "version", "version": version}))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _read_version(self) -> int | None:
        return Table.objects.filter(code=self.code).values_list("version", flat=True).first()

    def _token_valid(self) -> bool:
        try:
            actor_for(self.token)
        except NotFound:
            return False
        return True

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
