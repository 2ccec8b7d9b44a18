"""Dark souls 暗魂 (docs/rules.md §9.2), one test per sentence.

docs/rules.md §9.2: "a dead loyalist becomes the dark soul 罗汉, a dead rebel 玄武, a dead renegade 祝由; on
dying the player chooses one living player to haunt (附体). 罗汉 blocks 1 damage to the haunted
player once (he cannot refuse it, and discards a hand card), then is gone. 玄武 draws a card from
the deck and may at any time swap it for a hand card of the haunted player's that the soul
names, then is gone. 祝由, in the haunted player's play phase, may make him discard his whole
hand and draw as many, then is gone. A dark soul is public."
"""

from __future__ import annotations

import pytest

from companion.games.afterlife.rules import souls
from companion.games.afterlife.rules.souls import DarkSoul, Soul, SoulRefusal, SoulRefused
from companion.rules.identities import Identity
from companion.rules.turns import PHASE_ORDER, Phase
from companion.rules.victory import SeatStatus

SEATS = [
    SeatStatus(Identity.LORD, True),
    SeatStatus(Identity.LOYALIST, False),
    SeatStatus(Identity.REBEL, False),
    SeatStatus(Identity.RENEGADE, False),
    SeatStatus(Identity.REBEL, True),
    SeatStatus(Identity.LOYALIST, True),
]


def test_a_dead_loyalist_rebel_renegade_becomes_luohan_xuanwu_zhuyou() -> None:
    """ "a dead loyalist becomes the dark soul 罗汉, a dead rebel 玄武, a dead renegade 祝由"."""
    assert souls.soul_for(Identity.LOYALIST) is Soul.LUOHAN
    assert souls.soul_for(Identity.REBEL) is Soul.XUANWU
    assert souls.soul_for(Identity.RENEGADE) is Soul.ZHUYOU
    assert souls.soul_for(Identity.LORD) is None
    assert [souls.NAMES_ZH[s] for s in Soul] == ["罗汉", "玄武", "祝由"]
    made = [souls.haunt(SEATS, owner=o, host=0).soul for o in (1, 2, 3)]
    assert made == [Soul.LUOHAN, Soul.XUANWU, Soul.ZHUYOU]


def test_on_dying_the_player_chooses_one_living_player_to_haunt() -> None:
    """ "on dying the player chooses one living player to haunt (附体)"."""
    assert souls.haunt(SEATS, owner=2, host=4) == DarkSoul(Soul.XUANWU, owner=2, host=4)
    cases = {
        (2, 3): SoulRefusal.HOST_DEAD,  # a dead player cannot be haunted
        (2, 2): SoulRefusal.HOST_DEAD,  # nor himself
        (4, 0): SoulRefusal.OWNER_ALIVE,
        (0, 4): SoulRefusal.LORD_HAS_NO_SOUL,
    }
    for (owner, host), refusal in cases.items():
        assert souls.haunt_refusal(SEATS, owner=owner, host=host) is refusal
        with pytest.raises(SoulRefused):
            souls.haunt(SEATS, owner=owner, host=host)
    # One soul per death.
    assert souls.haunt_refusal(SEATS, owner=1, host=0, owners_so_far=[1]) is (
        SoulRefusal.ALREADY_A_SOUL
    )


def test_luohan_blocks_one_damage_to_the_haunted_player_once_then_is_gone() -> None:
    """ "罗汉 blocks 1 damage to the haunted player once (he cannot refuse it, and discards a
    hand card), then is gone": automatic on the next damage, one point, used up."""
    luohan = souls.haunt(SEATS, owner=1, host=0)
    xuanwu = souls.haunt(SEATS, owner=2, host=0)
    active = [xuanwu, luohan]
    block = souls.luohan_block(active, target=0, amount=3)
    assert block == souls.Block(amount=2, used=luohan)
    active = souls.gone(active, luohan)
    assert active == [xuanwu]
    assert souls.luohan_block(active, target=0, amount=3) == souls.Block(amount=3, used=None)
    # Only the haunted player's damage; a damage of 1 is blocked whole.
    assert souls.luohan_block([luohan], target=4, amount=1).used is None
    assert souls.luohan_block([luohan], target=0, amount=1) == souls.Block(0, luohan)
    assert souls.luohan_block([luohan], target=0, amount=0).used is None
    # It cannot be "used" by a tap: it blocks by itself.
    assert souls.use_refusal(luohan, turn_seat=0, phase=Phase.PLAY) is (
        SoulRefusal.LUOHAN_IS_AUTOMATIC
    )


def test_luohan_prevents_its_seat_s_step_of_a_resolved_damage_before_it_lands() -> None:
    """docs/rules.md §9.2: the block is a prevention, before the damage lands: on a chained seat it takes
    the point off that seat's step only; on the target at 1 HP, a damage of 1 leaves him at 1,
    not dying, and spreads no chain."""
    from companion.games.maneuvering.rules.resolver import resolve_damage
    from companion.rules.damage import DamageCard, DamageRequest, DamageType, SeatState

    seats = [
        SeatState(seat=10, hp=1, alive=True, chained=True),
        SeatState(seat=11, hp=3, alive=True, chained=True),
    ]
    request = DamageRequest(target=10, card=DamageCard("火杀"), source=None)
    steps = resolve_damage(request, seats)
    assert [(s.seat, s.amount, s.dying) for s in steps] == [(10, 1, True), (11, 1, False)]
    luohan = DarkSoul(Soul.LUOHAN, owner=2, host=1)
    found, used = souls.luohan_steps([luohan], steps, {10: 0, 11: 1})
    assert used == (luohan,)
    assert [(s.seat, s.amount, s.hp_after, s.dying) for s in found] == [
        (10, 1, 0, True),
        (11, 0, 3, False),
    ]
    assert found[1].changes[-1].modifier.value == "luohan_prevented"
    # On the target, a damage prevented to nothing does not spread along the chain.
    found, used = souls.luohan_steps(
        [DarkSoul(Soul.LUOHAN, owner=2, host=0)], steps, {10: 0, 11: 1}
    )
    assert [(s.seat, s.amount, s.hp_after, s.dying) for s in found] == [(10, 0, 1, False)]
    assert not found[0].chain_removed and DamageType(found[0].damage_type) is DamageType.FIRE


def test_two_luohan_block_two_damages_the_earlier_first() -> None:
    other = DarkSoul(Soul.LUOHAN, owner=5, host=0)
    first = souls.haunt(SEATS, owner=1, host=0)
    block = souls.luohan_block([first, other], target=0, amount=2)
    assert block == souls.Block(amount=1, used=first)


@pytest.mark.parametrize("phase", PHASE_ORDER)
@pytest.mark.parametrize("turn_seat", [0, 4, None])
def test_xuanwu_may_swap_at_any_time_then_is_gone(phase: Phase, turn_seat: int | None) -> None:
    """ "玄武 draws a card from the deck and may at any time swap it for a hand card of the
    haunted player's that the soul names, then is gone"."""
    xuanwu = souls.haunt(SEATS, owner=2, host=0)
    assert souls.use_refusal(xuanwu, turn_seat=turn_seat, phase=phase) is None
    assert souls.gone([xuanwu], xuanwu) == []


@pytest.mark.parametrize("phase", PHASE_ORDER)
@pytest.mark.parametrize("turn_seat", [0, 4])
def test_zhuyou_acts_in_the_haunted_players_play_phase_then_is_gone(
    phase: Phase, turn_seat: int
) -> None:
    """ "祝由, in the haunted player's play phase, may make him discard his whole hand and draw
    as many, then is gone"."""
    zhuyou = souls.haunt(SEATS, owner=3, host=0)
    refusal = souls.use_refusal(zhuyou, turn_seat=turn_seat, phase=phase)
    if turn_seat == 0 and phase is Phase.PLAY:
        assert refusal is None
    else:
        assert refusal is SoulRefusal.NOT_HOSTS_PLAY_PHASE


def test_a_dark_soul_is_public_and_stored_plainly() -> None:
    """ "A dark soul is public": its whole record (what, whose, whom) is plain public data,
    with no secret part; it round-trips through JSON."""
    soul = souls.haunt(SEATS, owner=3, host=5)
    assert soul.stored() == {"soul": "zhuyou", "owner": 3, "host": 5}
    assert DarkSoul.from_stored(soul.stored()) == soul


def test_a_soul_whose_haunted_player_dies_is_gone() -> None:
    active = [souls.haunt(SEATS, owner=1, host=0), souls.haunt(SEATS, owner=2, host=4)]
    assert souls.host_died(active, 4) == active[:1]
