"""One form per tap: the tap's fields, typed and checked, and the action they are handed to.

The HTTP view and the socket bind the same form to the tap's fields (a QueryDict either way,
companion.web.dispatch), so a bad field gets the same answer on both paths: `refusal()`, an
ActionError with status 400 and one message naming what is wrong, translated when it is shown.

A form checks type and shape only (a number, one of a closed set of words); the action keeps
every check of meaning (rights, the phase, ranges such as HP changing by 1 to 10, whether a
seat is at this table).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext_lazy as _

from companion import actions
from companion.actions import ActionError
from companion.actions.equipment import SLOT_NAMES
from companion.actions.hp import DAMAGE_TYPES
from companion.rules import modes
from companion.rules.cards import Suit, parse_rank, parse_suit
from companion.rules.judgement import Check
from companion.rules.turns import PHASE_ORDER

# What a flag's field counts as "on" (a checkbox's "on", a hidden input's "1", the socket's
# "true"); anything else, or no field at all, is off.
TRUE_VALUES = frozenset({"1", "on", "true", "yes"})

# Whole numbers stored in the database (seat ids, versions) fit its 64-bit integers.
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1

_CODES = (
    "required",
    "invalid",
    "invalid_choice",
    "invalid_list",
    "min_value",
    "max_value",
    "max_length",
    "null_characters_not_allowed",
)


class Shared:
    """A tap form's fields are never changed by a form: every form shares them, rather than
    deep-copying each for every tap (Django's default, a good part of a small form's cost)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


def _say(message: Any) -> dict[str, Any]:
    """The one message of a field, whatever is wrong with it."""
    return dict.fromkeys(_CODES, message)


class Whole(Shared, forms.IntegerField):
    """A whole number ("3", " -1 "); empty is None when not required."""

    widget = forms.HiddenInput

    def __init__(self, message: Any, *, required: bool = True) -> None:
        super().__init__(
            required=required,
            min_value=_INT_MIN,
            max_value=_INT_MAX,
            error_messages=_say(message),
        )


class SeatId(Whole):
    """A seat's id. Whether it is a seat of this table is the action's question (answered
    like a bad token when it is not)."""

    def __init__(self, message: Any = None, *, required: bool = True) -> None:
        super().__init__(message or _("Choose a player."), required=required)


class SourceSeat(SeatId):
    """Who dealt the damage: a seat's id, or none ("" or "none")."""

    def to_python(self, value: Any) -> int | None:
        if value == "none":
            return None
        return super().to_python(value)


class Flag(Shared, forms.BooleanField):
    """On for "1", "on", "true" or "yes"; off for anything else or nothing (never an error)."""

    widget = forms.HiddenInput

    def __init__(self) -> None:
        super().__init__(required=False)

    def to_python(self, value: Any) -> bool:
        return value in TRUE_VALUES


class Choice(Shared, forms.TypedChoiceField):
    """One word of a closed set; empty is `default` when one is given, an error otherwise."""

    widget = forms.HiddenInput

    def __init__(self, words: Any, message: Any, *, default: str | None = None) -> None:
        super().__init__(
            choices=[(str(word), str(word)) for word in words],
            required=default is None,
            empty_value=default if default is not None else "",
            error_messages=_say(message),
        )


class Text(Shared, forms.CharField):
    """A free word (a hero's id, a card's name), passed on as posted: the action knows the
    deck and says what is wrong with it."""

    widget = forms.HiddenInput

    def __init__(self, message: Any) -> None:
        super().__init__(required=False, strip=False, error_messages=_say(message))


CARD = _("Enter the card's suit and a rank from A to K.")


class SuitField(Choice):
    """A suit by its code, plural, symbol, letter or Chinese name (rules.cards.parse_suit),
    given on as its code."""

    def __init__(self) -> None:
        super().__init__([suit.value for suit in Suit], CARD)

    def to_python(self, value: Any) -> str:
        if value in self.empty_values:
            return ""
        try:
            return parse_suit(str(value)).value
        except ValueError:
            raise forms.ValidationError(CARD, code="invalid_choice") from None


class RankField(Shared, forms.CharField):
    """A rank: A, 2..10, J, Q or K (rules.cards.parse_rank), passed on as posted."""

    widget = forms.HiddenInput

    def __init__(self) -> None:
        super().__init__(strip=False, error_messages=_say(CARD))

    def validate(self, value: Any) -> None:
        super().validate(value)
        try:
            parse_rank(value)
        except (ValueError, TypeError):
            raise forms.ValidationError(CARD, code="invalid") from None


# ---------------------------------------------------------------------------------------------


class TapForm(forms.Form):
    """A tap's fields, and the action they go to: `action` names a function of
    companion.actions, `keywords` maps a field whose name differs onto its keyword."""

    action: ClassVar[str]
    keywords: ClassVar[Mapping[str, str]] = {}

    def arguments(self) -> dict[str, Any]:
        """The action's keyword arguments, from the cleaned fields."""
        return {self.keywords.get(name, name): value for name, value in self.cleaned_data.items()}

    def run(self, token: str, action_id: str | None) -> Any:
        """Call the action, as the screen of `token` (a valid form only)."""
        return getattr(actions, self.action)(token=token, action_id=action_id, **self.arguments())

    def refusal(self) -> ActionError:
        """The answer to an invalid form: the message of its first bad field, status 400."""
        errors = self.errors.as_data()
        for name in [*self.fields, *errors]:
            if errors.get(name):
                return ActionError(errors[name][0].message, status=400, code=f"bad_{name}")
        return ActionError(_("Malformed request."), status=400, code="bad_fields")


class SeatTap(TapForm):
    """A tap that names one seat (`seat`)."""

    keywords: ClassVar[Mapping[str, str]] = {"seat": "seat_id"}
    seat = SeatId()


class NoFields(TapForm):
    """A tap with no fields."""


# The table, before the game ------------------------------------------------------------------


class MoveForm(SeatTap):
    action = "seat_move"
    position = Whole(_("That is not a seat number."))


class RemoveForm(SeatTap):
    action = "seat_remove"


class LockForm(TapForm):
    action = "table_lock"
    locked = Flag()


class OptionNames(Shared, forms.MultipleChoiceField):
    """The option names a form holds; names no mode knows are dropped (never an error)."""

    widget = forms.MultipleHiddenInput

    def __init__(self) -> None:
        names = modes.option_names()
        super().__init__(required=False, choices=[(name, name) for name in names])

    def to_python(self, value: Any) -> list[str]:
        known = modes.option_names()
        return [str(name) for name in value or () if name in known]


class OptionsForm(TapForm):
    """`fields` names the options the form holds (the others keep their value); each named
    option is a flag (OptionsForm.base_fields, below). Without `fields`, every option is."""

    action = "table_set_options"
    fields = OptionNames()

    def arguments(self) -> dict[str, Any]:
        named = self.cleaned_data["fields"] or modes.option_names()
        return {"options": {name: self.cleaned_data[name] for name in named}}


OptionsForm.base_fields.update({name: Flag() for name in modes.option_names()})


class HostForm(SeatTap):
    action = "host_pass"


class DealForm(TapForm):
    action = "identities_deal"
    confirm = Flag()


class StartForm(NoFields):
    action = "game_start"


class PickForm(TapForm):
    action = "hero_pick"
    keywords: ClassVar[Mapping[str, str]] = {"hero": "hero_id"}
    hero = Text(_("That hero was not offered to you."))


class HeroRedealForm(TapForm):
    action = "heroes_redeal"
    confirm = Flag()


# HP, dying, undo -----------------------------------------------------------------------------


class HpForm(SeatTap):
    action = "seat_change_hp"
    keywords: ClassVar[Mapping[str, str]] = {"seat": "seat_id", "lose": "loss"}
    delta = Whole(_("HP changes by a whole number."))
    source = SourceSeat(required=False)
    damage_type = Choice(DAMAGE_TYPES, _("Unknown damage type."), default="normal")
    lose = Flag()


class MaxHpForm(SeatTap):
    action = "seat_set_max_hp"
    keywords: ClassVar[Mapping[str, str]] = {"seat": "seat_id", "max_hp": "max_hp_value"}
    max_hp = Whole(_("Max HP is a whole number."))


class RescueForm(SeatTap):
    action = "seat_rescue"
    by = SeatId(_("Say who gives the Peach."), required=False)  # none: the tapping seat
    kind = Choice(("peach", "wine"), _("Unknown rescue."), default="peach")


class DieForm(SeatTap):
    action = "seat_die"


class UndoForm(TapForm):
    action = "event_undo"
    version = Whole(_("No such change."), required=False)  # none: the phone's own last change


# Equipment, delayed tricks, judgements -------------------------------------------------------


class EquipForm(SeatTap):
    action = "equipment_set"
    name = Text(_("No such equipment in this deck."))
    replace = Flag()


class UnequipForm(SeatTap):
    action = "equipment_remove"
    slot = Choice(SLOT_NAMES, _("No such equipment slot."))


class TrickForm(SeatTap):
    action = "trick_place"
    name = Text(_("That is not a delayed trick of this deck."))


class UntrickForm(SeatTap):
    action = "trick_remove"
    name = Text(_("That card is not in that judgement zone."))


class NullifyForm(SeatTap):
    action = "trick_nullify"
    name = Text(_("That card is not in that judgement zone."))


class JudgeForm(TapForm):
    action = "judgement_flip"
    keywords: ClassVar[Mapping[str, str]] = {"seat": "seat_id"}
    check = Choice([check.value for check in Check], _("Choose what is being judged."))
    suit = SuitField()
    rank = RankField()
    seat = SeatId(required=False)  # none: the tapping seat
    trick = Text(_("That is not a delayed trick of this deck."))


class ReplaceForm(TapForm):
    action = "judgement_replace"
    suit = SuitField()
    rank = RankField()


class ConfirmForm(NoFields):
    action = "judgement_confirm"


# Turns ---------------------------------------------------------------------------------------


class NextForm(NoFields):
    action = "turn_advance"


class EndTurnForm(NoFields):
    action = "turn_end"


class TurnSetForm(SeatTap):
    action = "turn_set"
    keywords: ClassVar[Mapping[str, str]] = {"seat": "seat_id", "round": "round_number"}
    phase = Choice([phase.value for phase in PHASE_ORDER], _("No such phase."))
    round = Whole(_("No such round."), required=False)  # none: the round stays


class TimerForm(TapForm):
    action = "timer_set"
    seconds = Whole(_("Choose a timer length."))


# A seat moving to another phone (issue 10) ---------------------------------------------------


class HandoverForm(SeatTap):
    """Answered with a page of its own (the new phone's link): HTTP only."""

    action = "seat_handover"


class HandoverOkForm(NoFields):
    """The seat's own phone agrees to a move the host asked for."""

    action = "handover_confirm"


class HandoverNoForm(SeatTap):
    """Anyone at the table stops a move that is waiting."""

    action = "handover_cancel"


FORMS: dict[str, type[TapForm]] = {
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
}


def bound(name: str, data: Any) -> TapForm:
    """The form of tap `name`, bound to its fields (a QueryDict)."""
    return FORMS[name](data)
