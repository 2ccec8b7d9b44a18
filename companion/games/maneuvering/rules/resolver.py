"""Damage resolution for 军争 and the advanced weapon skills (docs/rules.md §9.9 "Damage order").

A pure function of the table's facts: given who deals the damage, with which card or effect, and
each seat's armour, chain, HP and hand, it works out what every seat takes and why.

Order of the modifiers (docs/rules.md §9.9): the card's amount (1 for 杀, 决斗, 南蛮入侵, 万箭齐发,
火攻; 3 for 闪电), +1 for 酒 on the 杀, +1 for 古锭刀 when the target has no hand card; 青釭剑
makes the target's armour count for nothing; then the target's armour: 藤甲 cancels a plain 杀,
南蛮入侵 and 万箭齐发 and adds 1 to fire damage; 白银狮子, applied last, makes any damage above 1
into 1.

A chain (铁索连环): a chained seat that takes fire or thunder damage is unchained, then each other
chained seat, in turn order from the current player, is unchained and takes damage of the same
source and type and of the amount the first was dealt before his armour, through his own armour.
A seat that becomes dying is saved or dies before the chain goes on, so the chain is resolved one
step at a time: `start_damage` gives the first step, `continue_damage` the next one from the
table as it stands after the caller has applied the previous step (and any rescue or death).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from companion.rules.cards import EquipmentSlot, equipment_catalogue
from companion.rules.damage import (
    Change,
    DamageCard,
    DamageError,
    DamageRequest,
    DamageStep,
    DamageType,
    Modifier,
    Reminder,
    SeatState,
    apply_step,
)
from companion.rules.skills import skills_for

# Equipment that changes damage (Chinese names, as stored in a seat's equipment).
QINGGANG = "青釭剑"
ICE_SWORD = "寒冰剑"
GUDING = "古锭刀"
FEATHER_FAN = "朱雀羽扇"
VINE_ARMOR = "藤甲"
SILVER_LION = "白银狮子"
RENWANG = "仁王盾"

# Weapons whose damage skill the holder chooses to use (the others are compulsory, 锁定技).
OPTIONAL_WEAPON_SKILLS: frozenset[str] = frozenset({FEATHER_FAN, ICE_SWORD})

# 寒冰剑: instead of the damage, the holder discards two of the target's cards.
ICE_SWORD_DISCARDS = 2

# The card's own damage (docs/rules.md §9.9): amount and the only type it may deal (None: any type).
_CARD_DAMAGE: dict[DamageCard, tuple[int, DamageType | None]] = {
    DamageCard.SLASH: (1, DamageType.NORMAL),
    DamageCard.FIRE_SLASH: (1, DamageType.FIRE),
    DamageCard.THUNDER_SLASH: (1, DamageType.THUNDER),
    DamageCard.DUEL: (1, DamageType.NORMAL),
    DamageCard.SAVAGE_ASSAULT: (1, DamageType.NORMAL),
    DamageCard.ARCHERY_ATTACK: (1, DamageType.NORMAL),
    DamageCard.FIRE_ATTACK: (1, DamageType.FIRE),
    DamageCard.LIGHTNING: (3, DamageType.THUNDER),
    DamageCard.SKILL: (1, None),
    DamageCard.OTHER: (1, None),
}


# Cards used on other players only: the source is never the target.
_OTHERS_ONLY = frozenset(
    {
        *(c for c in DamageCard if c.is_slash),
        DamageCard.DUEL,
        DamageCard.SAVAGE_ASSAULT,
        DamageCard.ARCHERY_ATTACK,
    }
)

# 藤甲: these have no effect on its wearer when the damage is normal (a plain 杀).
_VINE_IMMUNE_CARDS = frozenset(
    {DamageCard.SLASH, DamageCard.SAVAGE_ASSAULT, DamageCard.ARCHERY_ATTACK}
)


# Skills that react to damage taken (standard heroes): 奸雄 takes the card, 反馈 a card of the
# source, 刚烈 judges against the source, 遗计 draws two per point.
_REACTING_SKILLS = ("jianxiong", "fankui", "ganglie", "yiji")


def _weapons() -> frozenset[str]:
    return frozenset(
        e.name_zh for e in equipment_catalogue(maneuvering=True) if e.slot is EquipmentSlot.WEAPON
    )


def _armours() -> frozenset[str]:
    return frozenset(
        e.name_zh for e in equipment_catalogue(maneuvering=True) if e.slot is EquipmentSlot.ARMOR
    )


def _index(seats: Sequence[SeatState], *, dying_ok: bool = False) -> dict[int, SeatState]:
    """Check every seat and map ids to seats; DamageError for a seat that cannot be."""
    by_id: dict[int, SeatState] = {}
    weapons, armours = _weapons(), _armours()
    for seat in seats:
        if seat.seat in by_id:
            raise DamageError("duplicate_seat", f"seat {seat.seat} is listed twice")
        if seat.alive and seat.hp <= 0 and not dying_ok:
            raise DamageError(
                "dying_seat",
                f"seat {seat.seat} is dying (HP {seat.hp}): resolve the rescue or the death first",
            )
        if not seat.alive and seat.chained:
            raise DamageError(
                "chain_on_dead_seat", f"seat {seat.seat} is dead and cannot be chained"
            )
        if seat.weapon and seat.weapon not in weapons:
            raise DamageError("not_a_weapon", f"{seat.weapon!r} is not a weapon")
        if seat.armor and seat.armor not in armours:
            raise DamageError("not_an_armor", f"{seat.armor!r} is not an armour")
        by_id[seat.seat] = seat
    return by_id


def _live_seat(by_id: dict[int, SeatState], seat_id: int, role: str) -> SeatState:
    seat = by_id.get(seat_id)
    if seat is None:
        raise DamageError(f"unknown_{role}", f"the {role} (seat {seat_id}) is not at the table")
    if not seat.alive:
        raise DamageError(f"dead_{role}", f"the {role} (seat {seat_id}) is dead")
    return seat


def _damage_type(request: DamageRequest, fan: bool) -> DamageType:
    """The type the request deals; DamageError when the card cannot deal the type asked for."""
    _amount, fixed = _CARD_DAMAGE[request.card]
    if fan:
        fixed = DamageType.FIRE
    if fixed is None:
        return request.damage_type or DamageType.NORMAL
    if request.damage_type is not None and request.damage_type is not fixed:
        hint = (
            " (a plain 杀 deals fire damage only through 朱雀羽扇)" if request.card.is_slash else ""
        )
        asked = request.damage_type.value
        raise DamageError(
            "type_mismatch", f"{request.card.value} deals {fixed.value} damage, not {asked}{hint}"
        )
    return fixed


def _check_request(request: DamageRequest, by_id: dict[int, SeatState]) -> SeatState | None:
    """Check the request against the table; return the source's seat (None: no source)."""
    _live_seat(by_id, request.target, "target")
    source = None if request.source is None else _live_seat(by_id, request.source, "source")
    if request.current is not None and request.current not in by_id:
        # The current player may have died in his own turn: the order still starts at his seat.
        raise DamageError("unknown_current", f"seat {request.current} is not at the table")
    if request.amount is not None and (isinstance(request.amount, bool) or request.amount < 1):
        raise DamageError("bad_amount", f"damage must be at least 1, not {request.amount!r}")
    if request.card is DamageCard.LIGHTNING and source is not None:
        raise DamageError("lightning_has_no_source", "闪电's damage has no source")
    if request.card in _OTHERS_ONLY and request.source == request.target:
        raise DamageError("not_self", f"{request.card.value} is used on another player")
    if request.drank and source is None:
        raise DamageError("wine_without_source", "only a source can have drunk 酒")
    if request.weapon_skill:
        if source is None:
            raise DamageError("weapon_skill_without_source", "a weapon skill needs its holder")
        if source.weapon not in OPTIONAL_WEAPON_SKILLS:
            held = source.weapon or "no weapon"
            raise DamageError(
                "weapon_skill_not_held",
                f"seat {source.seat} holds {held}: no weapon skill to choose "
                f"({'、'.join(sorted(OPTIONAL_WEAPON_SKILLS))} have one)",
            )
        if not request.card.is_slash:
            raise DamageError(
                "weapon_skill_not_slash", f"{source.weapon}'s skill acts on a 杀 only"
            )
        if source.weapon == FEATHER_FAN and request.card is not DamageCard.SLASH:
            raise DamageError(
                "fan_on_elemental_slash",
                "朱雀羽扇 turns a plain 杀 into a 火杀, not a 火杀 or 雷杀",
            )
    return source


def _reminders(
    seat: SeatState, amount: int, request: DamageRequest, source: int | None
) -> tuple[Reminder, ...]:
    """The damaged hero's skills that react to this damage (none when no damage is taken)."""
    if amount <= 0 or not seat.hero:
        return ()
    try:
        skills = skills_for(seat.hero)
    except KeyError:
        return ()
    found: list[Reminder] = []
    for skill in skills:
        if skill.id not in _REACTING_SKILLS:
            continue
        if skill.id == "jianxiong" and not request.card.is_card:
            continue  # 奸雄 takes the card that dealt the damage: a skill is no card
        if skill.id in ("fankui", "ganglie") and source is None:
            continue  # 反馈 and 刚烈 act on the source: 闪电 has none
        times = amount if skill.id == "yiji" else 1
        found.append(Reminder(skill.id, skill.name_zh, skill.name_en, times))
    return tuple(found)


def _armour(amount: int, damage_type: DamageType, armor: str, changes: list[Change]) -> int:
    """藤甲's fire +1, then 白银狮子's cap (applied last)."""
    if armor == VINE_ARMOR and damage_type is DamageType.FIRE:
        changes.append(Change(Modifier.VINE_FIRE, amount, amount + 1))
        amount += 1
    if armor == SILVER_LION and amount > 1:
        changes.append(Change(Modifier.SILVER_LION, amount, 1))
        amount = 1
    return amount


def _turn_order(seats: Sequence[SeatState], start: int) -> list[SeatState]:
    """The seats in turn order beginning with `start` (the app's seat order is the turn order)."""
    ids = [seat.seat for seat in seats]
    at = ids.index(start)
    return [*seats[at:], *seats[:at]]


def start_damage(request: DamageRequest, seats: Sequence[SeatState]) -> DamageStep:
    """The first step of a damage: what its target takes, and who takes damage next.

    `seats` are all seats in turn order (the app's seat order). DamageError for an input that
    cannot happen; nothing is changed either way.
    """
    by_id = _index(seats)
    try:
        request = replace(
            request,
            card=DamageCard(request.card),
            damage_type=None if request.damage_type is None else DamageType(request.damage_type),
        )
    except ValueError as error:
        raise DamageError("unknown_damage", str(error)) from None
    source = _check_request(request, by_id)
    target = by_id[request.target]
    slash = request.card.is_slash
    weapon = source.weapon if source is not None and slash else ""
    fan = request.weapon_skill and weapon == FEATHER_FAN
    ice = request.weapon_skill and weapon == ICE_SWORD
    damage_type = _damage_type(request, fan)

    changes: list[Change] = []
    amount = request.amount if request.amount is not None else _CARD_DAMAGE[request.card][0]
    if fan:
        changes.append(Change(Modifier.FEATHER_FAN, amount, amount))
    wine_spent = request.drank and slash
    if wine_spent:
        changes.append(Change(Modifier.WINE, amount, amount + 1))
        amount += 1
    if weapon == GUDING and target.hand_empty:
        changes.append(Change(Modifier.GUDING, amount, amount + 1))
        amount += 1
    chain_amount = amount  # what a chain passes on: before the target's armour

    armor = target.armor
    if weapon == QINGGANG and armor:
        changes.append(Change(Modifier.QINGGANG, amount, amount))
        armor = ""
    discards = 0
    if (
        armor == VINE_ARMOR
        and damage_type is DamageType.NORMAL
        and request.card in _VINE_IMMUNE_CARDS
    ):
        changes.append(Change(Modifier.VINE_IMMUNE, amount, 0))
        amount = 0
    elif armor == RENWANG and slash and request.black:
        changes.append(Change(Modifier.RENWANG, amount, 0))
        amount = 0
    elif ice:
        changes.append(Change(Modifier.ICE_SWORD, amount, 0))
        amount = 0
        discards = ICE_SWORD_DISCARDS
    else:
        amount = _armour(amount, damage_type, armor, changes)

    chain_removed = amount > 0 and damage_type.spreads and target.chained
    next_seats: tuple[int, ...] = ()
    if chain_removed:
        start = request.current
        if start is None:
            start = request.source if request.source is not None else request.target
        next_seats = tuple(
            seat.seat
            for seat in _turn_order(seats, start)
            if seat.alive and seat.chained and seat.seat != target.seat
        )
    hp_after = target.hp - amount
    return DamageStep(
        request=request,
        index=0,
        seat=target.seat,
        source=request.source,
        amount=amount,
        damage_type=damage_type,
        changes=tuple(changes),
        chain_removed=chain_removed,
        hp_before=target.hp,
        hp_after=hp_after,
        dying=amount > 0 and hp_after <= 0,
        reminders=_reminders(target, amount, request, request.source),
        next_seats=next_seats,
        chain_amount=chain_amount,
        wine_spent=wine_spent,
        discards=discards,
    )


def continue_damage(previous: DamageStep, seats: Sequence[SeatState]) -> DamageStep | None:
    """The next chained seat's step, from the table as it stands now; None when the chain is done.

    Call it after applying `previous` (and saving or burying a seat it left dying). A seat in
    `previous.next_seats` that is dead or no longer chained is skipped. The source's weapon and
    酒 act on the 杀's target only; each chained seat's own armour applies.
    """
    return _continue(previous, seats, dying_ok=False)


def _continue(
    previous: DamageStep, seats: Sequence[SeatState], *, dying_ok: bool
) -> DamageStep | None:
    by_id = _index(seats, dying_ok=dying_ok)
    request = previous.request
    for position, seat_id in enumerate(previous.next_seats):
        seat = by_id.get(seat_id)
        if seat is None:
            raise DamageError("unknown_seat", f"chained seat {seat_id} is not at the table")
        if not seat.alive or not seat.chained:
            continue
        changes = [Change(Modifier.CHAIN, previous.chain_amount, previous.chain_amount)]
        amount = _armour(previous.chain_amount, previous.damage_type, seat.armor, changes)
        source = previous.source if previous.source in by_id else None
        if source is not None and not by_id[source].alive:
            source = None  # a source that died meanwhile is no source (docs/rules.md §6)
        hp_after = seat.hp - amount
        return DamageStep(
            request=request,
            index=previous.index + 1,
            seat=seat.seat,
            source=source,
            amount=amount,
            damage_type=previous.damage_type,
            changes=tuple(changes),
            chain_removed=True,
            hp_before=seat.hp,
            hp_after=hp_after,
            dying=hp_after <= 0,
            reminders=_reminders(seat, amount, request, source),
            next_seats=previous.next_seats[position + 1 :],
            chain_amount=previous.chain_amount,
        )
    return None


def iter_damage(request: DamageRequest, seats: Sequence[SeatState]) -> Iterator[DamageStep]:
    """Every step, as a preview: a seat left dying is not yet saved nor dead, and keeps its place.

    Use start_damage and continue_damage to resolve a chain for real, a rescue or a death between
    the steps.
    """
    step: DamageStep | None = start_damage(request, seats)
    current = tuple(seats)
    while step is not None:
        yield step
        current = apply_step(step, current)
        step = _continue(step, current, dying_ok=True)


def resolve_damage(request: DamageRequest, seats: Sequence[SeatState]) -> tuple[DamageStep, ...]:
    """All the steps of a damage at once (see iter_damage for how a dying seat is treated)."""
    return tuple(iter_damage(request, seats))
