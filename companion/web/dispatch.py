"""Taps by name: the form fields of every state-changing tap, mapped onto one action each.

The same table serves the HTTP view (`POST .../act/<name>`) and the phone's websocket
(`{"type": "act", "name": ..., "fields": {...}}`): either way the acting seat comes from the
token the phone was reached by, never from the fields.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from django.conf import settings
from django.db import DatabaseError, OperationalError, connection, transaction
from django.http import QueryDict
from django.utils import translation

from companion import actions
from companion.actions import ActionError, NotFound
from companion.actions.core import Change, _seen, holding
from companion.actions.outcomes import record_outcome, recorded_outcome
from companion.models import TapOutcome
from companion.rules import modes
from companion.web import taps

# A tap's id, made by the phone: replays with the same id are applied once.
ACTION_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class Fields:
    """The `request.POST` of a tap that did not come as an HTTP request."""

    def __init__(self, fields: Mapping[str, Any]) -> None:
        self.POST = QueryDict(mutable=True)
        for name, value in fields.items():
            if isinstance(value, list):
                self.POST.setlist(name, [str(v) for v in value])
            else:
                self.POST[name] = str(value)


def _flag(request: Any, name: str) -> bool:
    return request.POST.get(name, "") in {"1", "on", "true", "yes"}


ACTIONS: dict[str, Callable[[Any, str, str | None], Any]] = {
    "move": lambda r, t, a: actions.seat_move(
        token=t, seat_id=r.POST.get("seat"), position=r.POST.get("position"), action_id=a
    ),
    "remove": lambda r, t, a: actions.seat_remove(token=t, seat_id=r.POST.get("seat"), action_id=a),
    "lock": lambda r, t, a: actions.table_lock(token=t, locked=_flag(r, "locked"), action_id=a),
    "options": lambda r, t, a: actions.table_set_options(
        token=t,
        options={
            name: _flag(r, name)
            for name in r.POST.getlist("fields") or modes.option_names()
            if name in modes.option_names()
        },
        action_id=a,
    ),
    "host": lambda r, t, a: actions.host_pass(token=t, seat_id=r.POST.get("seat"), action_id=a),
    "deal": lambda r, t, a: actions.identities_deal(
        token=t, confirm=_flag(r, "confirm"), action_id=a
    ),
    "start": lambda r, t, a: actions.game_start(token=t, action_id=a),
    "pick": lambda r, t, a: actions.hero_pick(token=t, hero_id=r.POST.get("hero", ""), action_id=a),
    "heroredeal": lambda r, t, a: actions.heroes_redeal(
        token=t, confirm=_flag(r, "confirm"), action_id=a
    ),
    "hp": lambda r, t, a: actions.seat_change_hp(
        token=t,
        seat_id=r.POST.get("seat"),
        delta=r.POST.get("delta"),
        source=r.POST.get("source", ""),
        damage_type=r.POST.get("damage_type", "normal"),
        loss=_flag(r, "lose"),
        action_id=a,
    ),
    "maxhp": lambda r, t, a: actions.seat_set_max_hp(
        token=t, seat_id=r.POST.get("seat"), max_hp_value=r.POST.get("max_hp"), action_id=a
    ),
    "rescue": lambda r, t, a: actions.seat_rescue(
        token=t,
        seat_id=r.POST.get("seat"),
        by=r.POST.get("by", ""),
        kind=r.POST.get("kind", "peach"),
        action_id=a,
    ),
    "die": lambda r, t, a: actions.seat_die(token=t, seat_id=r.POST.get("seat"), action_id=a),
    "undo": lambda r, t, a: actions.event_undo(token=t, version=r.POST.get("version"), action_id=a),
    "equip": lambda r, t, a: actions.equipment_set(
        token=t,
        seat_id=r.POST.get("seat"),
        name=r.POST.get("name", ""),
        replace=_flag(r, "replace"),
        action_id=a,
    ),
    "unequip": lambda r, t, a: actions.equipment_remove(
        token=t, seat_id=r.POST.get("seat"), slot=r.POST.get("slot", ""), action_id=a
    ),
    "trick": lambda r, t, a: actions.trick_place(
        token=t, seat_id=r.POST.get("seat"), name=r.POST.get("name", ""), action_id=a
    ),
    "untrick": lambda r, t, a: actions.trick_remove(
        token=t, seat_id=r.POST.get("seat"), name=r.POST.get("name", ""), action_id=a
    ),
    "nullify": lambda r, t, a: actions.trick_nullify(
        token=t, seat_id=r.POST.get("seat"), name=r.POST.get("name", ""), action_id=a
    ),
    "judge": lambda r, t, a: actions.judgement_flip(
        token=t,
        check=r.POST.get("check", ""),
        suit=r.POST.get("suit", ""),
        rank=r.POST.get("rank", ""),
        seat_id=r.POST.get("seat"),
        trick=r.POST.get("trick", ""),
        action_id=a,
    ),
    "replace": lambda r, t, a: actions.judgement_replace(
        token=t, suit=r.POST.get("suit", ""), rank=r.POST.get("rank", ""), action_id=a
    ),
    "confirm": lambda r, t, a: actions.judgement_confirm(token=t, action_id=a),
    "next": lambda r, t, a: actions.turn_advance(token=t, action_id=a),
    "endturn": lambda r, t, a: actions.turn_end(token=t, action_id=a),
    "turnset": lambda r, t, a: actions.turn_set(
        token=t,
        seat_id=r.POST.get("seat"),
        phase=r.POST.get("phase", ""),
        round_number=r.POST.get("round"),
        action_id=a,
    ),
    "timer": lambda r, t, a: actions.timer_set(token=t, seconds=r.POST.get("seconds"), action_id=a),
}

# Issue 10: the seat's own phone agrees to a move the host asked for; anyone stops one.
ACTIONS["handoverok"] = lambda r, t, a: actions.handover_confirm(token=t, action_id=a)
ACTIONS["handoverno"] = lambda r, t, a: actions.handover_cancel(
    token=t, seat_id=r.POST.get("seat"), action_id=a
)

# Taps that answer with a page of their own (a QR code) go through HTTP only.
HTTP_ONLY = frozenset({"handover"})


class TooLate(DatabaseError):
    """The tap could not be judged before its deadline (it waited in line, or for the
    database's lock, too long): nothing was changed, and the phone may try again."""


def deadline_seconds() -> float:
    return float(getattr(settings, "TAP_DEADLINE_MS", 3500)) / 1000


def _judged(name: str, handler: Callable[[Any, str, str | None], Any]) -> Callable[..., Any]:
    """Every tap, judged once (docs/architecture.md, "A tap's outcome is never guessed").

    - By its deadline: `arrived` is when it entered the process; a tap not judged within
      `TAP_DEADLINE_MS` of it is not tried, and waits for the lock only for the time left.
    - Once per action id: a refusal or a merge is recorded (TapOutcome) in the same transaction,
      under the same table lock as the attempt (the action's own atomic block is a savepoint
      inside it), and every
      later copy of the id is answered with it; an applied one is in the event log.
    - An identical tap arriving within the window of an applied one is merged (companion.web.taps).
    """

    def run(
        request: Any,
        token: str,
        action_id: str | None,
        *,
        arrived: float | None = None,
        retry: bool = False,
        lang: str | None = None,
    ) -> Any:
        if arrived is None:
            arrived = taps.arrive(token, action_id)
        key = taps.key_of(name, request.POST, token)
        when = taps.moment(token, action_id, arrived)
        with taps.turn(key):
            left = arrived + deadline_seconds() - time.monotonic()
            if left <= 0:
                raise TooLate()
            change = _decide(handler, request, token, action_id, key, when, left, lang)
            if isinstance(change, Change) and change.applied and not retry:
                taps.note(key, action_id, when)
        return change

    return run


def _decide(
    handler: Callable[[Any, str, str | None], Any],
    request: Any,
    token: str,
    action_id: str | None,
    key: taps.Key | None,
    when: float,
    left: float,
    lang: str | None,
) -> Any:
    refusal: ActionError | None = None
    change: Any = None
    try:
        with _lock_wait(left):
            actor = actions.actor_for(token, for_update=True)
            recorded = action_id and recorded_outcome(actor, action_id)
            if recorded:
                kind, status, message = recorded
                if kind != TapOutcome.Kind.MERGED:
                    raise ActionError(message, status=status, code="recorded")
                return _merged(actor, action_id)
            if taps.merges(key, action_id, when) and not _seen(actor.table, action_id):
                if action_id:
                    record_outcome(actor, action_id, TapOutcome.Kind.MERGED)
                return _merged(actor, action_id)
            try:
                # Every action is atomic itself: inside this transaction, a savepoint, so a
                # refusal leaves nothing of its attempt but the record below
                # (tests/actions/test_tap_trust.py checks that each is).
                with holding(token, actor):
                    change = handler(request, token, action_id)
            except NotFound:
                raise
            except ActionError as exc:
                if action_id:
                    # In the language the phone is answered in (the socket's, or the request's).
                    with translation.override(lang) if lang else contextlib.nullcontext():
                        text = str(exc.message)
                    record_outcome(actor, action_id, TapOutcome.Kind.REFUSED, exc.status, text)
                refusal = exc
    except OperationalError as exc:
        if _lock_timed_out(exc):
            raise TooLate() from exc
        raise
    if refusal is not None:
        raise refusal
    return change


def _merged(actor: actions.Actor, action_id: str | None) -> Change:
    table = actor.table
    return Change(
        table_id=table.pk, version=table.version, action_id=action_id, applied=False, merged=True
    )


# A connection's busy timeout is set again only when a tap's time left differs by more.
BUSY_SLACK_MS = 250


@contextlib.contextmanager
def _lock_wait(seconds: float) -> Iterator[None]:
    """A transaction that waits for the database's write lock at most `seconds`.

    SQLite: the connection's busy timeout, set before the IMMEDIATE transaction begins (only
    when it differs, so a tap that did not wait in line costs no statement). It stays for the
    connection's next statements: on the database thread those are taps and reads (WAL: a read
    never waits for the write lock), and a request's connection is closed at its end; pages and
    every other write keep the configured timeout. PostgreSQL: the transaction's
    `statement_timeout` (SET LOCAL), set first thing inside it: `lock_timeout` alone applies to
    each lock a statement waits for, and a row lock taken in a queue is two (the row's place in
    the queue, then the holder's transaction)."""
    ms = max(1, int(seconds * 1000))
    if connection.vendor != "sqlite":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"SET LOCAL statement_timeout = {ms}")
            yield
        return
    connection.ensure_connection()
    raw = connection.connection
    known = getattr(connection, "tap_busy_timeout", None)
    if known is None or known[0] is not raw or abs(known[1] - ms) > BUSY_SLACK_MS:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA busy_timeout = {ms}")
        connection.tap_busy_timeout = (raw, ms)
    with transaction.atomic():
        yield


def _lock_timed_out(exc: OperationalError) -> bool:
    cause = exc.__cause__
    # PostgreSQL: lock_not_available, or query_canceled (statement_timeout, set per tap).
    if getattr(cause, "sqlstate", None) in ("55P03", "57014"):
        return True
    return connection.vendor == "sqlite" and "locked" in str(exc)


ACTIONS = {name: _judged(name, handler) for name, handler in ACTIONS.items()}
