"""What a damage would do, read only: the request and every step worked out by the rules
(`rules.resolver`) as the table stands, what the dialog's preview showed (`shown_key`), each
step as an event and a screen show it, and the chain waiting for a dying seat (`paused_chain`).
Nothing here writes."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions.core import ActionError, seat_of
from companion.actions.inputs import ordered_seats, refuse_card, whole_number
from companion.actions.play import living_seat, require_playing
from companion.games.maneuvering.rules import KEY
from companion.games.maneuvering.rules.cards import WineMarker
from companion.games.maneuvering.rules.resolver import resolve_damage
from companion.infra import fastrows
from companion.models import Event, Seat, Table
from companion.rules.damage import (
    DamageCard,
    DamageError,
    DamageRequest,
    DamageStep,
    DamageType,
    SeatState,
)

# 军争 cards and damage types: only with the expansion on.
_MANEUVERING_CARDS = frozenset(
    {DamageCard.FIRE_SLASH, DamageCard.THUNDER_SLASH, DamageCard.FIRE_ATTACK}
)
# The kinds of the events `resolve` records, and the pause `paused_chain` reads on them.
RESOLVED = "damage_resolved"
# The rest of a chain, after a seat it left dying was saved or died (docs/rules.md §9.9).
CONTINUED = "chain_continued"


def require_maneuvering(table: Table) -> None:
    if not table.opts.flag(KEY):
        raise ActionError(
            _("That is a Maneuvering (军争) rule; that expansion is off."), code="no_maneuvering"
        )


def seat_state(seat: Seat, *, hand_empty: bool) -> SeatState:
    """What the resolver needs of a seat row (a dead seat is never chained)."""
    equipment = seat.equipment or {}
    return SeatState(
        seat=seat.pk,
        hp=seat.hp,
        alive=seat.alive,
        hero=seat.hero,
        weapon=equipment.get("weapon", ""),
        armor=equipment.get("armor", ""),
        chained=seat.chained and seat.alive,
        hand_empty=hand_empty,
    )


def step_public(step: DamageStep, names: dict[int, str]) -> dict[str, Any]:
    return {
        "seat": step.seat,
        "name": names[step.seat],
        "amount": step.amount,
        "type": step.damage_type.value,
        "modifiers": [m.value for m in step.modifiers],
        "chain_removed": step.chain_removed,
        "hp_before": step.hp_before,
        "hp": step.hp_after,
        "dying": step.dying,
        "skills": [r.name_zh for r in step.reminders],
        "times": [r.times for r in step.reminders],
        "changes": [[c.modifier.value, c.before, c.after] for c in step.changes],
        "index": step.index,
        "chain_amount": step.chain_amount,
    }


def sent_flag(value: Any) -> bool:
    return value in (True, 1, "1", "true", "on", "yes")


def work_out(
    table: Table,
    *,
    target: Any,
    card: Any,
    source: Any,
    amount: Any,
    damage_type: Any,
    weapon_skill: Any,
    black: Any,
    target_hand_empty: Any,
    seats: list[Seat] | None = None,
) -> tuple[DamageRequest, tuple[DamageStep, ...], list[Seat], Seat, Seat | None]:
    """The request and every step of a damage as the table stands (nothing written; `seats`:
    the table's seats in play order, when the caller has read them)."""
    if seats is None:
        seats = ordered_seats(table)
    target_seat = living_seat(table, target, among=seats)
    source_seat = None if source in ("", None, "none") else seat_of(table, source, among=seats)
    try:
        damage_card = DamageCard(card)
        kind = DamageType(damage_type) if damage_type not in ("", None) else None
    except ValueError:
        raise ActionError(_("Unknown damage."), code="unknown_damage") from None
    refuse_card(table, damage_card.value)  # a mode may play without a card
    if damage_card in _MANEUVERING_CARDS or (kind not in (None, DamageType.NORMAL)):
        require_maneuvering(table)
    if sent_flag(weapon_skill) and source_seat is not None:
        if source_seat.equipment.get("weapon") == "朱雀羽扇":
            require_maneuvering(table)
    request = DamageRequest(
        target=target_seat.pk,
        card=damage_card,
        source=source_seat.pk if source_seat is not None else None,
        amount=None
        if amount in ("", None)
        else whole_number(amount, _("Damage is a whole number.")),
        damage_type=kind,
        drank=source_seat is not None and source_seat.wine == WineMarker.ACTIVE.value,
        weapon_skill=sent_flag(weapon_skill),
        black=sent_flag(black),
        current=table.turn_seat_id if table.turn_seat_id in {s.pk for s in seats} else None,
    )
    states = [
        seat_state(s, hand_empty=s.pk == target_seat.pk and sent_flag(target_hand_empty))
        for s in seats
    ]
    try:
        steps = resolve_damage(request, states)
    except DamageError as error:
        raise ActionError(
            _("That damage cannot happen: %(reason)s") % {"reason": str(error)},
            status=409,
            code=error.code,
        ) from None
    # The games on at the table may prevent part of a seat's step before it lands.
    steps = hooks.damage_steps(table, seats, steps)
    return request, steps, seats, target_seat, source_seat


def damage_preview(table: Table, **fields: Any) -> tuple[DamageStep, ...]:
    """What `damage_resolve` with these fields would do, step by step; nothing is written.
    ActionError (as damage_resolve) when it cannot happen."""
    require_playing(table)
    fields.pop("qilin", None)
    fields.pop("axe", None)
    return work_out(table, **fields)[1]


def shown_key(steps: tuple[DamageStep, ...]) -> str:
    """What a preview showed, in a few characters: each seat reached, what it takes, its type
    and HP after (and 寒冰剑's discards). The dialog's apply form sends it back; a resolve that
    works out something else refuses, so what is applied is what was shown."""
    parts = [f"{s.seat}:{s.amount}:{s.damage_type.value}:{s.hp_after}" for s in steps]
    return ",".join(parts) + f"/{steps[0].discards}"


def paused_chain(table: Table) -> dict[str, Any] | None:
    """The chain waiting for a seat it left dying to be saved or die (None: no chain waits):
    the pause of the table's last resolved damage or continuation that is not undone."""
    if not table.opts.flag(KEY):
        return None
    # Every frame with the now strip asks (a phase, a dying seat, a 桃): one plain statement.
    found = fastrows.read_all(
        Event, _LAST_RESOLVED, [table.pk, table.game_number, RESOLVED, CONTINUED], ("-version",), 1
    )
    pause: dict[str, Any] | None = found[0].after.get("paused") if found else None
    return pause


_LAST_RESOLVED = " AND ".join(
    f"{Event._meta.db_table}.{column}"
    for column in ("table_id = %s", "game_number = %s", "kind IN (%s, %s)", "undone_by IS NULL")
)
