"""companion.rules.modes: the registry, the identity game's limits, typed options validated once."""

from __future__ import annotations

import dataclasses

import pytest

from companion.rules import modes
from companion.rules.identities import MAX_PLAYERS, MIN_PLAYERS, Identity, IdentityOptions
from companion.rules.modes import OptionsError
from companion.rules.victory import SeatStatus

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


# The deal's side of the mode: who is known to all, what every screen may see, starting HP.

IDENTITY = modes.get("identity")


def _table(*identities: str, dead: int | None = None) -> list[SeatStatus]:
    return [SeatStatus(Identity(x), i != dead) for i, x in enumerate(identities)]


@pytest.mark.parametrize("at", range(5))
def test_the_lord_leads_wherever_they_sit(at: int) -> None:
    others = ["rebel", "loyalist", "renegade", "rebel"]
    identities = [*others[:at], "lord", *others[at:]]
    seats = _table(*identities)
    assert IDENTITY.leader(seats) == at
    # The lord also takes the first turn (RULES.md §3).
    assert IDENTITY.first_turn(seats) == at


@pytest.mark.parametrize("identity", list(Identity))
@pytest.mark.parametrize("alive", [True, False])
@pytest.mark.parametrize("over", [True, False])
def test_only_the_lord_is_public_until_death_or_the_end(
    identity: Identity, alive: bool, over: bool
) -> None:
    """RULES.md §1: the lord shows their identity at once; the others stay hidden until they
    die or the game ends."""
    public = IDENTITY.identity_public(identity, alive=alive, game_over=over)
    assert public == (identity == Identity.LORD or not alive or over)


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
@pytest.mark.parametrize("hero_hp", [3, 4])
def test_start_hp_gives_the_lord_one_more_from_five_players(players: int, hero_hp: int) -> None:
    lord = SeatStatus(Identity.LORD, True)
    rebel = SeatStatus(Identity.REBEL, True)
    bonus = 1 if players > 4 else 0
    assert IDENTITY.start_hp(lord, hero_hp=hero_hp, player_count=players, first_game=False) == (
        hero_hp + bonus
    )
    assert IDENTITY.start_hp(rebel, hero_hp=hero_hp, player_count=players, first_game=False) == (
        hero_hp
    )
    # First-game mode (新手局): no heroes, HP 4, the lord 5 from five players.
    assert IDENTITY.start_hp(lord, hero_hp=None, player_count=players, first_game=True) == 4 + bonus
    assert IDENTITY.start_hp(rebel, hero_hp=None, player_count=players, first_game=True) == 4
