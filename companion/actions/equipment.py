"""Equipment: a card of the real deck equipped in its slot, or taken out."""

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
    seat_public,
)
from companion.actions.play import delta_change, living_seat, require_playing
from companion.models import Seat, Table
from companion.rules.cards import EquipmentSlot, equipment_by_name, expansions_on

SLOTS = {
    EquipmentSlot.WEAPON: "weapon",
    EquipmentSlot.ARMOR: "armor",
    EquipmentSlot.PLUS_HORSE: "plus_horse",
    EquipmentSlot.MINUS_HORSE: "minus_horse",
}
SLOT_NAMES = tuple(SLOTS.values())
# Equipment that moves distances or attack ranges (the distance table comes with its change).
RANGE_SLOTS = frozenset({"weapon", "plus_horse", "minus_horse"})


def _may_act_on(actor: Actor, table: Table, seat: Seat) -> None:
    """Own seat, the host, or anyone in referee mode."""
    if not may_act_on(actor, seat.pk):
        raise ActionError(_("You can only change your own seat."), status=403, code="not_yours")


@action
def equipment_set(
    actor: Actor, *, seat_id: Any, name: str, replace: bool = False, action_id: str | None = None
) -> Change:
    """Equip a card of the real deck; another of the same kind replaces it (when confirmed)."""
    table = actor.table
    require_playing(table)
    seat = living_seat(table, seat_id)
    _may_act_on(actor, table, seat)
    try:
        card = equipment_by_name(name or "", **expansions_on(table.opts.flag))
    except KeyError:
        raise ActionError(_("No such equipment in this deck."), code="no_card") from None
    slot = SLOTS[card.slot]
    current = dict(seat.equipment)
    if current.get(slot) == card.name_zh:
        return already_applied(table, action_id)
    if current.get(slot) and not replace:
        raise ActionError(
            _("%(old)s is equipped there already: replace it?") % {"old": current[slot]},
            status=409,
            code="slot_taken",
        )
    replaced = current.get(slot, "")
    current[slot] = card.name_zh
    public = {"card": card.name_zh, "slot": slot, "replaced": replaced}
    return _equipment_changed(actor, seat, "equipped", slot, current, public, action_id)


@action
def equipment_remove(
    actor: Actor, *, seat_id: Any, slot: str, action_id: str | None = None
) -> Change:
    """Take a card out of a seat's equipment zone."""
    table = actor.table
    require_playing(table)
    seat = living_seat(table, seat_id)
    _may_act_on(actor, table, seat)
    if slot not in SLOT_NAMES:
        raise ActionError(_("No such equipment slot."), code="no_slot")
    current = dict(seat.equipment)
    if not current.get(slot):
        raise ActionError(_("Nothing is equipped there."), status=409, code="empty_slot")
    card = current.pop(slot)
    public = {"card": card, "slot": slot}
    return _equipment_changed(actor, seat, "unequipped", slot, current, public, action_id)


def _equipment_changed(
    actor: Actor,
    seat: Seat,
    kind: str,
    slot: str,
    equipment: dict[str, str],
    public: dict[str, Any],
    action_id: str | None,
) -> Change:
    """Write `seat`'s new equipment (`slot` changed) and record it, sent as a delta of that seat
    (with the distance table when the slot moves distances or ranges)."""
    before = dict(seat.equipment)
    seat.equipment = equipment
    # A card leaving the seat may recover HP (the games on at the table say how much).
    hp_before, dying_before = seat.hp, seat.dying
    recovered = 0
    if before.get(slot) and before.get(slot) != equipment.get(slot):
        recovered = hooks.equipment_left(actor.table, seat, slot, before[slot])
    fields = ["equipment"]
    if recovered:
        seat.hp += recovered
        seat.dying = seat.dying and seat.hp <= 0
        fields += ["hp", "dying"]
        public = {**public, "recovered": recovered, "hp": seat.hp}
    seat.save(update_fields=fields)
    parts = ["distances"] if slot in RANGE_SLOTS else []
    return record_change(
        actor,
        actor.table,
        kind=kind,
        public={**seat_public(seat), **public},
        before={
            "equipment": before,
            **({"hp": hp_before, "dying": dying_before} if recovered else {}),
        },
        after={
            "equipment": equipment,
            **({"hp": seat.hp, "dying": seat.dying} if recovered else {}),
        },
        subject=seat,
        action_id=action_id,
        change=delta_change(actor.table, [seat], *parts, *(["hp", "strip"] if recovered else [])),
    )
