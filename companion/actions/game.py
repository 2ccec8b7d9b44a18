"""A game at the table: hero selection, HP, dying and death, the end, and the next game."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from companion import fastsql
from companion.actions import scoring
from companion.actions.core import (
    UNDOABLE_KINDS,
    ActionError,
    Actor,
    Change,
    NotFound,
    _already,
    _record,
    _require_host,
    _seat_of,
    _seat_public,
    action,
    may_act_on,
)
from companion.actions.inputs import mode_of, statuses
from companion.actions.turns import begin_turns
from companion.models import Event, Game, Seat, Table
from companion.rules.flow import (
    capped_recovery,
    damage_skills,
    equipment_discarded_by_killer,
    lose_hp,
    peach_heal,
    restore_equipment,
    undo_equip,
    undo_turn_allowed,
    undo_unequip,
    undo_zone,
)
from companion.rules.heroes import deal_candidates, hero_by_id, lord_candidates
from companion.rules.identities import Identity
from companion.rules.scoring import is_final_duel_death
from companion.rules.skills import skills_for
from companion.rules.turns import Phase

MAX_DELTA = 10
MAX_MAX_HP = 12
DAMAGE_TYPES = ("normal", "fire", "thunder")
UNDOABLE = tuple(sorted(UNDOABLE_KINDS))


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


def _ordered(table: Table) -> list[Seat]:
    return list(table.seats.order_by("position", "slot"))


def _lord(table: Table, seats: list[Seat]) -> Seat:
    """The seat the mode makes known to all, who chooses a hero first (the lord)."""
    index = mode_of(table).leader(statuses(seats))
    assert index is not None, "a mode with a hero choice has a first chooser"
    return seats[index]


def _start_hp(table: Table, seats: list[Seat]) -> None:
    mode = mode_of(table)
    for seat, status in zip(seats, statuses(seats), strict=True):
        hero_hp = hero_by_id(seat.hero).hp if seat.hero else None
        seat.max_hp = mode.start_hp(
            status,
            hero_hp=hero_hp,
            player_count=len(seats),
            first_game=table.opts.first_game_mode,
        )
        seat.hp = seat.max_hp
        seat.save(update_fields=["hero", "hero_pick", "hero_candidates", "hp", "max_hp"])


def start_heroes(actor: Actor, table: Table, action_id: str | None) -> Change:
    """Leave the deal: straight to play in first-game mode, else the lord's hero choice."""
    seats = _ordered(table)
    if table.opts.first_game_mode:
        _start_hp(table, seats)
        begin_turns(table, seats)
        table.status = Table.Status.PLAYING
        return _record(
            actor,
            table,
            kind="game_started",
            public={"first_game": True},
            action_id=action_id,
            change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
        )
    lord = _lord(table, seats)
    lord.hero_candidates = lord_candidates()
    lord.save(update_fields=["hero_candidates"])
    table.status = Table.Status.HEROES
    table.hero_stage = Table.HeroStage.LORD
    return _record(
        actor,
        table,
        kind="heroes_lord_choosing",
        public={"lord": lord.pk, "name": lord.name},
        after={"lord_candidates": lord.hero_candidates},
        action_id=action_id,
        # Every phone changes: the lord sees candidates, the others wait for the lord.
        change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
    )


def _deal_others(table: Table, seats: list[Seat], lord: Seat) -> None:
    others = [s for s in seats if s.pk != lord.pk]
    hands = deal_candidates(taken={lord.hero}, player_count=len(seats), non_lord_count=len(others))
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
    seats = _ordered(table)
    seat = next(s for s in seats if s.pk == seat.pk)
    lord = _lord(table, seats)
    is_lord = seat.pk == lord.pk
    if table.hero_stage == Table.HeroStage.LORD and not is_lord:
        raise ActionError(_("The Lord picks first."), status=409, code="lord_first")
    if table.hero_stage == Table.HeroStage.OTHERS and is_lord:
        raise ActionError(_("You have already picked your hero."), status=409, code="picked")
    if hero_id not in seat.hero_candidates:
        raise ActionError(_("That hero was not offered to you."), code="not_offered")
    hero = hero_by_id(hero_id)
    if is_lord:
        seat.hero = seat.hero_pick = hero_id
        seat.save(update_fields=["hero", "hero_pick"])
        _deal_others(table, seats, seat)
        table.hero_stage = Table.HeroStage.OTHERS
        return _record(
            actor,
            table,
            kind="hero_lord_picked",
            public={**_seat_public(seat), "hero": hero_id},
            after={"hero": hero_id, "candidates": {s.pk: s.hero_candidates for s in seats}},
            subject=seat,
            action_id=action_id,
            change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
        )
    before = seat.hero_pick
    seat.hero_pick = hero_id
    seat.save(update_fields=["hero_pick"])
    others = [s for s in seats if s.pk != lord.pk]
    picked = sum(1 for s in others if s.hero_pick)
    # The pick itself stays in the seat's private record; the table only learns the count.
    change = _record(
        actor,
        table,
        kind="hero_picked" if not before else "hero_repicked",
        public={**_seat_public(seat), "picked": picked, "of": len(others)},
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
        public={"hero": hero.id},
    )
    if picked < len(others):
        return change
    for other in seats:
        other.hero = other.hero_pick
    _start_hp(table, seats)
    begin_turns(table, seats)
    table.status = Table.Status.PLAYING
    table.hero_stage = Table.HeroStage.NONE
    return _record(
        actor,
        table,
        kind="heroes_revealed",
        public={"heroes": {str(s.pk): s.hero for s in seats}},
        change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
    )


@action
def heroes_redeal(actor: Actor, *, confirm: bool = False, action_id: str | None = None) -> Change:
    """Deal new hero candidates before the picks are revealed (host, confirmed)."""
    table = actor.table
    _require_host(actor)
    if table.status != Table.Status.HEROES:
        raise ActionError(_("Hero candidates can be dealt again only before the reveal."), 409)
    if not confirm:
        raise ActionError(_("Confirm to deal the hero candidates again."), 409, "confirm")
    seats = _ordered(table)
    lord = _lord(table, seats)
    before = {s.pk: s.hero_candidates for s in seats}
    if table.hero_stage == Table.HeroStage.LORD:
        lord.hero_candidates = lord_candidates()
        lord.save(update_fields=["hero_candidates"])
        dealt = {lord.pk}
    else:
        _deal_others(table, seats, lord)
        dealt = {s.pk for s in seats if s.pk != lord.pk}
    return _record(
        actor,
        table,
        kind="heroes_redealt",
        public={"stage": table.hero_stage},
        before={"candidates": before},
        after={"candidates": {s.pk: s.hero_candidates for s in seats}},
        action_id=action_id,
        # Only the phones dealt new candidates change (issue 19): the others' pages stay as
        # they are, and a frame to them would be news without content.
        change=Change(table.pk, table.version, private_seats=dealt),
    )


def _may_adjust(actor: Actor, table: Table, seat: Seat) -> None:
    """Own seat, the host, or anyone in referee mode."""
    if not may_act_on(actor, seat.pk):
        raise ActionError(_("You can only change your own HP."), status=403, code="not_yours")


def _playing_seat(actor: Actor, seat_id: Any) -> tuple[Table, Seat]:
    table = actor.table
    if table.status != Table.Status.PLAYING:
        raise ActionError(_("HP changes only while a game is being played."), 409, "not_playing")
    seat = _seat_of(table, seat_id, actor.seat)
    if not seat.alive:
        raise ActionError(_("That player is dead."), status=409, code="dead")
    _may_adjust(actor, table, seat)
    return table, seat


def _int(value: Any, message: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ActionError(message) from None


def _hp_change(table: Table, seat: Seat, was_dying: bool) -> Change:
    """An HP change: a delta of the seat (its own HP tracker riding along); when dying began or
    ended, the now strip and the dying banners too, and the seat's phone its private page (its
    dying panel)."""
    return hp_delta(table, seat, dying_changed=seat.dying != was_dying)


def hp_delta(table: Table, seat: Seat, *, dying_changed: bool) -> Change:
    """The change of one seat's HP, max HP or dying, sent as a delta (issue 20, item 8)."""
    return Change(
        table.pk,
        table.version,
        private_seats={seat.pk} if dying_changed else set(),
        host_panel=False,
        delta_seats=[seat],
        parts=frozenset({"hp", "strip"}) if dying_changed else frozenset({"hp"}),
    )


def _hp_fields(dying_touched: bool) -> list[str]:
    """The columns an HP change writes: `hp`, and dying and its source only when they may have
    changed (SQLite rewrites an index for every column an UPDATE names, changed or not)."""
    return ["hp", "dying", "damage_source"] if dying_touched else ["hp"]


def _hp_public(seat: Seat, before: int, **extra: Any) -> dict[str, Any]:
    return {
        **_seat_public(seat),
        "hp_before": before,
        "hp": seat.hp,
        "max_hp": seat.max_hp,
        **extra,
    }


@action
def seat_change_hp(
    actor: Actor,
    *,
    seat_id: Any,
    delta: Any,
    source: Any = "",
    damage_type: str = "normal",
    loss: bool = False,
    action_id: str | None = None,
) -> Change:
    """Damage (delta < 0, with its source) or recovery (delta > 0, never above max HP); with
    `loss`, HP loss (失去体力: no source, no damage skills, no killer)."""
    table, seat = _playing_seat(actor, seat_id)
    amount = _int(delta, _("HP changes by a whole number."))
    if amount == 0 or abs(amount) > MAX_DELTA:
        raise ActionError(_("HP changes by 1 to %(n)d at a time.") % {"n": MAX_DELTA})
    if loss:
        return _lose_hp(actor, table, seat, amount, action_id)
    before = seat.hp
    if amount > 0:
        if seat.hp >= seat.max_hp:
            raise ActionError(_("Already at full HP."), status=409, code="full_hp")
        seat.hp = min(seat.max_hp, seat.hp + amount)
        was_dying = seat.dying
        if seat.dying and seat.hp > 0:
            seat.dying = False
            seat.damage_source = None
        fastsql.update(seat, _hp_fields(was_dying))
        return _record(
            actor,
            table,
            kind="recover",
            public=_hp_public(seat, before, saved=was_dying and not seat.dying),
            before={"hp": before, "dying": was_dying},
            after={"hp": seat.hp, "dying": seat.dying},
            subject=seat,
            action_id=action_id,
            change=_hp_change(table, seat, was_dying),
        )
    if damage_type not in DAMAGE_TYPES or (damage_type != "normal" and not table.opts.maneuvering):
        raise ActionError(_("Unknown damage type."), code="damage_type")
    source_seat = None
    if source not in ("", None, "none"):
        source_seat = _seat_of(table, source)
        if not source_seat.alive:
            raise ActionError(_("A dead player cannot deal damage."), 409, "dead_source")
    was_dying = seat.dying
    before_source = seat.damage_source_id
    seat.hp = seat.hp + amount
    if seat.hp <= 0:
        seat.dying = True
        seat.damage_source = source_seat
    fastsql.update(seat, _hp_fields(was_dying or seat.dying))
    return _record(
        actor,
        table,
        kind="damage",
        public=_hp_public(
            seat,
            before,
            amount=-amount,
            source=source_seat.pk if source_seat else None,
            source_name=source_seat.name if source_seat else "",
            type=damage_type,
            dying=seat.dying and not was_dying,
            **_damage_skills(seat, source_seat is not None),
        ),
        before={"hp": before, "dying": was_dying, "damage_source": before_source},
        after={"hp": seat.hp, "dying": seat.dying, "damage_source": seat.damage_source_id},
        subject=seat,
        action_id=action_id,
        change=_hp_change(table, seat, was_dying),
    )


def _damage_skills(seat: Seat, has_source: bool) -> dict[str, Any]:
    """The damaged hero's skills that may now trigger (奸雄, 反馈, 刚烈, 遗计), for the line."""
    if not seat.hero:
        return {}
    names = {s.id: s.name_zh for s in skills_for(seat.hero)}
    found = damage_skills(names, has_source=has_source)
    return {"skills": [names[s] for s in found]} if found else {}


def _lose_hp(actor: Actor, table: Table, seat: Seat, amount: int, action_id: str | None) -> Change:
    """失去体力 (苦肉, some cards): HP down with no source; entering dying names no killer."""
    if amount > 0:
        raise ActionError(_("HP loss is a number below zero."), code="loss_positive")
    before = seat.hp
    was_dying = seat.dying
    before_source = seat.damage_source_id
    result = lose_hp(seat.hp, -amount, dying=seat.dying, source=seat.damage_source_id)
    seat.hp = result.hp
    seat.dying = result.dying
    seat.damage_source_id = result.source
    fastsql.update(seat, _hp_fields(was_dying or seat.dying))
    return _record(
        actor,
        table,
        kind="lose_hp",
        public=_hp_public(seat, before, amount=-amount, dying=seat.dying and not was_dying),
        before={"hp": before, "dying": was_dying, "damage_source": before_source},
        after={"hp": seat.hp, "dying": seat.dying, "damage_source": seat.damage_source_id},
        subject=seat,
        action_id=action_id,
        change=_hp_change(table, seat, was_dying),
    )


@action
def seat_set_max_hp(
    actor: Actor, *, seat_id: Any, max_hp_value: Any, action_id: str | None = None
) -> Change:
    """Change a seat's max HP (skills do that); HP never stays above it."""
    table, seat = _playing_seat(actor, seat_id)
    value = _int(max_hp_value, _("Max HP is a whole number."))
    if not 1 <= value <= MAX_MAX_HP:
        raise ActionError(_("Max HP is between 1 and %(n)d.") % {"n": MAX_MAX_HP})
    if value == seat.max_hp:
        return _already(table, action_id)
    before = {"hp": seat.hp, "max_hp": seat.max_hp}
    seat.max_hp = value
    seat.hp = min(seat.hp, value)
    seat.save(update_fields=["hp", "max_hp"])
    return _record(
        actor,
        table,
        kind="max_hp",
        public=_hp_public(seat, before["hp"], max_hp_before=before["max_hp"]),
        before=before,
        after={"hp": seat.hp, "max_hp": seat.max_hp},
        subject=seat,
        action_id=action_id,
        change=hp_delta(table, seat, dying_changed=False),
    )


@action
def seat_rescue(
    actor: Actor, *, seat_id: Any, by: Any = "", kind: str = "peach", action_id: str | None = None
) -> Change:
    """A 桃 from a seat (+1), or the dying player's own 酒 (军争): back to 1 HP ends dying."""
    table = actor.table
    if table.status != Table.Status.PLAYING:
        raise ActionError(_("Nobody is dying now."), status=409, code="not_playing")
    seat = _seat_of(table, seat_id)
    if not seat.alive or not seat.dying:
        raise ActionError(_("That player is not dying."), status=409, code="not_dying")
    if kind == "peach":
        giver = _seat_of(table, by) if by not in ("", None) else actor.seat
        if giver is None:
            raise ActionError(_("Say who gives the Peach."))
        if not giver.alive:
            raise ActionError(_("A dead player cannot give a Peach."), 409, "dead_source")
        if not may_act_on(actor, giver.pk):
            raise ActionError(_("Only the giver can record their Peach."), status=403)
    elif kind == "wine":
        giver = seat
        if not table.opts.maneuvering:
            raise ActionError(
                _("Wine is a Maneuvering (军争) card; that expansion is off."), code="no_wine"
            )
        if not (actor.is_host or (actor.seat and actor.seat.pk == seat.pk)):
            raise ActionError(_("Only the dying player can drink Wine."), status=403)
    else:
        raise ActionError(_("Unknown rescue."))
    before = seat.hp
    heal = 1
    if kind == "peach":
        giver_hero = hero_by_id(giver.hero) if giver.hero else None
        heal = peach_heal(
            receiver_hero=seat.hero,
            # 救援 is a lord skill (主公技): it works for the seat the mode makes its leader.
            receiver_is_lord=_lord(table, _ordered(table)).pk == seat.pk,
            giver_hero=giver.hero,
            giver_kingdom=giver_hero.kingdom if giver_hero else "",
        )
    seat.hp = capped_recovery(seat.hp, seat.max_hp, heal)
    if seat.hp > 0:
        seat.dying = False
    seat.save(update_fields=["hp", "dying"])
    return _record(
        actor,
        table,
        kind="rescue",
        public=_hp_public(
            seat,
            before,
            by=giver.pk,
            by_name=giver.name,
            card=kind,
            saved=not seat.dying,
            **({"jiuyuan": True} if heal > 1 else {}),
        ),
        before={"hp": before, "dying": True, "damage_source": seat.damage_source_id},
        after={"hp": seat.hp, "dying": seat.dying},
        subject=seat,
        action_id=action_id,
        change=hp_delta(table, seat, dying_changed=not seat.dying),
    )


def _game_of(table: Table) -> Game:
    game, _created = Game.objects.get_or_create(table=table, number=table.game_number)
    return game


def game_results(table: Table, seats: list[Seat]) -> list[dict[str, Any]]:
    """One line per seat for the end screen and the scores."""
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
        }
        for s in seats
    ]


def _finish_if_over(actor: Actor | None, table: Table, seats: list[Seat]) -> Change | None:
    side = mode_of(table).victory(statuses(seats))
    if side is None:
        return None
    table.status = Table.Status.FINISHED
    table.winner = side.value
    game = _game_of(table)
    game.winner = side.value
    game.ended_at = timezone.now()
    game.results = game_results(table, seats)
    game.save()
    # Sessions (issue 5): score the game (RULES §8); a tournament may end with it.

    scoring.game_finished(table, game)
    return _record(
        actor,
        table,
        kind="game_over",
        public={"winner": side.value, "identities": {str(s.pk): s.identity for s in seats}},
        after={"results": game.results},
        change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
    )


@action
def seat_die(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """A dying player who was not saved dies: identity revealed, rewards, end of game check."""
    table = actor.table
    if table.status != Table.Status.PLAYING:
        raise ActionError(_("Nobody is dying now."), status=409, code="not_playing")
    seat = _seat_of(table, seat_id)
    if not seat.alive or not seat.dying:
        raise ActionError(_("Only a dying player can die."), status=409, code="not_dying")
    if not may_act_on(actor, seat.pk):
        raise ActionError(_("Only the dying player or the host can record a death."), 403)
    seats = _ordered(table)
    seat = next(s for s in seats if s.pk == seat.pk)
    alive_before = [Identity(s.identity) for s in seats if s.alive]
    killer = next((s for s in seats if s.pk == seat.damage_source_id), None)
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
    seat.final_duel = is_final_duel_death(
        victim=Identity(seat.identity), alive_before_death=alive_before
    )
    seat.equipment = {}
    seat.judgement_zone = []
    seat.save()
    consequence = mode_of(table).on_death(
        statuses([seat])[0], statuses([killer])[0] if killer else None
    )
    after: dict[str, Any] = {"alive": False, "killer": killer.pk if killer else None}
    flow = _death_flow(table, seats, seat, killer, before, after)
    change = _record(
        actor,
        table,
        kind="died",
        public={
            **_seat_public(seat),
            "identity": seat.identity,
            "hero": seat.hero,
            "killer": killer.pk if killer else None,
            "killer_name": killer.name if killer else "",
            "consequence": consequence or "",
            **flow,
        },
        before=before,
        after=after,
        subject=seat,
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats={seat.pk}),
    )
    return _finish_if_over(actor, table, seats) or change


def _death_flow(
    table: Table,
    seats: list[Seat],
    seat: Seat,
    killer: Seat | None,
    before: dict[str, Any],
    after: dict[str, Any],
) -> dict[str, Any]:
    """What a death changes beyond the dead seat (RULES §3, §6), recorded in the death's own
    event so one undo reverts it all: a lord who killed a loyalist discards the equipment, and
    the turn of a player who dies on it passes at once to the next living player's start."""
    public: dict[str, Any] = {}
    victim = Identity(seat.identity)
    if killer is not None and killer.alive and killer.equipment:
        if equipment_discarded_by_killer(victim=victim, killer=Identity(killer.identity)):
            before["killer_equipment"] = dict(killer.equipment)
            public["discarded"] = sorted(killer.equipment.values())
            killer.equipment = {}
            killer.save(update_fields=["equipment"])
    if table.turn_seat_id is not None:
        alive = [s.alive for s in seats]
        index = next((i for i, s in enumerate(seats) if s.pk == table.turn_seat_id), None)
        dead = seats.index(seat)
        if index is not None and any(alive):
            passed = mode_of(table).turn_after_death(statuses(seats), index, dead)
            if passed is not None:
                before["turn"] = {
                    **_turn_now(table),
                    "skips": list(table.phase_skips),
                    "turn_started_at": table.turn_started_at.isoformat()
                    if table.turn_started_at
                    else "",
                }
                holder = seats[passed.seat]
                now = timezone.now()
                table.turn_seat = holder
                table.round += 1 if passed.new_round else 0
                table.phase = Phase.START.value
                table.phase_skips = []
                table.turn_started_at = now
                table.phase_started_at = now
                after["turn"] = _turn_now(table)
                public.update(turn_to=holder.pk, turn_name=holder.name, round=table.round)
    return public


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
    number = _int(version, _("No such change."))
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


def _changed_since() -> ActionError:
    return ActionError(
        _("That change cannot be undone: the table has changed since."), 409, "changed"
    )


def _turn_now(table: Table) -> dict[str, Any]:
    return {"seat": table.turn_seat_id, "phase": table.phase, "round": table.round}


def _restore_turn(table: Table, before: dict[str, Any], after: dict[str, Any]) -> None:
    """Put the turn back where a phase, turn or death change found it (only while the table is
    still where that change left it)."""
    if not undo_turn_allowed(_turn_now(table), after):
        raise _changed_since()
    # Within one turn the skips stay as they are now (a judgement since may have added one);
    # back to an earlier turn, that turn's skips return.
    if before.get("seat") != table.turn_seat_id:
        table.phase_skips = before.get("skips", [])
    table.turn_seat_id = before["seat"]
    table.phase = before["phase"]
    table.round = before["round"]
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
            _restore_turn(table, target.before["turn"], target.after["turn"])
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
            raise _changed_since()
        seat.equipment = restored
        return
    if target.kind in ("trick_placed", "trick_removed"):
        zone = undo_zone(
            seat.judgement_zone, target.before.get("zone", []), target.after.get("zone", [])
        )
        if zone is None:
            raise _changed_since()
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
    if target.kind == "died" and not actor.is_host:
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
    if target.kind in TURN_KINDS:
        previous = {"turn": _turn_now(table), "skips": list(table.phase_skips)}
        _restore_turn(table, target.before, target.after)
        seat = _first_seat(table, table.turn_seat_id) or seat
    else:
        _undo_on_seat(table, target, seat)
        seat.save()
    change = _record(
        actor,
        table,
        kind="undo",
        public={
            **_seat_public(seat),
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
        # (issue 19: which phones get one is visible on the network).
        change=Change(
            table.pk,
            table.version,
            private_seats={seat.pk} if target.kind in PRIVATE_UNDO_KINDS else set(),
        ),
    )
    Event.objects.filter(pk=target.pk).update(undone_by=table.version)
    return change
