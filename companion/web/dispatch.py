"""Taps by name: every state-changing tap's form (companion.web.forms) and its action, judged once.

The same table serves the HTTP view (`POST .../act/<name>`) and the phone's websocket
(`{"type": "act", "name": ..., "fields": {...}}`): either way the acting seat comes from the
token the phone was reached by, never from the fields.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import Any

from django.conf import settings
from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    OperationalError,
    connection,
    connections,
    transaction,
)
from django.http import QueryDict
from django.utils import translation

from companion import actions
from companion.actions import ActionError, NotFound
from companion.actions.core import Change, holding, run_as, tap_mark, tap_reading
from companion.actions.outcomes import record_outcome, tap_outcome
from companion.infra import fastsql
from companion.models import TapOutcome
from companion.web import forms, taps

# A tap's id, made by the phone: replays with the same id are applied once.
ACTION_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class Fields:
    """A tap that did not come as an HTTP request (the socket's): its fields as sent
    (`fields`), and as `request.POST` (a QueryDict, made when a form reads it)."""

    def __init__(self, fields: Mapping[str, Any]) -> None:
        self.fields = fields
        self._post: QueryDict | None = None

    @property
    def POST(self) -> QueryDict:  # noqa: N802 - the name of an HTTP request's
        if self._post is None:
            self._post = QueryDict(mutable=True)
            for name, value in self.fields.items():
                if isinstance(value, list):
                    self._post.setlist(name, [str(v) for v in value])
                else:
                    self._post[name] = str(value)
        return self._post


# The HP form's fields that a phone's − and + send (companion.web.forms.HpForm): the seat, the
# delta and who dealt the damage.
_HP_PLAIN = frozenset({"seat", "delta", "source"})
# A whole number any field of the form takes as it is: digits with an optional minus, at most 18
# (inside the database's 64-bit integers).
_PLAIN_WHOLE = re.compile(r"-?[0-9]{1,18}")
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1


def _whole(value: Any) -> int | None:
    if type(value) is int:
        return value if _INT_MIN <= value <= _INT_MAX else None
    if type(value) is str and _PLAIN_WHOLE.fullmatch(value):
        return int(value)
    return None


def hp_arguments(fields: Mapping[str, Any]) -> dict[str, Any] | None:
    """The HP tap's arguments as its form makes them, when its fields are the plain ones a
    phone sends over its socket (the seat and the delta as whole numbers; a source seat, or none:
    "" or "none"), without the form, its fields and a QueryDict: most of the web layer's own
    work in the commonest tap. Any other field or value: None, and the form judges the tap (its
    answers to a bad field are its own). tests/web/test_hp_plain.py holds the two alike."""
    if not fields.keys() <= _HP_PLAIN:
        return None
    seat = _whole(fields.get("seat"))
    delta = _whole(fields.get("delta"))
    if seat is None or delta is None:
        return None
    source = fields.get("source", "")
    if source in ("", "none"):
        source = None
    elif (source := _whole(source)) is None:
        return None
    return {
        "seat_id": seat,
        "delta": delta,
        "source": source,
        "damage_type": "normal",
        "loss": False,
    }


# Taps whose plain fields skip their form: name -> (the form's action, its arguments or None).
PLAIN_TAPS: dict[str, tuple[Callable[..., Any], Callable[[Mapping[str, Any]], Any]]] = {
    "hp": (forms.HpForm.action, hp_arguments),
}


def run_tap(name: str, data: Any, token: str, action_id: str | None) -> Any:
    """Tap `name` with its fields `data` (a QueryDict): its form (companion.web.forms) checks
    them, then calls its action as the screen of `token`. Bad fields are an ActionError (400,
    one message), the same over HTTP and the socket."""
    return forms.FORMS[name].checked(data).run(token, action_id)


def _handler(name: str) -> Callable[[Any, str, str | None], Any]:
    def handle(request: Any, token: str, action_id: str | None) -> Any:
        return run_tap(name, request.POST, token, action_id)

    return handle


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

    plain = PLAIN_TAPS.get(name)

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
        arguments = None
        if plain is not None and type(request) is Fields:
            arguments = plain[1](request.fields)
        apply: Callable[[actions.Actor, bool, bool], Any]
        if arguments is not None:
            key = taps.plain_key(name, request.fields, token)
            function = plain[0]

            def apply(actor: actions.Actor, seen: bool, savepoint: bool) -> Any:
                return run_as(
                    function,
                    actor,
                    seen=seen,
                    savepoint=savepoint,
                    action_id=action_id,
                    fields=arguments,
                )
        else:
            key = taps.key_of(name, request.POST, token)

            def apply(actor: actions.Actor, seen: bool, savepoint: bool) -> Any:
                with holding(token, actor, seen=seen, savepoint=savepoint):
                    return handler(request, token, action_id)

        mark = taps.mark(key, taps.moment(token, action_id, arrived))
        deadline = arrived + deadline_seconds()
        try:
            return _decide(apply, token, action_id, mark, retry, deadline, lang)
        except _Refused as refused:
            if not action_id or deadline <= time.monotonic():
                # Nothing to record it under, or no time left to: refused, as judged.
                raise refused.refusal from None
            # Judged again with a savepoint, so that the refusal is recorded under the same
            # lock as the attempt; the table may have changed meanwhile, and this is the answer.
            return _decide(apply, token, action_id, mark, retry, deadline, lang, savepoint=True)

    return run


class _Refused(Exception):  # noqa: N818 - not an error: a tap judged without a savepoint
    """A refusal of a tap tried without a savepoint: its whole transaction is rolled back."""

    def __init__(self, refusal: ActionError) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


def _decide(
    apply: Callable[[actions.Actor, bool, bool], Any],
    token: str,
    action_id: str | None,
    mark: tuple[str, float] | None,
    retry: bool,
    deadline: float,
    lang: str | None,
    *,
    savepoint: bool = False,
) -> Any:
    """One judgement of the tap, in one transaction: `apply(actor, seen, savepoint)` runs its
    action. Without `savepoint` (a tap's first try)
    the action runs with no savepoint of its own, and a refusal leaves the transaction as a
    `_Refused` (rolled back whole: nothing of the attempt stays); with it, the refusal is
    recorded in the transaction, the attempt rolled back to its savepoint."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TooLate()
    refusal: ActionError | None = None
    change: Any = None
    try:
        with _lock_wait(left):
            # One statement: the acting seat with its table (the row locked), this id's
            # recorded outcome, an identical tap applied within the window by any process (the
            # table's lock makes the second see the first), and whether this id was applied
            # already.
            actor, recorded, merges, seen = tap_reading(
                token, action_id, mark, taps.window_seconds()
            )
            if recorded:
                kind, status, message = recorded
                if kind != TapOutcome.Kind.MERGED:
                    raise ActionError(message, status=status, code="recorded")
                return _merged(actor, action_id)
            if merges:
                if action_id:
                    record_outcome(actor, action_id, TapOutcome.Kind.MERGED)
                return _merged(actor, action_id)
            try:
                # A refusal leaves nothing of its attempt but the record below: the whole
                # transaction rolled back (first try), or the action's savepoint (the second;
                # tests/actions/test_tap_trust.py checks that each is). A retry is never the
                # reference point of a merge: its events carry no mark (companion.actions.core's
                # `tap_mark`, which `marking` sets for other callers).
                marked = tap_mark.set(None if retry else mark)
                try:
                    change = apply(actor, seen, savepoint)
                finally:
                    tap_mark.reset(marked)
            except NotFound:
                raise
            except ActionError as exc:
                if not savepoint:
                    raise _Refused(exc) from exc
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
    # The connection itself, looked up once (each attribute read through
    # `django.db.connection` looks it up again in the thread's connections).
    conn = connections[DEFAULT_DB_ALIAS]
    if conn.vendor != "sqlite":
        # One batch (companion.infra.fastsql): the SET goes with the table's lock (one round trip),
        # the writes together at the end, before the commit.
        with transaction.atomic(), fastsql.batch():
            fastsql.later(f"SET LOCAL statement_timeout = {ms}")
            yield
        return
    conn.ensure_connection()
    raw = conn.connection
    known = getattr(conn, "tap_busy_timeout", None)
    if known is None or known[0] is not raw or abs(known[1] - ms) > BUSY_SLACK_MS:
        with conn.cursor() as cursor:
            cursor.execute(f"PRAGMA busy_timeout = {ms}")
        conn.tap_busy_timeout = (raw, ms)
    with transaction.atomic():
        yield


def _lock_timed_out(exc: OperationalError) -> bool:
    cause = exc.__cause__
    # PostgreSQL: lock_not_available, or query_canceled (statement_timeout, set per tap).
    if getattr(cause, "sqlstate", None) in ("55P03", "57014"):
        return True
    return connection.vendor == "sqlite" and "locked" in str(exc)


class Taps(MutableMapping[str, Callable[..., Any]]):
    """Every tap but the HTTP-only ones, by name, judged once (`_judged`): the core's and the
    games' (companion.web.forms.FORMS), each made when first asked for, since a game's forms
    register when its app is ready. A test may put its own in place (`monkeypatch.setitem`)."""

    def __init__(self) -> None:
        self._made: dict[str, Callable[..., Any]] = {}

    def __getitem__(self, name: str) -> Callable[..., Any]:
        found = self._made.get(name)
        if found is None:
            # The core's forms first (a plain dict): only a game's tap asks the games.
            if name in HTTP_ONLY or (name not in forms.CORE_FORMS and name not in forms.FORMS):
                raise KeyError(name)
            found = self._made[name] = _judged(name, _handler(name))
        return found

    def __setitem__(self, name: str, value: Callable[..., Any]) -> None:
        self._made[name] = value

    def __delitem__(self, name: str) -> None:
        del self._made[name]

    def __iter__(self) -> Iterator[str]:
        return (name for name in forms.FORMS if name not in HTTP_ONLY)

    def __len__(self) -> int:
        return sum(1 for _ in self)


# Every other tap, by name (its form says what it takes and which action it calls).
ACTIONS = Taps()


def status_of(token: str, action_id: str) -> dict[str, Any]:
    """What became of this screen's tap `action_id`, as the phone's status question is answered
    (over the socket or HTTP): `outcome` "applied", "refused" (with its `status` and
    `message`), "merged", "not_applied", or "unknown" while a copy of it is still in line in this
    process (`applied` null: the phone asks again). A read beside the writer, never behind it: a
    held lock delays the tap, not the answer (a database that cannot be read raises)."""
    judging = taps.waiting(token, action_id)  # before the read: a tap judged meanwhile shows
    known = tap_outcome(token, action_id)
    answer: dict[str, Any] = {"type": "status", "action_id": action_id, "version": known.version}
    if judging and known.outcome == "not_applied":
        return answer | {"applied": None, "outcome": "unknown"}
    answer |= {"applied": known.applied, "outcome": known.outcome}
    if known.outcome == "refused":
        answer["status"], answer["message"] = known.status, known.message
    return answer
