"""The protected player's taps (docs/rules.md §9.3): "I attack X" and "a Slash I dodged came
from X"."""

from __future__ import annotations

from companion.games.protection import actions
from companion.web.tapform import SeatTap


class ProtectionTap(SeatTap):
    """A tap of the protection's: its `action` is one of the protection's own actions."""


class StrikeForm(ProtectionTap):
    """The protected player attacks one of his attackers (docs/rules.md §9.3)."""

    action = staticmethod(actions.protection_strike)


class DodgedForm(ProtectionTap):
    """The protected player dodged a 杀 from a player: an attack all the same
    (docs/rules.md §9.3)."""

    action = staticmethod(actions.protection_dodged)
