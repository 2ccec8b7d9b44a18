"""A tap's form checks its fields without binding a form when it only cleans each field
(`TapForm.checked`): what it takes, and what it refuses with which message, are the bound form's,
for every registered tap form."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import QueryDict

from companion.actions import ActionError
from companion.web import forms
from companion.web.tapform import TapForm, _plain

# Values a phone may send: numbers, flags, words of the forms' closed sets, and junk.
POOL = ["", "x", "1", "-1", "0", "4.5", "on", "false", "spade", "A", "10", "normal", "fire"]


def _choices(field: Any) -> list[str]:
    return [str(value) for value, _label in getattr(field, "choices", ())]


def _query(fields: dict[str, Any]) -> QueryDict:
    data = QueryDict(mutable=True)
    for name, value in fields.items():
        data.setlist(name, value if isinstance(value, list) else [value])
    return data


def _bound(cls: type[TapForm], data: QueryDict) -> Any:
    form = cls(data)
    if form.is_valid():
        return ("took", form.cleaned_data)
    refusal = form.refusal()
    return ("refused", str(refusal), refusal.code, refusal.status)


def _light(cls: type[TapForm], data: QueryDict) -> Any:
    try:
        form = cls.checked(data)
    except ActionError as refusal:
        return ("refused", str(refusal), refusal.code, refusal.status)
    return ("took", form.cleaned_data)


def field_takes(field: Any) -> Any:
    def takes(value: str) -> bool:
        try:
            field.clean(value)
        except ValidationError:
            return False
        return True

    return takes


def _inputs(cls: type[TapForm]) -> list[dict[str, Any]]:
    """Every field given each value of the pool and of its choices, the others a value they
    take; every field the same value; nothing at all."""
    values = {name: [*POOL, *_choices(field)] for name, field in cls.base_fields.items()}
    good = {
        name: next(filter(field_takes(field), values[name]), "")
        for name, field in cls.base_fields.items()
    }
    inputs: list[dict[str, Any]] = [{}, dict(good)]
    inputs += [dict.fromkeys(cls.base_fields, value) for value in POOL]
    for name in cls.base_fields:
        inputs += [{**good, name: value} for value in values[name]]
        inputs += [{key: value for key, value in good.items() if key != name}]
    return inputs


def test_checking_without_a_bound_form_takes_and_refuses_what_the_bound_form_does() -> None:
    took = refused = 0
    for name in forms.FORMS:
        cls = forms.FORMS[name]
        for fields in _inputs(cls):
            data = _query(fields)
            light, bound = _light(cls, data), _bound(cls, data)
            assert light == bound, (name, fields)
            took += light[0] == "took"
            refused += light[0] == "refused"
    assert took > 100
    assert refused > 100


def test_the_hp_tap_is_checked_without_a_bound_form_and_the_options_tap_with_one() -> None:
    assert _plain(forms.FORMS["hp"])
    # Its flags are added to the bound form (one per option of every mode).
    assert not _plain(forms.FORMS["options"])


def test_a_form_with_its_own_clean_is_checked_by_the_bound_form() -> None:
    class Checked(forms.FORMS["hp"]):  # type: ignore[misc,valid-type]
        def clean_delta(self) -> int:
            raise AssertionError("bound")

    assert not _plain(Checked)
