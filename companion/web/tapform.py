"""The base of every tap's form (companion.web.forms): its fields, the action they go to, and the
answer to a bad field (`refusal()`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, ClassVar, Self

from django import forms
from django.core.exceptions import ValidationError
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext_lazy as _

from companion.actions import ActionError
from companion.web.fields import SeatId


class TapForm(forms.Form):
    """A tap's fields, and the action they go to: `action` is that function
    (`action = staticmethod(actions.seat_change_hp)`: companion.actions, or a game's own
    actions), `keywords` maps a field whose name differs onto its keyword."""

    action: ClassVar[Callable[..., Any]]
    keywords: ClassVar[Mapping[str, str]] = {}

    def arguments(self) -> dict[str, Any]:
        """The action's keyword arguments, from the cleaned fields."""
        return {self.keywords.get(name, name): value for name, value in self.cleaned_data.items()}

    @classmethod
    def function(cls) -> Callable[..., Any]:
        """The action the tap calls (the form's `action`)."""
        return cls.action

    def run(self, token: str, action_id: str | None) -> Any:
        """Call the action, as the screen of `token` (a valid form only)."""
        return self.function()(token=token, action_id=action_id, **self.arguments())

    @classmethod
    def checked(cls, data: Any) -> Self:
        """The form bound to `data` (a QueryDict) once its fields are valid, or its refusal
        raised. A form that only cleans its fields one by one (`_plain`) skips the bound form
        (its copies of the fields, bound fields, error lists, about a third of an HP tap's own
        work): each field cleans its widget's value, as `Form._clean_fields` does, and the
        result is a form holding `cleaned_data` only, to be run. A bad field falls back to the
        bound form, so the refusal is the bound form's."""
        if _plain(cls):
            cleaned = {}
            try:
                for name, field in cls.base_fields.items():
                    value = field.widget.value_from_datadict(data, _NO_FILES, name)
                    cleaned[name] = field.clean(value)
            except ValidationError:
                pass
            else:
                form = cls.__new__(cls)
                form.cleaned_data = cleaned
                return form
        form = cls(data)
        if not form.is_valid():
            raise form.refusal()
        return form

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


# A tap sends no files: the bound form's `files` when none are given.
_NO_FILES: MultiValueDict[str, Any] = MultiValueDict()


@cache
def _plain(cls: type[TapForm]) -> bool:
    """Whether validating a bound `cls` is only cleaning each field in turn: no fields added
    when bound, no `clean_<field>` or `clean` of its own, no disabled field (which would clean
    its initial value), the form's steps Django's own."""
    base = forms.BaseForm
    return (
        cls.prefix is None
        and cls.__init__ is base.__init__
        and cls.full_clean is base.full_clean
        and cls._clean_fields is base._clean_fields
        and cls._clean_form is base._clean_form
        and cls._post_clean is base._post_clean
        and cls.clean is base.clean
        and not any(hasattr(cls, f"clean_{name}") for name in cls.base_fields)
        and not any(field.disabled for field in cls.base_fields.values())
    )
