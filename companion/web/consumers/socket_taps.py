"""The socket's taps: `{"type": "act"}` runs the same action as the HTTP view, as the seat of
the socket's token, on the database thread; `{"type": "status"}` asks what became of one."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
from typing import Any

from channels.layers import InMemoryChannelLayer
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext as _

from companion.actions import ActionError, NotFound, actor_for
from companion.actions.outcomes import TapAnswer, tap_outcome
from companion.infra import dbthread
from companion.live import broadcast
from companion.live.layers import run_eagerly
from companion.web import dispatch, taps
from companion.web.consumers.faults import (
    CLOSE_GONE,
    CLOSE_TRY_LATER,
    broadcast_failed,
    db_failed,
)
from companion.web.consumers.layer_probe import LIVE, layer_down, probe_once

log = logging.getLogger(__name__)

FIELD_NAME_RE = re.compile(r"^[a-z_]{1,32}$")


def _known_answer(action_id: str, known: TapAnswer) -> dict[str, Any]:
    """The answer to a tap whose outcome was decided by another copy of it."""
    if known.outcome == "applied":
        return {"type": "done", "action_id": action_id, "version": known.version}
    if known.outcome == "merged":
        return {"type": "merged", "action_id": action_id, "version": known.version}
    answer = {"type": "error", "action_id": action_id, "status": known.status}
    return {**answer, "message": known.message}


def valid_action_id(message: dict[str, Any]) -> str | None:
    action_id = message.get("action_id")
    if isinstance(action_id, str) and dispatch.ACTION_ID_RE.fullmatch(action_id):
        return action_id
    return None


class TapMixin:
    """A tap over the socket: checked, put in line on the database thread, answered in order
    (the change's own frame, done, merged or an error); and what became of an earlier tap."""

    async def _tap(self, message: dict[str, Any]) -> None:
        """A tap, unless this process cannot reach the channel layer: then it is refused before
        anything is written, as over HTTP (companion.web.middleware.RedisOutageMiddleware)."""
        layer = self.channel_layer
        if not isinstance(layer, InMemoryChannelLayer):  # Redis can go away; memory cannot
            reachable = not layer_down(layer)
            if reachable:
                LIVE.discard(self)  # answered first, closed after, if the probe fails
                reachable = await probe_once(layer)
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
        token = self.token
        taps.enter_line(token, action_id)
        judged = dbthread.submit_keyed(self.code, self._run_act, name, fields, action_id, arrived)
        judged.add_done_callback(lambda _done: taps.leave_line(token, action_id))
        previous = self._tap_tail
        if isinstance(self.channel_layer, InMemoryChannelLayer) and (
            previous is None or previous.done()
        ):
            # Answered when judged, in the judgement's own callback, as far as it goes without
            # waiting (the layer in this process hands the frames over at once): no task, and
            # no wake-up of one, per tap. A tap behind an unanswered one waits for it in a task.
            tail = asyncio.get_running_loop().create_future()
            judged.add_done_callback(functools.partial(self._answer_now, name, action_id, tail))
            self._tap_tail = tail
            return
        self._tap_tail = asyncio.ensure_future(self._answer(name, action_id, judged, previous))

    def _answer_now(
        self, name: str, action_id: str | None, tail: asyncio.Future[None], judged: Any
    ) -> None:
        """`_answer` of a tap judged with no earlier answer to wait for, run in the judgement's
        callback; whatever of it must wait goes on in a task. `tail` is done once answered."""
        if judged.cancelled():
            tail.set_result(None)
            return
        outcome: Any = judged.exception() or judged.result()
        try:
            rest = run_eagerly(self._answer_judged(name, action_id, outcome))
        except OSError as exc:  # the phone went away meanwhile
            log.debug("tap %s not answered: %r", name, exc)
            rest = None
        except Exception:
            log.exception("tap %s not answered", name)
            rest = None
        if rest is None:
            tail.set_result(None)
            return
        task = asyncio.ensure_future(self._answer_rest(name, rest))
        task.add_done_callback(lambda _done: tail.set_result(None))

    async def _answer_rest(self, name: str, rest: Any) -> None:
        try:
            await rest
        except OSError as exc:
            log.debug("tap %s not answered: %r", name, exc)
        except Exception:
            log.exception("tap %s not answered", name)

    async def _answer(
        self, name: str, action_id: str | None, judged: Any, previous: Any = None
    ) -> None:
        """Wait for the tap's judgement (and the previous tap's answer), then answer it."""
        try:
            try:
                outcome: Any = await judged
            except Exception as exc:  # noqa: BLE001 - answered below, after the previous tap
                outcome = exc
            if previous is not None and not previous.done():
                # An answer already sent needs no wait (a task and a wakeup fewer per tap).
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
            db_failed(outcome, "tap %s failed in the database, answered from the event log", name)
            await self._act_failed(action_id)
            return
        if isinstance(outcome, BaseException):
            raise outcome
        result, box = outcome
        try:
            await broadcast.send_all(box)
        except Exception as exc:  # noqa: BLE001 - the tap is committed: answered as applied
            broadcast_failed(exc, name)
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
        if result.get("status") == 404 and not await dbthread.run_keyed(
            self.code, self._token_valid
        ):
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
        refused with), "merged", "not_applied", or "unknown" while a copy of it is still in line
        here (companion.web.dispatch.status_of); `applied` true for the first only.

        Read on the reading thread, never behind the taps queued on the database thread: a
        held lock keeps the taps waiting (each until its deadline), not the question. `applied`
        is null when the answer is not known yet or the database cannot be read (the phone asks
        again)."""
        if not self.token or not (
            isinstance(action_id, str) and dispatch.ACTION_ID_RE.fullmatch(action_id)
        ):
            await self._error("malformed")
            return
        answer: dict[str, Any] = {"type": "status", "action_id": action_id}
        try:
            answer = await dbthread.read(dispatch.status_of, self.token, action_id)
        except NotFound:
            await self.close(code=CLOSE_GONE)
            return
        except DatabaseError as exc:
            db_failed(exc, "tap status unavailable, the phone asks again")
            answer["applied"] = None
        await self.send(text_data=json.dumps(answer))

    def _token_valid(self) -> bool:
        try:
            actor_for(self.token)
        except NotFound:
            return False
        return True
