"""companion.rules.modes: the registry, the identity game's limits, typed options validated once."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion.rules import modes, scoring
from companion.rules.heroes import STANDARD_HEROES
from companion.rules.identities import MAX_PLAYERS, MIN_PLAYERS, Identity, IdentityOptions
from companion.rules.modes import OptionsError
from companion.rules.scoring import PlayerResult
from companion.rules.victory import SeatStatus, Side

IDENTITY_OPTIONS = (
    "six_two_renegades",
    "eight_two_renegades",
    "first_game_mode",
    "rebirth",
    "dark_souls",
    "first_out_protection",
    "last_three",
    "lord_pack",
    "rebels_know_each_other",
    "lord_five_cards",
    "maneuvering",
    "referee_mode",
)


def test_the_registry_knows_the_three_modes_and_refuses_others() -> None:
    assert modes.DEFAULT == "identity" and modes.keys() == ("identity", "threes", "duel")
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
    assert modes.get("identity").options({}).live() == frozenset({"referee_mode"})


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
    # The lord also takes the first turn (docs/rules.md §3).
    assert IDENTITY.first_turn(seats) == at


@pytest.mark.parametrize("identity", list(Identity))
@pytest.mark.parametrize("alive", [True, False])
@pytest.mark.parametrize("over", [True, False])
def test_only_the_lord_is_public_until_death_or_the_end(
    identity: Identity, alive: bool, over: bool
) -> None:
    """docs/rules.md §1: the lord shows their identity at once; the others stay hidden until they
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


# The deal itself (docs/rules.md §1): the distribution by player count, at random or with a fixed lord.

# (loyalists, rebels, renegades) by player count, docs/rules.md §1's table; one lord always.
RULES_TABLE = {
    4: (1, 1, 1),
    5: (1, 2, 1),
    6: (1, 3, 1),
    7: (2, 3, 1),
    8: (2, 4, 1),
    9: (3, 4, 1),
    10: (3, 4, 2),
}


def _counts(loyalists: int, rebels: int, renegades: int) -> dict[Identity, int]:
    return {
        Identity.LORD: 1,
        Identity.LOYALIST: loyalists,
        Identity.REBEL: rebels,
        Identity.RENEGADE: renegades,
    }


def _dealt(identities: list[Identity]) -> dict[Identity, int]:
    return {identity: identities.count(identity) for identity in Identity}


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_the_deal_follows_the_rules_table(players: int) -> None:
    options = IDENTITY.options(None)
    expected = _counts(*RULES_TABLE[players])
    assert IDENTITY.identity_counts(players, options) == expected
    for seed in range(20):
        dealt = IDENTITY.deal(players, options, rng=random.Random(seed))
        assert len(dealt) == players
        assert _dealt(dealt) == expected


@pytest.mark.parametrize(
    ("players", "option", "expected"),
    [(6, "six_two_renegades", (1, 2, 2)), (8, "eight_two_renegades", (2, 3, 2))],
)
def test_the_two_renegade_options_change_their_own_count_only(
    players: int, option: str, expected: tuple[int, int, int]
) -> None:
    options = IDENTITY.options({option: True})
    assert IDENTITY.identity_counts(players, options) == _counts(*expected)
    assert _dealt(IDENTITY.deal(players, options, rng=random.Random(1))) == _counts(*expected)
    # The other count is untouched by this option.
    other = 8 if players == 6 else 6
    assert IDENTITY.identity_counts(other, options) == _counts(*RULES_TABLE[other])


def test_the_deal_is_shuffled_not_fixed() -> None:
    options = IDENTITY.options(None)
    lords = {
        IDENTITY.deal(8, options, rng=random.Random(seed)).index(Identity.LORD)
        for seed in range(60)
    }
    assert lords == set(range(8))


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_a_fixed_leader_is_the_lord_and_the_rest_is_random(players: int) -> None:
    options = IDENTITY.options({"eight_two_renegades": True})
    expected = IDENTITY.identity_counts(players, options)
    for at in range(players):
        seen = set()
        for seed in range(10):
            dealt = IDENTITY.deal(players, options, fixed_leader=at, rng=random.Random(seed))
            assert dealt[at] == Identity.LORD and dealt.count(Identity.LORD) == 1
            assert _dealt(dealt) == expected
            assert IDENTITY.leader([SeatStatus(x, True) for x in dealt]) == at
            seen.add(tuple(dealt))
        assert len(seen) > 1  # the others are shuffled


@pytest.mark.parametrize("bad", [(3, None), (11, None), (5, 5), (5, -1)])
def test_the_deal_refuses_counts_and_seats_out_of_range(bad: tuple[int, int | None]) -> None:
    players, at = bad
    with pytest.raises(ValueError):
        IDENTITY.deal(players, IDENTITY.options(None), fixed_leader=at)


@pytest.mark.parametrize("identity", list(Identity))
def test_only_the_lord_leads(identity: Identity) -> None:
    assert IDENTITY.is_leader(identity) == (identity == Identity.LORD)


# Hero offers (docs/rules.md §2): five for the lord with the three lords, then three each (two at ten).

LORD_HEROES = {"WEI001", "SHU001", "WU001"}
ALL_HEROES = {hero.id for hero in STANDARD_HEROES}


@pytest.mark.parametrize("seed", range(10))
def test_the_lord_is_offered_the_three_lords_and_two_others(seed: int) -> None:
    offer = IDENTITY.leader_offer(random.Random(seed))
    assert len(offer) == 5 and len(set(offer)) == 5
    assert LORD_HEROES <= set(offer) and set(offer) <= ALL_HEROES


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_the_others_get_disjoint_offers_without_the_lords_hero(players: int) -> None:
    taken = {"SHU001"}
    per_seat = 2 if players == 10 else 3
    hands = IDENTITY.offers(
        player_count=players, taken=taken, count=players - 1, rng=random.Random(players)
    )
    assert len(hands) == players - 1
    assert all(len(hand) == per_seat for hand in hands)
    offered = [hero for hand in hands for hero in hand]
    assert len(offered) == len(set(offered))
    assert not set(offered) & taken and set(offered) <= ALL_HEROES


def test_offers_refuse_more_seats_than_the_others() -> None:
    with pytest.raises(ValueError):
        IDENTITY.offers(player_count=5, taken={"SHU001"}, count=5)


# What a death does beyond its reward (docs/rules.md §6, §8).


@pytest.mark.parametrize("victim", list(Identity))
@pytest.mark.parametrize("killer", list(Identity))
def test_only_a_lord_killing_a_loyalist_discards_equipment(
    victim: Identity, killer: Identity
) -> None:
    expected = victim == Identity.LOYALIST and killer == Identity.LORD
    assert IDENTITY.killer_discards_equipment(victim, killer) == expected


def test_the_final_duel_is_a_renegade_dying_alone_against_the_lord() -> None:
    lord, ren, reb = Identity.LORD, Identity.RENEGADE, Identity.REBEL
    assert IDENTITY.lost_final_duel(ren, [lord, ren])
    assert IDENTITY.lost_final_duel(ren, [ren, lord])
    assert not IDENTITY.lost_final_duel(ren, [lord, ren, reb])
    assert not IDENTITY.lost_final_duel(reb, [lord, reb])
    assert not IDENTITY.lost_final_duel(ren, [lord, ren, ren])
    assert [IDENTITY.may_lose_final_duel(i) for i in Identity] == [False, False, False, True]


@pytest.mark.parametrize("side", list(Side))
def test_a_lost_final_duel_scores_only_when_the_lords_side_wins(side: Side) -> None:
    """docs/rules.md §8: the renegade's N for the final duel is in the "lord side wins" column."""
    assert IDENTITY.final_duel_scored(side) == (side == Side.LORD)
    duelist = PlayerResult(Identity.RENEGADE, False, died_in_final_duel=True)
    players = {
        "lord": PlayerResult(Identity.LORD, side != Side.REBELS and side != Side.RENEGADE),
        "rebel": PlayerResult(Identity.REBEL, False),
        "loyalist": PlayerResult(Identity.LOYALIST, False),
        "duelist": duelist,
        "other": PlayerResult(Identity.RENEGADE, side == Side.RENEGADE),
    }
    codes = [line.code for line in IDENTITY.score(players, side)["duelist"].breakdown.lines]
    assert (scoring.FINAL_DUEL in codes) == IDENTITY.final_duel_scored(side)


# Scoring and the tournament's rotation (docs/rules.md §8).


def test_the_score_is_the_rules_scoring_keyed_by_player() -> None:
    """Five players, the lord's side wins: lord 4 + 2L, loyalist 5 + L, a rebel killed by the
    lord gives him +1, the renegade who died in the final duel scores N."""
    players = {
        "a": PlayerResult(Identity.LORD, True, kills=(Identity.REBEL, Identity.RENEGADE)),
        "b": PlayerResult(Identity.LOYALIST, True),
        "c": PlayerResult(Identity.REBEL, False),
        "d": PlayerResult(Identity.REBEL, False),
        "e": PlayerResult(Identity.RENEGADE, False, died_in_final_duel=True),
    }
    records = IDENTITY.score(players, Side.LORD)
    assert list(records) == list(players)
    assert {k: r.breakdown.total for k, r in records.items()} == {
        "a": 4 + 2 + 1 + 1,
        "b": 5 + 1,
        "c": 0,
        "d": 0,
        "e": 5,
    }
    assert {k for k, r in records.items() if r.won} == {"a", "b"}
    assert records["a"].kills == 2
    assert records == scoring.record_game(players, Side.LORD)
    codes = {line.code for r in records.values() for line in r.breakdown.lines}
    assert codes <= set(IDENTITY.score_codes)


def test_every_score_code_is_known_once() -> None:
    assert len(set(IDENTITY.score_codes)) == len(IDENTITY.score_codes) == 9
    assert set(IDENTITY.score_codes) == {scoring.BASE, *scoring.KILL_CODES.values()} | {
        scoring.LOYALISTS_ALIVE,
        scoring.REBELS_ALIVE,
        scoring.PLAYERS,
        scoring.FINAL_DUEL,
    }
    # The other modes add one line, a win, after the identity game's own.
    assert modes.score_codes() == (*IDENTITY.score_codes, "win")


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_the_lord_passes_round_the_table_once_each(players: int) -> None:
    for first in range(players):
        order = IDENTITY.leader_rotation(players, first)
        assert order[0] == first
        assert sorted(order) == list(range(players))
        assert all(b == (a + 1) % players for a, b in zip(order, order[1:], strict=False))


@pytest.mark.parametrize(("players", "first"), [(5, 5), (5, -1), (3, 0), (11, 0)])
def test_the_rotation_refuses_what_cannot_be(players: int, first: int) -> None:
    with pytest.raises(ValueError):
        IDENTITY.leader_rotation(players, first)
