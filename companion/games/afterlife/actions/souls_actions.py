"""Dark souls 暗魂 (docs/rules.md §9.2): a dead player's choice of whom to haunt, a soul's one use
(玄武, 祝由), and 罗汉, which prevents a point of the haunted player's next damage by itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from companion.actions.core import ActionError, Actor, Change, action, record_change, seat_public
from companion.actions.inputs import ordered_seats
from companion.games.afterlife.actions.state import (
    DARK_SOULS,
    KEY,
    Afterlife,
    load,
    open_tap,
    replaced,
    save_state,
    statuses,
    stored_before,
)
from companion.games.afterlife.rules import souls
from companion.games.afterlife.rules.souls import DarkSoul, Soul
from companion.hooks import HpChange
from companion.models import Event, Seat, Table
from companion.rules.damage import DamageStep
from companion.rules.turns import Phase

SOUL_REFUSALS: dict[souls.SoulRefusal, Promise] = {
    souls.SoulRefusal.LORD_HAS_NO_SOUL: _(
        "The lord's death ends the game: he becomes no dark soul."
    ),
    souls.SoulRefusal.OWNER_ALIVE: _("Only a dead player becomes a dark soul."),
    souls.SoulRefusal.ALREADY_A_SOUL: _("This player has already been a dark soul this game."),
    souls.SoulRefusal.HOST_DEAD: _("A dark soul haunts a living player."),
    souls.SoulRefusal.LUOHAN_IS_AUTOMATIC: _("Luohan 罗汉 blocks the next damage by itself."),
    souls.SoulRefusal.NOT_HOSTS_PLAY_PHASE: _(
        "Zhuyou 祝由 acts only in the haunted player's play phase."
    ),
}


@action
def soul_haunt(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """The tapping dead loyalist, rebel or renegade chooses the living player `seat_id` to
    haunt: he becomes 罗汉, 玄武 or 祝由, public (docs/rules.md §9.2)."""
    tap = open_tap(actor, seat_id, DARK_SOULS)
    table = actor.table
    owner, host, seats, ids, state = tap.tapper, tap.seat, tap.seats, tap.ids, tap.state
    me = ids.index(owner.pk)
    if me not in state.choosing and not owner.alive and me in state.owners:
        raise ActionError(SOUL_REFUSALS[souls.SoulRefusal.ALREADY_A_SOUL], 409, "already_a_soul")
    if me not in state.choosing and not owner.alive:
        raise ActionError(SOUL_REFUSALS[souls.SoulRefusal.LORD_HAS_NO_SOUL], 409, "no_soul")
    if host.pk == owner.pk:
        raise ActionError(SOUL_REFUSALS[souls.SoulRefusal.HOST_DEAD], 409, "host_dead")
    try:
        soul = souls.haunt(
            statuses(table, seats), owner=me, host=ids.index(host.pk), owners_so_far=state.owners
        )
    except souls.SoulRefused as refused:
        raise ActionError(SOUL_REFUSALS[refused.refusal], 409, refused.refusal.value) from None
    before = {KEY: stored_before(table)}
    state = replaced(
        state,
        souls=(*state.souls, soul),
        choosing=tuple(i for i in state.choosing if i != me),
        owners=(*state.owners, me),
    )
    save_state(table, state)
    return record_change(
        actor,
        table,
        kind="soul_haunted",
        public={
            **seat_public(owner),
            "soul": soul.soul.value,
            "host": host.pk,
            "host_name": host.name,
        },
        before=before,
        after={KEY: state.stored()},
        subject=owner,
        action_id=action_id,
        undoable=True,
    )


@action
def soul_use(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """The dark soul of the dead player `seat_id` is used, then gone: 玄武's swap or 祝由's order
    (confirmed on the haunted player's phone or the soul's). 罗汉 is never used by a tap: it
    prevents a point of the haunted player's next damage itself (`prevent_damage`)."""
    tap = open_tap(actor, seat_id, DARK_SOULS)
    table = actor.table
    tapper, owner, seats, ids, state = tap.tapper, tap.seat, tap.seats, tap.ids, tap.state
    soul = next((s for s in state.souls if s.owner == ids.index(owner.pk)), None)
    if soul is None:
        raise ActionError(_("That dark soul is gone or was never chosen."), 409, "no_soul")
    host = seats[soul.host]
    # 罗汉 is refused here: its block is part of the haunted player's next damage
    # (docs/rules.md §9.2).
    turn_index = ids.index(table.turn_seat_id) if table.turn_seat_id in ids else None
    phase = Phase(table.phase) if table.phase in {p.value for p in Phase} else None
    refusal = souls.use_refusal(soul, turn_seat=turn_index, phase=phase)
    if refusal is not None:
        raise ActionError(SOUL_REFUSALS[refusal], 409, refusal.value)
    if tapper.pk not in (owner.pk, host.pk):
        raise ActionError(
            _("Only the haunted player or the soul uses this dark soul."), 403, "not_haunted"
        )
    before: dict[str, Any] = {KEY: stored_before(table)}
    after: dict[str, Any] = {}
    public: dict[str, Any] = {
        **seat_public(owner),
        "soul": soul.soul.value,
        "host": host.pk,
        "host_name": host.name,
    }
    state = replaced(state, souls=tuple(souls.gone(state.souls, soul)))
    save_state(table, state)
    after[KEY] = state.stored()
    return record_change(
        actor,
        table,
        kind="soul_used",
        public=public,
        before=before,
        after=after,
        subject=owner,
        action_id=action_id,
        undoable=True,
    )


# 罗汉 prevents (docs/rules.md §9.2): part of the damage itself, before it lands -------------------


def _luohan_on(table: Table) -> bool:
    return table.opts.flag(DARK_SOULS) and any(s.soul is Soul.LUOHAN for s in load(table).souls)


def luohan_steps(
    table: Table, seats: Sequence[Seat], steps: tuple[DamageStep, ...]
) -> tuple[DamageStep, ...]:
    """A resolved damage's steps with each haunted seat's 罗汉 preventing 1 point before it lands
    (what the dialog's preview shows and the resolve applies; nothing written)."""
    if not _luohan_on(table):
        return steps
    index_of = {s.pk: i for i, s in enumerate(seats)}
    return souls.luohan_steps(load(table).souls, steps, index_of)[0]


def spend_luohan(
    table: Table, seats: Sequence[Seat], steps: Sequence[DamageStep]
) -> dict[str, Any]:
    """The 罗汉 souls the applied steps used are gone; what the damage's event keeps of them
    (public names, and each soul with its place for the undo; empty: none used)."""
    prevented = [s for s in steps if any(c.modifier is souls.LUOHAN_PREVENTED for c in s.changes)]
    if not prevented or not _luohan_on(table):
        return {}
    state = load(table)
    index_of = {s.pk: i for i, s in enumerate(seats)}
    _steps, used = souls.luohan_steps(state.souls, prevented, index_of)
    return _spend(table, state, seats, used)


def hp_change(ctx: HpChange) -> None:
    """A damage (told by its number, or 闪电 struck) about to land: the first 罗汉 haunting its
    target prevents 1 point before it lands and is gone (docs/rules.md §9.2; an HP loss is no
    damage, and the resolver's steps go through `luohan_steps`). The event keeps the soul
    (`luohan`) for the history and the undo; every screen's list of souls is redrawn."""
    if ctx.kind not in ("damage", "lightning"):
        return
    landed, luohan = prevent_damage(ctx.table, ctx.seat, -ctx.change)
    if not luohan:
        return
    ctx.hp += -ctx.change - landed
    ctx.change = -landed
    ctx.public.update(luohan)
    ctx.after.update(luohan)
    ctx.whole_page = True
    ctx.private_seats.add(ctx.seat.pk)


def prevent_damage(table: Table, seat: Seat, amount: int) -> tuple[int, dict[str, Any]]:
    """A damage of `amount` (positive) to `seat` told by its number: the first 罗汉 haunting
    him prevents 1 point before it lands and is gone. The amount that lands, and what the
    event keeps (empty: no 罗汉)."""
    if amount <= 0 or not _luohan_on(table):
        return amount, {}
    seats = ordered_seats(table)
    state = load(table)
    index = [s.pk for s in seats].index(seat.pk)
    block = souls.luohan_block(state.souls, target=index, amount=amount)
    if block.used is None:
        return amount, {}
    return block.amount, _spend(table, state, seats, (block.used,))


def _spend(
    table: Table, state: Afterlife, seats: Sequence[Seat], used: Sequence[DarkSoul]
) -> dict[str, Any]:
    kept = []
    for soul in used:
        kept.append({**soul.stored(), "at": state.souls.index(soul)})
        state = replaced(state, souls=tuple(souls.gone(state.souls, soul)))
    save_state(table, state)
    return {
        "luohan": [
            {**k, "owner_name": seats[k["owner"]].name, "host_name": seats[k["host"]].name}
            for k in kept
        ]
    }


def unspend_luohan(table: Table, target: Event) -> None:
    """The undo of a damage a 罗汉 prevented: the soul haunts again, in its place."""
    spent = target.after.get("luohan") or target.public.get("luohan") or []
    if not spent or table.game_number != target.game_number:
        return
    state = load(table)
    found = list(state.souls)
    for row in reversed(spent):
        soul = DarkSoul.from_stored(row)
        if soul not in found:
            found.insert(min(int(row.get("at", 0)), len(found)), soul)
    save_state(table, replaced(state, souls=tuple(found)))
