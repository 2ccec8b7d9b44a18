"""The start of a game: hero candidates dealt, the leader's pick (the identity game's lord) and
the others', a re-deal. What is offered to whom is the mode's (`Mode.leader_offer`, `offers`).

Stored names keep the identity game's word: the event kinds `heroes_lord_choosing` and
`hero_lord_picked`, the payload keys `lord` and `lord_candidates` (the history reads them)."""

from __future__ import annotations

from typing import cast

from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions.box_offers import event_names as _named
from companion.actions.box_offers import leader_offer as box_leader_offer
from companion.actions.box_offers import others_offers
from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    action,
    record_change,
    require_host,
    seat_public,
)
from companion.actions.inputs import leader_seat, mode_of, ordered_seats
from companion.actions.turns import begin_turns
from companion.models import Event, Seat, Table
from companion.queries.box import table_box
from companion.queries.seats import statuses


def reset_for_game(seat: Seat) -> None:
    """Clear everything a seat carries from one game to the next (not its name or token)."""
    seat.identity = ""
    seat.alive = True
    seat.hero = ""
    seat.hero_candidates = []
    seat.hero_pick = ""
    seat.hp = 0
    seat.max_hp = 0
    seat.dying = False
    seat.damage_source = None
    seat.killer = None
    seat.died_version = None
    seat.final_duel = False
    seat.equipment = {}
    seat.judgement_zone = []
    seat.chained = False
    seat.wine = ""


def _start_hp(table: Table, seats: list[Seat]) -> None:
    mode = mode_of(table)
    hero_box = table_box(table)
    for seat, status in zip(seats, statuses(seats), strict=True):
        hero = hero_box.lookup(seat.hero) if seat.hero else None
        hero_hp = hero.hp if hero else None
        seat.max_hp = mode.start_hp(
            status,
            hero_hp=hero_hp,
            player_count=len(seats),
            first_game=mode.without_heroes(table.opts),
        )
        seat.hp = seat.max_hp
        seat.save(update_fields=["hero", "hero_pick", "hero_candidates", "hp", "max_hp"])


def _without_heroes(table: Table) -> bool:
    """A table that plays with no heroes (the mode's: the identity game's first-game mode)."""
    return mode_of(table).without_heroes(table.opts)


def start_heroes(actor: Actor, table: Table, action_id: str | None, pool: str = "") -> Change:
    """Leave the deal: straight to play without heroes (first-game mode), a game's own way of
    giving heroes (a mode's hero draft: companion.hooks' `start_heroes`), else the leader's hero
    choice."""
    seats = ordered_seats(table)
    drafted = hooks.start_heroes(actor, table, seats, action_id, pool)
    if drafted is not None:
        return cast(Change, drafted)
    if _without_heroes(table):
        _start_hp(table, seats)
        begin_turns(table, seats)
        table.status = Table.Status.PLAYING
        return record_change(
            actor,
            table,
            kind="game_started",
            public={"first_game": True},
            action_id=action_id,
            change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
        )
    leader = leader_seat(table, seats)
    leader.hero_candidates = box_leader_offer(table)  # a game's own offer, else the mode's
    leader.save(update_fields=["hero_candidates"])
    table.status = Table.Status.HEROES
    table.hero_stage = Table.HeroStage.LEADER
    return record_change(
        actor,
        table,
        kind="heroes_lord_choosing",
        public={"lord": leader.pk, "name": leader.name},
        after={"lord_candidates": leader.hero_candidates},
        action_id=action_id,
        # Every phone changes: the leader sees candidates, the others wait for the leader.
        change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
    )


def _deal_others(table: Table, seats: list[Seat], leader: Seat) -> None:
    others = [s for s in seats if s.pk != leader.pk]
    hands = others_offers(table, player_count=len(seats), taken={leader.hero}, count=len(others))
    for seat, hand in zip(others, hands, strict=True):
        seat.hero_candidates = hand
        seat.hero_pick = ""
        seat.save(update_fields=["hero_candidates", "hero_pick"])


@action
def hero_pick(actor: Actor, *, hero_id: str, action_id: str | None = None) -> Change:
    """Choose a hero from one's own candidates; the last pick reveals them all."""
    table = actor.table
    seat = actor.seat
    if seat is None:
        raise ActionError(_("Only a player can pick a hero."), status=403)
    if table.status != Table.Status.HEROES:
        raise ActionError(_("Heroes cannot be picked now."), status=409, code="not_picking")
    seats = ordered_seats(table)
    seat = next(s for s in seats if s.pk == seat.pk)
    leader = leader_seat(table, seats)
    is_leader = seat.pk == leader.pk
    if table.hero_stage == Table.HeroStage.LEADER and not is_leader:
        raise ActionError(_("The Lord picks first."), status=409, code="lord_first")
    if table.hero_stage == Table.HeroStage.OTHERS and is_leader:
        raise ActionError(_("You have already picked your hero."), status=409, code="picked")
    if hero_id not in seat.hero_candidates:
        raise ActionError(_("That hero was not offered to you."), code="not_offered")
    if is_leader:
        seat.hero = seat.hero_pick = hero_id
        seat.save(update_fields=["hero", "hero_pick"])
        _deal_others(table, seats, seat)
        table.hero_stage = Table.HeroStage.OTHERS
        return record_change(
            actor,
            table,
            kind="hero_lord_picked",
            public={
                **seat_public(seat),
                "hero": hero_id,
                **_named(table, [hero_id]),
            },
            after={"hero": hero_id, "candidates": {s.pk: s.hero_candidates for s in seats}},
            subject=seat,
            action_id=action_id,
            change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
        )
    before = seat.hero_pick
    seat.hero_pick = hero_id
    seat.save(update_fields=["hero_pick"])
    others = [s for s in seats if s.pk != leader.pk]
    picked = sum(1 for s in others if s.hero_pick)
    # The pick itself stays in the seat's private record; the table only learns the count.
    change = record_change(
        actor,
        table,
        kind="hero_picked" if not before else "hero_repicked",
        public={**seat_public(seat), "picked": picked, "of": len(others)},
        before={"pick": before},
        after={"pick": hero_id},
        subject=seat,
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats={seat.pk}, host_panel=False),
    )
    Event.objects.create(
        table=table,
        version=table.version,
        game_number=table.game_number,
        kind="my_hero_picked",
        actor=actor.label,
        actor_seat=seat,
        subject_seat=seat,
        private_to=seat,
        public={"hero": hero_id, **_named(table, [hero_id])},
    )
    if picked < len(others):
        return change
    for other in seats:
        other.hero = other.hero_pick
    _start_hp(table, seats)
    begin_turns(table, seats)
    table.status = Table.Status.PLAYING
    table.hero_stage = Table.HeroStage.NONE
    return record_change(
        actor,
        table,
        kind="heroes_revealed",
        public={
            "heroes": {str(s.pk): s.hero for s in seats},
            **_named(table, [s.hero for s in seats]),
        },
        change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
    )


@action
def heroes_redeal(actor: Actor, *, confirm: bool = False, action_id: str | None = None) -> Change:
    """Deal new hero candidates before the picks are revealed (host, confirmed)."""
    table = actor.table
    require_host(actor)
    if table.status != Table.Status.HEROES:
        raise ActionError(_("Hero candidates can be dealt again only before the reveal."), 409)
    if mode_of(table).draft_plan() is not None:
        raise ActionError(_("This game drafts its heroes; there are no candidates."), 409, "draft")
    if not confirm:
        raise ActionError(_("Confirm to deal the hero candidates again."), 409, "confirm")
    seats = ordered_seats(table)
    leader = leader_seat(table, seats)
    before = {s.pk: s.hero_candidates for s in seats}
    if table.hero_stage == Table.HeroStage.LEADER:
        leader.hero_candidates = box_leader_offer(table)  # a game's own offer, else the mode's
        leader.save(update_fields=["hero_candidates"])
        dealt = {leader.pk}
    else:
        _deal_others(table, seats, leader)
        dealt = {s.pk for s in seats if s.pk != leader.pk}
    return record_change(
        actor,
        table,
        kind="heroes_redealt",
        public={"stage": table.hero_stage},
        before={"candidates": before},
        after={"candidates": {s.pk: s.hero_candidates for s in seats}},
        action_id=action_id,
        # Only the phones dealt new candidates change: the others' pages stay as
        # they are, and a frame to them would be news without content.
        change=Change(table.pk, table.version, private_seats=dealt),
    )
