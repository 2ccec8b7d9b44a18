"""Rebirth 转世 (docs/rules.md §9.1), one test per sentence, and the victory cases with reborn players.

docs/rules.md §9.1: "Rebirth 转世 (`000`, `001`, `004`): a dead player stays at the table, identity shown.
Each other player may give him one hand card per turn. At 4 cards (3 in games of 4–5) he is
reborn as the first hero of his kingdom flipped from the unused heroes, with HP 1 (`004`: at
the start of his turn, at most 3 rebirths). He still counts as dead for the end of the game;
killing a reborn rebel gives no reward, and a lord killing a reborn loyalist has no penalty."
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.afterlife.rules import draw, rebirth
from companion.games.afterlife.rules.rebirth import GiftRefusal, GiftRefused, RebirthState
from companion.games.identity.rules import IdentityMode
from companion.rules import box as hero_box
from companion.rules import modes, scoring, victory
from companion.rules.identities import Identity
from companion.rules.scoring import PlayerResult
from companion.rules.victory import DRAW_THREE, LORD_DISCARDS_ALL, SeatStatus, Side

LETTERS = {"L": Identity.LORD, "O": Identity.LOYALIST, "R": Identity.REBEL, "N": Identity.RENEGADE}
MODE = modes.get("identity")


def table(spec: str) -> list[SeatStatus]:
    """Seats from e.g. "L+ R- R*": + alive, - dead, * alive again after a rebirth."""
    return [SeatStatus(LETTERS[t[0]], alive=t[1] in "+*", reborn=t[1] == "*") for t in spec.split()]


def test_a_dead_player_stays_at_the_table_with_his_identity_shown() -> None:
    """ "a dead player stays at the table, identity shown": he waits with no cards, and every
    screen may see his identity (as for any dead player)."""
    state = rebirth.died(RebirthState(), 2)
    assert state.cards == {2: 0} and 2 not in state.reborn
    assert MODE.identity_public(Identity.REBEL, alive=False, game_over=False)
    # A reborn player is alive, and his identity stays shown: the app keeps it public
    # because he died once (docs/variants.md); the rules record him as reborn.
    assert 2 in rebirth.reborn(replace(state, cards={2: 3}), 2).reborn


def give(
    state: RebirthState,
    seats: list[SeatStatus],
    giver: int,
    receiver: int,
    turn: int,
    count: int = 6,
) -> RebirthState:
    return rebirth.give(state, seats, giver=giver, receiver=receiver, turn=turn, player_count=count)


def test_each_other_player_may_give_him_one_hand_card_per_turn() -> None:
    """ "Each other player may give him one hand card per turn": a second gift in the same
    turn is refused, the next turn he may give again; a reborn player cannot give (000)."""
    seats = table("L+ O+ R- R+ N+ O-")
    state = rebirth.died(rebirth.died(RebirthState(), 2), 5)
    state = give(state, seats, 0, 2, turn=1)
    state = give(state, seats, 1, 2, turn=1)
    assert state.cards[2] == 2
    with pytest.raises(GiftRefused) as caught:
        give(state, seats, 0, 2, turn=1)
    assert caught.value.refusal is GiftRefusal.ALREADY_GAVE
    # Once per turn in all: not a second card to another dead player either.
    assert (
        rebirth.gift_refusal(state, seats, giver=0, receiver=5, turn=1, player_count=6)
        is GiftRefusal.ALREADY_GAVE
    )
    state = give(state, seats, 0, 2, turn=2)
    assert state.cards[2] == 3 and state.gave == {0}
    refusals = {
        (4, 3): GiftRefusal.RECEIVER_ALIVE,  # only the dead take gifts
        (5, 0): GiftRefusal.RECEIVER_ALIVE,
        (5, 2): GiftRefusal.GIVER_DEAD,  # the dead do not give
    }
    for (giver, receiver), refusal in refusals.items():
        assert (
            rebirth.gift_refusal(
                state, seats, giver=giver, receiver=receiver, turn=2, player_count=6
            )
            is refusal
        )
    reborn = replace(state, reborn=frozenset({3}))
    assert (
        rebirth.gift_refusal(reborn, seats, giver=3, receiver=2, turn=2, player_count=6)
        is GiftRefusal.GIVER_REBORN
    )
    lord_dead = table("L- O+ R+ N+")
    assert (
        rebirth.gift_refusal(RebirthState(), lord_dead, giver=1, receiver=0, turn=1, player_count=4)
        is GiftRefusal.RECEIVER_LORD
    )


@pytest.mark.parametrize("count", range(4, 11))
def test_at_four_cards_or_three_in_games_of_four_or_five_he_is_reborn(count: int) -> None:
    """ "At 4 cards (3 in games of 4–5) he is reborn": due exactly at the threshold; no gift
    beyond it."""
    assert rebirth.threshold(count) == (3 if count <= 5 else 4)
    seats = [SeatStatus(Identity.LORD, True), SeatStatus(Identity.REBEL, False)] + [
        SeatStatus(Identity.LOYALIST, True) for _ in range(count - 2)
    ]
    state = rebirth.died(RebirthState(), 1)
    for turn in range(1, rebirth.threshold(count) + 1):
        assert not rebirth.due(state, 1, count)
        state = give(state, seats, 0, 1, turn=turn, count=count)
    assert rebirth.due(state, 1, count)
    assert (
        rebirth.gift_refusal(state, seats, giver=2, receiver=1, turn=99, player_count=count)
        is GiftRefusal.RECEIVER_DUE
    )
    after = rebirth.reborn(state, 1)
    assert 1 in after.reborn and 1 not in after.cards and after.rebirths == {1: 1}


def test_reborn_as_the_first_hero_of_his_kingdom_flipped_from_the_unused() -> None:
    """ "reborn as the first hero of his kingdom flipped from the unused heroes": the first of
    his kingdom in the flipped order; a 群 hero takes the first flipped (000: 如果是其他国家角色);
    none of his kingdom: no rebirth, he keeps his cards and takes no more gifts (000)."""
    by_id = {h.id: h for h in hero_box.STANDARD}
    flipped = [by_id[i] for i in ("QUN002", "WU002", "WEI003", "SHU002", "WEI004")]
    assert draw.first_of_kingdom("wei", flipped) == by_id["WEI003"]
    assert draw.first_of_kingdom("shu", flipped) == by_id["SHU002"]
    assert draw.first_of_kingdom("qun", flipped) == by_id["QUN002"]
    assert draw.first_of_kingdom("wu", flipped[2:]) is None
    assert draw.first_of_kingdom("qun", []) is None

    box = hero_box.Box()
    held = {"WEI001", "SHU002", "WU003", "WEI004"}  # WEI004 is the dead player's
    for seed in range(30):
        hero = draw.rebirth_hero(box, old_hero="WEI004", held=held, rng=random.Random(seed))
        assert hero is not None and hero.kingdom == "wei" and hero.id not in held
    # His old hero goes back among the unused only after the draw.
    all_wei_held = {h.id for h in hero_box.STANDARD if h.kingdom == "wei"}
    assert draw.rebirth_hero(box, old_hero="WEI004", held=all_wei_held) is None
    seats = table("L+ O+ R- N+")
    state = rebirth.no_hero_left(give(rebirth.died(RebirthState(), 2), seats, 0, 2, 1, 4), 2)
    assert state.cards[2] == 1 and not rebirth.due(state, 2, 4)
    assert (
        rebirth.gift_refusal(state, seats, giver=1, receiver=2, turn=2, player_count=4)
        is GiftRefusal.RECEIVER_NO_HERO
    )


def test_the_rebirth_draw_takes_the_first_of_his_kingdom_in_the_shuffled_order() -> None:
    box = hero_box.Box()
    held = {"SHU001", "WU001"}
    rng_a, rng_b = random.Random(7), random.Random(7)
    pile = hero_box.unused(box, {*held, "SHU004"})
    rng_b.shuffle(pile)
    expected = next(h for h in pile if h.kingdom == "shu")
    assert draw.rebirth_hero(box, old_hero="SHU004", held=held, rng=rng_a) == expected


def test_with_hp_1() -> None:
    """ "with HP 1"."""
    assert rebirth.REBORN_HP == 1


def test_he_can_be_reborn_again_and_004s_limit_is_not_followed() -> None:
    """ "(`004`: at the start of his turn, at most 3 rebirths)": the app follows 000 (立即转世,
    玩家可以反复转世): at once, and again and again."""
    seats = table("L+ O+ R- N+")
    state = RebirthState()
    for time in range(1, 5):
        state = rebirth.died(state, 2)
        assert 2 not in state.reborn and state.cards[2] == 0
        for turn in range(3):
            state = give(state, seats, 0, 2, turn=time * 10 + turn, count=4)
        state = rebirth.reborn(state, 2)
        assert state.rebirths[2] == time
    with pytest.raises(ValueError):
        rebirth.reborn(state, 2)  # not waiting


def test_each_turn_of_a_game_has_its_own_key() -> None:
    keys = [rebirth.turn_key(r, seat) for r in range(1, 30) for seat in range(10)]
    assert len(set(keys)) == len(keys) and keys == sorted(keys)


def test_the_state_round_trips_through_json() -> None:
    seats = table("L+ O+ R- N+ O-")
    state = give(rebirth.died(rebirth.died(RebirthState(), 2), 4), seats, 0, 2, turn=3)
    state = rebirth.no_hero_left(replace(state, reborn=frozenset({1})), 4)
    assert RebirthState.from_stored(state.stored()) == state
    assert RebirthState.from_stored(None) == RebirthState()


# "He still counts as dead for the end of the game" -------------------------------------------

VICTORY_CASES = [
    # The rule book's example (docs/rules.md §9.1; 000 转世规则): a lord, a rebel and a reborn rebel; the lord kills the rebel and wins.
    ("L+ R- R*", Side.LORD),
    ("L+ R+ R*", None),
    ("L+ N* R-", Side.LORD),  # a reborn renegade does not keep the game going
    ("L+ O* R+", None),
    ("L- N+ R*", Side.RENEGADE),  # the renegade is the only one alive who counts
    ("L- N+ O*", Side.RENEGADE),
    ("L- N+ O+", Side.REBELS),
    ("L- N* R-", Side.REBELS),  # a reborn renegade cannot win: the rebels do
    ("L+ O+ N+ R*", None),
    ("L+ O* R- N-", Side.LORD),
]


@pytest.mark.parametrize(("spec", "side"), VICTORY_CASES)
def test_a_reborn_player_still_counts_as_dead_for_the_end_of_the_game(
    spec: str, side: Side | None
) -> None:
    assert MODE.victory(table(spec)) == side


def test_without_reborn_players_victory_is_as_before() -> None:
    for spec, _side in VICTORY_CASES:
        plain = [replace(s, reborn=False) for s in table(spec)]
        assert MODE.victory(plain) == victory.winning_side(plain)


def test_the_winners_with_reborn_players() -> None:
    seats = table("L+ R- R* O* N-")
    assert MODE.winners(seats, Side.LORD) == [0, 3]  # the reborn loyalist wins with his side
    seats = table("L- N+ R* N*")
    assert MODE.winners(seats, Side.RENEGADE) == [1]  # the reborn renegade counts as dead
    assert MODE.winners(table("L- N- R* R-"), Side.REBELS) == [2, 3]


def test_killing_a_reborn_rebel_gives_no_reward() -> None:
    """ "killing a reborn rebel gives no reward"."""
    lord = SeatStatus(Identity.LORD, True)
    assert MODE.on_death(SeatStatus(Identity.REBEL, False, reborn=False), lord) == DRAW_THREE
    assert MODE.on_death(SeatStatus(Identity.REBEL, False, reborn=True), lord) is None
    rebel = SeatStatus(Identity.REBEL, True)
    assert MODE.on_death(SeatStatus(Identity.REBEL, False, reborn=True), rebel) is None


def test_a_lord_killing_a_reborn_loyalist_has_no_penalty() -> None:
    """ "and a lord killing a reborn loyalist has no penalty"."""
    lord = SeatStatus(Identity.LORD, True)
    loyalist = SeatStatus(Identity.LOYALIST, False)
    assert MODE.on_death(loyalist, lord) == LORD_DISCARDS_ALL
    assert MODE.on_death(replace(loyalist, reborn=True), lord) is None
    assert victory.seat_death_consequence(replace(loyalist, reborn=True), lord) is None


def test_scoring_counts_a_reborn_player_as_dead() -> None:
    """ "Scoring counts him as dead": L and R count the players alive who count."""
    seats = table("L+ O* O+ R- R- N-")
    players = {
        i: PlayerResult(identity=s.identity, alive_at_end=victory.counts_alive(s))
        for i, s in enumerate(seats)
    }
    records = MODE.score(players, Side.LORD)
    lord_base = next(
        line for line in records[0].breakdown.lines if line.code == scoring.LOYALISTS_ALIVE
    )
    assert lord_base.count == 1  # one loyalist alive; the reborn one counts as dead
    assert records[0].breakdown.total == 4 + 2 * 1
    assert records[1].won and records[1].breakdown.total == 5 + 1
    assert not victory.counts_alive(seats[1]) and victory.counts_alive(seats[2])


def test_a_reborn_renegade_loses_no_final_duel_and_the_reborn_spoil_none() -> None:
    renegade = SeatStatus(Identity.RENEGADE, True)
    lord = SeatStatus(Identity.LORD, True)
    reborn_rebel = SeatStatus(Identity.REBEL, True, reborn=True)
    assert scoring.lost_final_duel(renegade, [lord, renegade, reborn_rebel])
    assert not scoring.lost_final_duel(
        replace(renegade, reborn=True), [lord, replace(renegade, reborn=True)]
    )


def test_with_reborn_sets_the_flag_from_the_state() -> None:
    seats = table("L+ O+ R+ N-")
    state = RebirthState(reborn=frozenset({2, 3}))
    flagged = rebirth.with_reborn(seats, state)
    assert [s.reborn for s in flagged] == [False, False, True, False]  # N is dead again
    assert isinstance(MODE, IdentityMode)


@st.composite
def tables(draw: st.DrawFn) -> list[SeatStatus]:
    """A dealt table of 4–10 seats, each alive, dead or reborn (never the lord)."""
    count = draw(st.integers(min_value=4, max_value=10))
    dealt = MODE.deal(count, MODE.options({}), rng=random.Random(draw(st.integers(0, 10**6))))
    states = st.sampled_from(["alive", "dead", "reborn"])
    seats = []
    for identity in dealt:
        state = (
            draw(states) if identity != Identity.LORD else draw(st.sampled_from(["alive", "dead"]))
        )
        seats.append(SeatStatus(identity, alive=state != "dead", reborn=state == "reborn"))
    return seats


@settings(max_examples=300, deadline=None)
@given(tables())
def test_a_reborn_player_weighs_exactly_as_a_dead_one_at_the_end(seats: list[SeatStatus]) -> None:
    """Whatever the table, the end of the game and its winners are those of the same table
    with every reborn player dead; with nobody reborn, those of docs/rules.md §7 as before."""
    as_dead = [SeatStatus(s.identity, alive=s.alive and not s.reborn) for s in seats]
    side = MODE.victory(seats)
    assert side == victory.winning_side(as_dead)
    if side is not None:
        assert MODE.winners(seats, side) == victory.winners(as_dead, side)
    plain = [replace(s, reborn=False) for s in seats]
    assert MODE.victory(plain) == victory.winning_side(plain)
