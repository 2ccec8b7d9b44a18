"""3 vs 3 (companion/games/threes/rules/), one test or parametrised case per sentence of
docs/rules.md §9.7's "3 vs 3" paragraph (quoted in each docstring), and the bad input the app's
requirements list for both modes."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from companion.games.draft.rules import Draft, DraftError, Placement
from companion.games.threes.rules import (
    COMMANDER_SEATS,
    FIRST_SIDE,
    NO_LIGHTNING,
    PLAN,
    WHO_ACTS,
    WIN,
    Colour,
    Go,
    Role,
    ThreesMode,
    colour,
    heroes_for_seats,
    layout,
    place_of,
    swap_colours,
)
from companion.games.threes.rules.teams import TeamError, Teams
from companion.rules.directions import (
    AMAZING_GRACE,
    ARROW_BARRAGE,
    PEACH_GARDEN,
    SAVAGE_ASSAULT,
    TURN_ORDER,
    Direction,
    area_order,
)
from companion.rules.distance import SeatView, ring_distance
from companion.rules.errors import Refused
from companion.rules.heroes import STANDARD_HEROES
from companion.rules.identities import Identity
from companion.rules.modes.base import FlowStep, Mode
from companion.rules.scoring import PlayerResult, standings
from companion.rules.sides import side_wins, team_standings
from companion.rules.turns import LIGHTNING
from companion.rules.victory import DRAW_THREE, SeatStatus, Side

MODE = ThreesMode()
OPTIONS = MODE.options(None)
LORD, LOYALIST, REBEL, RENEGADE = (
    Identity.LORD,
    Identity.LOYALIST,
    Identity.REBEL,
    Identity.RENEGADE,
)
HEROES = [hero.id for hero in STANDARD_HEROES]
WARM, COLD = Colour.WARM.value, Colour.COLD.value

# Team one (seats 0-2) cold, team two (3-5) warm: cold VA, cold C, cold VB, warm VB, warm C,
# warm VA; the other layout is the same ring started from the warm side.
COLD_FIRST = layout(4)
WARM_FIRST = layout(1)


def _seats(identities: Sequence[Identity], dead: Sequence[int] = ()) -> list[SeatStatus]:
    return [SeatStatus(identity, i not in dead) for i, identity in enumerate(identities)]


# "6 players in two teams of three, each with a commander (主帅) and two vanguards (前锋)." ------


@pytest.mark.parametrize("count", range(0, 12))
def test_a_table_has_exactly_six_seats(count: int) -> None:
    """docs/rules.md §9.7: "6 players in two teams of three" (the app's requirement: "exactly six seats")."""
    assert MODE.seats_allowed(count) == (count == 6)
    assert MODE.min_players == MODE.max_players == 6


def test_a_seventh_player_is_refused() -> None:
    """The app's requirement: "a seventh player joining a 3 vs 3 table" gets an error. The actions refuse a
    join once the table holds `max_players`; the teams refuse a fourth member."""
    assert not MODE.seats_allowed(7) and 6 >= MODE.max_players
    teams: Teams[str] = Teams(MODE.team_size)
    for name in "abc":
        teams = teams.join(name, 0)
    for name in "def":
        teams = teams.join(name, 1)
    for team in (0, 1):
        with pytest.raises(Refused) as refused:
            teams.join("g", team)
        assert refused.value.code == "team_full"
    assert teams.team_of("g") is None


def test_the_deal_is_a_commander_and_two_vanguards_each_side() -> None:
    """docs/rules.md §9.7: "two teams of three, each with a commander and two vanguards"."""
    counts = MODE.identity_counts(6, OPTIONS)
    assert counts == {LORD: 1, LOYALIST: 2, REBEL: 2, RENEGADE: 1}
    for identities in (COLD_FIRST, WARM_FIRST):
        for side in Colour:
            members = [i for i in identities if colour(i) is side]
            assert len(members) == 3
            assert sum(MODE.drafts_for_side(i) for i in members) == 1  # one commander
    with pytest.raises(Refused):
        MODE.identity_counts(5, OPTIONS)


def test_players_pick_their_team_and_each_team_its_commander() -> None:
    """The app's requirement: "Players pick their team and each team its commander"; the seating puts
    each commander between his vanguards, at indexes 1 and 4."""
    assert MODE.team_size == 3
    teams: Teams[str] = Teams(MODE.team_size)
    with pytest.raises(TeamError) as refused:
        teams.make_commander("a")
    assert refused.value.code == "not_in_team"
    for name, team in zip("abcdef", (0, 0, 1, 0, 1, 1), strict=True):
        teams = teams.join(name, team)
    assert teams.members == (("a", "b", "d"), ("c", "e", "f"))
    with pytest.raises(Refused) as refused:
        teams.seating()
    assert refused.value.code == "teams_not_ready"
    teams = teams.make_commander("b").make_commander("f")
    assert teams.ready
    assert teams.seating() == ["a", "b", "d", "c", "f", "e"]
    # A full team takes nobody, not even from the other team.
    with pytest.raises(Refused) as refused:
        teams.join("b", 1)
    assert refused.value.code == "team_full"
    with pytest.raises(Refused) as refused:
        teams.join("x", 2)
    assert refused.value.code == "bad_team"


def test_changing_team_leaves_the_old_command() -> None:
    teams: Teams[int] = Teams(3).join(1, 0).join(2, 0).make_commander(1)
    moved = teams.join(1, 1)
    assert moved.members == ((2,), (1,)) and moved.commanders == (None, None)
    assert moved.join(1, 1) == moved  # joining one's own team changes nothing
    assert Teams.from_data(moved.as_data()) == moved
    assert teams.leave(2).members == ((1,), ()) and teams.leave(2).commanders == (1, None)


# "Identity cards are face up: the lord card marks the warm side's commander, loyalists its
# vanguards; the renegade card marks the cold side's commander, rebels its vanguards." ------


@pytest.mark.parametrize("identity", list(Identity))
@pytest.mark.parametrize("alive", [True, False])
@pytest.mark.parametrize("over", [True, False])
def test_identity_cards_are_face_up(identity: Identity, alive: bool, over: bool) -> None:
    """docs/rules.md §9.7: "Identity cards are face up"."""
    assert MODE.identity_public(identity, alive=alive, game_over=over)


@pytest.mark.parametrize(
    ("identity", "side", "commander"),
    [
        (LORD, Colour.WARM, True),
        (LOYALIST, Colour.WARM, False),
        (RENEGADE, Colour.COLD, True),
        (REBEL, Colour.COLD, False),
    ],
)
def test_the_cards_mark_colour_and_place(identity: Identity, side: Colour, commander: bool) -> None:
    """docs/rules.md §9.7: "the lord card marks the warm side's commander, loyalists its vanguards;
    the renegade card marks the cold side's commander, rebels its vanguards"."""
    assert colour(identity) is side
    assert MODE.draft_side(identity) == side.value
    assert MODE.drafts_for_side(identity) == commander
    for identities in (COLD_FIRST, WARM_FIRST):
        for seat, dealt in enumerate(identities):
            if dealt == identity:
                placed_colour, role = place_of(identities, seat)
                assert placed_colour is side
                assert (role is Role.COMMANDER) == commander


# "The two commanders draw the lord and renegade cards face down to decide the colours; the
# next game swaps colours." --------------------------------------------------------------


def test_the_commanders_draw_decides_the_colours_at_random() -> None:
    """docs/rules.md §9.7: "The two commanders draw the lord and renegade cards face down to decide
    the colours"."""
    deals = {tuple(MODE.deal(6, OPTIONS, rng=random.Random(seed))) for seed in range(40)}
    assert deals == {tuple(COLD_FIRST), tuple(WARM_FIRST)}
    for dealt in deals:
        # Only the commanders' seats change cards between the two draws, with their teams.
        assert {dealt.index(LORD), dealt.index(RENEGADE)} == set(COMMANDER_SEATS)
        assert {colour(dealt[i]) for i in (0, 1, 2)} != {colour(dealt[i]) for i in (3, 4, 5)}
    with pytest.raises(Refused):
        MODE.deal(7, OPTIONS)


@pytest.mark.parametrize("warm", COMMANDER_SEATS)
def test_the_next_game_swaps_colours(warm: int) -> None:
    """docs/rules.md §9.7: "the next game swaps colours" (the app's requirement: "a next game at the same table
    swaps the colours")."""
    first = MODE.deal(6, OPTIONS, fixed_leader=warm)
    assert first.index(LORD) == warm
    second = swap_colours(first)
    assert [colour(i) for i in second] == [
        Colour.COLD if colour(i) is Colour.WARM else Colour.WARM for i in first
    ]
    rotation = MODE.leader_rotation(6, warm)
    assert rotation == [warm, sum(COMMANDER_SEATS) - warm]
    assert MODE.deal(6, OPTIONS, fixed_leader=rotation[1]) == second
    assert swap_colours(second) == first
    assert MODE.redeal(first, OPTIONS) == second and MODE.redeal(second, OPTIONS) == first
    with pytest.raises(Refused):
        MODE.redeal([LORD, REBEL, REBEL, LOYALIST, RENEGADE, LOYALIST], OPTIONS)


@pytest.mark.parametrize("seat", [0, 2, 3, 5, 6, -1])
def test_only_a_commander_seat_can_be_dealt_the_lord(seat: int) -> None:
    with pytest.raises(Refused):
        MODE.deal(6, OPTIONS, fixed_leader=seat)
    with pytest.raises(Refused):
        MODE.leader_rotation(6, seat)


# "Seating round the table: cold vanguard A, cold commander, cold vanguard B, warm vanguard B,
# warm commander, warm vanguard A." -------------------------------------------------------

RING = [
    (Colour.COLD, Role.VANGUARD_A),
    (Colour.COLD, Role.COMMANDER),
    (Colour.COLD, Role.VANGUARD_B),
    (Colour.WARM, Role.VANGUARD_B),
    (Colour.WARM, Role.COMMANDER),
    (Colour.WARM, Role.VANGUARD_A),
]


@pytest.mark.parametrize("warm", COMMANDER_SEATS)
def test_the_seats_follow_the_rules_ring(warm: int) -> None:
    """docs/rules.md §9.7: "Seating round the table: cold vanguard A, cold commander, cold vanguard B,
    warm vanguard B, warm commander, warm vanguard A" (the app's requirement: "the seats follow that order
    for distance and turns")."""
    identities = layout(warm)
    start = next(s for s in range(6) if place_of(identities, s) == RING[0])
    assert [place_of(identities, (start + k) % 6) for k in range(6)] == RING
    names = [MODE.seat_place(_seats(identities), (start + k) % 6) for k in range(6)]
    assert names == [
        "cold_vanguard_a",
        "cold_commander",
        "cold_vanguard_b",
        "warm_vanguard_b",
        "warm_commander",
        "warm_vanguard_a",
    ]


def test_distance_follows_the_ring() -> None:
    """The ring's distances: the commanders sit opposite (3); each vanguard A sits beside the
    other vanguard A, each vanguard B beside the other vanguard B."""
    identities = COLD_FIRST
    seats = [SeatView(alive=True) for _ in range(6)]
    by_place = {place_of(identities, s): s for s in range(6)}
    cold_c, warm_c = (
        by_place[(Colour.COLD, Role.COMMANDER)],
        by_place[(Colour.WARM, Role.COMMANDER)],
    )
    assert ring_distance(seats, cold_c, warm_c) == 3
    for role in (Role.VANGUARD_A, Role.VANGUARD_B):
        cold, warm = by_place[(Colour.COLD, role)], by_place[(Colour.WARM, role)]
        assert ring_distance(seats, cold, warm) == 1
        assert ring_distance(seats, cold, warm_c) == 2


# "Draft: 16 heroes (two piles of 8, one chosen by each commander) face up; the warm commander
# decides which commander picks first; picks alternate 1-2-2-2-2-2-2-2-1; then each commander
# puts 3 of his side's 8 face down on the commander and vanguard places, and both sides reveal
# together." --------------------------------------------------------------------------------


def test_the_mode_drafts_instead_of_offering() -> None:
    assert MODE.draft_plan() is PLAN
    with pytest.raises(Refused):
        MODE.leader_offer()
    with pytest.raises(Refused):
        MODE.offers(player_count=6, taken=(), count=5)


@pytest.mark.parametrize("seed", range(8))
def test_sixteen_heroes_face_up_from_the_tables_heroes(seed: int) -> None:
    """docs/rules.md §9.7: "Draft: 16 heroes … face up" (the app's requirement: "drawn at random from the table's
    heroes")."""
    draft = Draft.deal(PLAN, HEROES, random.Random(seed))
    assert len(draft.pool) == len(set(draft.pool)) == 16 and set(draft.pool) <= set(HEROES)
    assert draft.face_down == frozenset()
    assert all(card.hero is not None for card in draft.view(None).pool)
    box = HEROES[:17]
    assert set(Draft.deal(PLAN, box, random.Random(seed)).pool) <= set(box)


def test_the_draft_is_random() -> None:
    pools = {frozenset(Draft.deal(PLAN, HEROES, random.Random(s)).pool) for s in range(10)}
    assert len(pools) > 1


def test_the_pool_may_be_entered() -> None:
    """16 heroes "drawn at random from the table's heroes, or entered"."""
    pool = HEROES[3:19]
    draft = Draft.entered(PLAN, pool, known=HEROES)
    assert draft.pool == tuple(pool)
    for bad, code in [
        (HEROES[:15], "pool_size"),
        (HEROES[:17], "pool_size"),
        ([*HEROES[:15], HEROES[0]], "pool_repeats"),
        ([*HEROES[:15], "XX999"], "unknown_hero"),
    ]:
        with pytest.raises(DraftError) as refused:
            Draft.entered(PLAN, bad, known=HEROES)
        assert refused.value.code == code
    with pytest.raises(DraftError):
        Draft.deal(PLAN, HEROES[:15])


def _draft(first: str | None = None) -> Draft:
    draft = Draft.deal(PLAN, HEROES, random.Random(3))
    return draft.choose_first(first) if first else draft


def test_the_warm_commander_decides_who_picks_first() -> None:
    """docs/rules.md §9.7: "the warm commander decides which commander picks first"."""
    assert PLAN.first_side is None and PLAN.first_chooser == WARM
    assert MODE.leader(_seats(COLD_FIRST)) == COLD_FIRST.index(LORD)  # the warm commander
    draft = _draft()
    assert draft.turn is None
    with pytest.raises(DraftError) as refused:
        draft.pick(WARM, [0])
    assert refused.value.code == "first_not_chosen"
    for side in (WARM, COLD):
        assert draft.choose_first(side).turn == side
    with pytest.raises(DraftError) as refused:
        draft.choose_first(COLD).choose_first(WARM)
    assert refused.value.code == "first_chosen"
    with pytest.raises(DraftError):
        draft.choose_first("green")


@pytest.mark.parametrize("first", [WARM, COLD])
def test_picks_alternate_one_two_two_and_one(first: str) -> None:
    """docs/rules.md §9.7: "picks alternate 1-2-2-2-2-2-2-2-1" (the app's requirement: "every screen shows whose
    pick it is and what each side holds")."""
    second = COLD if first == WARM else WARM
    # Nine steps, the sides alternating: the first picker takes 1+2+2+2+1, the other 2+2+2+2.
    expected = [first] + [s for k in range(7) for s in [(second, first)[k % 2]] * 2] + [first]
    assert len(expected) == 16 and expected.count(first) == expected.count(second) == 8
    draft = _draft(first)
    assert [size for _, size in draft.step_sizes] == [1, 2, 2, 2, 2, 2, 2, 2, 1]
    seen = []
    for position in range(16):
        view = draft.view(None)
        seen.append(view.turn)
        assert view.turn == draft.turn
        assert view.held[WARM] == draft.held(WARM) and view.held[COLD] == draft.held(COLD)
        draft = draft.pick(draft.turn or "", [position])
    assert seen == expected
    assert draft.done and draft.turn is None and draft.left_in_step == 0
    assert len(draft.held(WARM)) == len(draft.held(COLD)) == 8
    assert set(draft.held(WARM)) | set(draft.held(COLD)) == set(draft.pool)


def test_a_two_pick_step_may_be_taken_at_once() -> None:
    draft = _draft(WARM).pick(WARM, [5])
    assert draft.turn == COLD and draft.left_in_step == 2
    both = draft.pick(COLD, [0, 1])
    assert both.turn == WARM and both.held(COLD) == (draft.pool[0], draft.pool[1])
    assert both == draft.pick(COLD, [0]).pick(COLD, [1])


def _refused(call: Callable[[], Any]) -> str:
    with pytest.raises(Refused) as refused:
        call()
    return refused.value.code


def test_bad_picks_are_refused_and_change_nothing() -> None:
    """The app's requirement: "a pick out of turn, a fourth pick in a 2-pick step" get a clear error and
    change nothing."""
    draft = _draft(WARM).pick(WARM, [0]).pick(COLD, [1, 2])
    before = draft.as_data()
    assert _refused(lambda: draft.pick(COLD, [3])) == "step_done"  # a third pick in a row
    assert _refused(lambda: draft.pick(WARM, [3, 4, 5])) == "too_many"
    assert _refused(lambda: draft.pick(WARM, [1])) == "taken"
    assert _refused(lambda: draft.pick(WARM, [16])) == "not_in_pool"
    assert _refused(lambda: draft.pick(WARM, [-1])) == "not_in_pool"
    assert _refused(lambda: draft.pick(WARM, [3, 3])) == "repeated"
    assert _refused(lambda: draft.pick(WARM, [])) == "no_pick"
    assert _refused(lambda: draft.pick("green", [3])) == "bad_side"
    # After the warm side's 2, a further warm pick ("a fourth pick") is refused too.
    warm_done = draft.pick(WARM, [3]).pick(WARM, [4])
    assert _refused(lambda: warm_done.pick(WARM, [5])) == "step_done"
    assert _refused(lambda: _draft(WARM).pick(COLD, [0])) == "out_of_turn"
    assert draft.as_data() == before
    assert Draft.from_data(PLAN, before) == draft
    finished = _draft(COLD)
    for position in range(16):
        finished = finished.pick(finished.turn or "", [position])
    assert _refused(lambda: finished.pick(WARM, [0])) == "draft_over"


def _finished(first: str = WARM) -> Draft:
    draft = _draft(first)
    for position in range(16):
        draft = draft.pick(draft.turn or "", [position])
    return draft


def test_each_commander_places_three_of_his_eight_and_both_reveal_together() -> None:
    """docs/rules.md §9.7: "then each commander puts 3 of his side's 8 face down on the commander and
    vanguard places, and both sides reveal together" (the app's requirement: "nothing shows a side's
    placement until both have placed; then all six are revealed together")."""
    assert _refused(lambda: Placement.after(_draft(WARM))) == "draft_not_done"
    draft = _finished()
    placement = Placement.after(draft)
    warm, cold = draft.held(WARM)[:3], draft.held(COLD)[2:5]
    placed = placement.place(WARM, warm)
    assert not placed.revealed
    # Only the warm side sees its own places; the cold side and every screen see none.
    assert placed.view(WARM) == {WARM: warm, COLD: ()}
    assert placed.view(COLD) == {WARM: (None, None, None), COLD: ()}
    assert placed.view(None) == {WARM: (None, None, None), COLD: ()}
    both = placed.place(COLD, cold)
    assert both.revealed
    for viewer in (None, WARM, COLD):
        assert both.view(viewer) == {WARM: warm, COLD: cold}
    assert Placement.from_data(PLAN, both.as_data()) == both
    # The places go to the seats: each side's commander place to its commander.
    for identities in (COLD_FIRST, WARM_FIRST):
        heroes = heroes_for_seats(identities, both)
        assert MODE.seat_heroes(_seats(identities), both) == heroes
        for seat, hero in enumerate(heroes):
            side, role = place_of(identities, seat)
            lineup = warm if side is Colour.WARM else cold
            assert hero == lineup[PLAN.slots.index(role.value)]
    assert _refused(lambda: heroes_for_seats(COLD_FIRST, placed)) == "not_revealed"


def test_bad_placements_are_refused_and_change_nothing() -> None:
    """The app's requirement: "a placement of a hero the side does not hold" gets a clear error."""
    draft = _finished()
    placement = Placement.after(draft)
    warm, cold = draft.held(WARM), draft.held(COLD)
    assert _refused(lambda: placement.place(WARM, [warm[0], warm[1], cold[0]])) == "not_held"
    assert _refused(lambda: placement.place(WARM, warm[:2])) == "wrong_count"
    assert _refused(lambda: placement.place(WARM, warm[:4])) == "wrong_count"
    assert _refused(lambda: placement.place(WARM, [warm[0], warm[0], warm[1]])) == "repeated"
    assert _refused(lambda: placement.place("green", warm[:3])) == "bad_side"
    assert placement.placed == {}
    once = placement.place(WARM, warm[:3])
    assert _refused(lambda: once.place(WARM, warm[3:6])) == "already_placed"
    assert once.lineup(WARM) == warm[:3]
    assert _refused(lambda: once.lineup(COLD)) == "not_placed"


# "The cold commander decides which side acts first; the first turn of the game is a
# commander's." ---------------------------------------------------------------------------


@pytest.mark.parametrize("identities", [COLD_FIRST, WARM_FIRST])
@pytest.mark.parametrize("first", [WARM, COLD])
def test_the_cold_commander_decides_which_side_acts_first(
    identities: list[Identity], first: str
) -> None:
    """docs/rules.md §9.7: "The cold commander decides which side acts first; the first turn of the
    game is a commander's"."""
    seats = _seats(identities)
    begin = MODE.flow_begin(seats)
    assert begin.turn is None and begin.choice is not None
    assert begin.choice.chooser == identities.index(RENEGADE)
    assert begin.choice.question == FIRST_SIDE and set(begin.choice.answers) == {WARM, COLD}
    warm_commander = identities.index(LORD)
    with pytest.raises(Refused) as refused:
        MODE.flow_answer(seats, begin.state, warm_commander, first)
    assert refused.value.code == "not_chooser"
    step = MODE.flow_answer(seats, begin.state, begin.choice.chooser, first)
    commander = identities.index(LORD if first == WARM else RENEGADE)
    assert step.turn is not None and step.turn.seat == commander and step.turn.new_round
    assert step.choice is None


def test_threes_turns_need_the_go() -> None:
    seats = _seats(COLD_FIRST)
    for call in (
        lambda: MODE.first_turn(seats),
        lambda: MODE.next_turn(seats, 1),
        lambda: MODE.turn_after_death(seats, 1, 0),
    ):
        with pytest.raises(Refused) as refused:
            call()
        assert refused.value.code == "needs_flow_state"


# "Each hero starts with 4 cards; commanders +1 HP and max HP." --------------------------------


@pytest.mark.parametrize("identity", list(Identity))
@pytest.mark.parametrize("hero_hp", [3, 4])
def test_commanders_have_one_more_hp(identity: Identity, hero_hp: int) -> None:
    """docs/rules.md §9.7: "commanders +1 HP and max HP"."""
    seat = SeatStatus(identity, True)
    bonus = 1 if identity in (LORD, RENEGADE) else 0
    assert MODE.start_hp(seat, hero_hp=hero_hp, player_count=6, first_game=False) == (
        hero_hp + bonus
    )
    with pytest.raises(Refused):
        MODE.start_hp(seat, hero_hp=None, player_count=6, first_game=True)
    with pytest.raises(Refused):
        MODE.start_hp(seat, hero_hp=hero_hp, player_count=5, first_game=False)


# "The sides alternate: the side to act chooses "commander acts" (one turn) or "vanguards act"
# (each living vanguard's turn, one after the other); a player who acted turns his identity
# card sideways; when a turn ends and every card is sideways, all are set upright again; a side
# whose every card is sideways passes the action while the other side has an upright one." ----


class Table:
    """A 3 vs 3 table's flow driven through the mode's hooks, as the actions will."""

    def __init__(self, identities: Sequence[Identity], first: str) -> None:
        self.identities = list(identities)
        self.dead: set[int] = set()
        begin = MODE.flow_begin(self.seats)
        assert begin.choice is not None
        assert MODE.flow_pending(self.seats, begin.state) == begin.choice
        self.step = MODE.flow_answer(self.seats, begin.state, begin.choice.chooser, first)
        self._consistent()

    def _consistent(self) -> None:
        """What the screens read of the stored state: the question waiting, the sideways cards."""
        assert MODE.flow_pending(self.seats, self.state) == self.step.choice
        assert MODE.acted_seats(self.state) == frozenset(self.state["sideways"])
        # The state is plain JSON and reads back as it was.
        assert Go.from_data(json.loads(json.dumps(self.state))).as_data() == self.state
        if self.step.turn is not None:
            assert self.step.turn.seat in MODE.acted_seats(self.state)

    @property
    def seats(self) -> list[SeatStatus]:
        return _seats(self.identities, sorted(self.dead))

    @property
    def state(self) -> dict[str, Any]:
        return self.step.state

    @property
    def turn(self) -> int:
        assert self.step.turn is not None, self.step
        return self.step.turn.seat

    def end_turn(self) -> FlowStep:
        self.step = MODE.flow_after_turn(self.seats, self.state, self.turn)
        self._consistent()
        return self.step

    def answer(self, answer: str) -> FlowStep:
        assert self.step.choice is not None
        self.step = MODE.flow_answer(self.seats, self.state, self.step.choice.chooser, answer)
        self._consistent()
        return self.step

    def kill(self, seat: int) -> FlowStep:
        current = self.turn
        self.dead.add(seat)
        step = MODE.flow_after_death(self.seats, self.state, current, seat)
        if step.turn is None and step.choice is None:
            self.step = FlowStep(step.state, turn=self.step.turn)
        else:
            self.step = step
        self._consistent()
        return self.step


def test_a_full_round_of_goes() -> None:
    """docs/rules.md §9.7: the sides alternate; "vanguards act" is each vanguard's turn one after the
    other (from the seat after the commander round the table); a player who acted is
    sideways; a side's only choice is taken without asking; with every card sideways at a
    turn's end all are set upright and a new round begins."""
    # COLD_FIRST: cold VA 0, cold C 1, cold VB 2, warm VB 3, warm C 4, warm VA 5.
    table = Table(COLD_FIRST, WARM)
    assert table.turn == 4 and table.state["sideways"] == [4]
    step = table.end_turn()
    assert step.choice is not None and step.turn is None
    assert (step.choice.chooser, step.choice.question) == (1, WHO_ACTS)
    assert step.choice.answers == ("commander", "vanguards")
    table.answer("vanguards")
    assert table.turn == 2 and table.state["queue"] == [0]
    table.end_turn()
    assert table.turn == 0 and table.state["sideways"] == [0, 2, 4]
    # The warm side's commander has acted: vanguards act without asking, VA then VB.
    table.end_turn()
    assert table.turn == 5 and table.step.choice is None
    table.end_turn()
    assert table.turn == 3
    table.end_turn()
    assert table.turn == 1 and not table.step.turn.new_round  # type: ignore[union-attr]
    assert table.state["sideways"] == [0, 1, 2, 3, 4, 5]
    # Every card sideways at the end of this turn: all upright, the warm side's go, a new round.
    step = table.end_turn()
    assert step.choice is not None and step.choice.chooser == 4
    assert table.state["sideways"] == []
    table.answer("commander")
    assert table.turn == 4 and table.step.turn.new_round  # type: ignore[union-attr]


def test_a_side_with_every_card_sideways_passes_the_go() -> None:
    """docs/rules.md §9.7: "a side whose every card is sideways passes the action while the other
    side has an upright one"; dead players are skipped."""
    table = Table(COLD_FIRST, WARM)
    table.dead |= {3, 5}  # the warm vanguards are dead: the warm side has one card
    table.step = FlowStep(table.state, turn=table.step.turn)
    table.end_turn()
    table.answer("commander")
    assert table.turn == 1
    # The warm side's only card is sideways: the go comes back to the cold side's vanguards.
    table.end_turn()
    assert table.turn == 2
    table.end_turn()
    assert table.turn == 0
    table.end_turn()
    assert table.turn == 4 and table.step.turn.new_round  # type: ignore[union-attr]


def test_vanguards_act_means_the_living_ones() -> None:
    """docs/rules.md §9.7: "vanguards act" is "each living vanguard's turn"."""
    table = Table(COLD_FIRST, WARM)
    table.dead.add(2)
    table.end_turn()
    table.answer("vanguards")
    assert table.turn == 0 and table.state["queue"] == []


def test_a_death_on_ones_own_turn_passes_it_at_once() -> None:
    table = Table(COLD_FIRST, WARM)
    table.end_turn()
    table.answer("vanguards")
    assert table.turn == 2
    table.kill(2)
    assert table.turn == 0
    # A teammate killed during a vanguard's turn leaves the queue; the turn stays.
    table = Table(COLD_FIRST, WARM)
    table.end_turn()
    table.answer("vanguards")
    table.kill(0)
    assert table.turn == 2 and table.state["queue"] == []
    table.end_turn()
    assert table.turn == 5  # the go passes to the warm side's vanguards


def test_a_commanders_death_stops_the_flow() -> None:
    table = Table(COLD_FIRST, COLD)
    assert table.turn == 1
    table.kill(4)
    assert table.turn == 1 and MODE.victory(table.seats) == Side.RENEGADE


def test_bad_answers_are_refused_and_change_nothing() -> None:
    table = Table(COLD_FIRST, WARM)
    state = dict(table.state)
    with pytest.raises(Refused) as refused:
        MODE.flow_answer(table.seats, state, 4, "commander")
    assert refused.value.code == "no_question"
    step = table.end_turn()
    assert step.choice is not None
    for chooser, answer, code in [(4, "commander", "not_chooser"), (1, "both", "bad_answer")]:
        with pytest.raises(Refused) as refused:
            MODE.flow_answer(table.seats, step.state, chooser, answer)
        assert refused.value.code == code
    with pytest.raises(Refused) as refused:
        MODE.flow_after_turn(table.seats, step.state, 1)
    assert refused.value.code == "no_turn"
    # An answer not offered: the commander who has acted cannot act again before the reset.
    table.answer("commander")
    table.end_turn()  # warm: only vanguards
    table.end_turn()
    table.end_turn()  # cold: only vanguards
    assert table.turn == 2


@pytest.mark.parametrize("seed", range(60))
def test_random_games_keep_every_go_rule(seed: int) -> None:
    """docs/rules.md §9.7's go, checked against an independent bookkeeping over random choices and
    random vanguard deaths: every turn is a living player's who has not acted since all cards
    were last set upright; "vanguards act" runs the side's upright living vanguards one after
    the other; the go alternates unless the other side has no upright card; the choice is asked
    exactly when both are possible."""
    rng = random.Random(seed)
    identities = rng.choice([COLD_FIRST, WARM_FIRST])
    first = rng.choice([WARM, COLD])
    table = Table(identities, first)
    commanders = {identities.index(LORD), identities.index(RENEGADE)}
    acted: set[int] = set()
    assert table.turn in commanders  # the first turn of the game is a commander's
    go_side = colour(identities[table.turn])
    queue: list[int] = []
    turns = 0
    while turns < 80:
        current = table.turn
        assert current not in table.dead and current not in acted
        assert colour(identities[current]) is go_side
        acted.add(current)
        if rng.random() < 0.08:
            living = [i for i in range(6) if i not in table.dead and i not in commanders]
            if len(living) > 1:
                victim = rng.choice(living)
                table.kill(victim)
                if victim in queue:
                    queue.remove(victim)
                if victim == current:
                    assert table.step.turn is not None or table.step.choice is not None
                    turns += 1
                    acted, go_side, queue = _expect_next(table, identities, acted, go_side, queue)
                    continue
        table.end_turn()
        turns += 1
        acted, go_side, queue = _expect_next(table, identities, acted, go_side, queue)


def _expect_next(
    table: Table, identities: Sequence[Identity], acted: set[int], side: Colour, queue: list[int]
) -> tuple[set[int], Colour, list[int]]:
    living = {i for i in range(6) if i not in table.dead}
    if living <= acted:
        acted = set()
    if queue:
        assert table.turn == queue[0]
        return acted, side, queue[1:]
    other = Colour.COLD if side is Colour.WARM else Colour.WARM

    def upright(s: Colour) -> list[int]:
        return [i for i in living if colour(identities[i]) is s and i not in acted]

    nxt = other if upright(other) else side
    commander = identities.index(LORD if nxt is Colour.WARM else RENEGADE)
    vanguards = [i for i in upright(nxt) if i != commander]
    options = (["commander"] if commander in upright(nxt) else []) + (
        ["vanguards"] if vanguards else []
    )
    step = table.step
    if len(options) == 2:
        assert step.choice is not None and step.turn is None
        assert step.choice.chooser == commander and list(step.choice.answers) == options
        table.answer(random.Random(len(acted)).choice(options))
    else:
        assert step.choice is None
    act = "commander" if table.turn == commander else "vanguards"
    if act == "vanguards":
        ring = [(commander + k) % 6 for k in range(1, 6)]
        order = [i for i in ring if i in vanguards]
        assert table.turn == order[0]
        return acted, nxt, order[1:]
    return acted, nxt, []


# "Any kill, even of a teammate, draws 3." -------------------------------------------------


@pytest.mark.parametrize("victim", list(Identity))
@pytest.mark.parametrize("killer", [*Identity, None])
def test_any_kill_draws_three(victim: Identity, killer: Identity | None) -> None:
    """docs/rules.md §9.7: "Any kill, even of a teammate, draws 3"; without a killer (闪电 has none,
    and is not played here anyway) nobody draws."""
    consequence = MODE.on_death(
        SeatStatus(victim, False), SeatStatus(killer, True) if killer else None
    )
    assert consequence == (DRAW_THREE if killer else None)
    if killer:
        assert not MODE.killer_discards_equipment(victim, killer)


# "No lord skills, no 闪电." ---------------------------------------------------------------


@pytest.mark.parametrize("identity", list(Identity))
def test_no_lord_skills(identity: Identity) -> None:
    """docs/rules.md §9.7: "No lord skills" — not even for the warm commander, who holds the lord card."""
    assert not MODE.lord_skills(identity)


@pytest.mark.parametrize("card", [LIGHTNING, "乐不思蜀", "兵粮寸断", "杀", SAVAGE_ASSAULT])
def test_no_lightning(card: str) -> None:
    """docs/rules.md §9.7: "no 闪电" (the app's requirement: "placing one is refused with the reason")."""
    assert MODE.card_refused(card) == (NO_LIGHTNING if card == LIGHTNING else None)


# "The user of 南蛮入侵, 万箭齐发, 桃园结义 or 五谷丰登 chooses the direction it goes round." -------


@pytest.mark.parametrize("card", [SAVAGE_ASSAULT, ARROW_BARRAGE, PEACH_GARDEN, AMAZING_GRACE])
def test_the_user_chooses_the_direction(card: str) -> None:
    """docs/rules.md §9.7: "The user of 南蛮入侵, 万箭齐发, 桃园结义 or 五谷丰登 chooses the direction
    it goes round"."""
    assert set(MODE.trick_directions(card)) == set(Direction)
    alive = [True, True, False, True, True, True]
    user = 1
    ccw = area_order(alive, user, card, Direction.COUNTERCLOCKWISE)
    cw = area_order(alive, user, card, Direction.CLOCKWISE)
    everyone = card in (PEACH_GARDEN, AMAZING_GRACE)
    others_ccw, others_cw = [3, 4, 5, 0], [0, 5, 4, 3]
    assert ccw == ([user] if everyone else []) + others_ccw
    assert cw == ([user] if everyone else []) + others_cw


@pytest.mark.parametrize("card", ["杀", "决斗", LIGHTNING])
def test_other_cards_have_no_direction(card: str) -> None:
    assert MODE.trick_directions(card) == ()
    with pytest.raises(Refused):
        area_order([True] * 6, 0, card, Direction.CLOCKWISE)


def test_area_order_refuses_a_dead_or_missing_user() -> None:
    for user in (2, 6, -1):
        with pytest.raises(Refused):
            area_order([True, True, False], user, SAVAGE_ASSAULT, TURN_ORDER)


# "Simultaneous skills resolve counter-clockwise." ----------------------------------------


def test_the_seat_order_is_counter_clockwise() -> None:
    """docs/rules.md §9.7: "Simultaneous skills resolve counter-clockwise": the app's seat order, the
    turn order, is counter-clockwise (docs/rules.md §3: play passes to the player on the right)."""
    assert TURN_ORDER is Direction.COUNTERCLOCKWISE
    assert area_order([True] * 6, 4, SAVAGE_ASSAULT, TURN_ORDER) == [5, 0, 1, 2, 3]


# "A side wins by killing the other commander." ----------------------------------------------


@pytest.mark.parametrize("identities", [COLD_FIRST, WARM_FIRST])
@pytest.mark.parametrize("dead", [(), (0,), (0, 2), (3, 5), (0, 2, 3), (1,), (4,), (0, 2, 4)])
def test_a_side_wins_when_the_other_commander_dies(
    identities: list[Identity], dead: tuple[int, ...]
) -> None:
    """docs/rules.md §9.7: "A side wins by killing the other commander" (the app's requirement: "A side wins when
    the other commander dies")."""
    seats = _seats(identities, dead)
    dead_commanders = [identities[i] for i in dead if identities[i] in (LORD, RENEGADE)]
    expected = None
    if dead_commanders == [LORD]:
        expected = Side.RENEGADE
    elif dead_commanders == [RENEGADE]:
        expected = Side.LORD
    assert MODE.victory(seats) == expected
    if expected is not None:
        winners = MODE.winners(seats, expected)
        won = Colour.WARM if expected == Side.LORD else Colour.COLD
        assert winners == [i for i in range(6) if colour(identities[i]) is won]


def test_both_commanders_dead_is_refused() -> None:
    with pytest.raises(Refused):
        MODE.victory(_seats(COLD_FIRST, (1, 4)))


# Scoring: "Scoring a session of 3 vs 3 games counts wins per team and per
# player, with the colour each played." -------------------------------------------------


def _game(identities: Sequence[Identity], players: Sequence[str], side: Side) -> dict[str, Any]:
    results = {p: PlayerResult(i, True) for p, i in zip(players, identities, strict=True)}
    return MODE.score(results, side)


def test_a_session_counts_wins_per_team_and_per_player_with_the_colour() -> None:
    players = ["a", "b", "c", "d", "e", "f"]  # team one a-c, team two d-f, as seated
    team_of = {p: ("one" if p in "abc" else "two") for p in players}
    first = MODE.deal(6, OPTIONS, fixed_leader=4)  # team one cold
    games = [
        _game(first, players, Side.LORD),  # warm (team two) wins
        _game(swap_colours(first), players, Side.LORD),  # warm (team one) wins
        _game(first, players, Side.RENEGADE),  # cold (team one) wins
    ]
    assert all(set(g["a"].breakdown.lines[0].code for _ in [0]) == {WIN} for g in games)

    def side_of(identity: Identity) -> str:
        return MODE.draft_side(identity) or ""

    ordered = team_standings(games, team_of, side_of)
    assert [s.team for s in ordered] == ["one", "two"]
    teams = {s.team: s for s in ordered}
    assert (teams["one"].wins, teams["one"].games) == (2, 3)
    assert teams["one"].wins_by_side == {WARM: 1, COLD: 1}
    assert (teams["two"].wins, teams["two"].games) == (1, 3)
    assert teams["two"].wins_by_side == {WARM: 1}
    by_colour = side_wins(games, side_of)
    assert by_colour["a"] == {WARM: 1, COLD: 1}
    assert by_colour["e"] == {WARM: 1}
    ranked = {s.player: s for s in standings(games)}
    assert ranked["b"].wins == ranked["b"].total == 2 and ranked["d"].wins == 1
    assert ranked["b"].rank == 1 and ranked["d"].rank == 4
    assert set(MODE.score_codes) == {WIN}


@pytest.mark.parametrize("side", [Side.LORD, Side.RENEGADE])
def test_a_game_scores_one_win_for_each_winner(side: Side) -> None:
    identities = COLD_FIRST
    records = MODE.score(
        {i: PlayerResult(x, i % 2 == 0, kills=(REBEL,) * i) for i, x in enumerate(identities)},
        side,
    )
    winners = set(MODE.winners(_seats(identities), side))
    for i, record in records.items():
        assert record.won == (i in winners)
        assert record.breakdown.total == (1 if i in winners else 0)
        assert record.kills == i


def test_the_threes_mode_has_no_final_duel() -> None:
    assert not any(MODE.may_lose_final_duel(i) for i in Identity)
    assert not MODE.lost_final_duel(RENEGADE, [LORD, RENEGADE])
    assert not any(MODE.final_duel_scored(s) for s in Side)


def test_the_mode_is_a_mode() -> None:
    assert isinstance(MODE, Mode) and MODE.key == "threes"
