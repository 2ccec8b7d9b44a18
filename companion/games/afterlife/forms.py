"""The afterlife's taps (docs/rules.md §9.1, §9.2): a gift of a card to a dead player, a dark
soul's choice of whom to haunt, and its one use."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.afterlife import actions
from companion.web.tapform import SeatTap


class AfterlifeTap(SeatTap):
    """A tap whose action is one of the afterlife's own (`action` names it there)."""

    @classmethod
    def function(cls) -> Callable[..., Any]:
        return getattr(actions, cls.action)


class GiveForm(AfterlifeTap):
    action = "rebirth_give"


class HauntForm(AfterlifeTap):
    action = "soul_haunt"


class SoulUseForm(AfterlifeTap):
    action = "soul_use"
