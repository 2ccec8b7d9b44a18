"""Table life cycle: opening, seats, host rights, options, identities."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions import handover, session_deal
from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    NotFound,
    action,
    already_applied,
    clean_code,
    clean_name,
    record_change,
    require_host,
    seat_of,
    seat_public,
)
from companion.actions.heroes import reset_for_game, start_heroes
from companion.actions.inputs import mode_of
from companion.actions.variants import refusal_message
from companion.models import MAX_SEATS, Event, Game, Seat, Table, new_code, new_token
from companion.queries.seats import statuses
from companion.rules import modes
from companion.rules.identities import Identity
from companion.rules.modes import OptionsError, OptionsRefused

# ---------------------------------------------------------------------------------------------
# Table life cycle


def table_create(mode: str = modes.DEFAULT) -> Table:
    """A new, empty table with a fresh code and host token, for one way to play."""
    if mode not in modes.keys():
        raise ActionError(_("Unknown way to play."), status=400, code="mode")
    for _attempt in range(20):
        try:
            with transaction.atomic():
                table = Table.objects.create(code=new_code(), mode=mode)
                Event.objects.create(
                    table=table,
                    version=table.version,
                    kind="table_created",
                    actor="host",
                    public={"mode": mode},
                )
                return table
        except IntegrityError:
            continue
    raise ActionError(_("Could not create a table; please try again."), status=503)


def join_refusal(table: Table, seat_count: int) -> ActionError | None:
    """Why nobody new may take a seat at this table now (the game has started, the host locked
    it, it is full), or None. The join page says so before anyone types a name."""
    if table.status != Table.Status.LOBBY:
        return ActionError(
            _("This game has already started; ask the host to let you in next game."),
            status=409,
            code="started",
        )
    if table.locked:
        return ActionError(_("The host has locked this table."), status=409, code="locked")
    if seat_count >= mode_of(table).max_players:
        return ActionError(_("This table is full."), status=409, code="full")
    return None


def seat_join(*, code: str, name: str, device: str = "") -> tuple[Seat, bool]:
    """Take a seat at a table (or return this device's seat there). Returns (seat, created)."""
    name = clean_name(name)
    code = clean_code(code)
    if not code:
        raise NotFound()
    try:
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(code=code).first()
            if table is None:
                raise NotFound()
            if device:
                mine = table.seats.filter(device=device).first()
                if mine is not None:
                    return mine, False
            seats = list(table.seats.all())
            refusal = join_refusal(table, len(seats))
            if refusal is not None:
                raise refusal
            if any(s.name.casefold() == name.casefold() for s in seats):
                raise ActionError(
                    _("Someone at this table already uses that name."),
                    status=409,
                    code="name_taken",
                )
            used = {s.slot for s in seats}
            slot = min(set(range(MAX_SEATS)) - used)
            position = max((s.position for s in seats), default=-1) + 1
            seat = Seat.objects.create(
                table=table, slot=slot, position=position, name=name, device=device
            )
            record_change(
                None,
                table,
                kind="seat_joined",
                public=seat_public(seat),
                after={"seat": seat.pk, "name": name, "position": position},
                subject=seat,
            )
            return seat, True
    except IntegrityError as exc:
        # Lost a race for the last slot, the name, or this device's seat: say so, change nothing.
        if device:
            mine = Seat.objects.filter(table__code=code, device=device).first()
            if mine is not None:
                return mine, False
        raise ActionError(
            _("Someone took that seat or name at the same moment; please try again."),
            status=409,
            code="conflict",
        ) from exc


def _renumber(table: Table, ordered: list[Seat]) -> None:
    for index, seat in enumerate(ordered):
        if seat.position != index:
            seat.position = index
            seat.save(update_fields=["position"])


@action
def seat_move(actor: Actor, *, seat_id: Any, position: Any, action_id: str | None = None) -> Change:
    """Move a seat to another place in the play order (host only, before the game starts)."""
    table = actor.table
    require_host(actor)
    if table.status not in (Table.Status.LOBBY, Table.Status.DEALT):
        raise ActionError(_("Seats cannot move once the game has started."), status=409)
    seat = seat_of(table, seat_id)
    ordered = list(table.seats.order_by("position", "slot"))
    try:
        target = int(position)
    except (TypeError, ValueError):
        raise ActionError(_("That is not a seat number.")) from None
    if not 0 <= target < len(ordered):
        raise ActionError(_("That is not a seat number."))
    before = [s.pk for s in ordered]
    ordered.remove(next(s for s in ordered if s.pk == seat.pk))
    ordered.insert(target, seat)
    _renumber(table, ordered)
    return record_change(
        actor,
        table,
        kind="seat_moved",
        public={**seat_public(seat), "position": target},
        before={"order": before},
        after={"order": [s.pk for s in ordered]},
        subject=seat,
        action_id=action_id,
    )


@action
def seat_remove(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """Remove a player from the table (host only, before identities are dealt)."""
    table = actor.table
    require_host(actor)
    if table.status != Table.Status.LOBBY:
        raise ActionError(_("Players can be removed only before identities are dealt."), status=409)
    seat = seat_of(table, seat_id)
    if seat.is_host:
        raise ActionError(_("Pass the host role to someone else first."), status=409)
    revoked = (seat.pk, seat.token)
    public = seat_public(seat)
    before = {"seat": seat.pk, "name": seat.name, "position": seat.position}
    for game in hooks.on(table):  # the games on forget it (the team it joined)
        game.seat_left(table, seat)
    seat.delete()
    _renumber(table, list(table.seats.order_by("position", "slot")))
    change = Change(table_id=table.pk, version=table.version, revoked=[revoked])
    return record_change(
        actor,
        table,
        kind="seat_removed",
        public=public,
        before=before,
        action_id=action_id,
        change=change,
    )


@action
def table_lock(actor: Actor, *, locked: bool, action_id: str | None = None) -> Change:
    """Lock or unlock the table against new players (host only)."""
    table = actor.table
    require_host(actor)
    if table.locked == locked:
        return already_applied(table, action_id)
    table.locked = locked
    return record_change(
        actor,
        table,
        kind="table_locked" if locked else "table_unlocked",
        public={},
        before={"locked": not locked},
        after={"locked": locked},
        action_id=action_id,
    )


@action
def table_set_options(
    actor: Actor, *, options: dict[str, bool], action_id: str | None = None
) -> Change:
    """Change the table options (host only, before identities are dealt)."""
    table = actor.table
    require_host(actor)
    current = table.opts
    try:
        wanted = current.with_changes({name: bool(value) for name, value in options.items()})
    except OptionsRefused as refused:
        raise ActionError(refusal_message(refused.refusal), code=refused.refusal.code) from None
    except OptionsError:
        raise ActionError(_("Unknown option.")) from None
    before, after = current.stored(), wanted.stored()
    changed = {name for name in after if after[name] != before[name]}
    # Options that shape the deal are fixed once dealt; the live ones (referee mode) are not.
    if table.status != Table.Status.LOBBY and changed - current.live():
        raise ActionError(_("Options can be changed only before identities are dealt."), status=409)
    table.options = after
    if after == before:
        return already_applied(table, action_id)
    return record_change(
        actor,
        table,
        kind="options_changed",
        public=after,
        before=before,
        after=after,
        action_id=action_id,
    )


@action(replay=handover.replayed)
def seat_handover(
    actor: Actor, *, seat_id: Any, action_id: str | None = None
) -> tuple[Change, str]:
    """Make a one-time link that moves a seat to another phone; returns the change and the
    link's claim token (companion.actions.handover: never the seat's own token).

    A player may do it for their own seat, at once. The host may do it for any seat (a flat
    battery): at once while the seat holds no secret, otherwise it waits for the seat's phone to
    agree or for the table to have been told and not object.
    """

    table = actor.table
    seat = seat_of(table, seat_id)
    if not actor.is_host and not (actor.seat and actor.seat.pk == seat.pk):
        raise ActionError(_("Only the host can do that."), status=403, code="not_host")
    return handover.request(actor, table, seat, action_id)


@action
def host_pass(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """Pass the host role to a seat; the host console's link stops working (host only)."""
    table = actor.table
    require_host(actor)
    seat = seat_of(table, seat_id)
    if seat.is_host:
        return already_applied(table, action_id)
    before = {"host": actor.label}
    Seat.objects.filter(table=table, is_host=True).update(is_host=False)
    seat.is_host = True
    seat.save(update_fields=["is_host"])
    table.host_token = new_token()
    change = Change(table_id=table.pk, version=table.version, access_changed=True)
    return record_change(
        actor,
        table,
        kind="host_passed",
        public=seat_public(seat),
        before=before,
        after={"host": f"seat:{seat.pk}"},
        subject=seat,
        action_id=action_id,
        change=change,
    )


@action
def identities_deal(actor: Actor, *, confirm: bool = False, action_id: str | None = None) -> Change:
    """Deal identities at random (host only). A re-deal before the game starts needs confirm."""
    table = actor.table
    require_host(actor)
    seats = list(table.seats.order_by("position", "slot"))
    mode = mode_of(table)
    if not mode.seats_allowed(len(seats)):
        raise ActionError(
            _("Identities need %(min)d to %(max)d players.")
            % {"min": mode.min_players, "max": mode.max_players},
            status=409,
            code="player_count",
        )
    refused = table.opts.refusals(len(seats))
    if refused:
        # An option that does not fit this many players (docs/rules.md §9, docs/variants.md).
        raise ActionError(refusal_message(refused[0]), status=409, code=refused[0].code)
    redeal = table.status == Table.Status.DEALT
    if table.status == Table.Status.FINISHED:
        # "New game": same seats and players, fresh identities, the finished game kept.
        redeal = False
    elif redeal and not confirm:
        raise ActionError(
            _("Identities are already dealt. Confirm to deal again."),
            status=409,
            code="confirm_redeal",
        )
    if table.status not in (Table.Status.LOBBY, Table.Status.DEALT, Table.Status.FINISHED):
        raise ActionError(_("The game has already started."), status=409, code="started")
    # The games on may seat the players their own way before the deal (their teams).
    for game in hooks.on(table):
        seats = game.seating(table, seats)
    before = {s.pk: s.identity for s in seats}
    # Sessions: the game joins the table's session; a tournament fixes the leader.
    dealt = session_deal.deal_for_table(table, seats)
    for seat, identity in zip(seats, dealt, strict=True):
        reset_for_game(seat)
        seat.identity = identity.value
        seat.save()
    if not redeal:
        table.game_number += 1
        Game.objects.create(table=table, number=table.game_number, session=table.session)
    # The game keeps the options it was dealt with (the variants on, per game).
    Game.objects.filter(table=table, number=table.game_number).update(options=table.opts.stored())
    # The games on at the table start their state over for the new deal.
    for game in hooks.on(table):
        game.at_deal(table, seats)
    table.winner = ""
    table.hero_stage = Table.HeroStage.NONE
    table.status = Table.Status.DEALT
    table.locked = True
    leader = mode.leader(statuses(seats))
    first = seats[leader] if leader is not None else None
    change = Change(table_id=table.pk, version=table.version, private_seats={s.pk for s in seats})
    return record_change(
        actor,
        table,
        kind="identities_redealt" if redeal else "identities_dealt",
        # The leader under the stored keys "lord" and "lord_name" (the history reads them).
        public={
            "lord": first.pk if first else None,
            "lord_name": first.name if first else "",
            "players": len(seats),
            # The leader's role where the mode names its seats otherwise (`Mode.role`).
            **({"role": role} if first and (role := mode.role(Identity(first.identity))) else {}),
        },
        before={"identities": before} if redeal else {},
        after={"identities": {s.pk: s.identity for s in seats}},
        action_id=action_id,
        change=change,
    )


@action
def game_start(actor: Actor, *, pool: str = "", action_id: str | None = None) -> Change:
    """Start the game once identities are dealt: hero choice, or play in first-game mode, or a
    mode's draft (`pool`: the heroes the table entered for it, else drawn at random)."""
    table = actor.table
    require_host(actor)
    if table.status != Table.Status.DEALT:
        raise ActionError(_("Deal identities first."), status=409)
    return start_heroes(actor, table, action_id, str(pool or ""))
