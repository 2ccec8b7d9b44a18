"""Service functions: every write to a table goes through here.

Each action is one short transaction: lock the table row, check who is acting and whether the
action fits the table's state, change rows, append one Event, bump the table's version. Phones are
notified only after the commit (companion.broadcast).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from companion import broadcast
from companion.models import (
    CODE_LENGTH,
    MAX_SEATS,
    MIN_PLAYERS,
    NAME_MAX_LENGTH,
    Event,
    Seat,
    Table,
    new_code,
    new_token,
)
from companion.rules.identities import IdentityOptions, deal_identities


class ActionError(Exception):
    """A refused action: nothing changed. `status` is the HTTP status to answer with."""

    def __init__(self, message: Any, status: int = 400, code: str = "invalid") -> None:
        super().__init__(str(message))
        self.message = message
        self.status = status
        self.code = code


class NotFound(ActionError):
    """An unknown or stale token or table code; always the same answer."""

    def __init__(self) -> None:
        super().__init__(_("Not found."), status=404, code="not_found")


@dataclass
class Actor:
    """Who is acting: a seat's phone, or the host console (seat None)."""

    table: Table
    seat: Seat | None
    is_host: bool

    @property
    def label(self) -> str:
        """How the event log names the actor."""
        return f"seat:{self.seat.pk}" if self.seat else "host"


@dataclass
class Change:
    """What one committed action changed, for the broadcast after commit."""

    table_id: int
    version: int
    action_id: str | None = None
    private_seats: set[int] = field(default_factory=set)
    revoked: list[tuple[int, str]] = field(default_factory=list)
    access_changed: bool = False
    applied: bool = True


def clean_name(raw: str) -> str:
    """Trim and normalise a display name, or refuse it."""
    name = unicodedata.normalize("NFC", raw or "").strip()
    name = " ".join(name.split())
    if not name:
        raise ActionError(_("Please enter a name."), code="name_empty")
    if len(name) > NAME_MAX_LENGTH:
        raise ActionError(
            _("Names are at most %(n)d characters.") % {"n": NAME_MAX_LENGTH}, code="name_long"
        )
    if any(unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Cn"} for ch in name):
        raise ActionError(_("That name has characters we cannot show."), code="name_chars")
    return name


def clean_code(raw: str) -> str:
    """Normalise a typed table code (case, look-alike characters)."""
    code = (raw or "").strip().upper().replace("0", "O").replace("1", "I")
    return code if len(code) == CODE_LENGTH else ""


# ---------------------------------------------------------------------------------------------
# Reading credentials


def actor_for(token: str, *, for_update: bool = False) -> Actor:
    """Resolve a seat token or a host token to an Actor, or raise NotFound."""
    if not token or len(token) > 64:
        raise NotFound()
    seat = Seat.objects.select_related("table").filter(token=token).first()
    if seat is not None:
        table = seat.table
        if for_update:
            table = Table.objects.select_for_update().get(pk=table.pk)
            seat = Seat.objects.filter(pk=seat.pk, token=token).first()
            if seat is None:
                raise NotFound()
            seat.table = table
        return Actor(table=table, seat=seat, is_host=seat.is_host)
    query = Table.objects.filter(host_token=token)
    if for_update:
        query = query.select_for_update()
    table = query.first()
    if table is None or table.seats.filter(is_host=True).exists():
        raise NotFound()
    return Actor(table=table, seat=None, is_host=True)


def _require_host(actor: Actor) -> None:
    if not actor.is_host:
        raise ActionError(_("Only the host can do that."), status=403, code="not_host")


def _record(
    actor: Actor | None,
    table: Table,
    *,
    kind: str,
    public: dict[str, Any],
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    subject: Seat | None = None,
    action_id: str | None = None,
    change: Change | None = None,
) -> Change:
    """Bump the version, append the event and schedule the broadcast for after the commit."""
    table.version += 1
    table.save(update_fields=["version", "updated_at", *_dirty_table_fields(table)])
    Event.objects.create(
        table=table,
        version=table.version,
        game_number=table.game_number,
        kind=kind,
        actor=actor.label if actor else "system",
        actor_seat=actor.seat if actor else None,
        subject_seat=subject,
        before=before or {},
        after=after or {},
        public=public,
        action_id=action_id or "",
    )
    change = change or Change(table_id=table.pk, version=table.version)
    change.version = table.version
    change.action_id = action_id
    transaction.on_commit(lambda: broadcast.table_changed(change))
    return change


_TABLE_FIELDS = (
    "status",
    "locked",
    "game_number",
    "six_two_renegades",
    "eight_two_renegades",
    "first_game_mode",
    "host_token",
)


def _dirty_table_fields(table: Table) -> list[str]:
    # Tables are always saved whole-state under the row lock; listing the fields keeps the
    # UPDATE explicit and cheap.
    return list(_TABLE_FIELDS)


def _seen(table: Table, action_id: str | None) -> bool:
    """Whether this tap was applied already (a double tap, or a replay after reconnect)."""
    if not action_id:
        return False
    return Event.objects.filter(table=table, action_id=action_id, private_to__isnull=True).exists()


def _already(table: Table, action_id: str | None) -> Change:
    return Change(table_id=table.pk, version=table.version, action_id=action_id, applied=False)


def _seat_public(seat: Seat) -> dict[str, Any]:
    return {"seat": seat.pk, "name": seat.name}


# ---------------------------------------------------------------------------------------------
# Table life cycle


def table_create() -> Table:
    """A new, empty table with a fresh code and host token."""
    for _attempt in range(20):
        try:
            with transaction.atomic():
                table = Table.objects.create(code=new_code())
                Event.objects.create(
                    table=table, version=table.version, kind="table_created", actor="host"
                )
                return table
        except IntegrityError:
            continue
    raise ActionError(_("Could not create a table; please try again."), status=503)


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
            if table.status != Table.Status.LOBBY:
                raise ActionError(
                    _("This game has already started; ask the host to let you in next game."),
                    status=409,
                    code="started",
                )
            if table.locked:
                raise ActionError(_("The host has locked this table."), status=409, code="locked")
            seats = list(table.seats.all())
            if len(seats) >= MAX_SEATS:
                raise ActionError(_("This table is full."), status=409, code="full")
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
            _record(
                None,
                table,
                kind="seat_joined",
                public=_seat_public(seat),
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


def _locked_actor(token: str, action_id: str | None) -> tuple[Actor, bool]:
    actor = actor_for(token, for_update=True)
    return actor, _seen(actor.table, action_id)


def _seat_of(table: Table, seat_id: Any) -> Seat:
    """A seat of this table; any other id answers exactly like a bad token."""
    try:
        seat_pk = int(seat_id)
    except (TypeError, ValueError):
        raise NotFound() from None
    seat = table.seats.filter(pk=seat_pk).first()
    if seat is None:
        raise NotFound()
    return seat


def _renumber(table: Table, ordered: list[Seat]) -> None:
    for index, seat in enumerate(ordered):
        if seat.position != index:
            seat.position = index
            seat.save(update_fields=["position"])


@transaction.atomic
def seat_move(*, token: str, seat_id: Any, position: Any, action_id: str | None = None) -> Change:
    """Move a seat to another place in the play order (host only, before the game starts)."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
    _require_host(actor)
    if table.status not in (Table.Status.LOBBY, Table.Status.DEALT):
        raise ActionError(_("Seats cannot move once the game has started."), status=409)
    seat = _seat_of(table, seat_id)
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
    return _record(
        actor,
        table,
        kind="seat_moved",
        public={**_seat_public(seat), "position": target},
        before={"order": before},
        after={"order": [s.pk for s in ordered]},
        subject=seat,
        action_id=action_id,
    )


@transaction.atomic
def seat_remove(*, token: str, seat_id: Any, action_id: str | None = None) -> Change:
    """Remove a player from the table (host only, before identities are dealt)."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
    _require_host(actor)
    if table.status != Table.Status.LOBBY:
        raise ActionError(_("Players can be removed only before identities are dealt."), status=409)
    seat = _seat_of(table, seat_id)
    if seat.is_host:
        raise ActionError(_("Pass the host role to someone else first."), status=409)
    revoked = (seat.pk, seat.token)
    public = _seat_public(seat)
    before = {"seat": seat.pk, "name": seat.name, "position": seat.position}
    seat.delete()
    _renumber(table, list(table.seats.order_by("position", "slot")))
    change = Change(table_id=table.pk, version=table.version, revoked=[revoked])
    return _record(
        actor,
        table,
        kind="seat_removed",
        public=public,
        before=before,
        action_id=action_id,
        change=change,
    )


@transaction.atomic
def table_lock(*, token: str, locked: bool, action_id: str | None = None) -> Change:
    """Lock or unlock the table against new players (host only)."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
    _require_host(actor)
    if table.locked == locked:
        return _already(table, action_id)
    table.locked = locked
    return _record(
        actor,
        table,
        kind="table_locked" if locked else "table_unlocked",
        public={},
        before={"locked": not locked},
        after={"locked": locked},
        action_id=action_id,
    )


OPTION_FIELDS = ("six_two_renegades", "eight_two_renegades", "first_game_mode")


@transaction.atomic
def table_set_options(
    *, token: str, options: dict[str, bool], action_id: str | None = None
) -> Change:
    """Change the table options (host only, before identities are dealt)."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
    _require_host(actor)
    unknown = set(options) - set(OPTION_FIELDS)
    if unknown:
        raise ActionError(_("Unknown option."))
    if table.status != Table.Status.LOBBY:
        raise ActionError(_("Options can be changed only before identities are dealt."), status=409)
    before = {name: getattr(table, name) for name in OPTION_FIELDS}
    for name, value in options.items():
        setattr(table, name, bool(value))
    after = {name: getattr(table, name) for name in OPTION_FIELDS}
    if after == before:
        return _already(table, action_id)
    return _record(
        actor,
        table,
        kind="options_changed",
        public=after,
        before=before,
        after=after,
        action_id=action_id,
    )


@transaction.atomic
def seat_handover(*, token: str, seat_id: Any, action_id: str | None = None) -> tuple[Change, str]:
    """Give a seat a new token for another phone; the old one stops working at once.

    The host may do it for any seat (a flat battery), a player for their own seat.
    """
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    seat = _seat_of(table, seat_id)
    if not actor.is_host and not (actor.seat and actor.seat.pk == seat.pk):
        raise ActionError(_("Only the host can do that."), status=403, code="not_host")
    if seen:
        return _already(table, action_id), seat.token
    old = seat.token
    seat.token = new_token()
    seat.device = ""
    seat.save(update_fields=["token", "device"])
    change = Change(table_id=table.pk, version=table.version, revoked=[(seat.pk, old)])
    change = _record(
        actor,
        table,
        kind="seat_handed_over",
        public=_seat_public(seat),
        subject=seat,
        action_id=action_id,
        change=change,
    )
    return change, seat.token


@transaction.atomic
def host_pass(*, token: str, seat_id: Any, action_id: str | None = None) -> Change:
    """Pass the host role to a seat; the host console's link stops working (host only)."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
    _require_host(actor)
    seat = _seat_of(table, seat_id)
    if seat.is_host:
        return _already(table, action_id)
    before = {"host": actor.label}
    Seat.objects.filter(table=table, is_host=True).update(is_host=False)
    seat.is_host = True
    seat.save(update_fields=["is_host"])
    table.host_token = new_token()
    change = Change(table_id=table.pk, version=table.version, access_changed=True)
    return _record(
        actor,
        table,
        kind="host_passed",
        public=_seat_public(seat),
        before=before,
        after={"host": f"seat:{seat.pk}"},
        subject=seat,
        action_id=action_id,
        change=change,
    )


def identity_options(table: Table) -> IdentityOptions:
    """The rule options a table has set."""
    return IdentityOptions(
        six_two_renegades=table.six_two_renegades,
        eight_two_renegades=table.eight_two_renegades,
    )


@transaction.atomic
def identities_deal(*, token: str, confirm: bool = False, action_id: str | None = None) -> Change:
    """Deal identities at random (host only). A re-deal before the game starts needs confirm."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
    _require_host(actor)
    seats = list(table.seats.order_by("position", "slot"))
    if not MIN_PLAYERS <= len(seats) <= MAX_SEATS:
        raise ActionError(
            _("Identities need %(min)d to %(max)d players.")
            % {"min": MIN_PLAYERS, "max": MAX_SEATS},
            status=409,
            code="player_count",
        )
    redeal = table.status == Table.Status.DEALT
    if redeal and not confirm:
        raise ActionError(
            _("Identities are already dealt. Confirm to deal again."),
            status=409,
            code="confirm_redeal",
        )
    if table.status not in (Table.Status.LOBBY, Table.Status.DEALT):
        raise ActionError(_("The game has already started."), status=409, code="started")
    before = {s.pk: s.identity for s in seats}
    dealt = deal_identities(len(seats), identity_options(table))
    for seat, identity in zip(seats, dealt, strict=True):
        seat.identity = identity.value
        seat.alive = True
        seat.save(update_fields=["identity", "alive"])
    if not redeal:
        table.game_number += 1
    table.status = Table.Status.DEALT
    table.locked = True
    lord = next(s for s in seats if s.identity == Seat.Identity.LORD)
    change = Change(table_id=table.pk, version=table.version, private_seats={s.pk for s in seats})
    return _record(
        actor,
        table,
        kind="identities_redealt" if redeal else "identities_dealt",
        public={"lord": lord.pk, "lord_name": lord.name, "players": len(seats)},
        before={"identities": before} if redeal else {},
        after={"identities": {s.pk: s.identity for s in seats}},
        action_id=action_id,
        change=change,
    )


@transaction.atomic
def game_start(*, token: str, action_id: str | None = None) -> Change:
    """Start play once identities are dealt; identities are then final (host only)."""
    actor, seen = _locked_actor(token, action_id)
    table = actor.table
    if seen:
        return _already(table, action_id)
    _require_host(actor)
    if table.status != Table.Status.DEALT:
        raise ActionError(_("Deal identities first."), status=409)
    table.status = Table.Status.PLAYING
    return _record(actor, table, kind="game_started", public={}, action_id=action_id)
