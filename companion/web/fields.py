"""The fields of the tap forms (companion.web.forms): each checks one field's type and shape
and says one message, whatever is wrong with it; the fields are shared by every form, never
copied per tap.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core import validators
from django.utils.translation import gettext_lazy as _

from companion.rules import modes, typed
from companion.rules.cards import Suit, parse_rank, parse_suit

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
    """One word of a closed set; empty is `default` when one is given, an error otherwise.
    `words` may be a function, asked when checked (a set the games add to once registered)."""

    widget = forms.HiddenInput

    def __init__(self, words: Any, message: Any, *, default: str | None = None) -> None:
        super().__init__(
            choices=(
                (lambda: [(str(word), str(word)) for word in words()])
                if callable(words)
                else [(str(word), str(word)) for word in words]
            ),
            required=default is None,
            empty_value=default if default is not None else "",
            error_messages=_say(message),
        )


def _storable(value: Any) -> None:
    """Every typed text's one rule (rules.typed), in place of Django's NUL check: the field's
    own message when it holds a character a database would not keep."""
    if isinstance(value, str) and not typed.storable(value):
        raise forms.ValidationError("unstorable", code="null_characters_not_allowed")


class Typed(Shared, forms.CharField):
    """A text a user types: refused, with the field's message, when it holds a character
    one of the databases would not keep (rules.typed)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [v for v in self.validators if not _is_null_check(v)] + [_storable]


def _is_null_check(validator: Any) -> bool:
    return isinstance(validator, validators.ProhibitNullCharactersValidator)


class Text(Typed):
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


class RankField(Typed):
    """A rank: A, 2..10, J, Q or K (rules.cards.parse_rank), passed on as posted; with
    `required=False` it may be left out ("": the action asks for it when the rank decides)."""

    widget = forms.HiddenInput

    def __init__(self, *, required: bool = True) -> None:
        super().__init__(required=required, strip=False, error_messages=_say(CARD))

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value in self.empty_values and not self.required:
            return
        try:
            parse_rank(value)
        except (ValueError, TypeError):
            raise forms.ValidationError(CARD, code="invalid") from None


def _option_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in modes.option_names()]


class OptionNames(Shared, forms.MultipleChoiceField):
    """The option names a form holds; names no mode knows are dropped (never an error)."""

    widget = forms.MultipleHiddenInput

    def __init__(self) -> None:
        # Asked when checked, not when the form class is made: a mode registers when its game
        # package's app is ready.
        super().__init__(required=False, choices=_option_choices)

    def to_python(self, value: Any) -> list[str]:
        known = modes.option_names()
        return [str(name) for name in value or () if name in known]
