"""The draw pile: "deck reshuffled" resets the judgement cards the live odds
take out (companion.read.deck); nothing else at the table changes."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.actions.core import ActionError, Actor, Change, action, record_change
from companion.actions.play import require_playing
from companion.models import RESHUFFLED


@action
def deck_reshuffle(actor: Actor, *, action_id: str | None = None, **_fields: Any) -> Change:
    """The discard pile was shuffled into a new draw pile: every card is back but the ones on
    the seats and in the zones."""
    table = actor.table
    require_playing(table)
    if actor.seat is None and not actor.is_host:
        raise ActionError(_("You can only change your own seat."), status=403, code="not_yours")
    return record_change(actor, table, kind=RESHUFFLED, public={}, action_id=action_id)
