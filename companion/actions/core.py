"""The core of every action: errors, who is acting, and recording one change."""

from __future__ import annotations

import contextlib
import contextvars
import functools
import logging
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connection, models, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from companion import outbox
from companion.infra import fastsql
from companion.models import CODE_LENGTH, NAME_MAX_LENGTH, Event, Seat, Table
from companion.outbox import Change

log = logging.getLogger(__name__)

M = TypeVar("M", bound=models.Model)
R = TypeVar("R")


class ActionError(Exception):
    """A refused action: nothing changed. `status` is the HTTP status to answer with."""

    def __init__(self, message: Any, status: int = 400, code: str = "invalid") -> None:
        super().__init__(str(message))
        self.message = message
        self.status = status
        self.code = code


class NotFound(ActionError):
    """An unknown or stale token or table code; always the same answer."""

    def __init__(self) -> None:
        super().__init__(_("Not found."), status=404, code="not_found")


@dataclass
class Actor:
    """Who is acting: a seat's phone, or the host console (seat None)."""

    table: Table
    seat: Seat | None
    is_host: bool

    @property
    def label(self) -> str:
        """How the event log names the actor."""
        return f"seat:{self.seat.pk}" if self.seat else "host"


def clean_name(raw: str) -> str:
    """Trim and normalise a display name, or refuse it."""
    name = unicodedata.normalize("NFC", raw or "").strip()
    name = " ".join(name.split())
    if not name:
        raise ActionError(_("Please enter a name."), code="name_empty")
    if len(name) > NAME_MAX_LENGTH:
        raise ActionError(
            _("Names are at most %(n)d characters.") % {"n": NAME_MAX_LENGTH}, code="name_long"
        )
    if any(unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Cn"} for ch in name):
        raise ActionError(_("That name has characters we cannot show."), code="name_chars")
    return name


def clean_code(raw: str) -> str:
    """Normalise a typed table code (case, look-alike characters)."""
    code = (raw or "").strip().upper().replace("0", "O").replace("1", "I")
    return code if len(code) == CODE_LENGTH else ""


# ---------------------------------------------------------------------------------------------
# Reading credentials


@dataclass
class Held:
    """What the dispatcher (companion.web.dispatch) has just read under the table's lock, in this
    transaction, for the action it runs next: its actor (not read twice), whether its id was
    applied already (`seen`, asked in the dispatcher's one statement of checks; None: not asked),
    and whether the action needs a savepoint of its own (none when the dispatcher rolls back
    the whole transaction on a refusal and judges the tap again)."""

    token: str
    actor: Actor
    seen: bool | None = None
    savepoint: bool = True


_held: contextvars.ContextVar[Held | None] = contextvars.ContextVar("held", default=None)


@contextlib.contextmanager
def holding(
    token: str, actor: Actor, *, seen: bool | None = None, savepoint: bool = True
) -> Iterator[None]:
    """Inside, the first action run (or `actor_for(token, for_update=True)`) takes `actor` as
    read locked, and what else the dispatcher knows (`Held`)."""
    reset = _held.set(Held(token, actor, seen, savepoint))
    try:
        yield
    finally:
        _held.reset(reset)


def _take_held(token: str) -> Held | None:
    held = _held.get()
    if held is None or held.token != token:
        return None
    _held.set(None)
    return held


# The tap being applied in this transaction, set by the dispatcher (companion.web.dispatch):
# its key's hash and its moment (epoch seconds), written on the events it records.
_tap_mark: contextvars.ContextVar[tuple[str, float] | None] = contextvars.ContextVar(
    "tap_mark", default=None
)


@contextlib.contextmanager
def marking(mark: tuple[str, float] | None) -> Iterator[None]:
    """Inside, every event recorded carries `mark` (tap_key, tapped_at)."""
    reset = _tap_mark.set(mark)
    try:
        yield
    finally:
        _tap_mark.reset(reset)


def actor_for(token: str, *, for_update: bool = False) -> Actor:
    """Resolve a seat token or a host token to an Actor, or raise NotFound."""
    if not token or len(token) > 64:
        raise NotFound()
    held = _take_held(token) if for_update else None
    if held is not None:
        return held.actor
    table: Table | None
    seat: Seat | None
    if for_update and not connection.features.has_select_for_update:
        # Every tap comes here first. SQLite's IMMEDIATE transaction already holds the write
        # lock: the seat and its table in one statement (companion.infra.fastsql: the ORM's query
        # building cost more than the queries).
        pair = fastsql.read_pair(Seat, Table, _SEAT_JOIN_TABLE, _SEAT_TOKEN, [token])
        if pair is not None:
            seat, table = pair
            seat.table = table
            return Actor(table=table, seat=seat, is_host=seat.is_host)
    elif for_update:
        # PostgreSQL: lock the table row, then read the seat, so its columns are the ones
        # committed by whoever held the lock before; sent together (one round trip in the
        # dispatcher's batch), the seat's statement runs once the lock is held.
        table, seat = fastsql.read_rows(
            [(Table, _TABLE_OF_TOKEN, [token], True), (Seat, "token = %s", [token], False)]
        )
        if table is not None:
            if seat is not None and seat.table_id == table.pk:
                seat.table = table
                return Actor(table=table, seat=seat, is_host=seat.is_host)
    else:
        # Every page a phone opens comes here first too: the same one statement.
        pair = fastsql.read_pair(Seat, Table, _SEAT_JOIN_TABLE, _SEAT_TOKEN, [token])
        if pair is not None:
            seat, table = pair
            seat.table = table
            return Actor(table=table, seat=seat, is_host=seat.is_host)
    query = Table.objects.filter(host_token=token)
    if for_update:
        query = query.select_for_update()
    table = query.first()
    if table is None or table.seats.filter(is_host=True).exists():
        raise NotFound()
    return Actor(table=table, seat=None, is_host=True)


def _first(query: QuerySet[M]) -> M | None:
    """The first row, without the ORDER BY that `.first()` adds."""
    return next(iter(query[:1]), None)


_SEAT_JOIN_TABLE = f"{Table._meta.db_table}.id = {Seat._meta.db_table}.table_id"
_SEAT_TOKEN = f"{Seat._meta.db_table}.token = %s"
_TABLE_OF_TOKEN = f"id = (SELECT table_id FROM {Seat._meta.db_table} WHERE token = %s)"  # noqa: S608


def may_act_on(actor: Actor, seat_pk: int | None) -> bool:
    """The one rights rule for a change to a seat: its own phone, the host, or, in referee mode,
    anyone seated at the table."""
    if actor.is_host or (actor.seat is not None and actor.seat.pk == seat_pk):
        return True
    return bool(actor.table.opts.referee_mode) and actor.seat is not None


def _require_host(actor: Actor) -> None:
    if not actor.is_host:
        raise ActionError(_("Only the host can do that."), status=403, code="not_host")


def _record(
    actor: Actor | None,
    table: Table,
    *,
    kind: str,
    public: dict[str, Any],
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    subject: Seat | None = None,
    action_id: str | None = None,
    change: Change | None = None,
    undoable: bool = False,
) -> Change:
    """Bump the version, append the event and schedule the broadcast for after the commit.
    `undoable`: "undo my last change" may pick it (as every kind of UNDOABLE_KINDS; a game's own
    taps say so of theirs)."""
    table.version += 1
    fastsql.update(table, ["version", "updated_at", *_dirty_table_fields(table)])
    event = Event(
        table_id=table.pk,
        version=table.version,
        game_number=table.game_number,
        kind=kind,
        actor=actor.label if actor else "system",
        actor_seat_id=actor.seat.pk if actor and actor.seat else None,
        subject_seat_id=subject.pk if subject else None,
        before=before or {},
        after=after or {},
        public=public,
        action_id=action_id or "",
        undoable=undoable or kind in UNDOABLE_KINDS,
    )
    mark = _tap_mark.get()
    if mark is not None:
        event.tap_key, event.tapped_at = mark
    # Nobody needs the event's key: inside the dispatcher's batch the INSERT goes with the commit.
    fastsql.insert(event, key=False)
    change = change or Change(table_id=table.pk, version=table.version)
    change.version = table.version
    change.action_id = action_id
    if change.delta_seats is not None:
        change.table = table
        change.event = (kind, public, table.version, table.game_number)
    # The change is committed whatever happens to its broadcast (a Redis outage), so the tap is
    # still answered as applied; phones that missed the frame catch up (live.js heartbeat).
    outbox.announce(change)
    return change


# The changes "undo" may revert (companion.actions.undo.event_undo): HP, deaths, equipment,
# delayed tricks, phases and turns. Each is marked on its event when recorded, so finding a
# seat's last one is an index lookup (Event "event_undo_last"), not a scan of the history.
UNDOABLE_KINDS = frozenset(
    {
        "damage",
        "lose_hp",
        "recover",
        "max_hp",
        "rescue",
        "died",
        "equipped",
        "unequipped",
        "trick_placed",
        "trick_removed",
        "phase",
        "turn",
        "turn_ended",
        # 军争 (companion.actions.damage): a chain, a 酒, a whole resolved damage.
        "chained",
        "wine",
        "damage_resolved",
        "chain_continued",
        # 1 vs 1 (companion.actions.draft.hero_fall): a hero fell and the next came in.
        "hero_fell",
        # A gift and its rebirth, a haunting, a soul used (companion.actions.afterlife).
        "rebirth_gift",
        "rebirth_reborn",
        "soul_haunted",
        "soul_used",
    }
)


_TABLE_FIELDS = (
    "status",
    "locked",
    "game_number",
    "mode",
    "options",
    "host_token",
    "hero_stage",
    "winner",
    "turn_seat",
    "round",
    "phase",
    "phase_skips",
    "turn_started_at",
    "phase_started_at",
    "timer_seconds",
    "pending_judgement",
    "mode_state",
    "session",
)


def _dirty_table_fields(table: Table) -> list[str]:
    """The fields the action changed since the row was read (all of them if unknown)."""
    loaded = getattr(table, "_loaded_values", None)
    if loaded is None:
        return list(_TABLE_FIELDS)
    missing = object()
    return [
        name
        for name, attname in _TABLE_ATTNAMES
        if getattr(table, attname) != loaded.get(attname, missing)
    ]


_TABLE_ATTNAMES = [
    (name, Table._meta.get_field(name).attname)  # type: ignore[union-attr]
    for name in _TABLE_FIELDS
]


def _seen(table: Table, action_id: str | None) -> bool:
    """Whether this tap was applied already (a double tap, or a replay after reconnect)."""
    if not action_id:
        return False
    # Asked on every tap: plain SQL over the unique index, without the ORM's query building
    # (which cost more than the query itself). Same condition as Event's unique constraint.
    with connection.cursor() as cursor:
        cursor.execute(_SEEN_SQL, [table.pk, action_id])
        return cursor.fetchone() is not None


# The condition repeats the unique index's own (Event.Meta "event_action_once") word for word:
# SQLite uses a partial index only then; otherwise it scans every event of the table.
_SEEN_SQL = (
    f"SELECT 1 FROM {Event._meta.db_table} "  # noqa: S608 - a constant table name
    "WHERE table_id = %s AND action_id = %s "
    "AND NOT (action_id = '') AND private_to_id IS NULL LIMIT 1"
)


def _already(table: Table, action_id: str | None) -> Change:
    return Change(table_id=table.pk, version=table.version, action_id=action_id, applied=False)


def action(
    fn: Callable[..., R] | None = None,
    *,
    replay: Callable[[Actor, Table, str | None], R] | None = None,
) -> Any:
    """Every write's frame, in one place: one short transaction; the acting screen read from
    its token with the table's row locked (`actor_for`); an action id this table has applied
    already answered as a replay (`_already`, or `replay`) without running the action again.
    The action itself is then called as `fn(actor, **fields, action_id=...)`; it checks the
    rights and the phase, changes rows and calls `_record` (the event, the version, the
    announcement on commit).

    Outside, an action keeps its keyword-only form: `seat_change_hp(token=..., seat_id=...,
    delta=..., action_id=...)`.
    """

    def wrap(inner: Callable[..., R]) -> Callable[..., R]:
        @functools.wraps(inner)
        def run(*, token: str, action_id: str | None = None, **fields: Any) -> R:
            held = _take_held(token)
            # Without a savepoint when the dispatcher rolls back the whole transaction on a
            # refusal: two statements less, and on PostgreSQL no subtransaction.
            with transaction.atomic(savepoint=held is None or held.savepoint):
                actor = held.actor if held is not None else actor_for(token, for_update=True)
                seen = held.seen if held is not None else None
                if seen is None:
                    seen = _seen(actor.table, action_id)
                if seen:
                    if replay is not None:
                        return replay(actor, actor.table, action_id)
                    return _already(actor.table, action_id)  # type: ignore[return-value]
                return inner(actor, action_id=action_id, **fields)

        run.is_action = True  # type: ignore[attr-defined]
        return run

    return wrap(fn) if fn is not None else wrap


def _seat_public(seat: Seat) -> dict[str, Any]:
    return {"seat": seat.pk, "name": seat.name}


def _seat_of(table: Table, seat_id: Any, known: Seat | None = None) -> Seat:
    """A seat of this table; any other id answers exactly like a bad token. `known`: a seat
    already read in this transaction (the actor's own), used instead of reading it again."""
    try:
        seat_pk = int(seat_id)
    except (TypeError, ValueError):
        raise NotFound() from None
    if known is not None and known.pk == seat_pk and known.table_id == table.pk:
        return known
    seat = _first(table.seats.filter(pk=seat_pk))
    if seat is None:
        raise NotFound()
    return seat
