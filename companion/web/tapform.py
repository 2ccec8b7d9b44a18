"""The base of every tap's form (companion.web.forms): its fields, the action they go to, and the
answer to a bad field (`refusal()`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from django import forms
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
