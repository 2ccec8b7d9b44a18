"""1 vs 1 (companion/games/duel/rules.py), one test or parametrised case per sentence of
docs/rules.md §9.8's "1 vs 1" paragraph (quoted in each docstring), and the bad input the app's
requirements list for both modes."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from companion.games.draft.rules import Draft, Placement
from companion.games.duel.rules import (
    DISCARD_AND_DRAW_FOUR,
    LORD_SIDE,
    PLAN,
    RENEGADE_SIDE,
    START_CARDS,
    WIN,
    DuelMode,
    hero_in_play,
)
from companion.rules.errors import Refused
from companion.rules.heroes import STANDARD_HEROES
from companion.rules.identities import Identity
from companion.rules.modes.base import HeroFall, Mode
from companion.rules.scoring import PlayerResult, standings
from companion.rules.turns import LIGHTNING
from companion.rules.victory import DRAW_THREE, SeatStatus, Side

MODE = DuelMode()
OPTIONS = MODE.options(None)
LORD, RENEGADE = Identity.LORD, Identity.RENEGADE
HEROES = [hero.id for hero in STANDARD_HEROES]


def _seats(lord_at: int = 0, dead: Sequence[int] = ()) -> list[SeatStatus]:
    cards = [RENEGADE, RENEGADE]
    cards[lord_at] = LORD
    return [SeatStatus(card, i not in dead) for i, card in enumerate(cards)]


def _refused(call: Callable[[], Any]) -> str:
    with pytest.raises(Refused) as refused:
        call()
    return refused.value.code


# "two players shuffle the lord and renegade cards face down and each draws one." --------------


@pytest.mark.parametrize("count", range(0, 8))
def test_a_table_has_exactly_two_seats(count: int) -> None:
    """docs/rules.md §9.8: "two players" (the app's requirement: "A 1 vs 1 table has exactly two seats")."""
    assert MODE.seats_allowed(count) == (count == 2)
    assert MODE.min_players == MODE.max_players == 2


def test_the_lord_and_renegade_draw_decides_the_sides() -> None:
    """docs/rules.md §9.8: "two players shuffle the lord and renegade cards face down and each draws
    one"."""
    assert MODE.identity_counts(2, OPTIONS) == {
        LORD: 1,
        Identity.LOYALIST: 0,
        Identity.REBEL: 0,
        RENEGADE: 1,
    }
    deals = {tuple(MODE.deal(2, OPTIONS, rng=random.Random(seed))) for seed in range(30)}
    assert deals == {(LORD, RENEGADE), (RENEGADE, LORD)}
    for at in (0, 1):
        dealt = MODE.deal(2, OPTIONS, fixed_leader=at)
        assert dealt[at] == LORD and sorted(dealt) == sorted([LORD, RENEGADE])
        assert MODE.leader(_seats(at)) == at
        assert MODE.draft_side(dealt[at]) == LORD_SIDE
        assert MODE.draft_side(dealt[1 - at]) == RENEGADE_SIDE
    assert _refused(lambda: MODE.deal(3, OPTIONS)) == "seat_count"
    assert _refused(lambda: MODE.deal(2, OPTIONS, fixed_leader=2)) == "bad_seat"
    assert MODE.leader_rotation(2, 1) == [1, 0]
    assert _refused(lambda: MODE.leader_rotation(2, 2)) == "bad_seat"


@pytest.mark.parametrize("identity", [LORD, RENEGADE])
def test_both_cards_are_known(identity: Identity) -> None:
    """Two cards, two players: each knows the other's once drawn."""
    for alive in (True, False):
        for over in (True, False):
            assert MODE.identity_public(identity, alive=alive, game_over=over)
    assert MODE.drafts_for_side(identity)
    assert not MODE.drafts_for_side(Identity.REBEL)


# "10 heroes are drawn at random, 6 face up and 4 face down; the players pick alternately
# 1-2-2-2-2-1, the lord side first; a face-down hero is seen only by the player who took it." --


def test_the_mode_drafts_instead_of_offering() -> None:
    assert MODE.draft_plan() is PLAN
    assert _refused(lambda: MODE.leader_offer()) == "drafted"
    assert _refused(lambda: MODE.offers(player_count=2, taken=(), count=1)) == "drafted"


@pytest.mark.parametrize("seed", range(10))
def test_ten_random_heroes_six_up_four_down(seed: int) -> None:
    """docs/rules.md §9.8: "10 heroes are drawn at random, 6 face up and 4 face down"."""
    draft = Draft.deal(PLAN, HEROES, random.Random(seed))
    assert len(draft.pool) == len(set(draft.pool)) == 10 and set(draft.pool) <= set(HEROES)
    public = draft.view(None).pool
    assert sum(card.hero is None for card in public) == 4
    assert sum(card.face_down for card in public) == 4
    assert {card.hero for card in public if card.hero} == {
        hero for i, hero in enumerate(draft.pool) if i not in draft.face_down
    }


def test_which_heroes_lie_face_down_is_random() -> None:
    downs = {Draft.deal(PLAN, HEROES, random.Random(s)).face_down for s in range(10)}
    assert len(downs) > 1


def _draft(seed: int = 2) -> Draft:
    return Draft.deal(PLAN, HEROES, random.Random(seed))


def test_picks_alternate_one_two_two_two_two_one_lord_side_first() -> None:
    """docs/rules.md §9.8: "the players pick alternately 1-2-2-2-2-1, the lord side first"."""
    draft = _draft()
    assert draft.first == LORD_SIDE == PLAN.first_side
    expected = [LORD_SIDE] + [RENEGADE_SIDE] * 2 + [LORD_SIDE] * 2 + [RENEGADE_SIDE] * 2
    expected += [LORD_SIDE] * 2 + [RENEGADE_SIDE]
    seen = []
    for position in range(10):
        seen.append(draft.turn)
        draft = draft.pick(draft.turn or "", [position])
    assert seen == expected
    assert len(draft.held(LORD_SIDE)) == len(draft.held(RENEGADE_SIDE)) == 5
    assert _refused(lambda: draft.choose_first(RENEGADE_SIDE)) == "first_chosen"


def test_bad_picks_are_refused_and_change_nothing() -> None:
    """The app's requirement: "a pick out of turn, a fourth pick in a 2-pick step" get a clear error and
    change nothing."""
    draft = _draft()
    assert _refused(lambda: draft.pick(RENEGADE_SIDE, [0])) == "out_of_turn"
    draft = draft.pick(LORD_SIDE, [0])
    assert _refused(lambda: draft.pick(LORD_SIDE, [1])) == "step_done"
    draft = draft.pick(RENEGADE_SIDE, [1, 2])
    before = draft.as_data()
    assert _refused(lambda: draft.pick(RENEGADE_SIDE, [3])) == "step_done"
    assert _refused(lambda: draft.pick(LORD_SIDE, [3, 4, 5])) == "too_many"
    assert _refused(lambda: draft.pick(LORD_SIDE, [2])) == "taken"
    assert _refused(lambda: draft.pick(LORD_SIDE, [10])) == "not_in_pool"
    assert draft.as_data() == before and Draft.from_data(PLAN, before) == draft


def test_a_face_down_hero_is_seen_only_by_the_player_who_took_it() -> None:
    """docs/rules.md §9.8: "a face-down hero is seen only by the player who took it"."""
    draft = _draft()
    down = sorted(draft.face_down)
    up = [p for p in range(10) if p not in draft.face_down]
    # The lord side takes a face-down hero; the renegade side one face down and one face up.
    draft = draft.pick(LORD_SIDE, [down[0]]).pick(RENEGADE_SIDE, [down[1], up[0]])
    lord_view, renegade_view, public = (
        draft.view(LORD_SIDE),
        draft.view(RENEGADE_SIDE),
        draft.view(None),
    )
    hidden_lord, hidden_ren = draft.pool[down[0]], draft.pool[down[1]]
    assert lord_view.held[LORD_SIDE] == (hidden_lord,)
    assert lord_view.pool[down[0]].hero == hidden_lord
    assert renegade_view.held[LORD_SIDE] == (None,)
    assert renegade_view.pool[down[0]].hero is None
    assert renegade_view.held[RENEGADE_SIDE] == (hidden_ren, draft.pool[up[0]])
    assert lord_view.held[RENEGADE_SIDE] == (None, draft.pool[up[0]])
    assert public.held == {LORD_SIDE: (None,), RENEGADE_SIDE: (None, draft.pool[up[0]])}
    # Who took which card is public; untaken face-down cards stay hidden from everybody.
    assert public.pool[down[0]].taken_by == LORD_SIDE
    for viewer in (None, LORD_SIDE, RENEGADE_SIDE):
        view = draft.view(viewer)
        assert all(view.pool[p].hero is None for p in down[2:])
    # No screen's view carries a hidden hero anywhere.
    assert hidden_lord not in repr(draft.view(RENEGADE_SIDE))
    assert hidden_ren not in repr(draft.view(LORD_SIDE)) and hidden_ren not in repr(public)


def test_a_face_down_hero_is_picked_by_its_place() -> None:
    draft = _draft()
    down = sorted(draft.face_down)[0]
    assert _refused(lambda: draft.position_of(draft.pool[down])) == "not_in_pool"
    up = next(p for p in range(10) if p not in draft.face_down)
    assert draft.position_of(draft.pool[up]) == up


# "Each player then puts 3 of his 5 in order, face down, and both first heroes are revealed
# together." -----------------------------------------------------------------------------


def _drafted() -> Draft:
    draft = _draft()
    for position in range(10):
        draft = draft.pick(draft.turn or "", [position])
    return draft


def test_each_orders_three_of_five_in_secret_and_both_firsts_reveal_together() -> None:
    """docs/rules.md §9.8: "Each player then puts 3 of his 5 in order, face down, and both first
    heroes are revealed together"."""
    draft = _drafted()
    lord, ren = draft.held(LORD_SIDE)[1:4], draft.held(RENEGADE_SIDE)[:3]
    placement = Placement.after(draft).place(RENEGADE_SIDE, ren)
    assert placement.view(RENEGADE_SIDE) == {LORD_SIDE: (), RENEGADE_SIDE: ren}
    assert placement.view(LORD_SIDE) == {LORD_SIDE: (), RENEGADE_SIDE: (None, None, None)}
    assert placement.view(None) == {LORD_SIDE: (), RENEGADE_SIDE: (None, None, None)}
    both = placement.place(LORD_SIDE, lord)
    assert both.revealed
    assert both.view(None) == {
        LORD_SIDE: (lord[0], None, None),
        RENEGADE_SIDE: (ren[0], None, None),
    }
    assert both.view(LORD_SIDE) == {LORD_SIDE: lord, RENEGADE_SIDE: (ren[0], None, None)}
    assert hero_in_play(both, LORD_SIDE, 0) == lord[0]
    assert _refused(lambda: hero_in_play(placement, LORD_SIDE, 0)) == "not_revealed"


def test_bad_orders_are_refused() -> None:
    """A placement of a hero the side does not hold is refused."""
    draft = _drafted()
    placement = Placement.after(draft)
    lord, ren = draft.held(LORD_SIDE), draft.held(RENEGADE_SIDE)
    assert _refused(lambda: placement.place(LORD_SIDE, [lord[0], lord[1], ren[0]])) == "not_held"
    assert _refused(lambda: placement.place(LORD_SIDE, lord[:2])) == "wrong_count"
    assert _refused(lambda: placement.place(LORD_SIDE, lord)) == "wrong_count"
    assert placement.placed == {}


# "Each hero in play starts with 4 cards." --------------------------------------------------


def test_each_hero_in_play_starts_with_four_cards() -> None:
    """docs/rules.md §9.8: "Each hero in play starts with 4 cards" (the first heroes, and each next
    hero's reminder)."""
    assert START_CARDS == 4
    assert MODE.hero_falls(1).reminder == DISCARD_AND_DRAW_FOUR == "discard_and_draw4"


@pytest.mark.parametrize("identity", [LORD, RENEGADE])
@pytest.mark.parametrize("hero_hp", [3, 4])
def test_no_hp_bonus(identity: Identity, hero_hp: int) -> None:
    seat = SeatStatus(identity, True)
    assert MODE.start_hp(seat, hero_hp=hero_hp, player_count=2, first_game=False) == hero_hp
    assert _refused(lambda: MODE.start_hp(seat, hero_hp=None, player_count=2, first_game=True))
    assert _refused(lambda: MODE.start_hp(seat, hero_hp=4, player_count=3, first_game=False))


# "The renegade side moves first and draws one card fewer in its first draw phase." ----------


@pytest.mark.parametrize("lord_at", [0, 1])
def test_the_renegade_side_moves_first_and_draws_one_fewer(lord_at: int) -> None:
    """docs/rules.md §9.8: "The renegade side moves first and draws one card fewer in its first draw
    phase"."""
    seats = _seats(lord_at)
    renegade = 1 - lord_at
    assert MODE.first_turn(seats) == renegade
    begin = MODE.flow_begin(seats)
    assert begin.turn is not None and begin.turn.seat == renegade and begin.choice is None
    assert MODE.first_draw_change(seats, renegade) == -1
    assert MODE.first_draw_change(seats, lord_at) == 0
    # Then the turns alternate; a round starts with the renegade side.
    after = MODE.next_turn(seats, renegade)
    assert (after.seat, after.new_round) == (lord_at, False)
    back = MODE.flow_after_turn(seats, {}, lord_at)
    assert back.turn is not None and (back.turn.seat, back.turn.new_round) == (renegade, True)
    assert _refused(lambda: MODE.flow_answer(seats, {}, renegade, "x")) == "no_question"


# "No identity rewards or penalties." -----------------------------------------------------


@pytest.mark.parametrize("victim", [LORD, RENEGADE])
@pytest.mark.parametrize("killer", [LORD, RENEGADE, None])
def test_no_rewards_or_penalties(victim: Identity, killer: Identity | None) -> None:
    """docs/rules.md §9.8: "No identity rewards or penalties" (the app's requirement: "When a hero dies there is no
    reward or penalty")."""
    consequence = MODE.on_death(
        SeatStatus(victim, False), SeatStatus(killer, True) if killer else None
    )
    assert consequence is None and consequence != DRAW_THREE
    if killer:
        assert not MODE.killer_discards_equipment(victim, killer)
    assert not MODE.lord_skills(victim)
    assert not MODE.lost_final_duel(victim, [LORD, RENEGADE])
    assert not MODE.may_lose_final_duel(victim)


def test_every_card_is_in_play() -> None:
    """docs/rules.md §9.8 names no card 1 vs 1 plays without (unlike 3 vs 3's 闪电)."""
    assert MODE.card_refused(LIGHTNING) is None


# "When a hero dies, its cards go to the discard pile and the next hero in order is revealed at
# full HP and draws 4 cards." ---------------------------------------------------------------


@pytest.mark.parametrize("fallen", [1, 2])
def test_a_fallen_hero_brings_the_next_in_order(fallen: int) -> None:
    """docs/rules.md §9.8: "When a hero dies, its cards go to the discard pile and the next hero in
    order is revealed at full HP and draws 4 cards" (the app's requirement: "with a reminder to discard the
    dead hero's cards and draw 4")."""
    fall = MODE.hero_falls(fallen)
    assert fall == HeroFall(
        out=False, next_index=fallen, reminder=DISCARD_AND_DRAW_FOUR, turn_passes=True
    )
    draft = _drafted()
    lord, ren = draft.held(LORD_SIDE)[:3], draft.held(RENEGADE_SIDE)[2:]
    both = Placement.after(draft).place(LORD_SIDE, lord).place(RENEGADE_SIDE, ren)
    assert fall.next_index is not None
    assert hero_in_play(both, LORD_SIDE, fall.next_index) == lord[fallen]
    for lord_at in (0, 1):
        heroes = MODE.seat_heroes(_seats(lord_at), both, {LORD_SIDE: fallen})
        assert heroes[lord_at] == lord[fallen] and heroes[1 - lord_at] == ren[0]
        assert MODE.seat_heroes(_seats(lord_at), both) == (
            [lord[0], ren[0]] if lord_at == 0 else [ren[0], lord[0]]
        )
    assert _refused(lambda: hero_in_play(both, LORD_SIDE, 3)) == "no_hero_left"
    # Revealed to all; the heroes after it stay secret.
    seen = both.view(None, {LORD_SIDE: fallen})
    assert seen[LORD_SIDE] == tuple(h if i <= fallen else None for i, h in enumerate(lord))
    assert seen[RENEGADE_SIDE] == (ren[0], None, None)
    # Full HP: the next hero's own HP.
    hp = next(h.hp for h in STANDARD_HEROES if h.id == lord[fallen])
    assert MODE.start_hp(SeatStatus(LORD, True), hero_hp=hp, player_count=2, first_game=False) == hp


# "A player loses when his third hero dies." -------------------------------------------------


def test_the_third_heros_death_loses() -> None:
    """docs/rules.md §9.8: "A player loses when his third hero dies"."""
    assert MODE.heroes_per_seat == 3
    assert MODE.hero_falls(3) == HeroFall(out=True)
    for bad in (0, 4):
        assert _refused(lambda bad=bad: MODE.hero_falls(bad)) == "bad_fall"
    for lord_at in (0, 1):
        assert MODE.victory(_seats(lord_at)) is None
        for dead in (0, 1):
            seats = _seats(lord_at, [dead])
            winner = Side.LORD if dead != lord_at else Side.RENEGADE
            assert MODE.victory(seats) == winner
            assert MODE.winners(seats, winner) == [1 - dead]
        assert _refused(lambda lord_at=lord_at: MODE.victory(_seats(lord_at, [0, 1])))


def test_the_last_death_passes_no_turn_to_the_dead() -> None:
    seats = _seats(0, [1])
    passed = MODE.turn_after_death(seats, 1, 1)
    assert passed is not None and passed.seat == 0
    assert MODE.turn_after_death(seats, 0, 1) is None


# Scoring: "Sessions of 1 vs 1 games score wins per player." ----------------


def test_a_session_scores_wins_per_player() -> None:
    def game(lord: str, winner: Side) -> dict[str, Any]:
        other = "b" if lord == "a" else "a"
        return MODE.score(
            {lord: PlayerResult(LORD, winner == Side.LORD), other: PlayerResult(RENEGADE, True)},
            winner,
        )

    games = [game("a", Side.LORD), game("b", Side.LORD), game("a", Side.RENEGADE)]
    assert [sorted(k for k, r in g.items() if r.won) for g in games] == [["a"], ["b"], ["b"]]
    ranked = standings(games)
    assert [(s.player, s.wins, s.total, s.rank) for s in ranked] == [
        ("b", 2, 2, 1),
        ("a", 1, 1, 2),
    ]
    assert MODE.score_codes == (WIN,)
    assert {line.code for g in games for r in g.values() for line in r.breakdown.lines} == {WIN}


def test_the_mode_is_a_mode() -> None:
    assert isinstance(MODE, Mode) and MODE.key == "duel"
    assert _refused(lambda: MODE.first_turn([SeatStatus(LORD, True)] * 2)) == "bad_layout"
    assert _refused(lambda: MODE.draft_side(Identity.REBEL)) == "bad_identity"
