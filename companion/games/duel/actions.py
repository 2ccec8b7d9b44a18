"""1 vs 1's next hero (docs/rules.md §9.8): a dying seat that is not saved loses its hero, and
the next of its secret order comes in, on the draft's state (companion.games.draft.actions)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from companion.actions.box_offers import event_names
from companion.actions.core import ActionError, Actor, Change, record_change, seat_public
from companion.actions.inputs import mode_of
from companion.actions.turns import apply_flow, flow_state, turn_now
from companion.actions.undo import changed_since, restore_turn
from companion.games.draft.actions import full_hp, keep, placement_of, plan_of
from companion.models import Event, Seat, Table
from companion.queries.seats import statuses
from companion.rules.identities import Identity

# A hero fell and the next came in: undoable, by the host alone (as a death), by `undo_fall`.
FELL = "hero_fell"


def hero_fall(
    actor: Actor, table: Table, seats: list[Seat], seat: Seat, action_id: str | None
) -> Change | None:
    """A dying seat of a mode with several heroes (1 vs 1) is not saved: its hero falls. The
    next hero of its order comes in at full HP (the seat stays alive; the table is reminded to
    discard the fallen hero's cards and draw 4), and the turn passes if it was the seat's. The
    host may undo it (`undo_fall`): the fallen hero, its HP, the count and the turn return.
    None when the fallen hero was the seat's last: the seat dies as usual (the fall counted)."""
    mode = mode_of(table)
    plan = plan_of(mode)
    side = mode.draft_side(Identity(seat.identity))
    placement = placement_of(table, plan)
    if side is None or placement is None:
        return None
    fallen = {str(k): int(v) for k, v in table.mode_state.get("fallen", {}).items()}
    fallen_before = dict(fallen)
    count = fallen.get(side, 0) + 1
    fall = mode.hero_falls(count)
    fallen[side] = count
    keep(table, fallen=fallen)
    if fall.out:
        return None
    index = seats.index(seat)
    before = {
        "hero": seat.hero,
        "hp": seat.hp,
        "max_hp": seat.max_hp,
        "dying": True,
        "damage_source": seat.damage_source_id,
        "equipment": seat.equipment,
        "judgement_zone": seat.judgement_zone,
        "chained": seat.chained,
        "wine": seat.wine,
        # The whole count as it was: an undo (actions.undo) puts it back with the hero.
        "fallen": fallen_before,
    }
    after: dict[str, Any] = {"fallen": fallen}
    old_hero = seat.hero
    seat.hero = mode.seat_heroes(statuses(seats), placement, fallen)[index]
    full_hp(mode, seat, seats)
    seat.dying = False
    seat.damage_source = None
    seat.equipment = {}
    seat.judgement_zone = []
    seat.chained = False
    seat.wine = ""
    seat.save()
    public: dict[str, Any] = {}
    if fall.turn_passes and table.turn_seat_id == seat.pk:
        flow = flow_state(table)
        step = mode.flow_after_turn(statuses(seats), flow, index)
        before["turn"] = {
            **turn_now(table),
            "skips": list(table.phase_skips),
            "turn_started_at": table.turn_started_at.isoformat() if table.turn_started_at else "",
            **({"flow": flow} if "flow" in table.mode_state else {}),
        }
        now = timezone.now()
        holder = apply_flow(table, seats, step, now)
        table.phase_started_at = now
        after["turn"] = turn_now(table)
        if holder is not None:
            public.update(turn_to=holder.pk, turn_name=holder.name, round=table.round)
    return record_change(
        actor,
        table,
        kind=FELL,
        public={
            **seat_public(seat),
            "fallen_hero": old_hero,
            "hero": seat.hero,
            "fallen": count,
            "reminder": fall.reminder or "",
            "hp": seat.hp,
            **event_names(table, [old_hero, seat.hero]),
            **public,
        },
        before=before,
        after={**after, "hero": seat.hero, "hp": seat.hp, "max_hp": seat.max_hp},
        subject=seat,
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats={seat.pk}),
        undoable=True,
    )


def undo_fall(table: Table, event: Event) -> set[int]:
    """The fallen hero comes back, dying, with its HP, equipment and zone; the next hero goes
    back into the order (the fallen count) and the turn back if it passed. Refused once the hero
    that came in has changed (its HP, or a later fall). The seat's phone is redrawn."""
    seat = Seat.objects.get(pk=event.subject_seat_id or 0)
    if not seat.alive:
        raise ActionError(_("That player is dead; undo the death first."), 409, "dead")
    before, after = event.before, event.after
    if seat.hero != after.get("hero") or seat.hp != after.get("hp"):
        raise changed_since()
    if "turn" in before and "turn" in after:
        restore_turn(table, before["turn"], after["turn"])
    table.mode_state = {**table.mode_state, "fallen": before.get("fallen", {})}
    seat.hero = before["hero"]
    seat.hp = before["hp"]
    seat.max_hp = before["max_hp"]
    seat.dying = True
    seat.damage_source_id = before.get("damage_source")
    seat.equipment = before.get("equipment", {})
    seat.judgement_zone = before.get("judgement_zone", [])
    seat.chained = before.get("chained", False)
    seat.wine = before.get("wine", "")
    seat.save()
    return {seat.pk}


def undo_death(table: Table, event: Event) -> set[int]:
    """A death undone: the last hero's fall is counted again (the count before it fell)."""
    if "fallen" in event.before:
        table.mode_state = {**table.mode_state, "fallen": event.before["fallen"]}
    return set()
