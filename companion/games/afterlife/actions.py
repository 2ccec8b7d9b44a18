"""What becomes of the dead with rebirth 转世 or dark souls 暗魂 on (docs/rules.md §9.1, §9.2,
docs/variants.md): a gift of a card to a dead player, his rebirth at the threshold, a dark soul's
choice of whom to haunt and its one use.

The state is public plain data (`rules.rebirth.RebirthState`, `rules.souls`), kept in
`Table.mode_state["afterlife"]` with the game's number (a new game starts empty), by seat index
in play order. The core reaches it through the package's hooks (`hooks.py`): a death calls
`died`, the end of the game and a killer's reward read `statuses`, every damage asks 罗汉
(`prevent`, `luohan_steps`, `spend_luohan`), an undo `undo` and `unspend_luohan`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from companion.actions.box_offers import table_box
from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    _record,
    _seat_of,
    _seat_public,
    action,
)
from companion.actions.inputs import _ordered
from companion.games.afterlife.rules import rebirth, souls
from companion.games.afterlife.rules.souls import DarkSoul, Soul
from companion.hooks import HpChange
from companion.models import Event, Seat, Table
from companion.rules import box, chance
from companion.rules.damage import DamageStep, Modifier
from companion.rules.identities import Identity
from companion.rules.turns import Phase
from companion.rules.victory import SeatStatus

KEY = "afterlife"

GIFT_REFUSALS: dict[rebirth.GiftRefusal, Promise] = {
    rebirth.GiftRefusal.RECEIVER_ALIVE: _("Only a dead player takes gifts."),
    rebirth.GiftRefusal.RECEIVER_LORD: _("The lord is not reborn: his death ends the game."),
    rebirth.GiftRefusal.RECEIVER_NO_HERO: _(
        "No hero of his kingdom is left: he takes no more gifts."
    ),
    rebirth.GiftRefusal.RECEIVER_DUE: _("He has enough cards: he is reborn now."),
    rebirth.GiftRefusal.GIVER_DEAD: _("Only a living player gives a card."),
    rebirth.GiftRefusal.GIVER_REBORN: _("A reborn player cannot give."),
    rebirth.GiftRefusal.ALREADY_GAVE: _("One gift per player per turn: you have given this turn."),
}

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


@dataclass(frozen=True)
class Afterlife:
    """A game's rebirths and dark souls, by seat index (`choosing`: dead players still to
    choose whom to haunt; `owners`: every seat that has become a soul this game)."""

    game: int = 0
    rebirth: rebirth.RebirthState = field(default_factory=rebirth.RebirthState)
    souls: tuple[DarkSoul, ...] = ()
    choosing: tuple[int, ...] = ()
    owners: tuple[int, ...] = ()

    def stored(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rebirth": self.rebirth.stored(),
            "souls": [s.stored() for s in self.souls],
            "choosing": list(self.choosing),
            "owners": list(self.owners),
        }


def load(table: Table) -> Afterlife:
    """The current game's state (empty for a new game)."""
    raw = (table.mode_state or {}).get(KEY) or {}
    if raw.get("game") != table.game_number:
        return Afterlife(game=table.game_number)
    return Afterlife(
        game=table.game_number,
        rebirth=rebirth.RebirthState.from_stored(raw.get("rebirth")),
        souls=tuple(DarkSoul.from_stored(s) for s in raw.get("souls", ())),
        choosing=tuple(int(i) for i in raw.get("choosing", ())),
        owners=tuple(int(i) for i in raw.get("owners", ())),
    )


def _save(table: Table, state: Afterlife) -> None:
    table.mode_state = {**(table.mode_state or {}), KEY: state.stored()}


def stored_before(table: Table) -> dict[str, Any]:
    """The state as an event's `before` keeps it (for an undo)."""
    return dict((table.mode_state or {}).get(KEY) or {})


def restore(table: Table, before: dict[str, Any]) -> None:
    """Put the state back as an event's `before` kept it (the undo of a death)."""
    table.mode_state = {**(table.mode_state or {}), KEY: before}


def enabled(table: Table) -> bool:
    """Whether the table plays with rebirth or dark souls (the identity game's options)."""
    opts = table.opts
    return bool(getattr(opts, "rebirth", False) or getattr(opts, "dark_souls", False))


def with_reborn(table: Table, found: list[SeatStatus]) -> list[SeatStatus]:
    """The seats for the mode's victory, rewards and duel with their `reborn` flag (a living
    player after a rebirth, still dead for the end of the game)."""
    if not getattr(table.opts, "rebirth", False):
        return found
    return rebirth.with_reborn(found, load(table).rebirth)


def statuses(table: Table, seats: Sequence[Seat]) -> list[SeatStatus]:
    """The seats for the mode's victory, rewards and duel: identity, alive, and reborn."""
    return with_reborn(table, [SeatStatus(Identity(s.identity), s.alive) for s in seats])


def reborn_seat_ids(table: Table, seats: Sequence[Seat]) -> set[int]:
    """The seats alive again after a rebirth (for the game's results)."""
    return {seats[i].pk for i, s in enumerate(statuses(table, seats)) if s.reborn}


def died(table: Table, seats: Sequence[Seat], seat: Seat) -> None:
    """A seat has died (the death action, before its event): with rebirth on, he waits for
    gifts (the lord never: his death ends the game); with dark souls on, a loyalist, rebel or
    renegade is to choose whom to haunt (once a game), and the souls haunting him are gone."""
    opts = table.opts
    if not (getattr(opts, "rebirth", False) or getattr(opts, "dark_souls", False)):
        return
    state = load(table)
    index = [s.pk for s in seats].index(seat.pk)
    identity = Identity(seat.identity)
    if opts.rebirth and identity != Identity.LORD:
        state = _replace(state, rebirth=rebirth.died(state.rebirth, index))
    if opts.dark_souls:
        kept = tuple(souls.host_died(state.souls, index))
        choosing = state.choosing
        if souls.soul_for(identity) and index not in state.owners:
            choosing = (*choosing, index)
        state = _replace(state, souls=kept, choosing=choosing)
    _save(table, state)


def _replace(state: Afterlife, **changes: Any) -> Afterlife:
    return Afterlife(**{**state.__dict__, **changes})


def _playing(table: Table) -> None:
    if table.status != Table.Status.PLAYING:
        raise ActionError(_("Only while a game is being played."), 409, "not_playing")


def _own_seat(actor: Actor) -> Seat:
    if actor.seat is None:
        raise ActionError(_("Only a player's own phone does that."), 403, "not_a_seat")
    return actor.seat


# Rebirth 转世 ---------------------------------------------------------------------------------


@action
def rebirth_give(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """The tapping player gives the dead player `seat_id` one hand card (docs/rules.md §9.1); at the
    threshold he is reborn at once: the app draws his new hero (`box.rebirth_hero`), HP 1."""
    table = actor.table
    if not getattr(table.opts, "rebirth", False):
        raise ActionError(_("Rebirth is not on at this table."), 409, "no_rebirth")
    _playing(table)
    giver = _own_seat(actor)
    receiver = _seat_of(table, seat_id)
    seats = _ordered(table)
    ids = [s.pk for s in seats]
    state = load(table)
    turn_index = ids.index(table.turn_seat_id) if table.turn_seat_id in ids else 0
    turn = rebirth.turn_key(table.round, turn_index)
    count = len(seats)
    try:
        gave = rebirth.give(
            state.rebirth,
            statuses(table, seats),
            giver=ids.index(giver.pk),
            receiver=ids.index(receiver.pk),
            turn=turn,
            player_count=count,
        )
    except rebirth.GiftRefused as refused:
        raise ActionError(GIFT_REFUSALS[refused.refusal], 409, refused.refusal.value) from None
    before = {KEY: stored_before(table)}
    index = ids.index(receiver.pk)
    cards = gave.cards.get(index, 0)
    public: dict[str, Any] = {
        **_seat_public(receiver),
        "giver": giver.pk,
        "giver_name": giver.name,
        "cards": cards,
        "threshold": rebirth.threshold(count),
    }
    after: dict[str, Any] = {}
    private = {receiver.pk}
    if rebirth.due(gave, index, count):
        held = [s.hero for s in seats if s.hero]
        hero = _draw(table, receiver.hero, held)
        if hero is None:
            gave = rebirth.no_hero_left(gave, index)
            public["no_hero"] = True
        else:
            gave = rebirth.reborn(gave, index)
            before["seat"] = _seat_row(receiver)
            hp, max_hp = rebirth.reborn_hp(hero.hp)
            public.update(reborn=True, old_hero=receiver.hero, hero=hero.id, hp=hp)
            receiver.hero = hero.id
            receiver.alive = True
            receiver.dying = False
            receiver.hp = hp
            receiver.max_hp = max_hp
            receiver.killer = None
            receiver.died_version = None
            receiver.damage_source = None
            receiver.final_duel = False
            receiver.chained = False
            receiver.wine = ""
            receiver.save()
            after["seat"] = _seat_row(receiver)
    state = _replace(state, rebirth=gave)
    _save(table, state)
    after[KEY] = state.stored()
    return _record(
        actor,
        table,
        kind="rebirth_reborn" if public.get("reborn") else "rebirth_gift",
        public=public,
        before=before,
        after=after,
        subject=receiver,
        action_id=action_id,
        undoable=True,
        change=Change(table.pk, table.version, private_seats=private),
    )


def _draw(table: Table, old_hero: str, held: list[str]) -> box.BoxHero | None:
    the_box = table_box(table)
    if not old_hero or old_hero not in the_box.ids():
        # No hero to go by (first-game mode is refused with rebirth): any kingdom.
        pile = box.unused(the_box, held)
        chance.source().shuffle(pile)
        return pile[0] if pile else None
    return box.rebirth_hero(the_box, old_hero=old_hero, held=held)


def _seat_row(seat: Seat) -> dict[str, Any]:
    return {
        "hero": seat.hero,
        "alive": seat.alive,
        "hp": seat.hp,
        "max_hp": seat.max_hp,
        "killer": seat.killer_id,
        "died_version": seat.died_version,
        "final_duel": seat.final_duel,
    }


# Dark souls 暗魂 ------------------------------------------------------------------------------


@action
def soul_haunt(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """The tapping dead loyalist, rebel or renegade chooses the living player `seat_id` to
    haunt: he becomes 罗汉, 玄武 or 祝由, public (docs/rules.md §9.2)."""
    table = actor.table
    if not getattr(table.opts, "dark_souls", False):
        raise ActionError(_("Dark souls are not on at this table."), 409, "no_dark_souls")
    _playing(table)
    owner = _own_seat(actor)
    host = _seat_of(table, seat_id)
    seats = _ordered(table)
    ids = [s.pk for s in seats]
    state = load(table)
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
    state = _replace(
        state,
        souls=(*state.souls, soul),
        choosing=tuple(i for i in state.choosing if i != me),
        owners=(*state.owners, me),
    )
    _save(table, state)
    return _record(
        actor,
        table,
        kind="soul_haunted",
        public={
            **_seat_public(owner),
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
    table = actor.table
    if not getattr(table.opts, "dark_souls", False):
        raise ActionError(_("Dark souls are not on at this table."), 409, "no_dark_souls")
    _playing(table)
    tapper = _own_seat(actor)
    owner = _seat_of(table, seat_id)
    seats = _ordered(table)
    ids = [s.pk for s in seats]
    state = load(table)
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
        **_seat_public(owner),
        "soul": soul.soul.value,
        "host": host.pk,
        "host_name": host.name,
    }
    state = _replace(state, souls=tuple(souls.gone(state.souls, soul)))
    _save(table, state)
    after[KEY] = state.stored()
    return _record(
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
    return bool(getattr(table.opts, "dark_souls", False)) and any(
        s.soul is Soul.LUOHAN for s in load(table).souls
    )


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
    prevented = [s for s in steps if any(c.modifier is Modifier.LUOHAN for c in s.changes)]
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
    seats = _ordered(table)
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
        state = _replace(state, souls=tuple(souls.gone(state.souls, soul)))
    _save(table, state)
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
    _save(table, _replace(state, souls=tuple(found)))


# Undo (actions/undo.py): a gift (with its rebirth), a haunting, a soul's use ----------------

UNDO_KINDS = frozenset({"rebirth_gift", "rebirth_reborn", "soul_haunted", "soul_used"})


def undo_death(table: Table, target: Event) -> None:
    """The undo of a death: the state back as it was before it."""
    if KEY in target.before:
        restore(table, target.before[KEY])


def undo(table: Table, target: Event) -> Seat | None:
    """Revert one of this module's events while the table is still as it left it: the state
    back, and the seat it changed (the reborn player dead again with his old hero). Returns
    the seat whose life changed, if any."""
    if table.game_number != target.game_number or stored_before(table) != target.after.get(KEY):
        raise _changed_since()
    changed: Seat | None = None
    if "seat" in target.before:
        seat = table.seats.get(pk=int(target.subject_seat_id or 0))
        if _seat_row(seat) != target.after["seat"]:
            raise _changed_since()
        row = target.before["seat"]
        seat.hero = row["hero"]
        seat.alive = row["alive"]
        seat.hp = row["hp"]
        seat.max_hp = row["max_hp"]
        seat.killer_id = row["killer"]
        seat.died_version = row["died_version"]
        seat.final_duel = row["final_duel"]
        seat.save()
        changed = seat
    restore(table, target.before.get(KEY, {}))
    return changed


def _changed_since() -> ActionError:
    return ActionError(
        _("That change cannot be undone: the table has changed since."), 409, "changed"
    )
