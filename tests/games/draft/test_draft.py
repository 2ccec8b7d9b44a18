"""The two-side draft (companion/games/draft/rules.py) over random games of both modes' plans: the
steps in order, whole or in parts; what each screen may see; the stored form."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.draft.rules import Draft, DraftError, DraftPlan, Placement
from companion.games.duel.rules import PLAN as DUEL
from companion.games.threes.rules import PLAN as THREES
from companion.rules.heroes import STANDARD_HEROES

HEROES = [hero.id for hero in STANDARD_HEROES]
PLANS = {"threes": THREES, "duel": DUEL}


def _random_draft(plan: DraftPlan, rng: random.Random) -> tuple[Draft, list[str]]:
    """A whole draft played at random, each step taken whole or a hero at a time; the side of
    every pick in order."""
    draft = Draft.deal(plan, HEROES, rng)
    if draft.first is None:
        draft = draft.choose_first(rng.choice(plan.sides))
    sides = []
    while not draft.done:
        side = draft.turn
        assert side is not None
        free = [p for p in range(plan.pool_size) if p not in dict(draft.picks)]
        take = draft.left_in_step if rng.random() < 0.5 else 1
        chosen = rng.sample(free, take)
        sides += [side] * take
        stored = json.loads(json.dumps(draft.as_data()))
        assert Draft.from_data(plan, stored) == draft
        draft = draft.pick(side, chosen)
    return draft, sides


@pytest.mark.parametrize("name", PLANS)
@pytest.mark.parametrize("seed", range(25))
def test_random_drafts_follow_the_steps_and_keep_secrets(name: str, seed: int) -> None:
    plan = PLANS[name]
    rng = random.Random(seed)
    draft, sides = _random_draft(plan, rng)
    assert draft.first is not None
    expected = [side for side, size in draft.step_sizes for _ in range(size)]
    assert sides == expected
    first_total, second_total = plan.taken_by_each()
    assert len(draft.held(draft.first)) == first_total
    assert len(draft.held(plan.other(draft.first))) == second_total
    for viewer in (None, *plan.sides):
        view = draft.view(viewer)
        assert view.turn is None and view.left_in_step == 0
        for position, card in enumerate(view.pool):
            taker = card.taken_by
            hidden = position in draft.face_down and taker != viewer
            assert (card.hero is None) == hidden
        secret = {draft.pool[p] for p in draft.face_down if dict(draft.picks)[p] != viewer}
        assert not any(hero in secret for heroes in view.held.values() for hero in heroes)
    placement = Placement.after(draft)
    for side in plan.sides:
        placement = placement.place(side, rng.sample(draft.held(side), len(plan.slots)))
        stored = json.loads(json.dumps(placement.as_data()))
        assert Placement.from_data(plan, stored) == placement
    assert placement.revealed


def test_a_draft_of_too_few_heroes_is_refused() -> None:
    with pytest.raises(DraftError) as refused:
        Draft.deal(DUEL, HEROES[:9])
    assert refused.value.code == "too_few_heroes"
    with pytest.raises(DraftError) as refused:
        Draft.entered(DUEL, HEROES[:10], face_down=[0, 1, 2])
    assert refused.value.code == "face_down"
    assert Draft.entered(DUEL, HEROES[:10], face_down=[0, 1, 2, 9]).face_down == {0, 1, 2, 9}
