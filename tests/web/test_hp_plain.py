"""The HP tap's plain fields over a socket skip its form (`dispatch.hp_arguments`): whatever they
take, the form takes alike, to the same action arguments and the same merge key; whatever they do
not take is left to the form, which answers it as before."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from companion.actions import ActionError
from companion.web import dispatch, forms, taps

TOKEN = "a-phone-token"
# Values a phone (or anything else) may send in a field: numbers as text and as JSON numbers,
# the edges of the database's integers, the source's "none", and what the form refuses or reads
# otherwise (spaces, signs, decimals, digits of other scripts, flags, lists).
VALUES: list[Any] = [
    "3",
    "-1",
    "1",
    "0",
    "-0",
    "007",
    "-10",
    " 2",
    "+2",
    "2.0",
    "4.5",
    "",
    "none",
    "x",
    "３",
    "-",
    "9" * 18,
    "9" * 19,
    str(2**63 - 1),
    str(-(2**63)),
    3,
    -1,
    0,
    2**63 - 1,
    2**63,
    -(2**63) - 1,
    True,
    False,
    ["1"],
]


def _form(fields: dict[str, Any]) -> Any:
    """What the form makes of the fields: its action's arguments, or its refusal."""
    try:
        form = forms.HpForm.checked(dispatch.Fields(fields).POST)
    except ActionError as refusal:
        return ("refused", str(refusal), refusal.code)
    return form.arguments()


def _cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for seat, delta in itertools.product(VALUES, VALUES):
        cases.append({"seat": seat, "delta": delta})
    for source in VALUES:
        cases.append({"seat": "4", "delta": "-1", "source": source})
    cases += [
        {"seat": "4"},
        {"delta": "-1"},
        {},
        {"seat": "4", "delta": "-1", "lose": "1"},
        {"seat": "4", "delta": "-1", "damage_type": "normal"},
        {"seat": "4", "delta": "-1", "damage_type": ""},
        {"seat": "4", "delta": "1", "repeat": "1"},
        {"seat": "4", "delta": "1", "action_id": "abcdefgh"},
    ]
    return cases


def test_what_the_plain_path_takes_the_form_takes_alike() -> None:
    taken = 0
    for fields in _cases():
        plain = dispatch.hp_arguments(fields)
        if plain is None:
            continue
        taken += 1
        assert plain == _form(fields), fields
        post = dispatch.Fields(fields).POST
        assert taps.plain_key("hp", fields, TOKEN) == taps.key_of("hp", post, TOKEN), fields
    # The fields a phone's − and + send are taken.
    assert taken > len(VALUES)
    for fields in (
        {"seat": "4", "delta": "-1"},
        {"seat": 4, "delta": 1},
        {"seat": "4", "delta": "-2", "source": "5"},
        {"seat": "4", "delta": "-1", "source": ""},
    ):
        assert dispatch.hp_arguments(fields) is not None, fields


@pytest.mark.parametrize(
    "fields",
    [
        {"seat": "4", "delta": "-1", "lose": "1"},
        {"seat": "4", "delta": "-1", "damage_type": "fire"},
        {"seat": "4", "delta": "1", "repeat": "1"},
        {"seat": " 4", "delta": "-1"},
        {"seat": "4", "delta": "2.0"},
        {"seat": "4", "delta": True},
        {"seat": "4", "delta": 2**63},
        {"seat": "x", "delta": "-1"},
        {"seat": "4", "delta": "-1", "source": "x"},
        {"seat": "4"},
    ],
)
def test_anything_else_is_the_forms(fields: dict[str, Any]) -> None:
    """Another field, or a value the form reads its own way (or refuses): the form judges it."""
    assert dispatch.hp_arguments(fields) is None
