"""Service functions: every write to a table goes through here.

Each action is one short transaction: lock the table row, check who is acting and whether the
action fits the table's state, change rows, append one Event, bump the table's version. Phones are
notified only after the commit (companion.live.broadcast).
"""

from companion.actions.box_offers import box_add, box_import, box_remove, box_switch
from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    NotFound,
    actor_for,
    clean_code,
    clean_name,
)
from companion.actions.death import seat_die
from companion.actions.deck import deck_reshuffle
from companion.actions.equipment import equipment_remove, equipment_set

# A seat moving to another phone (companion/actions/handover.py).
from companion.actions.handover import handover_cancel, handover_claim, handover_confirm
from companion.actions.heroes import hero_pick, heroes_redeal
from companion.actions.hp import seat_change_hp, seat_rescue, seat_set_max_hp
from companion.actions.judgement import judgement_confirm, judgement_flip, judgement_replace
from companion.actions.sessions import game_correct, session_new
from companion.actions.table import (
    game_start,
    host_pass,
    identities_deal,
    seat_handover,
    seat_join,
    seat_move,
    seat_remove,
    table_create,
    table_lock,
    table_set_options,
)
from companion.actions.tricks import trick_nullify, trick_place, trick_remove
from companion.actions.turns import timer_set, turn_advance, turn_end, turn_set
from companion.actions.undo import event_undo

__all__ = [
    "game_correct",
    "session_new",
    "ActionError",
    "Actor",
    "Change",
    "NotFound",
    "actor_for",
    "clean_code",
    "clean_name",
    "event_undo",
    "deck_reshuffle",
    "hero_pick",
    "heroes_redeal",
    "box_add",
    "box_import",
    "box_remove",
    "box_switch",
    "seat_change_hp",
    "seat_die",
    "seat_rescue",
    "seat_set_max_hp",
    "game_start",
    "host_pass",
    "identities_deal",
    "seat_handover",
    "seat_join",
    "seat_move",
    "seat_remove",
    "table_create",
    "table_lock",
    "table_set_options",
    "equipment_remove",
    "equipment_set",
    "judgement_confirm",
    "judgement_flip",
    "judgement_replace",
    "timer_set",
    "trick_nullify",
    "trick_place",
    "trick_remove",
    "turn_advance",
    "turn_end",
    "turn_set",
]
__all__ += ["handover_cancel", "handover_claim", "handover_confirm"]

# The question a mode's flow waits on and its answer (companion/actions/flow.py; a mode's own
# taps are its package's: companion/games/<key>).
from companion.actions.flow import flow_answer  # noqa: E402

__all__ += ["flow_answer"]
