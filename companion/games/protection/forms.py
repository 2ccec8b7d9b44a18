"""The protected player's taps (docs/rules.md §9.3): "I attack X" and "a Slash I dodged came
from X"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.protection import actions
from companion.web.tapform import SeatTap


class ProtectionTap(SeatTap):
    """A tap whose action is one of the protection's own (`action` names it there)."""

    @classmethod
    def function(cls) -> Callable[..., Any]:
        return getattr(actions, cls.action)


class StrikeForm(ProtectionTap):
    """The protected player attacks one of his attackers (docs/rules.md §9.3)."""

    action = "protection_strike"


class DodgedForm(ProtectionTap):
    """The protected player dodged a 杀 from a player: an attack all the same
    (docs/rules.md §9.3)."""

    action = "protection_dodged"
