"""军争 at the table: a seat's chain (铁索连环), its 酒 marker, and a whole resolved
damage (`rules.resolver`) applied as one change with one event, so one undo restores it.

The damage is applied in full: every step of a chain at once. A seat it leaves dying is settled
afterwards with the usual rescue or death, in the order of the steps (`public["dying"]`): each
seat's damage does not depend on whether an earlier one was saved (docs/rules.md §9.9).

By responsibility: what a damage would do, read only (`preview`: the dialog's preview and the
paused chain); the damage applied (`resolve`: the taps; `landing`: the rows, the event and its
undo); a seat's chain and 酒 (`markers`).
"""

from companion.games.maneuvering.actions.landing import undo_resolved
from companion.games.maneuvering.actions.markers import (
    SEAT_STATE_KINDS,
    seat_drink_wine,
    seat_set_chained,
    undo_seat_state,
)
from companion.games.maneuvering.actions.preview import (
    CONTINUED,
    RESOLVED,
    damage_preview,
    paused_chain,
    shown_key,
    step_public,
)
from companion.games.maneuvering.actions.resolve import damage_continue, damage_resolve

__all__ = [
    "CONTINUED",
    "RESOLVED",
    "SEAT_STATE_KINDS",
    "damage_continue",
    "damage_preview",
    "damage_resolve",
    "paused_chain",
    "seat_drink_wine",
    "seat_set_chained",
    "shown_key",
    "step_public",
    "undo_resolved",
    "undo_seat_state",
]
