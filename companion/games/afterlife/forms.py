"""The afterlife's taps (docs/rules.md §9.1, §9.2): a gift of a card to a dead player, a dark
soul's choice of whom to haunt, and its one use."""

from __future__ import annotations

from companion.games.afterlife import actions
from companion.web.tapform import SeatTap


class AfterlifeTap(SeatTap):
    """A tap of the afterlife's: its `action` is one of the afterlife's own actions."""


class GiveForm(AfterlifeTap):
    action = staticmethod(actions.rebirth_give)


class HauntForm(AfterlifeTap):
    action = staticmethod(actions.soul_haunt)


class SoulUseForm(AfterlifeTap):
    action = staticmethod(actions.soul_use)
