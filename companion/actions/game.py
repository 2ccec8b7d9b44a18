"""A game at the table: hero selection, HP, dying and death, the end, and the next game."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from companion import fastsql
from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    NotFound,
    _already,
    _locked_actor,
    _record,
    _require_host,
    _seat_of,
    _seat_public,
)
from companion.actions.turns import begin_turns
from companion.models import Event, Game, Seat, Table
from companion.rules.heroes import deal_candidates, hero_by_id, lord_candidates, max_hp
from companion.rules.identities import Identity
from companion.rules.scoring import is_final_duel_death
from companion.rules.victory import SeatStatus, death_consequence, winning_side

MAX_DELTA = 10
MAX_MAX_HP = 12
DAMAGE_TYPES = ("normal", "fire", "thunder")
UNDOABLE = ("damage", "recover", "max_hp", "rescue", "died")


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


def _lord(seats: list[Seat]) -> Seat:
    return next(s for s in seats if s.identity == Identity.LORD)


def _start_hp(table: Table, seats: list[Seat]) -> None:
    for seat in seats:
        hero_hp = hero_by_id(seat.hero).hp if seat.hero else None
        seat.max_hp = max_hp(
            hero_hp=hero_hp,
            is_lord=seat.identity == Identity.LORD,
            player_count=len(seats),
            first_game=table.first_game_mode,
        )
        seat.hp = seat.max_hp
        seat.save(update_fields=["hero", "hero_pick", "hero_candidates", "hp", "max_hp"])


def start_heroes(actor: Actor, table: Table, action_id: str | None) -> Change:
    """Leave the deal: straight to play in first-game mode, else the lord's hero choice."""
    seats = _ordered(table)
    if table.first_game_mode:
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
    lord = _lord(seats)
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


@transaction.atomic
def hero_pick(*, token: str, hero_id: str, action_id: str | None = None) -> Change:
    """Choose a hero from one's own candidates; the last pick reveals them all."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
    seat = actor.seat
    if seat is None:
        raise ActionError(_("Only a player can pick a hero."), status=403)
    if table.status != Table.Status.HEROES:
        raise ActionError(_("Heroes cannot be picked now."), status=409, code="not_picking")
    seats = _ordered(table)
    seat = next(s for s in seats if s.pk == seat.pk)
    lord = _lord(seats)
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


@transaction.atomic
def heroes_redeal(*, token: str, confirm: bool = False, action_id: str | None = None) -> Change:
    """Deal new hero candidates before the picks are revealed (host, confirmed)."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
    _require_host(actor)
    if table.status != Table.Status.HEROES:
        raise ActionError(_("Hero candidates can be dealt again only before the reveal."), 409)
    if not confirm:
        raise ActionError(_("Confirm to deal the hero candidates again."), 409, "confirm")
    seats = _ordered(table)
    lord = _lord(seats)
    before = {s.pk: s.hero_candidates for s in seats}
    if table.hero_stage == Table.HeroStage.LORD:
        lord.hero_candidates = lord_candidates()
        lord.save(update_fields=["hero_candidates"])
    else:
        _deal_others(table, seats, lord)
    return _record(
        actor,
        table,
        kind="heroes_redealt",
        public={"stage": table.hero_stage},
        before={"candidates": before},
        after={"candidates": {s.pk: s.hero_candidates for s in seats}},
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
    )


def _may_adjust(actor: Actor, table: Table, seat: Seat) -> None:
    """Own seat, the host, or anyone in referee mode."""
    if actor.is_host or (actor.seat is not None and actor.seat.pk == seat.pk):
        return
    if table.referee_mode and actor.seat is not None:
        return
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
    """An HP change: the seat's phone and every screen; a one-seat delta unless dying changed."""
    return Change(
        table.pk,
        table.version,
        private_seats={seat.pk},
        host_panel=False,
        delta_seat=seat if seat.dying == was_dying else None,
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


@transaction.atomic
def seat_change_hp(
    *,
    token: str,
    seat_id: Any,
    delta: Any,
    source: Any = "",
    damage_type: str = "normal",
    action_id: str | None = None,
) -> Change:
    """Damage (delta < 0, with its source) or recovery (delta > 0, never above max HP)."""
    actor, seen = _locked_actor(token, action_id)
    if seen:
        return _already(actor.table, action_id)
    table, seat = _playing_seat(actor, seat_id)
    amount = _int(delta, _("HP changes by a whole number."))
    if amount == 0 or abs(amount) > MAX_DELTA:
        raise ActionError(_("HP changes by 1 to %(n)d at a time.") % {"n": MAX_DELTA})
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
    if damage_type not in DAMAGE_TYPES or (damage_type != "normal" and not table.maneuvering):
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
        ),
        before={"hp": before, "dying": was_dying, "damage_source": before_source},
        after={"hp": seat.hp, "dying": seat.dying, "damage_source": seat.damage_source_id},
        subject=seat,
        action_id=action_id,
        change=_hp_change(table, seat, was_dying),
    )


@transaction.atomic
def seat_set_max_hp(
    *, token: str, seat_id: Any, max_hp_value: Any, action_id: str | None = None
) -> Change:
    """Change a seat's max HP (skills do that); HP never stays above it."""
    actor, seen = _locked_actor(token, action_id)
    if seen:
        return _already(actor.table, action_id)
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
        change=Change(table.pk, table.version, private_seats={seat.pk}, host_panel=False),
    )


@transaction.atomic
def seat_rescue(
    *, token: str, seat_id: Any, by: Any = "", kind: str = "peach", action_id: str | None = None
) -> Change:
    """A 桃 from a seat (+1), or the dying player's own 酒 (军争): back to 1 HP ends dying."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
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
        allowed = actor.is_host or table.referee_mode or (actor.seat and actor.seat.pk == giver.pk)
        if not allowed:
            raise ActionError(_("Only the giver can record their Peach."), status=403)
    elif kind == "wine":
        giver = seat
        if not table.maneuvering:
            raise ActionError(
                _("Wine is a Maneuvering (军争) card; that expansion is off."), code="no_wine"
            )
        if not (actor.is_host or (actor.seat and actor.seat.pk == seat.pk)):
            raise ActionError(_("Only the dying player can drink Wine."), status=403)
    else:
        raise ActionError(_("Unknown rescue."))
    before = seat.hp
    seat.hp += 1
    if seat.hp > 0:
        seat.dying = False
    seat.save(update_fields=["hp", "dying"])
    return _record(
        actor,
        table,
        kind="rescue",
        public=_hp_public(
            seat, before, by=giver.pk, by_name=giver.name, card=kind, saved=not seat.dying
        ),
        before={"hp": before, "dying": True, "damage_source": seat.damage_source_id},
        after={"hp": seat.hp, "dying": seat.dying},
        subject=seat,
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats={seat.pk}, host_panel=False),
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
    side = winning_side([SeatStatus(Identity(s.identity), s.alive) for s in seats])
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
    from companion import sessions

    sessions.game_finished(table, game)
    return _record(
        actor,
        table,
        kind="game_over",
        public={"winner": side.value, "identities": {str(s.pk): s.identity for s in seats}},
        after={"results": game.results},
        change=Change(table.pk, table.version, private_seats={s.pk for s in seats}),
    )


@transaction.atomic
def seat_die(*, token: str, seat_id: Any, action_id: str | None = None) -> Change:
    """A dying player who was not saved dies: identity revealed, rewards, end of game check."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
    if table.status != Table.Status.PLAYING:
        raise ActionError(_("Nobody is dying now."), status=409, code="not_playing")
    seat = _seat_of(table, seat_id)
    if not seat.alive or not seat.dying:
        raise ActionError(_("Only a dying player can die."), status=409, code="not_dying")
    if not (actor.is_host or table.referee_mode or (actor.seat and actor.seat.pk == seat.pk)):
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
    consequence = death_consequence(
        victim=Identity(seat.identity), killer=Identity(killer.identity) if killer else None
    )
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
        },
        before=before,
        after={"alive": False, "killer": killer.pk if killer else None},
        subject=seat,
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats={seat.pk}),
    )
    return _finish_if_over(actor, table, seats) or change


def _undone(table: Table, event: Event) -> bool:
    return Event.objects.filter(
        table=table, kind="undo", private_to__isnull=True, after__undoes=event.version
    ).exists()


@transaction.atomic
def event_undo(*, token: str, version: Any = None, action_id: str | None = None) -> Change:
    """Undo an HP change or a death: a phone its own last one, the host any one."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
    if table.status != Table.Status.PLAYING:
        raise ActionError(_("Only changes of a game in play can be undone."), 409, "not_playing")
    events = Event.objects.filter(
        table=table,
        game_number=table.game_number,
        private_to__isnull=True,
        kind__in=UNDOABLE,
    ).order_by("-version")
    if version in (None, ""):
        if actor.seat is None:
            raise ActionError(_("Say which change to undo."))
        candidates = [e for e in events.filter(actor_seat=actor.seat) if not _undone(table, e)]
        target = candidates[0] if candidates else None
        if target is None:
            raise ActionError(_("Nothing of yours to undo."), 409, "nothing")
    else:
        number = _int(version, _("No such change."))
        target = events.filter(version=number).first()
        if target is None:
            raise NotFound()
        if _undone(table, target):
            raise ActionError(_("That change was undone already."), 409, "undone")
        own_last = actor.seat is not None and (
            [e for e in events.filter(actor_seat=actor.seat) if not _undone(table, e)][:1]
            == [target]
        )
        if not actor.is_host and not own_last:
            raise ActionError(_("Only the host can undo someone else's change."), 403)
    if target.kind == "died" and not actor.is_host:
        raise ActionError(_("Only the host can undo a death."), status=403)
    seat = target.subject_seat
    if seat is None:
        raise NotFound()
    seat = Seat.objects.get(pk=seat.pk)
    previous = {"hp": seat.hp, "max_hp": seat.max_hp, "dying": seat.dying, "alive": seat.alive}
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
    else:
        if not seat.alive:
            raise ActionError(_("That player is dead; undo the death first."), 409, "dead")
        if target.kind == "max_hp":
            seat.max_hp = target.before["max_hp"]
        applied = target.after["hp"] - target.before["hp"]
        seat.hp = min(seat.max_hp, seat.hp - applied)
        seat.dying = seat.hp <= 0
        if target.kind == "damage" and seat.dying:
            seat.damage_source_id = target.before.get("damage_source")
    seat.save()
    return _record(
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
        change=Change(table.pk, table.version, private_seats={seat.pk}),
    )
