"""The undo of the afterlife's events (actions/undo.py asks through the hooks): a gift (with its
rebirth), a haunting, a soul's use, and a death's change to the state."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from companion.actions.core import ActionError
from companion.games.afterlife.actions.rebirth_actions import reborn_row
from companion.games.afterlife.actions.state import KEY, restore, stored_before
from companion.models import Event, Seat, Table

UNDO_KINDS = frozenset({"rebirth_gift", "rebirth_reborn", "soul_haunted", "soul_used"})


def undo_death(table: Table, target: Event) -> None:
    """The undo of a death: the state back as it was before it."""
    if KEY in target.before:
        restore(table, target.before[KEY])


def undo(table: Table, target: Event) -> Seat | None:
    """Revert one of this module's events while the table is still as it left it: the state
    back, and the seat it changed (the reborn player dead again with his old hero). Returns
    the seat whose life changed, if any."""
    if table.game_number != target.game_number or stored_before(table) != target.after.get(KEY):
        raise _changed_since()
    changed: Seat | None = None
    if "seat" in target.before:
        seat = table.seats.get(pk=int(target.subject_seat_id or 0))
        if reborn_row(seat) != target.after["seat"]:
            raise _changed_since()
        row = target.before["seat"]
        seat.hero = row["hero"]
        seat.alive = row["alive"]
        seat.hp = row["hp"]
        seat.max_hp = row["max_hp"]
        seat.killer_id = row["killer"]
        seat.died_version = row["died_version"]
        seat.final_duel = row["final_duel"]
        seat.save()
        changed = seat
    restore(table, target.before.get(KEY, {}))
    return changed


def _changed_since() -> ActionError:
    return ActionError(
        _("That change cannot be undone: the table has changed since."), 409, "changed"
    )
