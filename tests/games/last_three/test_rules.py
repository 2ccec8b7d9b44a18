"""The last-three rule (docs/rules.md §9.4), one test per sentence.

docs/rules.md §9.4: "Last three: when only three players are alive, after three more rounds every living
player loses 1 HP at the end of each round (失去体力, no source); if they all go out together
the rule carries into the next round."
"""

from __future__ import annotations

import pytest

from companion.games.last_three import rules as last_three
from companion.games.last_three.rules import LastThree, RoundLoss


def test_it_starts_when_only_three_players_are_alive() -> None:
    """ "when only three players are alive"."""
    state = LastThree()
    assert last_three.watch(state, alive=4, round_number=2) == state
    started = last_three.watch(state, alive=3, round_number=2)
    assert started.started == 2
    # Once started it does not restart when more die.
    assert last_three.watch(started, alive=2, round_number=5) == started
    assert last_three.rounds_left(state, 9) is None


def test_after_three_more_rounds_every_living_player_loses_1_hp_each_round() -> None:
    """ "after three more rounds every living player loses 1 HP at the end of each round":
    counted 3, 2, 1 over the three rounds after the one it started in; then at the end of
    every round all living players lose 1 HP together, one change."""
    state = last_three.watch(LastThree(), alive=3, round_number=4)
    hp = {0: 4, 3: 2, 5: 3}
    assert [last_three.rounds_left(state, r) for r in (4, 5, 6, 7, 8, 9)] == [4, 3, 2, 1, 0, 0]
    for ending in (4, 5, 6, 7):
        after, loss = last_three.end_of_round(state, round_number=ending, hp=hp)
        assert loss == RoundLoss(losses={}) and after == state
    for ending in (8, 9, 12):
        after, loss = last_three.end_of_round(state, round_number=ending, hp=hp)
        assert loss == RoundLoss(losses={0: 1, 3: 1, 5: 1}) and not loss.carried
    assert last_three.LOSS == 1 and last_three.COUNTDOWN_ROUNDS == 3


@pytest.mark.parametrize(
    ("hp", "carried"),
    [
        ({0: 1, 1: 1, 2: 1}, True),
        ({0: 1, 1: 1}, True),
        ({0: 1, 1: 2, 2: 1}, False),
        ({0: 0, 1: 1}, True),
    ],
)
def test_if_they_all_go_out_together_the_rule_carries_into_the_next_round(
    hp: dict[int, int], carried: bool
) -> None:
    """ "if they all go out together the rule carries into the next round": no loss that
    round; the next round's end tries again."""
    state = LastThree(started=1)
    after, loss = last_three.end_of_round(state, round_number=5, hp=hp)
    assert loss.carried == carried
    if carried:
        assert loss.losses == {} and after.carried == 1
        again, _ = last_three.end_of_round(after, round_number=6, hp=hp)
        assert again.carried == 2
    else:
        assert loss.losses == dict.fromkeys(hp, 1) and after == state


def test_the_state_round_trips_through_json() -> None:
    for state in (LastThree(), LastThree(started=3, carried=2)):
        assert LastThree.from_stored(state.stored()) == state
    assert LastThree.from_stored(None) == LastThree()
