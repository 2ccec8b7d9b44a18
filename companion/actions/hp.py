"""HP at the table: damage, recovery, HP loss, max HP, and the rescue of a dying player."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    action,
    already_applied,
    may_act_on,
    record_change,
    seat_of,
    seat_public,
)
from companion.actions.inputs import mode_of, ordered_seats, whole_number
from companion.actions.play import delta_change, dying_seat
from companion.infra import fastsql
from companion.models import Seat, Table
from companion.queries.box import table_box
from companion.rules.flow import HpResult, capped_recovery, damage_skills, lose_hp, peach_heal
from companion.rules.identities import Identity
from companion.rules.skills import has_skills, skills_for

MAX_DELTA = 10
MAX_MAX_HP = 12


def _may_adjust(actor: Actor, table: Table, seat: Seat) -> None:
    """Own seat, the host, or anyone in referee mode."""
    if not may_act_on(actor, seat.pk):
        raise ActionError(_("You can only change your own HP."), status=403, code="not_yours")


def _playing_seat(actor: Actor, seat_id: Any) -> tuple[Table, Seat]:
    table = actor.table
    if table.status != Table.Status.PLAYING:
        raise ActionError(_("HP changes only while a game is being played."), 409, "not_playing")
    seat = seat_of(table, seat_id, actor.seat)
    if not seat.alive:
        raise ActionError(_("That player is dead."), status=409, code="dead")
    _may_adjust(actor, table, seat)
    return table, seat


def _hp_change(table: Table, seat: Seat, was_dying: bool) -> Change:
    """An HP change: a delta of the seat (its own HP tracker riding along); when dying began or
    ended, the now strip and the dying banners too, and the seat's phone its private page (its
    dying panel)."""
    return hp_delta(table, seat, dying_changed=seat.dying != was_dying)


def hp_delta(
    table: Table, seat: Seat, *, dying_changed: bool, every_seat: list[Seat] | None = None
) -> Change:
    """The change of one seat's HP, max HP or dying, sent as a delta. A seat
    that stays dying sends the strip and the banners too: they say how many 桃 it needs.
    `every_seat`: the table's seats, `seat` among them, when the action read them all."""
    if dying_changed:
        return delta_change(
            table, [seat], "hp", "strip", private_seats={seat.pk}, every_seat=every_seat
        )
    if seat.dying:
        return delta_change(table, [seat], "hp", "strip", every_seat=every_seat)
    return delta_change(table, [seat], "hp")


def _hp_fields(dying_touched: bool) -> list[str]:
    """The columns an HP change writes: `hp`, and dying and its source only when they may have
    changed (SQLite rewrites an index for every column an UPDATE names, changed or not)."""
    return ["hp", "dying", "damage_source"] if dying_touched else ["hp"]


def _hp_public(seat: Seat, before: int, **extra: Any) -> dict[str, Any]:
    return {
        **seat_public(seat),
        "hp_before": before,
        "hp": seat.hp,
        "max_hp": seat.max_hp,
        **extra,
    }


@action
def seat_change_hp(
    actor: Actor,
    *,
    seat_id: Any,
    delta: Any,
    source: Any = "",
    damage_type: str = "normal",
    loss: bool = False,
    action_id: str | None = None,
) -> Change:
    """Damage (delta < 0, with its source) or recovery (delta > 0, never above max HP); with
    `loss`, HP loss (失去体力: no source, no damage skills, no killer)."""
    table, seat = _playing_seat(actor, seat_id)
    # A tap's form has made the delta a whole number already; a direct caller's is converted.
    amount = (
        delta if type(delta) is int else whole_number(delta, _("HP changes by a whole number."))
    )
    if amount == 0 or abs(amount) > MAX_DELTA:
        raise ActionError(_("HP changes by 1 to %(n)d at a time.") % {"n": MAX_DELTA})
    if loss:
        return _lose_hp(actor, table, seat, amount, action_id)
    before = seat.hp
    if amount > 0:
        if seat.hp >= seat.max_hp:
            raise ActionError(_("Already at full HP."), status=409, code="full_hp")
        seat.hp = min(seat.max_hp, seat.hp + amount)
        was_dying = seat.dying
        if seat.dying and seat.hp > 0:
            seat.dying = False
            seat.damage_source = None
        fastsql.update(seat, _hp_fields(was_dying))
        return record_change(
            actor,
            table,
            kind="recover",
            public=_hp_public(seat, before, saved=was_dying and not seat.dying),
            before={"hp": before, "dying": was_dying},
            after={"hp": seat.hp, "dying": seat.dying},
            subject=seat,
            action_id=action_id,
            change=_hp_change(table, seat, was_dying),
        )
    # Besides "normal" (every table's: the games are not asked), the damage types of the games
    # on (fire and thunder: an expansion's cards).
    if damage_type != "normal" and damage_type not in hooks.damage_types(table):
        raise ActionError(_("Unknown damage type."), code="damage_type")
    source_seat = None
    if source not in ("", None, "none"):
        source_seat = seat_of(table, source)
        if not source_seat.alive:
            raise ActionError(_("A dead player cannot deal damage."), 409, "dead_source")
    was_dying = seat.dying
    before_source = seat.damage_source_id
    # The games on at the table see it land (a game may prevent part of it before it lands,
    # keep some HP, or note the attack).
    ctx = hp_hooks(table, seat, source_seat, "damage", amount, seat.hp + amount)
    amount = ctx.change
    seat.hp = ctx.hp
    if seat.hp <= 0:
        seat.dying = True
        seat.damage_source = source_seat
    fastsql.update(seat, _hp_fields(was_dying or seat.dying))
    return record_change(
        actor,
        table,
        kind="damage",
        public=_hp_public(
            seat,
            before,
            amount=-amount,
            source=source_seat.pk if source_seat else None,
            source_name=source_seat.name if source_seat else "",
            type=damage_type,
            dying=seat.dying and not was_dying,
            **_damage_skills(seat, source_seat is not None),
            **ctx.public,
        ),
        before={"hp": before, "dying": was_dying, "damage_source": before_source},
        after={
            "hp": seat.hp,
            "dying": seat.dying,
            "damage_source": seat.damage_source_id,
            **ctx.after,
        },
        subject=seat,
        action_id=action_id,
        change=widened(_hp_change(table, seat, was_dying), ctx),
    )


def hp_hooks(
    table: Table, seat: Seat, source: Seat | None, kind: str, change: int, hp: int
) -> hooks.HpChange:
    """Hand a damage or HP loss about to land on `seat` (its row still at the HP before) to the
    games on at the table, in order; what they made of it (`hp`: the HP it leaves)."""
    ctx = hooks.HpChange(
        table=table, seat=seat, source=source, kind=kind, change=change, hp=hp, hp_before=seat.hp
    )
    for game in hooks.on(table):
        game.hp_change(ctx)
    return ctx


def widened(change: Change, ctx: hooks.HpChange) -> Change:
    """An HP change's frame, with what the games asked: every screen redrawn, or more phones."""
    if ctx.whole_page:
        return Change(
            table_id=change.table_id, version=change.version, private_seats=ctx.private_seats
        )
    if ctx.private_seats:
        change.private_seats = {*change.private_seats, *ctx.private_seats}
    return change


def _damage_skills(seat: Seat, has_source: bool) -> dict[str, Any]:
    """The damaged hero's skills that may now trigger (奸雄, 反馈, 刚烈, 遗计), for the line."""
    if not seat.hero or not has_skills(seat.hero):
        return {}
    names = {s.id: s.name_zh for s in skills_for(seat.hero)}
    found = damage_skills(names, has_source=has_source)
    return {"skills": [names[s] for s in found]} if found else {}


def _lose_hp(actor: Actor, table: Table, seat: Seat, amount: int, action_id: str | None) -> Change:
    """失去体力 (苦肉, some cards): HP down with no source; entering dying names no killer."""
    if amount > 0:
        raise ActionError(_("HP loss is a number below zero."), code="loss_positive")
    before = seat.hp
    was_dying = seat.dying
    before_source = seat.damage_source_id
    result = lose_hp(seat.hp, -amount, dying=seat.dying, source=seat.damage_source_id)
    ctx = hp_hooks(table, seat, None, "lose_hp", amount, result.hp)
    if ctx.hp != result.hp:  # a game kept some HP
        result = HpResult(hp=ctx.hp, dying=seat.dying, source=seat.damage_source_id)
    seat.hp = result.hp
    seat.dying = result.dying
    seat.damage_source_id = result.source
    fastsql.update(seat, _hp_fields(was_dying or seat.dying))
    return record_change(
        actor,
        table,
        kind="lose_hp",
        public=_hp_public(
            seat,
            before,
            amount=-amount,
            dying=seat.dying and not was_dying,
            **ctx.public,
        ),
        before={"hp": before, "dying": was_dying, "damage_source": before_source},
        after={
            "hp": seat.hp,
            "dying": seat.dying,
            "damage_source": seat.damage_source_id,
            **ctx.after,
        },
        subject=seat,
        action_id=action_id,
        change=widened(_hp_change(table, seat, was_dying), ctx),
    )


@action
def seat_set_max_hp(
    actor: Actor, *, seat_id: Any, max_hp_value: Any, action_id: str | None = None
) -> Change:
    """Change a seat's max HP (skills do that); HP never stays above it."""
    table, seat = _playing_seat(actor, seat_id)
    value = whole_number(max_hp_value, _("Max HP is a whole number."))
    if not 1 <= value <= MAX_MAX_HP:
        raise ActionError(_("Max HP is between 1 and %(n)d.") % {"n": MAX_MAX_HP})
    if value == seat.max_hp:
        return already_applied(table, action_id)
    before = {"hp": seat.hp, "max_hp": seat.max_hp}
    seat.max_hp = value
    seat.hp = min(seat.hp, value)
    seat.save(update_fields=["hp", "max_hp"])
    return record_change(
        actor,
        table,
        kind="max_hp",
        public=_hp_public(seat, before["hp"], max_hp_before=before["max_hp"]),
        before=before,
        after={"hp": seat.hp, "max_hp": seat.max_hp},
        subject=seat,
        action_id=action_id,
        change=hp_delta(table, seat, dying_changed=False),
    )


@action
def seat_rescue(
    actor: Actor, *, seat_id: Any, by: Any = "", kind: str = "peach", action_id: str | None = None
) -> Change:
    """A 桃 from a seat (+1), or the dying player's own rescue card of a game on (an
    expansion's 酒, +1): back to 1 HP ends dying."""
    # The dying seat and the giver among the seats, read once (the frame's strip needs them all).
    seats = ordered_seats(actor.table)
    table, seat = dying_seat(actor, seat_id, _("That player is not dying."), among=seats)
    if kind == "peach":
        giver = (
            seat_of(table, by, known=actor.seat, among=seats)
            if by not in ("", None)
            else actor.seat
        )
        if giver is None:
            raise ActionError(_("Say who gives the Peach."))
        if not giver.alive:
            raise ActionError(_("A dead player cannot give a Peach."), 409, "dead_source")
        if not may_act_on(actor, giver.pk):
            raise ActionError(_("Only the giver can record their Peach."), status=403)
    elif (found := hooks.rescue_card(table, kind)) is not None:
        card, game_on = found
        if not game_on:
            raise ActionError(card.off, code=f"no_{kind}")
        giver = seat
        if not (actor.is_host or (actor.seat and actor.seat.pk == seat.pk)):
            raise ActionError(card.not_own, status=403)
    else:
        raise ActionError(_("Unknown rescue."))
    before = seat.hp
    heal = 1
    if kind == "peach":
        giver_hero = table_box(table).lookup(giver.hero) if giver.hero else None

        def healed(is_leader: bool) -> int:
            return peach_heal(
                receiver_hero=seat.hero,
                receiver_is_lord=is_leader,
                giver_hero=giver.hero,
                giver_kingdom=giver_hero.kingdom if giver_hero else "",
            )

        heal = healed(False)
        # 救援 is a lord skill (主公技): it works where the mode lets lord skills work (the
        # identity game: its leader; the drafted modes: nobody), known from the seat's own
        # identity (no other seat is read).
        if healed(True) != heal and mode_of(table).lord_skills(Identity(seat.identity)):
            heal = healed(True)
    seat.hp = capped_recovery(seat.hp, seat.max_hp, heal)
    if seat.hp > 0:
        seat.dying = False
    fastsql.update(seat, ["hp", "dying"])
    return record_change(
        actor,
        table,
        kind="rescue",
        public=_hp_public(
            seat,
            before,
            by=giver.pk,
            by_name=giver.name,
            card=kind,
            saved=not seat.dying,
            **({"jiuyuan": True} if heal > 1 else {}),
        ),
        before={"hp": before, "dying": True, "damage_source": seat.damage_source_id},
        after={"hp": seat.hp, "dying": seat.dying},
        subject=seat,
        action_id=action_id,
        change=hp_delta(table, seat, dying_changed=not seat.dying, every_seat=seats),
    )
