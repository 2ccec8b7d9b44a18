"""Every mode satisfies `Mode` (companion/rules/modes/base.py); the hooks added for 3 vs 3 and
1 vs 1 keep the identity game's behaviour by default; 3 vs 3 and 1 vs 1 are not offered yet
(no screens) and import no other mode; the draft's plan refuses shapes that cannot be."""

from __future__ import annotations

import inspect
import random
import tomllib
from pathlib import Path

import pytest

from companion.games.draft.rules import DraftPlan
from companion.games.duel.rules import DuelMode
from companion.games.threes.rules import ThreesMode
from companion.rules import modes
from companion.rules.cards import load_deck
from companion.rules.directions import AREA_TRICKS, TURN_ORDER
from companion.rules.errors import Refused
from companion.rules.flow import TurnPass
from companion.rules.identities import Identity
from companion.rules.modes.base import FlowStep, HeroFall, Mode
from companion.rules.victory import SeatStatus

ROOT = Path(__file__).resolve().parents[2]
NEW_MODES: list[Mode] = [ThreesMode(), DuelMode()]
IDENTITY = modes.get("identity")


def _abstract_hooks() -> list[str]:
    """The hooks `Mode` leaves to each mode (its body raises NotImplementedError)."""
    return [
        name
        for name, member in vars(Mode).items()
        if inspect.isfunction(member) and "raise NotImplementedError" in inspect.getsource(member)
    ]


def test_the_interface_has_hooks_to_implement() -> None:
    hooks = _abstract_hooks()
    assert {"deal", "start_hp", "first_turn", "victory", "score", "leader_rotation"} <= set(hooks)


@pytest.mark.parametrize("mode", [IDENTITY, *NEW_MODES], ids=lambda m: m.key)
def test_each_mode_implements_every_hook(mode: Mode) -> None:
    assert isinstance(mode, Mode)
    missing = [
        name for name in _abstract_hooks() if getattr(type(mode), name) is getattr(Mode, name)
    ]
    assert missing == []
    for attribute in ("key", "min_players", "max_players", "options_type", "score_codes"):
        assert getattr(mode, attribute) is not None
    # Every mode's options include every table's (军争, referee mode).
    assert {"maneuvering", "referee_mode"} <= set(mode.options(None).stored())


@pytest.mark.parametrize("mode", NEW_MODES, ids=lambda m: m.key)
def test_the_new_modes_are_offered(mode: Mode) -> None:
    """The registry (and so the create form) offers 3 vs 3 and 1 vs 1 after the
    identity game, which stays the default."""
    assert modes.get(mode.key).key == mode.key
    assert modes.keys() == ("identity", "threes", "duel")
    assert modes.DEFAULT == "identity"


def test_no_mode_imports_another() -> None:
    """The import contracts name both new modules: independent of each other and of the
    identity game, and reached from outside the rules only through the registry."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = {c["name"]: c for c in config["tool"]["importlinter"]["contracts"]}
    independent = next(c for name, c in contracts.items() if name.startswith("No mode imports"))
    for module in ("identity", "threes", "duel"):
        assert f"companion.games.{module}" in independent["modules"]
    # Every mode is a game package: the core never imports it, nor does another game.
    core = next(c for name, c in contracts.items() if name.startswith("The core never imports"))
    assert core["forbidden_modules"] == ["companion.games"]
    games = next(c for name, c in contracts.items() if name.startswith("No game imports"))
    assert games["modules"] == ["companion.games.*"]


# The hooks added for the new modes keep the identity game as it was.


def _seats(*identities: Identity, dead: int | None = None) -> list[SeatStatus]:
    return [SeatStatus(x, i != dead) for i, x in enumerate(identities)]


FIVE = _seats(Identity.REBEL, Identity.LORD, Identity.LOYALIST, Identity.RENEGADE, Identity.REBEL)


@pytest.mark.parametrize("identity", list(Identity))
def test_identity_lord_skills_are_the_lords(identity: Identity) -> None:
    assert IDENTITY.lord_skills(identity) == (identity == Identity.LORD)


def test_identity_plays_every_card_and_sends_area_tricks_in_turn_order() -> None:
    names = {card.name_zh for card in load_deck(ex=True, maneuvering=True)}
    assert AREA_TRICKS <= names
    for name in names:
        assert IDENTITY.card_refused(name) is None
        assert IDENTITY.trick_directions(name) == ((TURN_ORDER,) if name in AREA_TRICKS else ())


def test_identity_has_no_draft_and_one_hero_a_seat() -> None:
    assert IDENTITY.draft_plan() is None
    assert all(IDENTITY.draft_side(i) is None and not IDENTITY.drafts_for_side(i) for i in Identity)
    assert IDENTITY.team_size == 0
    assert all(IDENTITY.seat_place(FIVE, i) is None for i in range(5))
    with pytest.raises(Refused) as refused:
        IDENTITY.seat_heroes(FIVE, None)  # type: ignore[arg-type]
    assert refused.value.code == "no_draft"
    assert IDENTITY.heroes_per_seat == 1
    assert IDENTITY.hero_falls(1) == HeroFall(out=True)
    with pytest.raises(Refused):
        IDENTITY.hero_falls(2)
    assert all(IDENTITY.first_draw_change(FIVE, i) == 0 for i in range(5))


def test_identity_flow_follows_its_turns() -> None:
    begin = IDENTITY.flow_begin(FIVE)
    assert begin == FlowStep({}, turn=TurnPass(1, new_round=True))
    for current in range(5):
        assert IDENTITY.flow_after_turn(FIVE, {}, current) == FlowStep(
            {}, turn=IDENTITY.next_turn(FIVE, current)
        )
    dead = _seats(*[s.identity for s in FIVE], dead=2)
    assert IDENTITY.flow_after_death(dead, {}, 2, 2).turn == TurnPass(3, new_round=False)
    assert IDENTITY.flow_after_death(dead, {}, 1, 2) == FlowStep({})
    assert IDENTITY.flow_pending(FIVE, {}) is None and IDENTITY.acted_seats({}) == frozenset()
    with pytest.raises(Refused) as refused:
        IDENTITY.flow_answer(FIVE, {}, 1, "anything")
    assert refused.value.code == "no_question"


def test_identity_deals_anew_for_the_next_game() -> None:
    """The identity game's next game is a new random deal of the same size and distribution."""
    options = IDENTITY.options(None)
    previous = IDENTITY.deal(7, options, rng=random.Random(1))
    nexts = {tuple(IDENTITY.redeal(previous, options, rng=random.Random(s))) for s in range(20)}
    assert len(nexts) > 1
    assert all(sorted(n) == sorted(previous) for n in nexts)


# The draft's plan.

GOOD = {
    "sides": ("a", "b"),
    "pool_size": 4,
    "face_down": 1,
    "steps": (1, 2, 1),
    "slots": ("x",),
    "first_side": "a",
    "first_chooser": None,
    "reveal_all": True,
}


@pytest.mark.parametrize(
    "change",
    [
        {"sides": ("a", "a")},
        {"steps": (1, 2)},
        {"steps": (2, 0, 2)},
        {"face_down": 5},
        {"first_side": None},
        {"first_chooser": "a"},
        {"first_side": "c"},
        {"slots": ("x", "y", "z")},
    ],
)
def test_a_plan_that_cannot_be_is_refused(change: dict[str, object]) -> None:
    DraftPlan(**GOOD)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        DraftPlan(**{**GOOD, **change})  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", NEW_MODES, ids=lambda m: m.key)
def test_each_new_modes_draft_fits_its_seats(mode: Mode) -> None:
    plan = mode.draft_plan()
    assert plan is not None
    seats = mode.deal(mode.max_players, mode.options(None), rng=random.Random(0))
    sides = {mode.draft_side(i) for i in seats}
    assert sides == set(plan.sides)
    # One seat picks for each side.
    for side in plan.sides:
        assert sum(mode.draft_side(i) == side and mode.drafts_for_side(i) for i in seats) == 1


@pytest.mark.parametrize("mode", [IDENTITY, *NEW_MODES], ids=lambda m: m.key)
def test_a_tournament_may_start_at_exactly_the_leader_seats_the_mode_names(mode: Mode) -> None:
    """The host's form offers `leader_seats` as the first leader; the rotation takes each of
    them and refuses every other seat (3 vs 3: only a commander's)."""
    for count in range(mode.min_players, mode.max_players + 1):
        allowed = mode.leader_seats(count)
        for index in range(count):
            if index in allowed:
                assert mode.leader_rotation(count, index)[0] == index
            else:
                with pytest.raises(Refused):
                    mode.leader_rotation(count, index)
    if mode.key == "threes":
        assert mode.leader_seats(6) == (1, 4)
