"""Who may open a socket: the Origin check, the language, the screen its URL names (with the
guessing throttle), the caps on sockets per seat and displays per table and client; and giving
the slot back when it closes."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from typing import Any
from urllib.parse import parse_qs, urlsplit

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.layers import InMemoryChannelLayer
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http.request import split_domain_port, validate_host
from redis.exceptions import RedisError

from companion.actions import NotFound, actor_for
from companion.infra import logs
from companion.live import broadcast
from companion.models import Table
from companion.web import throttle
from companion.web.consumers.faults import CLOSE_GONE, CLOSE_POLICY, CLOSE_TOO_MANY, layer_failed
from companion.web.consumers.layer_probe import LIVE, watch_layer

log = logging.getLogger(__name__)

# Sockets per seat in this process (docs/threats.md 16: one seat token cannot open fifty sockets).
OPEN_PER_SEAT: Counter[int] = Counter()
# Display sockets (no token) in this process, per table code and per client.
OPEN_DISPLAYS: Counter[str] = Counter()
OPEN_DISPLAYS_OF: Counter[str] = Counter()


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


def _page_shows(scope: dict[str, Any]) -> tuple[int, str]:
    """The table version and the language of the page a socket was opened from, as its URL
    names them (`?v=12&lang=en`; live.js adds them on the page's first socket only); (0, "")
    when it does not."""
    query = parse_qs(scope.get("query_string", b"").decode("latin1"))
    version = (query.get("v") or [""])[0]
    lang = (query.get("lang") or [""])[0]
    if not version.isdigit() or len(version) > 12 or lang not in broadcast.LANGS:
        return 0, ""
    return int(version), lang


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


class AdmissionMixin:
    """Opening and closing a socket: who it is (from the URL's token, never a message), the
    caps per seat and per display, the groups it joins and the slot it gives back."""

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
        # own, so that the socket is read (and a ping answered) meanwhile ("eager": a tap started
        # in the reading turn, until it waits).
        self._jobs: deque[tuple[str, dict[str, Any]]] = deque()
        self._worker: asyncio.Future[None] | str | None = None
        self._sync_queued = False
        self._reading_version = False
        self._tasks: set[asyncio.Future[Any]] = set()
        # On the Redis layer, frames wait here until the state is sent (embedded: `_backlog`).
        self._held: list[dict[str, Any]] | None = None
        if not origin_allowed(dict(self.scope.get("headers", []))):
            await self.close(code=CLOSE_POLICY)
            return
        self.lang = _lang_from_scope(self.scope)
        self.page_shows = _page_shows(self.scope)
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
        if not getattr(self, "attached", False):
            # Channels' own loop (STOCK_PATH's "layer" on Redis): frames wait here until the
            # state is sent (an attached socket keeps them in `_backlog`).
            self._held = []
        # Accepted before joining: a layer that fails to join closes with 1013, which the phone
        # sees (a refused handshake would be a bare 1006 to it).
        await self.accept()
        self.accepted = True
        for group in wanted:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups.append(group)
        if not isinstance(self.channel_layer, InMemoryChannelLayer):
            # A layer that can go away (Redis) is watched; one in this process's memory cannot.
            LIVE.add(self)
            watch_layer(self.channel_layer)
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
            broadcast.note_language(actor.table, self.lang)
            return actor.table.code, seat_id, actor.is_host, token
        table = Table.objects.filter(code=code or "").first()
        if table is None:
            raise NotFound()
        broadcast.note_language(table, self.lang)
        return table.code, None, False, ""

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
                layer_failed(exc)
                return
