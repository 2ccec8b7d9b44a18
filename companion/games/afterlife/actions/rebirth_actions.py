"""Rebirth 转世 (docs/rules.md §9.1): a gift of a card to a dead player, and his rebirth at the
threshold with a new hero drawn by the app."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from companion.actions.core import ActionError, Actor, Change, action, record_change, seat_public
from companion.games.afterlife.actions.state import (
    KEY,
    REBIRTH,
    open_tap,
    replaced,
    save_state,
    statuses,
    stored_before,
)
from companion.games.afterlife.rules import draw, rebirth
from companion.models import Seat, Table
from companion.queries.box import table_box
from companion.rules import box, chance

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


@action
def rebirth_give(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """The tapping player gives the dead player `seat_id` one hand card (docs/rules.md §9.1); at the
    threshold he is reborn at once: the app draws his new hero (`draw.rebirth_hero`), HP 1."""
    tap = open_tap(actor, seat_id, REBIRTH)
    table = actor.table
    giver, receiver, seats, ids, state = tap.tapper, tap.seat, tap.seats, tap.ids, tap.state
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
        **seat_public(receiver),
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
            before["seat"] = reborn_row(receiver)
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
            after["seat"] = reborn_row(receiver)
    state = replaced(state, rebirth=gave)
    save_state(table, state)
    after[KEY] = state.stored()
    return record_change(
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
    return draw.rebirth_hero(the_box, old_hero=old_hero, held=held)


def reborn_row(seat: Seat) -> dict[str, Any]:
    """What a rebirth changes of the reborn seat, as its event keeps it (before and after) for
    the undo."""
    return {
        "hero": seat.hero,
        "alive": seat.alive,
        "hp": seat.hp,
        "max_hp": seat.max_hp,
        "killer": seat.killer_id,
        "died_version": seat.died_version,
        "final_duel": seat.final_duel,
    }
