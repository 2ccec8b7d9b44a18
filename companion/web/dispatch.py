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
from django.db import DatabaseError, OperationalError, connection, transaction
from django.http import QueryDict
from django.utils import translation

from companion import actions
from companion.actions import ActionError, NotFound
from companion.actions.core import Change, holding, marking
from companion.actions.outcomes import earlier_copies, record_outcome, tap_outcome
from companion.infra import fastsql
from companion.models import TapOutcome
from companion.web import forms, taps

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
        mark = taps.mark(key, taps.moment(token, action_id, arrived))
        deadline = arrived + deadline_seconds()
        try:
            return _decide(handler, request, token, action_id, mark, retry, deadline, lang)
        except _Refused as refused:
            if not action_id or deadline <= time.monotonic():
                # Nothing to record it under, or no time left to: refused, as judged.
                raise refused.refusal from None
            # Judged again with a savepoint, so that the refusal is recorded under the same
            # lock as the attempt; the table may have changed meanwhile, and this is the answer.
            return _decide(
                handler, request, token, action_id, mark, retry, deadline, lang, savepoint=True
            )

    return run


class _Refused(Exception):  # noqa: N818 - not an error: a tap judged without a savepoint
    """A refusal of a tap tried without a savepoint: its whole transaction is rolled back."""

    def __init__(self, refusal: ActionError) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


def _decide(
    handler: Callable[[Any, str, str | None], Any],
    request: Any,
    token: str,
    action_id: str | None,
    mark: tuple[str, float] | None,
    retry: bool,
    deadline: float,
    lang: str | None,
    *,
    savepoint: bool = False,
) -> Any:
    """One judgement of the tap, in one transaction. Without `savepoint` (a tap's first try)
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
            actor = actions.actor_for(token, for_update=True)
            # One statement: this id's recorded outcome, an identical tap applied within the
            # window by any process (the table's lock makes the second see the first), and
            # whether this id was applied already.
            recorded, merges, seen = earlier_copies(actor, action_id, mark, taps.window_seconds())
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
                # reference point of a merge: its events carry no mark.
                with (
                    holding(token, actor, seen=seen, savepoint=savepoint),
                    marking(None if retry else mark),
                ):
                    change = handler(request, token, action_id)
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
    if connection.vendor != "sqlite":
        # One batch (companion.infra.fastsql): the SET goes with the table's lock (one round trip),
        # the writes together at the end, before the commit.
        with transaction.atomic(), fastsql.batch():
            fastsql.later(f"SET LOCAL statement_timeout = {ms}")
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


class Taps(MutableMapping[str, Callable[..., Any]]):
    """Every tap but the HTTP-only ones, by name, judged once (`_judged`): the core's and the
    games' (companion.web.forms.FORMS), each made when first asked for, since a game's forms
    register when its app is ready. A test may put its own in place (`monkeypatch.setitem`)."""

    def __init__(self) -> None:
        self._made: dict[str, Callable[..., Any]] = {}

    def __getitem__(self, name: str) -> Callable[..., Any]:
        found = self._made.get(name)
        if found is None:
            if name in HTTP_ONLY or name not in forms.FORMS:
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
