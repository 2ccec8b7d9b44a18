"""酒, 白银狮子 leaving a seat and 火攻's guided path (seeds/001_*.txt lines 431-437, 457, 463)."""

from __future__ import annotations

import pytest

from companion.games.maneuvering.rules.cards import (
    FireAttackError,
    FireAttackStage,
    WineMarker,
    WineRefusal,
    after_damage,
    after_slash,
    at_turn_end,
    drink,
    fire_attack,
    silver_lion_recovery,
)
from companion.games.maneuvering.rules.resolver import resolve_damage, start_damage
from companion.rules.cards import Suit
from companion.rules.damage import DamageCard, DamageRequest, DamageType, Modifier, SeatState

NONE, ACTIVE, SPENT = WineMarker.NONE, WineMarker.ACTIVE, WineMarker.SPENT


def seats(**target: object) -> tuple[SeatState, ...]:
    return (SeatState(seat=1, hp=4), SeatState(**{"seat": 2, "hp": 4, **target}))  # type: ignore[arg-type]


# -- 酒


def test_wine_in_the_play_phase_sets_the_marker() -> None:
    """001:431 出牌阶段对自己使用，令本回合下一张杀所造成的伤害+1."""
    result = drink(NONE, dying=False, own_play_phase=True)
    assert (result.marker, result.recover, result.allowed) == (ACTIVE, 0, True)
    assert result.marker.drank


@pytest.mark.parametrize("marker", [ACTIVE, SPENT])
def test_a_second_wine_in_one_turn_is_refused(marker: WineMarker) -> None:
    """001:433 一回合只能使用一次: whether or not the first one was used by a 杀."""
    result = drink(marker, dying=False, own_play_phase=True)
    assert result.refusal is WineRefusal.ONCE_PER_TURN
    assert (result.marker, result.recover, result.allowed) == (marker, 0, False)


def test_wine_outside_the_play_phase_is_refused() -> None:
    result = drink(NONE, dying=False, own_play_phase=False)
    assert (result.refusal, result.marker) == (WineRefusal.NOT_PLAY_PHASE, NONE)


@pytest.mark.parametrize("marker", [NONE, ACTIVE, SPENT])
@pytest.mark.parametrize("play_phase", [True, False])
def test_wine_while_dying_recovers_one_and_keeps_the_marker(
    marker: WineMarker, play_phase: bool
) -> None:
    """001:435 濒死状态时，对自己使用，立即回复一点体力; docs/rules.md §6."""
    result = drink(marker, dying=True, own_play_phase=play_phase)
    assert (result.marker, result.recover, result.refusal) == (marker, 1, None)


def test_a_dead_seat_drinks_nothing() -> None:
    assert drink(NONE, dying=False, own_play_phase=True, alive=False).refusal is WineRefusal.DEAD


def test_the_next_slash_damage_uses_the_wine() -> None:
    request = DamageRequest(target=2, card=DamageCard.SLASH, source=1, drank=ACTIVE.drank)
    step = start_damage(request, seats())
    assert step.amount == 2 and Modifier.WINE in step.modifiers
    assert after_damage(ACTIVE, step) is SPENT
    # A 决斗 does not draw on it: the marker waits for a 杀.
    duel = start_damage(
        DamageRequest(target=2, card=DamageCard.DUEL, source=1, drank=True), seats()
    )
    assert after_damage(ACTIVE, duel) is ACTIVE
    # Without a marker, a step changes nothing.
    plain = start_damage(DamageRequest(target=2, card=DamageCard.SLASH, source=1), seats())
    assert after_damage(NONE, plain) is NONE


def test_a_dodged_slash_and_the_end_of_the_turn_clear_it() -> None:
    assert after_slash(ACTIVE) is SPENT
    assert after_slash(NONE) is NONE
    assert [at_turn_end(m) for m in (NONE, ACTIVE, SPENT)] == [NONE, NONE, NONE]
    # A new turn: 酒 may be drunk again.
    assert drink(at_turn_end(SPENT), dying=False, own_play_phase=True).marker is ACTIVE


def test_an_unknown_marker_is_refused() -> None:
    with pytest.raises(ValueError):
        drink("drunk", dying=False, own_play_phase=True)


# -- 白银狮子 leaving (001:463 当你失去装备区里的【白银狮子】时，你回复1点体力)


@pytest.mark.parametrize(
    ("armor", "hp", "max_hp", "alive", "recover"),
    [
        ("白银狮子", 2, 4, True, 1),
        ("白银狮子", 3, 4, True, 1),
        ("白银狮子", 4, 4, True, 0),  # not wounded
        ("白银狮子", 2, 4, False, 0),
        ("藤甲", 2, 4, True, 0),
        ("八卦阵", 1, 3, True, 0),
    ],
)
def test_silver_lion_recovers_one_when_it_leaves(
    armor: str, hp: int, max_hp: int, alive: bool, recover: int
) -> None:
    assert silver_lion_recovery(armor_leaving=armor, hp=hp, max_hp=max_hp, alive=alive) == recover


# -- 火攻 (001:457)


def test_fire_attack_guided_path_to_damage() -> None:
    shown = fire_attack(user=1, target=2, target_hand_empty=False)
    assert (shown.stage, shown.damage) == (FireAttackStage.SHOW, None)
    discard = fire_attack(user=1, target=2, target_hand_empty=False, shown="♥")
    assert (discard.stage, discard.shown) == (FireAttackStage.DISCARD, Suit.HEART)
    hit = fire_attack(user=1, target=2, target_hand_empty=False, shown="heart", discarded=True)
    assert hit.stage is FireAttackStage.DAMAGE and hit.damage is not None
    steps = resolve_damage(hit.damage, seats())
    assert [(s.seat, s.amount, s.damage_type) for s in steps] == [(2, 1, DamageType.FIRE)]
    vine = resolve_damage(hit.damage, seats(armor="藤甲"))
    assert [(s.amount, s.modifiers) for s in vine] == [(2, (Modifier.VINE_FIRE,))]


def test_fire_attack_without_a_matching_discard_does_nothing() -> None:
    miss = fire_attack(user=1, target=2, target_hand_empty=False, shown=Suit.CLUB, discarded=False)
    assert (miss.stage, miss.damage, miss.shown) == (FireAttackStage.NOTHING, None, Suit.CLUB)


def test_fire_attack_on_oneself() -> None:
    """001:457 对任一有手牌的角色使用: the user too."""
    hit = fire_attack(user=1, target=1, target_hand_empty=False, shown="spade", discarded=True)
    assert hit.damage is not None
    assert resolve_damage(hit.damage, seats())[0].seat == 1


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"target_hand_empty": True}, "no_hand_card"),
        ({"target_hand_empty": False, "discarded": True}, "nothing_shown"),
    ],
)
def test_fire_attack_that_cannot_go_on(kwargs: dict[str, object], code: str) -> None:
    with pytest.raises(FireAttackError) as refused:
        fire_attack(user=1, target=2, **kwargs)  # type: ignore[arg-type]
    assert refused.value.code == code


def test_fire_attack_with_no_suit_is_refused() -> None:
    with pytest.raises(ValueError):
        fire_attack(user=1, target=2, target_hand_empty=False, shown="stars")
