"""What becomes of the dead with rebirth 转世 or dark souls 暗魂 on (docs/rules.md §9.1, §9.2,
docs/variants.md): a gift of a card to a dead player, his rebirth at the threshold, a dark soul's
choice of whom to haunt and its one use.

The state is public plain data (`rules.rebirth.RebirthState`, `rules.souls`), kept in
`Table.mode_state["afterlife"]` with the game's number (a new game starts empty), by seat index
in play order. The core reaches it through the package's hooks (`hooks.py`): a death calls
`died`, the end of the game and a killer's reward read `statuses`, every damage asks 罗汉
(`prevent`, `luohan_steps`, `spend_luohan`), an undo `undo` and `unspend_luohan`.

By responsibility: the state and the opening every tap shares (`state`), rebirth's taps
(`rebirth_actions`), the dark souls' taps and 罗汉 (`souls_actions`), the undo (`undo_actions`).
"""

from companion.games.afterlife.actions.rebirth_actions import GIFT_REFUSALS, rebirth_give
from companion.games.afterlife.actions.souls_actions import (
    SOUL_REFUSALS,
    hp_change,
    luohan_steps,
    prevent_damage,
    soul_haunt,
    soul_use,
    spend_luohan,
    unspend_luohan,
)
from companion.games.afterlife.actions.state import (
    DARK_SOULS,
    KEY,
    REBIRTH,
    Afterlife,
    died,
    enabled,
    load,
    reborn_seat_ids,
    restore,
    statuses,
    stored_before,
    with_reborn,
)
from companion.games.afterlife.actions.undo_actions import UNDO_KINDS, undo, undo_death

__all__ = [
    "DARK_SOULS",
    "GIFT_REFUSALS",
    "KEY",
    "REBIRTH",
    "SOUL_REFUSALS",
    "UNDO_KINDS",
    "Afterlife",
    "died",
    "enabled",
    "hp_change",
    "load",
    "luohan_steps",
    "prevent_damage",
    "reborn_seat_ids",
    "rebirth_give",
    "restore",
    "soul_haunt",
    "soul_use",
    "spend_luohan",
    "statuses",
    "stored_before",
    "undo",
    "undo_death",
    "unspend_luohan",
    "with_reborn",
]
