"""Death and the end of a game: a dying player dies, what the death changes, the game over."""

from __future__ import annotations

from typing import Any, cast

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions import scoring
from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    action,
    may_act_on,
    record_change,
    seat_public,
)
from companion.actions.inputs import mode_of, ordered_seats
from companion.actions.play import dying_seat
from companion.actions.turns import apply_flow, flow_state, turn_now
from companion.models import Game, Seat, Table
from companion.queries.box import table_box
from companion.queries.seats import statuses
from companion.rules import box, modes
from companion.rules import scoring as score_rules
from companion.rules.identities import Identity


def _game_of(table: Table) -> Game:
    game, _created = Game.objects.get_or_create(table=table, number=table.game_number)
    return game


def game_results(table: Table, seats: list[Seat]) -> list[dict[str, Any]]:
    """One line per seat for the end screen and the scores."""
    hero_box = table_box(table)
    return [
        {
            "seat": s.pk,
            "name": s.name,
            "position": s.position,
            "identity": s.identity,
            "hero": s.hero,
            "alive": s.alive,
            "killer": s.killer_id,
            "died_version": s.died_version,
            "final_duel": s.final_duel,
            "kills": [v.pk for v in seats if v.killer_id == s.pk],
            "kill_identities": [v.identity for v in seats if v.killer_id == s.pk],
            **_added_hero(hero_box, s.hero),
        }
        for s in seats
    ]


def _added_hero(hero_box: box.Box, hero_id: str) -> dict[str, Any]:
    """An added hero as the game's record keeps it: the session pages name it
    whatever the box holds later."""
    hero = hero_box.lookup(hero_id) if hero_id else None
    return {"added_hero": hero.stored()} if hero is not None and not hero.standard else {}


def _finish_if_over(actor: Actor | None, table: Table, seats: list[Seat]) -> Change | None:
    counted = hooks.statuses(table, seats)
    side = mode_of(table).victory(counted)
    if side is None:
        return None
    table.status = Table.Status.FINISHED
    table.winner = side.value
    game = _game_of(table)
    game.winner = side.value
    game.ended_at = timezone.now()
    game.results = game_results(table, seats)
    # A player a game brought back (`reborn`) alive at the end is dead for the scores.
    for line, reborn in zip(game.results, counted, strict=True):
        if reborn.reborn:
            line.update(alive=False, reborn=True)
    game.save()
    # Sessions: score the game (docs/rules.md §8); a tournament may end with it.

    scoring.game_finished(table, game)
    public: dict[str, Any] = {
        "winner": side.value,
        "identities": {str(s.pk): s.identity for s in seats},
    }
    if table.mode != modes.DEFAULT:
        # The history names the winning side in the mode's words, with its players.
        won = mode_of(table).winners(statuses(seats), side)
        public.update(mode=table.mode, winner_names=[seats[i].name for i in won])
    return record_change(
        actor,
        table,
        kind="game_over",
        public=public,
        after={"results": game.results},
        change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
    )


@action
def seat_die(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """A dying player who was not saved dies: identity revealed, rewards, end of game check."""
    table, seat = dying_seat(actor, seat_id, _("Only a dying player can die."))
    if not may_act_on(actor, seat.pk):
        raise ActionError(_("Only the dying player or the host can record a death."), 403)
    seats = ordered_seats(table)
    seat = next(s for s in seats if s.pk == seat.pk)
    state_before = table.mode_state
    if mode_of(table).heroes_per_seat > 1:
        # The next hero of the seat's order comes in, unless this was its last.
        fell = hooks.hero_fell(actor, table, seats, seat, action_id)
        if fell is not None:
            return cast(Change, fell)
    alive_before = [Identity(s.identity) for s in seats if s.alive]
    killer = next((s for s in seats if s.pk == seat.damage_source_id), None)
    # The seats as the games on count them (a player one brought back: `reborn`), before the
    # death.
    counted = hooks.statuses(table, seats)
    victim_was = counted[seats.index(seat)]
    before = {
        "hp": seat.hp,
        "dying": True,
        "damage_source": seat.damage_source_id,
        "equipment": seat.equipment,
        "judgement_zone": seat.judgement_zone,
    }
    seat.alive = False
    seat.dying = False
    seat.killer = killer
    seat.died_version = table.version + 1
    seat.final_duel = mode_of(table).lost_final_duel(Identity(seat.identity), alive_before)
    if any(s.reborn for s in counted):
        seat.final_duel = score_rules.lost_final_duel(victim_was, counted)
    seat.equipment = {}
    seat.judgement_zone = []
    seat.save()
    consequence = mode_of(table).on_death(
        victim_was, counted[seats.index(killer)] if killer else None
    )
    after: dict[str, Any] = {"alive": False, "killer": killer.pk if killer else None}
    if victim_was.reborn:
        before["reborn"] = True  # no discard for the killer of a loyalist brought back
    flow = _death_flow(table, seats, seat, killer, before, after)
    # The games on at the table see the death (their consequences join its event).
    death = hooks.Death(
        table=table,
        seats=seats,
        seat=seat,
        killer=killer,
        before=before,
        after=after,
        state_before=state_before,
    )
    for game in hooks.on(table):
        game.after_death(death)
    change = record_change(
        actor,
        table,
        kind="died",
        public={
            **seat_public(seat),
            "identity": seat.identity,
            "hero": seat.hero,
            "killer": killer.pk if killer else None,
            "killer_name": killer.name if killer else "",
            "consequence": consequence or "",
            **_place(table, seats, seat),
            **flow,
            **death.public,
        },
        before=before,
        after=after,
        subject=seat,
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats={seat.pk, *death.private_seats}),
    )
    return _finish_if_over(actor, table, seats) or change


def _place(table: Table, seats: list[Seat], seat: Seat) -> dict[str, str]:
    """The dead seat's place in its mode (`Mode.seat_place`), which the history names in
    place of the identity card's name; nothing in a mode without places."""
    index = next(i for i, s in enumerate(seats) if s.pk == seat.pk)
    try:
        place = mode_of(table).seat_place(statuses(seats), index)
    except (ValueError, IndexError):
        return {}
    return {"place": place} if place else {}


def _death_flow(
    table: Table,
    seats: list[Seat],
    seat: Seat,
    killer: Seat | None,
    before: dict[str, Any],
    after: dict[str, Any],
) -> dict[str, Any]:
    """What a death changes beyond the dead seat (docs/rules.md §3, §6), recorded in the death's own
    event so one undo reverts it all: the killer's equipment if the mode discards it (the
    identity game: a lord who killed a loyalist), and
    the turn of a player who dies on it passes at once to the next living player's start."""
    public: dict[str, Any] = {}
    victim = Identity(seat.identity)
    if killer is not None and killer.alive and killer.equipment and not before.get("reborn"):
        if mode_of(table).killer_discards_equipment(victim, Identity(killer.identity)):
            before["killer_equipment"] = dict(killer.equipment)
            public["discarded"] = sorted(killer.equipment.values())
            killer.equipment = {}
            killer.save(update_fields=["equipment"])
    if table.turn_seat_id is not None:
        alive = [s.alive for s in seats]
        index = next((i for i, s in enumerate(seats) if s.pk == table.turn_seat_id), None)
        dead = seats.index(seat)
        if index is not None and any(alive):
            flow = flow_state(table)
            step = mode_of(table).flow_after_death(statuses(seats), flow, index, dead)
            if step.turn is not None or step.choice is not None:
                before["turn"] = {
                    **turn_now(table),
                    "skips": list(table.phase_skips),
                    "turn_started_at": table.turn_started_at.isoformat()
                    if table.turn_started_at
                    else "",
                    **({"flow": flow} if "flow" in table.mode_state else {}),
                }
                now = timezone.now()
                holder = apply_flow(table, seats, step, now)
                table.phase_started_at = now
                after["turn"] = turn_now(table)
                if holder is not None:
                    public.update(turn_to=holder.pk, turn_name=holder.name, round=table.round)
            elif "flow" in table.mode_state:
                before["flow"] = flow
                apply_flow(table, seats, step, timezone.now())
    return public
