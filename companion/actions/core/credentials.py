"""Reading credentials: the acting screen from its token, and what the dispatcher holds."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import connection

from companion.actions.core.actors import Actor, NotFound
from companion.infra import fastrows
from companion.models import Seat, Table


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


def take_held(token: str) -> Held | None:
    held = _held.get()
    if held is None or held.token != token:
        return None
    _held.set(None)
    return held


# The tap being applied in this transaction, set by the dispatcher (companion.web.dispatch):
# its key's hash and its moment (epoch seconds), written on the events it records.
tap_mark: contextvars.ContextVar[tuple[str, float] | None] = contextvars.ContextVar(
    "tap_mark", default=None
)


@contextlib.contextmanager
def marking(mark: tuple[str, float] | None) -> Iterator[None]:
    """Inside, every event recorded carries `mark` (tap_key, tapped_at)."""
    reset = tap_mark.set(mark)
    try:
        yield
    finally:
        tap_mark.reset(reset)


def actor_for(token: str, *, for_update: bool = False) -> Actor:
    """Resolve a seat token or a host token to an Actor, or raise NotFound."""
    if not token or len(token) > 64:
        raise NotFound()
    held = take_held(token) if for_update else None
    if held is not None:
        return held.actor
    table: Table | None
    seat: Seat | None
    if for_update and not connection.features.has_select_for_update:
        # Every tap comes here first. SQLite's IMMEDIATE transaction already holds the write
        # lock: the seat and its table in one statement (companion.infra.fastrows: the ORM's query
        # building cost more than the queries).
        pair = fastrows.read_pair(Seat, Table, _SEAT_JOIN_TABLE, _SEAT_TOKEN, [token])
        if pair is not None:
            seat, table = pair
            seat.table = table
            return Actor(table=table, seat=seat, is_host=seat.is_host)
    elif for_update:
        # PostgreSQL: lock the table row, then read the seat, so its columns are the ones
        # committed by whoever held the lock before; sent together (one round trip in the
        # dispatcher's batch), the seat's statement runs once the lock is held.
        table, seat = fastrows.read_rows(
            [(Table, _TABLE_OF_TOKEN, [token], True), (Seat, "token = %s", [token], False)]
        )
        if table is not None:
            if seat is not None and seat.table_id == table.pk:
                seat.table = table
                return Actor(table=table, seat=seat, is_host=seat.is_host)
    else:
        # Every page a phone opens comes here first too: the same one statement.
        pair = fastrows.read_pair(Seat, Table, _SEAT_JOIN_TABLE, _SEAT_TOKEN, [token])
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


_SEAT_JOIN_TABLE = f"{Table._meta.db_table}.id = {Seat._meta.db_table}.table_id"
_SEAT_TOKEN = f"{Seat._meta.db_table}.token = %s"
_TABLE_OF_TOKEN = f"id = (SELECT table_id FROM {Seat._meta.db_table} WHERE token = %s)"  # noqa: S608
