"""One form per tap: the tap's fields, typed and checked, and the action they are handed to.

The HTTP view and the socket bind the same form to the tap's fields (a QueryDict either way,
companion.web.dispatch), so a bad field gets the same answer on both paths: `refusal()`, an
ActionError with status 400 and one message naming what is wrong, translated when it is shown.
The base every form builds on (`TapForm`, `SeatTap`, `NoFields`) is companion.web.tapform.

A form checks type and shape only (a number, one of a closed set of words); the action keeps
every check of meaning (rights, the phase, ranges such as HP changing by 1 to 10, whether a
seat is at this table).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext_lazy as _

from companion import actions, hooks
from companion.actions.equipment import SLOT_NAMES
from companion.rules import modes
from companion.rules.judgement import Check
from companion.rules.turns import PHASE_ORDER
from companion.web.fields import (
    Choice,
    Flag,
    OptionNames,
    RankField,
    SeatId,
    SourceSeat,
    SuitField,
    Text,
    Whole,
)
from companion.web.tapform import NoFields, SeatTap, TapForm

# The table, before the game ------------------------------------------------------------------


class MoveForm(SeatTap):
    action = staticmethod(actions.seat_move)
    position = Whole(_("That is not a seat number."))


class RemoveForm(SeatTap):
    action = staticmethod(actions.seat_remove)


class LockForm(TapForm):
    action = staticmethod(actions.table_lock)
    locked = Flag()


# One flag for every option (a tap form's fields are shared, never changed).
_OPTION_FLAG = Flag()


class OptionsForm(TapForm):
    """`fields` names the options the form holds (the others keep their value); each named
    option is a flag. Without `fields`, every option is."""

    action = staticmethod(actions.table_set_options)
    fields = OptionNames()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A flag for every option of every mode, asked when the form is made: a mode registers
        # when its game package's app is ready, which may be after this module is imported.
        for name in modes.option_names():
            self.fields.setdefault(name, _OPTION_FLAG)

    def arguments(self) -> dict[str, Any]:
        named = self.cleaned_data["fields"] or modes.option_names()
        return {"options": {name: self.cleaned_data[name] for name in named}}


class HostForm(SeatTap):
    action = staticmethod(actions.host_pass)


class DealForm(TapForm):
    action = staticmethod(actions.identities_deal)
    confirm = Flag()


class StartForm(TapForm):
    action = staticmethod(actions.game_start)
    # A drafted mode: the heroes the table entered from the piles it dealt (else drawn).
    pool = Text(_("A hero entered is not among the table's heroes."))


class PickForm(TapForm):
    action = staticmethod(actions.hero_pick)
    keywords: ClassVar[Mapping[str, str]] = {"hero": "hero_id"}
    hero = Text(_("That hero was not offered to you."))


class HeroRedealForm(TapForm):
    action = staticmethod(actions.heroes_redeal)
    confirm = Flag()


# HP, dying, undo -----------------------------------------------------------------------------


class HpForm(SeatTap):
    action = staticmethod(actions.seat_change_hp)
    keywords: ClassVar[Mapping[str, str]] = {"seat": "seat_id", "lose": "loss"}
    delta = Whole(_("HP changes by a whole number."))
    source = SourceSeat(required=False)
    damage_type = Choice(hooks.damage_types, _("Unknown damage type."), default="normal")
    lose = Flag()


class MaxHpForm(SeatTap):
    action = staticmethod(actions.seat_set_max_hp)
    keywords: ClassVar[Mapping[str, str]] = {"seat": "seat_id", "max_hp": "max_hp_value"}
    max_hp = Whole(_("Max HP is a whole number."))


def _rescue_kinds() -> tuple[str, ...]:
    """桃 and the games' rescue cards (an expansion's 酒), asked when the tap is checked."""
    return ("peach", *(card for game in hooks.games() for card in game.rescue_cards))


class RescueForm(SeatTap):
    action = staticmethod(actions.seat_rescue)
    by = SeatId(_("Say who gives the Peach."), required=False)  # none: the tapping seat
    kind = Choice(_rescue_kinds, _("Unknown rescue."), default="peach")


class DieForm(SeatTap):
    action = staticmethod(actions.seat_die)


class UndoForm(TapForm):
    action = staticmethod(actions.event_undo)
    version = Whole(_("No such change."), required=False)  # none: the phone's own last change


# Equipment, delayed tricks, judgements -------------------------------------------------------


class EquipForm(SeatTap):
    action = staticmethod(actions.equipment_set)
    name = Text(_("No such equipment in this deck."))
    replace = Flag()


class UnequipForm(SeatTap):
    action = staticmethod(actions.equipment_remove)
    slot = Choice(SLOT_NAMES, _("No such equipment slot."))


class TrickForm(SeatTap):
    action = staticmethod(actions.trick_place)
    name = Text(_("That is not a delayed trick of this deck."))


class UntrickForm(SeatTap):
    action = staticmethod(actions.trick_remove)
    name = Text(_("That card is not in that judgement zone."))


class NullifyForm(SeatTap):
    action = staticmethod(actions.trick_nullify)
    name = Text(_("That card is not in that judgement zone."))


class JudgeForm(TapForm):
    action = staticmethod(actions.judgement_flip)
    keywords: ClassVar[Mapping[str, str]] = {"seat": "seat_id"}
    check = Choice([check.value for check in Check], _("Choose what is being judged."))
    suit = SuitField()
    rank = RankField(required=False)  # none when the rank does not decide (rules.judgement)
    seat = SeatId(required=False)  # none: the tapping seat
    trick = Text(_("That is not a delayed trick of this deck."))


class ReplaceForm(TapForm):
    action = staticmethod(actions.judgement_replace)
    suit = SuitField()
    rank = RankField(required=False)


class ConfirmForm(NoFields):
    action = staticmethod(actions.judgement_confirm)


# Turns ---------------------------------------------------------------------------------------


class NextForm(NoFields):
    action = staticmethod(actions.turn_advance)


class EndTurnForm(NoFields):
    action = staticmethod(actions.turn_end)


class TurnSetForm(SeatTap):
    action = staticmethod(actions.turn_set)
    keywords: ClassVar[Mapping[str, str]] = {"seat": "seat_id", "round": "round_number"}
    phase = Choice([phase.value for phase in PHASE_ORDER], _("No such phase."))
    round = Whole(_("No such round."), required=False)  # none: the round stays


class TimerForm(TapForm):
    action = staticmethod(actions.timer_set)
    seconds = Whole(_("Choose a timer length."))


# A seat moving to another phone ---------------------------------------------------


class HandoverForm(SeatTap):
    """Answered with a page of its own (the new phone's link): HTTP only."""

    action = staticmethod(actions.seat_handover)


class HandoverOkForm(NoFields):
    """The seat's own phone agrees to a move the host asked for."""

    action = staticmethod(actions.handover_confirm)


class HandoverNoForm(SeatTap):
    """Anyone at the table stops a move that is waiting."""

    action = staticmethod(actions.handover_cancel)


class ReshuffleForm(NoFields):
    """The draw pile was made again from the discard pile: the live odds start over."""

    action = staticmethod(actions.deck_reshuffle)


# The question a mode's flow asks (its own taps are its game package's, companion.games) -------


class AnswerForm(TapForm):
    action = staticmethod(actions.flow_answer)
    answer = Text(_("That is not one of the answers."))


# The core's taps, by name.
CORE_FORMS: dict[str, type[TapForm]] = {
    "move": MoveForm,
    "remove": RemoveForm,
    "lock": LockForm,
    "options": OptionsForm,
    "host": HostForm,
    "deal": DealForm,
    "start": StartForm,
    "pick": PickForm,
    "heroredeal": HeroRedealForm,
    "hp": HpForm,
    "maxhp": MaxHpForm,
    "rescue": RescueForm,
    "die": DieForm,
    "undo": UndoForm,
    "equip": EquipForm,
    "unequip": UnequipForm,
    "trick": TrickForm,
    "untrick": UntrickForm,
    "nullify": NullifyForm,
    "judge": JudgeForm,
    "replace": ReplaceForm,
    "confirm": ConfirmForm,
    "next": NextForm,
    "endturn": EndTurnForm,
    "turnset": TurnSetForm,
    "timer": TimerForm,
    "handover": HandoverForm,
    "handoverok": HandoverOkForm,
    "handoverno": HandoverNoForm,
    "reshuffle": ReshuffleForm,
    "answer": AnswerForm,
}


class TapForms(Mapping[str, type[TapForm]]):
    """Every tap by name: the core's, then the registered games' (companion.hooks: a game's
    forms register when its app is ready, after this module may have been imported, so they
    are looked up when asked)."""

    def _games(self) -> dict[str, type[TapForm]]:
        return {n: f for n, f in hooks.tap_forms().items() if n not in CORE_FORMS}

    def __getitem__(self, name: str) -> type[TapForm]:
        found = CORE_FORMS.get(name) or self._games().get(name)
        if found is None:
            raise KeyError(name)
        return found

    def __iter__(self) -> Iterator[str]:
        yield from CORE_FORMS
        yield from self._games()

    def __len__(self) -> int:
        return len(CORE_FORMS) + len(self._games())


FORMS = TapForms()


def bound(name: str, data: Any) -> TapForm:
    """The form of tap `name`, bound to its fields (a QueryDict)."""
    return FORMS[name](data)
