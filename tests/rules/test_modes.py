"""companion.rules.modes: the registry, the identity game's limits, typed options validated once."""

from __future__ import annotations

import dataclasses

import pytest

from companion.rules import modes
from companion.rules.identities import MAX_PLAYERS, MIN_PLAYERS, IdentityOptions
from companion.rules.modes import OptionsError

IDENTITY_OPTIONS = (
    "six_two_renegades",
    "eight_two_renegades",
    "first_game_mode",
    "maneuvering",
    "referee_mode",
)


def test_the_registry_knows_the_identity_game_and_refuses_others() -> None:
    assert modes.DEFAULT == "identity" and modes.keys() == ("identity",)
    assert modes.get("identity").key == "identity"
    with pytest.raises(KeyError):
        modes.get("mahjong")
    assert modes.option_names() == IDENTITY_OPTIONS


@pytest.mark.parametrize("count", range(0, 13))
def test_the_identity_game_seats_four_to_ten(count: int) -> None:
    assert modes.get("identity").seats_allowed(count) == (MIN_PLAYERS <= count <= MAX_PLAYERS)
    assert (MIN_PLAYERS, MAX_PLAYERS) == (4, 10)


def test_options_default_to_off_and_are_typed() -> None:
    options = modes.get("identity").options(None)
    assert options.names() == IDENTITY_OPTIONS
    assert options.stored() == dict.fromkeys(IDENTITY_OPTIONS, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.maneuvering = True  # type: ignore[misc]


def test_options_refuse_an_unknown_name_or_a_value_that_is_not_a_flag() -> None:
    mode = modes.get("identity")
    with pytest.raises(OptionsError, match="unknown options: bogus"):
        mode.options({"bogus": True})
    with pytest.raises(OptionsError, match="true or false"):
        mode.options({"maneuvering": "yes"})
    with pytest.raises(OptionsError):
        mode.options(None).with_changes({"first_game_mode": 1})


@pytest.mark.parametrize("name", IDENTITY_OPTIONS)
def test_one_option_changed_leaves_the_others(name: str) -> None:
    changed = modes.get("identity").options({}).with_changes({name: True})
    assert changed.stored() == {n: n == name for n in IDENTITY_OPTIONS}
    assert modes.get("identity").options(changed.stored()) == changed


def test_only_referee_mode_may_change_during_a_game() -> None:
    assert modes.get("identity").options({}).LIVE == frozenset({"referee_mode"})


@pytest.mark.parametrize("six", [False, True])
@pytest.mark.parametrize("eight", [False, True])
def test_the_identity_options_reach_the_deal(six: bool, eight: bool) -> None:
    options = modes.get("identity").options(
        {"six_two_renegades": six, "eight_two_renegades": eight, "maneuvering": True}
    )
    assert options.identities() == IdentityOptions(six_two_renegades=six, eight_two_renegades=eight)
