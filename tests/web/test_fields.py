"""The tap forms' fields (companion.web.fields): what the forms' tests do not reach."""

from __future__ import annotations

import copy

import pytest
from django import forms
from django.http import QueryDict
from django.utils import translation

from companion.web import fields


class _Form(forms.Form):
    seat = fields.SeatId()
    source = fields.SourceSeat(required=False)
    word = fields.Text("bad word")
    on = fields.Flag()


def _data(**values: str) -> QueryDict:
    data = QueryDict(mutable=True)
    for name, value in values.items():
        data[name] = value
    return data


def test_a_form_shares_its_fields_instead_of_copying_them() -> None:
    one, two = _Form(_data()), _Form(_data())
    assert one.fields["seat"] is two.fields["seat"] is _Form.base_fields["seat"]
    field = fields.Whole("x")
    assert copy.deepcopy(field) is field


@pytest.mark.parametrize("value", [str(2**63), str(-(2**63) - 1)])
def test_a_whole_number_fits_the_database(value: str) -> None:
    form = _Form(_data(seat=value))
    assert not form.is_valid()
    with translation.override("en"):
        assert form.errors["seat"] == ["Choose a player."]
    assert _Form(_data(seat=str(2**63 - 1))).is_valid()


def test_no_source_text_as_posted_and_flags() -> None:
    for source in ("", "none"):
        form = _Form(_data(seat=" 3 ", source=source, word=" Ab ", on="yes"))
        assert form.is_valid(), form.errors
        assert form.cleaned_data == {"seat": 3, "source": None, "word": " Ab ", "on": True}
    strict = _Form(_data(seat="3", on="True"))
    assert strict.is_valid() and strict.cleaned_data["on"] is False


@pytest.mark.parametrize(("posted", "code"), [("h", "heart"), ("黑桃", "spade"), ("♣", "club")])
def test_a_suit_is_given_on_as_its_code(posted: str, code: str) -> None:
    assert fields.SuitField().clean(posted) == code


@pytest.mark.parametrize("word", ["\x00", "a\x00b", "\ud800", "x\udfff"])
def test_a_typed_text_holding_what_no_database_keeps_gets_the_fields_message(word: str) -> None:
    """One rule for every typed text (rules.typed): NUL (PostgreSQL refuses it, SQLite keeps
    it) and half a surrogate pair (no UTF-8 for it, yet a socket's JSON can carry it)."""
    form = _Form(_data(seat="3", word=word))
    assert not form.is_valid()
    assert form.errors["word"] == ["bad word"]
    with pytest.raises(forms.ValidationError):
        fields.RankField().clean("1\x000")
    assert _Form(_data(seat="3", word="汉献帝 \t\n")).is_valid()
