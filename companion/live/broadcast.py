"""Rendering of live fragments and their delivery to the channels groups, after commit.

The public fragment is rendered once per change and language and the same text goes to every
phone of the table; private fragments are rendered per seat and go only to that seat's group.
Every fragment's root carries `data-version` (the table version it shows) and, when a tap caused
it, `data-action` (the tap's action id), so any delivery can be matched to its tap.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import threading
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db.models import F
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.utils import translation
from redis.exceptions import RedisError

from companion import panels
from companion.infra import logs
from companion.live import fragments
from companion.models import Seat, Table
from companion.outbox import Change, change_committed
from companion.queries.seats import table_seats
from companion.read import sessions
from companion.read.delta import WHOLE_TABLE_PARTS, TableDelta, table_delta
from companion.read.history import HistoryLine
from companion.read.private import private_state
from companion.read.screens import template_for
from companion.read.state import PublicState, public_state

log = logging.getLogger(__name__)

LANGS = [code for code, _name in settings.LANGUAGES]
# Counts renders of the public fragment; the tests use it to prove one render per change.
RENDER_COUNTS = {"public": 0}


# A tap hashes its screen's token several times (its arrival, its place in line, its key): the
# hash of the tokens in use is kept, a few thousand screens' worth.
@functools.lru_cache(maxsize=4096)
def fingerprint(token: str) -> str:
    """A short hash naming a token inside the server without carrying it."""
    return hashlib.sha256(token.encode()).hexdigest()[:16]


def lang_of(code: str | None) -> str:
    """A supported language code, defaulting to Simplified Chinese."""
    if code in LANGS:
        return str(code)
    if code and code.lower().startswith("en"):
        return "en"
    return settings.LANGUAGE_CODE


def table_group(code: str, lang: str) -> str:
    return f"table.{code}.{lang}"


def host_group(code: str, lang: str) -> str:
    return f"host.{code}.{lang}"


def seat_group(seat_id: int, lang: str) -> str:
    return f"seat.{seat_id}.{lang}"


def render_public(
    state: PublicState, lang: str, action_id: str | None = None, since: int | None = None
) -> str:
    """The table's public fragment, the same for the display and every phone. `since`: the
    first version of the changes it shows, when one transaction made several (a phone that has
    the version before it has missed nothing)."""
    RENDER_COUNTS["public"] += 1
    with translation.override(lang):
        return render_to_string(
            template_for(state.mode, "companion/live/public.html#public"),
            {"state": state, "action_id": action_id, "oob": True, "since": since},
        )


def render_host(state: PublicState, lang: str, action_id: str | None = None) -> str:
    """The host's controls; public information only, sent only to whoever is host."""
    with translation.override(lang):
        return render_to_string(
            template_for(state.mode, "companion/live/host.html#host"),
            {"state": state, "action_id": action_id, "oob": True},
        )


def render_host_none(version: int) -> str:
    """An empty, hidden #host-panel: it takes the controls off a phone that is no longer host,
    and keeps the place where they appear when it becomes host."""
    return render_to_string("companion/live/host.html#host_none", {"version": version, "oob": True})


def render_private(
    seat: Seat,
    lang: str,
    action_id: str | None = None,
    seats: list[Seat] | None = None,
    shown: Mapping[int, tuple[panels.Panel, ...]] | None = None,
) -> str:
    """One seat's private fragment: its identity and its own events. `seats`: the table's seats
    in seat order, and `shown`: the apps' panels of the phones a change redraws, each read once
    for them all (None: read for this one)."""
    with translation.override(lang):
        return render_to_string(
            template_for(seat.table.mode, "companion/live/private.html#private"),
            {"me": private_state(seat, seats, shown), "action_id": action_id, "oob": True},
        )


# The public part of a snapshot, per table and language, for the table version it shows: fifty
# screens asking for the state cost one render (every change bumps the version).
_PUBLIC_SNAPSHOTS: dict[tuple[int, str, str], tuple[int, str]] = {}
PUBLIC_SNAPSHOTS_KEPT = 2000


def snapshot(table: Table, *, seat: Seat | None, is_host: bool, lang: str) -> str:
    """Everything a screen shows, for a (re)connecting socket."""
    key = (table.pk, table.code, lang)
    cached = _PUBLIC_SNAPSHOTS.get(key)
    state = None
    if cached is not None and cached[0] == table.version:
        public = cached[1]
    else:
        state = public_state(table)
        # Sessions: the standings panel every screen shows, ahead of the public part.
        public = sessions.render_panel(table, lang) + render_public(state, lang)
        if len(_PUBLIC_SNAPSHOTS) >= PUBLIC_SNAPSHOTS_KEPT:
            _PUBLIC_SNAPSHOTS.clear()
        _PUBLIC_SNAPSHOTS[key] = (table.version, public)
    parts = [public]
    if is_host:
        parts.append(render_host(state or public_state(table), lang))
    elif seat is not None:
        # A phone that was host until now (the role passed on) loses its controls.
        parts.append(render_host_none(table.version))
    if seat is not None:
        parts.append(render_private(seat, lang))
    return "".join(parts)


def _lang_bit(lang: str) -> int:
    return 1 << LANGS.index(lang)


def note_language(table: Table, lang: str) -> None:
    """Remember that a screen of this table listens in this language (called on connect).

    Written once per table and language, with the bit set in the database (so two screens
    connecting at once each keep theirs); a change read after this sees it, and the screen
    joined its groups before reading its first state, so it misses no frame."""
    bit = _lang_bit(lang_of(lang))
    if table.screen_langs & bit:
        return
    Table.objects.filter(pk=table.pk).update(screen_langs=F("screen_langs").bitor(bit))
    table.screen_langs |= bit


def langs_in_use(table: Table) -> list[str]:
    """The languages a change must be rendered in: those of the table's screens, the default
    first, read from the table's row (no round trip: the change has it).

    Rendering is most of the cost of a change; a table whose phones all speak one language
    pays for one rendering. None known yet: every language.
    """
    known = table.screen_langs
    if not known:
        return list(LANGS)
    return [lang for lang in LANGS if known & _lang_bit(lang) or lang == settings.LANGUAGE_CODE]


Outbox = list[tuple[str, dict[str, Any]]]
_local = threading.local()


@contextmanager
def collecting() -> Iterator[Outbox]:
    """Collect the group messages of the changes committed inside, instead of sending them.

    The caller sends them afterwards (`send_all`) from its own event loop: the websocket taps do
    that, and so does every change made over HTTP, in one hop to the loop per change.
    """
    previous = getattr(_local, "outbox", None)
    box: Outbox = []
    _local.outbox = box
    try:
        yield box
    finally:
        _local.outbox = previous


async def send_all(box: Outbox) -> None:
    """Hand collected messages to the channel layer, in order."""
    layer = get_channel_layer()
    for group, message in box:
        await layer.group_send(group, message)


def _send(group: str, message: dict[str, Any]) -> None:
    box = getattr(_local, "outbox", None)
    if box is not None:
        box.append((group, message))
    else:
        async_to_sync(get_channel_layer().group_send)(group, message)


@receiver(change_committed, dispatch_uid="companion.live.broadcast")
def on_change_committed(sender: object, change: Change, **kwargs: Any) -> None:
    """Send a committed change; Redis away is expected (one line, no stack): the sockets are
    closed meanwhile and every phone gets the state when it reconnects."""
    try:
        table_changed(change)
    except (RedisError, OSError) as exc:
        logs.expected(
            log,
            "broadcast",
            "change %s committed; its frames did not go out (%s: %s): the other screens catch "
            "up when they reconnect",
            change.version,
            type(exc).__name__,
            exc,
        )


def table_changed(change: Change) -> None:
    """Deliver one committed change to every screen that may see it (a transaction's changes
    come as one: companion.outbox.combined, so each screen gets one frame per group for them)."""
    if getattr(_local, "outbox", None) is not None:
        _compose(change)
        return
    with collecting() as box:
        _compose(change)
    if box:
        async_to_sync(send_all)(box)


def render_delta(delta: TableDelta, lang: str, action_id: str | None = None) -> str:
    """A change on top of the previous version; counts as the change's public render."""
    RENDER_COUNTS["public"] += 1
    with translation.override(lang):
        return fragments.delta(delta, action_id)


def _compose_delta(change: Change, line: HistoryLine) -> None:
    """One render per language of the change's delta, the host's controls when the turn moved,
    and the private frames the change names (not for an HP tap: the seat's own HP tracker rides
    in the delta, HP being public)."""
    table = change.table
    assert table is not None and change.delta_seats is not None
    seats = change.seats
    if seats is None and (change.parts & WHOLE_TABLE_PARTS or change.private_seats):
        seats = table_seats(table)
    delta = table_delta(table, change.delta_seats, line, parts=change.parts, seats=seats)
    langs = langs_in_use(table)
    for lang in langs:
        _send(
            table_group(table.code, lang),
            {
                "type": "table.fragment",
                "html": render_delta(delta, lang, change.action_id),
                "version": delta.version,
            },
        )
        if change.host_panel and delta.state is not None:
            _send(
                host_group(table.code, lang),
                {
                    "type": "table.fragment",
                    "html": render_host(delta.state, lang, change.action_id),
                    "version": delta.version,
                },
            )
    _send_private(change, seats or [], langs, delta.version)


def _compose(change: Change) -> None:
    if change.delta_seats is not None and change.event is not None:
        line = HistoryLine(*change.event)
        # A line worth an announcement (a death, a judgement) comes with the whole state, whose
        # root carries the announcement.
        if not line.important:
            _compose_delta(change, line)
            return
    table = Table.objects.get(pk=change.table_id)
    seats = table_seats(table)
    state = public_state(table, seats)
    langs = langs_in_use(table)
    # Sessions: after a change that touched the scores, the standings panel rides in
    # the same frame as the public fragment, ahead of it.
    panels = sessions.panel_fragments(
        table, change.version, change.action_id, langs, since=change.since
    )
    # Several changes of one transaction: the state names the first (unless a later change
    # committed meanwhile, whose frames come on their own).
    since = change.since if state.version == change.version else None
    for lang in langs:
        public = panels.get(lang, "") + render_public(state, lang, change.action_id, since)
        _send(
            table_group(table.code, lang),
            {"type": "table.fragment", "html": public, "version": state.version},
        )
        if change.host_panel:
            _send(
                host_group(table.code, lang),
                {
                    "type": "table.fragment",
                    "html": render_host(state, lang, change.action_id),
                    "version": state.version,
                },
            )
    _send_private(change, seats, langs, state.version)
    for seat_id, token in change.revoked:
        for lang in LANGS:
            _send(
                seat_group(seat_id, lang),
                {"type": "seat.revoked", "fingerprint": fingerprint(token)},
            )
    if change.access_changed:
        groups: Iterable[str] = [host_group(table.code, lang) for lang in LANGS]
        groups = [*groups, *(seat_group(s.pk, lang) for s in seats if s.is_host for lang in LANGS)]
        for group in groups:
            _send(group, {"type": "access.changed"})


def _send_private(change: Change, seats: list[Seat], langs: list[str], version: int) -> None:
    """Each seat the change names gets its own private fragment, in its group only."""
    _private_frames(seats, change.private_seats, langs, version, change.action_id)


def _private_frames(
    seats: list[Seat],
    seat_ids: Collection[int],
    langs: list[str],
    version: int,
    action_id: str | None = None,
) -> None:
    by_id = {s.pk: s for s in seats}
    redrawn = sorted(pk for pk in seat_ids if pk in by_id)
    if not redrawn:
        return
    table = by_id[redrawn[0]].table
    # The apps' panels of every phone redrawn, asked once for them all.
    shown = panels.for_seats(table, redrawn)
    for seat_id in redrawn:
        for lang in langs:
            _send(
                seat_group(seat_id, lang),
                {
                    "type": "table.fragment",
                    "html": render_private(by_id[seat_id], lang, action_id, seats, shown),
                    "version": version,
                },
            )


def seats_redrawn(table_id: int, seat_ids: Collection[int]) -> None:
    """Send these seats' phones their private fragment again, at the table's version: what an
    app above the core shows them (companion.panels) changed outside the table's changes."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not seat_ids:
        return
    seats = list(table.seats.order_by("position", "slot"))
    if getattr(_local, "outbox", None) is not None:
        _private_frames(seats, seat_ids, langs_in_use(table), table.version)
        return
    with collecting() as box:
        _private_frames(seats, seat_ids, langs_in_use(table), table.version)
    if box:
        async_to_sync(send_all)(box)
