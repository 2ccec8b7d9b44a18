"""The question a mode's flow waits on, answered (docs/modes.md): the seat the flow asks
(`Mode.flow_pending`) answers with one of its answers, and the turn it names begins. The flow's
state is `Table.mode_state["flow"]` (companion.actions.turns); the question, the answer and the
turn are public at the table."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from companion.actions.core import ActionError, Actor, Change, action, record_change, seat_public
from companion.actions.inputs import mode_of, ordered_seats
from companion.actions.play import require_playing
from companion.actions.turns import apply_flow, flow_state, turn_extra, turn_now
from companion.queries.seats import statuses
from companion.rules.errors import Refused

FLOW_REFUSALS: dict[str, Any] = {
    "no_question": _("Nothing is being asked."),
    "not_chooser": _("The commander asked answers that."),
    "bad_answer": _("That is not one of the answers."),
}


@action
def flow_answer(actor: Actor, *, answer: str, action_id: str | None = None) -> Change:
    """The seat the mode's flow asks answers (which side acts first, who of a side acts); the
    turn it names begins."""
    table = actor.table
    require_playing(table)
    seat = actor.seat
    if seat is None:
        raise ActionError(FLOW_REFUSALS["not_chooser"], 403, "not_chooser")
    seats = ordered_seats(table)
    index = next(i for i, s in enumerate(seats) if s.pk == seat.pk)
    mode = mode_of(table)
    asked = mode.flow_pending(statuses(seats), flow_state(table))
    before = {**turn_now(table), **turn_extra(table)}
    try:
        step = mode.flow_answer(statuses(seats), flow_state(table), index, str(answer))
    except Refused as error:
        message = FLOW_REFUSALS.get(error.code, _("That is not possible now."))
        status = 403 if error.code == "not_chooser" else 409
        raise ActionError(message, status, error.code) from None
    now = timezone.now()
    pks = {s.pk for s in seats}
    holder = apply_flow(table, seats, step, now)
    table.phase_started_at = now
    return record_change(
        actor,
        table,
        kind="flow_answered",
        public={
            **seat_public(seat),
            "question": asked.question if asked else "",
            "answer": str(answer),
            "turn_to": holder.pk if holder else None,
            "turn_name": holder.name if holder else "",
            "round": table.round,
        },
        before=before,
        after=turn_now(table),
        subject=holder or seat,
        action_id=action_id,
        change=Change(table.pk, table.version, host_panel=True, private_seats=set(pks)),
    )
