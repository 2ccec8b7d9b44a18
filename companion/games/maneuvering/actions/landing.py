"""How a worked-out damage lands: its steps applied to the seat rows (up to a seat it leaves
dying while the chain goes on), the games on at the table told seat by seat, the rows written
with one event (`_record_steps`), and that event's undo (`undo_resolved`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions.core import ActionError, Actor, Change, record_change, seat_public
from companion.actions.play import delta_change
from companion.games.maneuvering.actions.preview import step_public
from companion.infra import fastsql
from companion.models import Event, Seat, Table
from companion.rules.damage import DamageStep

# The seat columns a resolved damage writes (and its undo restores).
_DAMAGE_FIELDS = ["hp", "dying", "damage_source", "chained", "wine", "equipment"]


def hp_row(seat: Seat) -> dict[str, Any]:
    return {
        "hp": seat.hp,
        "dying": seat.dying,
        "damage_source": seat.damage_source_id,
        "chained": seat.chained,
        "wine": seat.wine,
        "equipment": dict(seat.equipment or {}),
    }


def hp_hooks(
    table: Table,
    touched: list[Seat],
    before: dict[str, dict[str, Any]],
    source: Seat | None,
    target: Seat | None,
) -> hooks.HpChange:
    """A resolved damage, applied to `touched` (`before`: each seat's row before it), handed to
    the games on at the table seat by seat, the target last (its source is its attacker; a
    chain's other seats have none): a seat whose HP a game raised is back as it was before,
    above 0. What the games add for the event and the screens, gathered in one context."""
    gathered = hooks.HpChange(
        table=table, seat=touched[0], source=source, kind="resolver", change=0, hp=0, hp_before=0
    )
    playing = hooks.on(table)
    if not playing:
        return gathered
    seen: set[int] = set()
    ordered = [s for s in touched if target is None or s.pk != target.pk]
    ordered += [s for s in touched if target is not None and s.pk == target.pk]
    for seat in ordered:
        if seat.pk in seen:
            continue
        seen.add(seat.pk)
        row = before.get(str(seat.pk), {})
        was = int(row.get("hp", seat.hp))
        ctx = hooks.HpChange(
            table=table,
            seat=seat,
            source=source if target is not None and seat.pk == target.pk else None,
            kind="resolver",
            change=seat.hp - was,
            hp=seat.hp,
            hp_before=was,
        )
        for game in playing:
            game.hp_change(ctx)
        if ctx.hp != seat.hp:
            seat.hp = ctx.hp
            if seat.hp > 0:
                seat.dying = bool(row.get("dying"))
                seat.damage_source_id = row.get("damage_source")
        gathered.public.update(ctx.public)
        gathered.public.update(ctx.after)
        gathered.private_seats |= ctx.private_seats
        gathered.whole_page = gathered.whole_page or ctx.whole_page
    return gathered


def until_dying(steps: tuple[DamageStep, ...]) -> tuple[tuple[DamageStep, ...], DamageStep | None]:
    """The steps applied now: up to the first that leaves a seat dying while the chain has more
    to go (docs/rules.md §9.9: he is saved or dies before the chain goes on); that step, or None."""
    for i, step in enumerate(steps):
        if step.dying and i + 1 < len(steps):
            return steps[: i + 1], step
    return steps, None


def apply_steps(steps: tuple[DamageStep, ...], by_pk: dict[int, Seat]) -> list[Seat]:
    touched: list[Seat] = []
    for step in steps:
        seat = by_pk[step.seat]
        seat.hp = step.hp_after
        if step.chain_removed:
            seat.chained = False
        if step.dying and not seat.dying:
            seat.dying = True
            seat.damage_source_id = step.source
        touched.append(seat)
    return touched


def _pause(step: DamageStep, names: dict[int, str]) -> dict[str, Any]:
    """What the rest of a paused chain needs, kept on its event (public: names only)."""
    request = step.request
    return {
        "dying": step.seat,
        "dying_name": names[step.seat],
        "rest": list(step.next_seats),
        "rest_names": [names[pk] for pk in step.next_seats if pk in names],
        "card": request.card.value,
        "target": request.target,
        "source": step.source,
        "type": step.damage_type.value,
        "index": step.index,
        "chain_amount": step.chain_amount,
    }


def record_steps(
    actor: Actor,
    table: Table,
    kind: str,
    steps: tuple[DamageStep, ...],
    paused: DamageStep | None,
    seats: list[Seat],
    by_pk: dict[int, Seat],
    before: dict[str, dict[str, Any]],
    touched: list[Seat],
    subject: Seat,
    extra: dict[str, Any],
    action_id: str | None,
    *,
    distances: bool = False,
    games: hooks.HpChange | None = None,
    whole_page: bool = False,
) -> Change:
    changed = {s.pk: s for s in touched}
    for seat in changed.values():
        fastsql.update(seat, _DAMAGE_FIELDS)
    names = {s.pk: s.name for s in seats}
    newly_dying = {pk for pk, s in changed.items() if s.dying and not before[str(pk)]["dying"]}
    pause = _pause(paused, names) if paused is not None else None
    private = {*newly_dying, *(games.private_seats if games is not None else ())}
    return record_change(
        actor,
        table,
        kind=kind,
        public={
            **seat_public(subject),
            **extra,
            "steps": [step_public(step, names) for step in steps],
            "dying": [step.seat for step in steps if step.seat in newly_dying],
            **({"paused": pause} if pause else {}),
        },
        before={"seats": {str(pk): before[str(pk)] for pk in changed}},
        after={
            "seats": {str(pk): hp_row(s) for pk, s in changed.items()},
            **({"paused": pause} if pause else {}),
        },
        subject=subject,
        action_id=action_id,
        undoable=True,
        # A game may ask for every screen (what it shows changed): the whole page, not a delta.
        change=Change(table.pk, table.version, private_seats=private)
        if whole_page or (games is not None and games.whole_page)
        else delta_change(
            table,
            list(changed.values()),
            *(("hp", "strip", "distances") if distances else ("hp", "strip")),
            private_seats=private,
            every_seat=seats,
        ),
    )


def undo_resolved(table: Table, target: Event) -> list[Seat]:
    """Put back every seat a resolved damage changed, while each is still as it left it."""
    after: dict[str, dict[str, Any]] = target.after.get("seats", {})
    seats = {s.pk: s for s in table.seats.filter(pk__in=[int(pk) for pk in after])}
    for pk, row in after.items():
        seat = seats.get(int(pk))
        now = hp_row(seat) if seat is not None else {}
        if seat is None or not seat.alive or any(now[k] != v for k, v in row.items()):
            raise ActionError(
                _("That change cannot be undone: the table has changed since."), 409, "changed"
            )
    for pk, row in target.before.get("seats", {}).items():
        seat = seats[int(pk)]
        seat.hp = row["hp"]
        seat.dying = row["dying"]
        seat.damage_source_id = row["damage_source"]
        seat.chained = row["chained"]
        seat.wine = row["wine"]
        if "equipment" in row:
            seat.equipment = row["equipment"]
        fastsql.update(seat, _DAMAGE_FIELDS)
    return list(seats.values())
