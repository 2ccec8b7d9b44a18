"""军争's taps: a whole resolved damage, the rest of a paused chain, a seat's chain (铁索连环)
and its 酒."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from companion.actions.hp import DAMAGE_TYPES
from companion.games.maneuvering import actions
from companion.games.maneuvering.rules.offers import HORSE_SLOTS
from companion.web.fields import Choice, Flag, SeatId, SourceSeat, Text, Whole
from companion.web.tapform import NoFields, SeatTap, TapForm


class ManeuveringTap(TapForm):
    """A tap whose action is one of 军争's own (`action` names it in its actions)."""


class ResolveForm(ManeuveringTap):
    action = staticmethod(actions.damage_resolve)
    target = SeatId()
    card = Text(_("Unknown damage."))
    source = SourceSeat(required=False)
    amount = Whole(_("Damage is a whole number."), required=False)
    damage_type = Choice(DAMAGE_TYPES, _("Unknown damage type."), default="")
    weapon_skill = Flag()
    black = Flag()
    target_hand_empty = Flag()
    qilin = Choice(HORSE_SLOTS, _("The target has no such horse."), default="")
    axe = Flag()
    shown = Text(_("The damage has changed since it was shown: look at it again."))


class ChainForm(SeatTap, ManeuveringTap):
    action = staticmethod(actions.seat_set_chained)
    chained = Flag()


class WineForm(SeatTap, ManeuveringTap):
    action = staticmethod(actions.seat_drink_wine)


class ChainGoForm(NoFields, ManeuveringTap):
    """The rest of a chain, once the seat it left dying was saved or died."""

    action = staticmethod(actions.damage_continue)
