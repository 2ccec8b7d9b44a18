"""Undo: a phone's own last change, or any one chosen by the host, reverted on its seat or turn."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions.core import (
    UNDOABLE_KINDS,
    ActionError,
    Actor,
    Change,
    NotFound,
    action,
    record_change,
    seat_public,
)
from companion.actions.inputs import whole_number
from companion.actions.turns import turn_now
from companion.models import Event, Seat, Table
from companion.rules.flow import (
    restore_equipment,
    undo_equip,
    undo_turn_allowed,
    undo_unequip,
    undo_zone,
)

UNDOABLE = tuple(sorted(UNDOABLE_KINDS))


def _last_undoable(table: Table, seat: Seat) -> Event | None:
    """The seat's last change that is undoable and not undone: one step down the partial index
    "event_undo_last" (its condition is this filter's), whatever the length of the history."""
    return (
        Event.objects.filter(table=table, actor_seat=seat, undoable=True, undone_by__isnull=True)
        .order_by("-version")
        .first()
    )


def _undo_target(actor: Actor, table: Table, version: Any) -> Event:
    """The change to undo: a phone's own last one, or the host's choice by version."""
    if version in (None, ""):
        if actor.seat is None:
            raise ActionError(_("Say which change to undo."))
        target = _last_undoable(table, actor.seat)
        if target is None or target.game_number != table.game_number:
            raise ActionError(_("Nothing of yours to undo."), 409, "nothing")
        return target
    number = whole_number(version, _("No such change."))
    target = Event.objects.filter(table=table, version=number, private_to__isnull=True).first()
    if target is None or not target.undoable or target.game_number != table.game_number:
        raise NotFound()
    if target.undone_by is not None:
        raise ActionError(_("That change was undone already."), 409, "undone")
    if not actor.is_host:
        own_last = actor.seat is not None and _last_undoable(table, actor.seat) == target
        if not own_last:
            raise ActionError(_("Only the host can undo someone else's change."), 403)
    return target


def changed_since() -> ActionError:
    return ActionError(
        _("That change cannot be undone: the table has changed since."), 409, "changed"
    )


def restore_turn(table: Table, before: dict[str, Any], after: dict[str, Any]) -> None:
    """Put the turn back where a phase, turn or death change found it (only while the table is
    still where that change left it)."""
    if not undo_turn_allowed(turn_now(table), after):
        raise changed_since()
    # Within one turn the skips stay as they are now (a judgement since may have added one);
    # back to an earlier turn, that turn's skips return.
    if before.get("seat") != table.turn_seat_id:
        table.phase_skips = before.get("skips", [])
    table.turn_seat_id = before["seat"]
    table.phase = before["phase"]
    table.round = before["round"]
    if "flow" in before:  # a mode's flow state (whose go it is) goes back with the turn
        table.mode_state = {**table.mode_state, "flow": before["flow"]}
    if before.get("turn_started_at"):
        table.turn_started_at = datetime.fromisoformat(before["turn_started_at"])
    table.phase_started_at = timezone.now()


def _undo_on_seat(table: Table, target: Event, seat: Seat) -> None:
    """Revert `target` on its seat (HP, death, equipment, judgement zone); refuse when the seat
    no longer is as the change left it."""
    if target.kind == "died":
        if seat.alive:
            raise ActionError(_("That player is alive already."), 409)
        seat.alive = True
        seat.dying = True
        seat.killer = None
        seat.died_version = None
        seat.final_duel = False
        seat.damage_source_id = target.before.get("damage_source")
        seat.equipment = target.before.get("equipment", {})
        seat.judgement_zone = target.before.get("judgement_zone", [])
        discarded = target.before.get("killer_equipment")
        killer = _first_seat(table, target.after.get("killer")) if discarded else None
        if killer is not None and killer.alive:
            killer.equipment = restore_equipment(killer.equipment, discarded)
            killer.save(update_fields=["equipment"])
        if "turn" in target.before and "turn" in target.after:
            restore_turn(table, target.before["turn"], target.after["turn"])
        elif "flow" in target.before:
            table.mode_state = {**table.mode_state, "flow": target.before["flow"]}
        return
    if not seat.alive:
        raise ActionError(_("That player is dead; undo the death first."), 409, "dead")
    public = target.public
    if target.kind in ("equipped", "unequipped"):
        if target.kind == "equipped":
            restored = undo_equip(
                seat.equipment, public["slot"], public["card"], public.get("replaced", "")
            )
        else:
            restored = undo_unequip(seat.equipment, public["slot"], public["card"])
        if restored is None:
            raise changed_since()
        if "hp" in target.after:
            # 白银狮子 left and its holder recovered: the HP goes back with it.
            if seat.hp != target.after["hp"]:
                raise changed_since()
            seat.hp = target.before["hp"]
            seat.dying = target.before.get("dying", False)
        seat.equipment = restored
        return
    if target.kind in ("trick_placed", "trick_removed"):
        zone = undo_zone(
            seat.judgement_zone, target.before.get("zone", []), target.after.get("zone", [])
        )
        if zone is None:
            raise changed_since()
        seat.judgement_zone = zone
        return
    if target.kind == "max_hp":
        seat.max_hp = target.before["max_hp"]
    applied = target.after["hp"] - target.before["hp"]
    seat.hp = min(seat.max_hp, seat.hp - applied)
    seat.dying = seat.hp <= 0
    if target.kind == "damage" and seat.dying:
        seat.damage_source_id = target.before.get("damage_source")


def _first_seat(table: Table, seat_id: Any) -> Seat | None:
    return table.seats.filter(pk=seat_id).first() if seat_id else None


TURN_KINDS = ("phase", "turn", "turn_ended")
# The undone changes that alter what the seat's own page shows (its HP tracker, dying, death).
PRIVATE_UNDO_KINDS = frozenset({"damage", "lose_hp", "recover", "max_hp", "rescue", "died"})


@action
def event_undo(actor: Actor, *, version: Any = None, action_id: str | None = None) -> Change:
    """Undo a change: a phone its own last one (of any kind: HP, death, equipment, delayed
    trick, phase or turn), the host any one. The undone event is marked (`undone_by`), so
    history lines show it struck through and finding the next one stays an index lookup."""
    table = actor.table
    if table.status != Table.Status.PLAYING:
        raise ActionError(_("Only changes of a game in play can be undone."), 409, "not_playing")
    target = _undo_target(actor, table, version)
    # A death, or a game's event that is one (hooks.Game.host_undoes: a hero's fall).
    if (target.kind == "died" or target.kind in hooks.host_undoes()) and not actor.is_host:
        raise ActionError(_("Only the host can undo a death."), status=403)
    seat = _first_seat(table, target.subject_seat_id)
    if seat is None:
        raise NotFound()
    previous: dict[str, Any] = {
        "hp": seat.hp,
        "max_hp": seat.max_hp,
        "dying": seat.dying,
        "alive": seat.alive,
    }
    private = {seat.pk} if target.kind in PRIVATE_UNDO_KINDS or "hp" in target.after else set()
    if target.kind in TURN_KINDS:
        previous = {"turn": turn_now(table), "skips": list(table.phase_skips)}
        restore_turn(table, target.before, target.after)
        seat = _first_seat(table, table.turn_seat_id) or seat
    elif target.kind not in hooks.event_kinds():  # a game's own tap: its undo alone
        _undo_on_seat(table, target, seat)
        seat.save()
    # What the change did to the games on at the table goes back (each reverts its own state).
    for game in hooks.on(table):
        private |= game.undo(table, target)
    if target.kind in hooks.event_kinds():
        # A game's own tap: its undo may have changed the seat (a reborn player dead again).
        seat.refresh_from_db()
    change = record_change(
        actor,
        table,
        kind="undo",
        public={
            **seat_public(seat),
            "undone_kind": target.kind,
            "undone_version": target.version,
            "undone_public": target.public,
            "hp": seat.hp,
        },
        before=previous,
        after={"undoes": target.version, "hp": seat.hp, "alive": seat.alive},
        subject=seat,
        action_id=action_id,
        # Only HP and life show on the seat's own page; undoing a phase, a turn, equipment or a
        # delayed trick changes public things only, so the seat's phone gets no private frame
        # (which phones get one is visible on the network).
        change=Change(table.pk, table.version, private_seats=private),
    )
    Event.objects.filter(pk=target.pk).update(undone_by=table.version)
    return change
