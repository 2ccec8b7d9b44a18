"""A seat moving to another phone (docs/handover.md).

The link a new phone scans is a one-time claim (`Handover.claim_token`): whoever claims it gets
a fresh seat token that no other screen has seen. A seat's own phone may move it at once. The
host (whose console sits on the shared display) may move a seat at once only while it holds no
secret; otherwise the move waits until the seat's own phone agrees, or until every screen has
announced it for `HANDOVER_DELAY_SECONDS` and nobody at the table objected.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    NotFound,
    action,
    already_applied,
    record_change,
    seat_of,
    seat_public,
)
from companion.actions.inputs import mode_of
from companion.models import Handover, Seat, Table, new_token
from companion.rules.identities import Identity

OPEN = (Handover.State.PENDING, Handover.State.READY)


def delay_seconds() -> int:
    """How long the table has to object to a move the host asked for."""
    return int(getattr(settings, "HANDOVER_DELAY_SECONDS", 60))


def has_secret(seat: Seat, table: Table) -> bool:
    """Whether the seat's page shows anything the other players may not see yet: a living
    non-lord's identity, or (for anyone) hero candidates and a pick not yet revealed."""
    if table.status in (Table.Status.LOBBY, Table.Status.FINISHED) or not seat.alive:
        return False
    if seat.identity and not mode_of(table).identity_public(
        Identity(seat.identity), alive=seat.alive, game_over=False
    ):
        return True
    return table.status == Table.Status.HEROES and not seat.hero


def _move(
    actor: Actor | None, table: Table, seat: Seat, *, by_host: bool, action_id: str | None = None
) -> Change:
    """Give the seat a token nobody has seen; the old one stops working at once."""
    old = seat.token
    seat.token = new_token()
    seat.device = ""
    seat.save(update_fields=["token", "device"])
    change = Change(table_id=table.pk, version=table.version, revoked=[(seat.pk, old)])
    public = {**seat_public(seat), **({"by_host": True} if by_host else {})}
    return record_change(
        actor,
        table,
        kind="seat_handed_over",
        public=public,
        subject=seat,
        action_id=action_id,
        change=change,
    )


def _announce(actor: Actor | None, table: Table, seat: Seat, action_id: str | None) -> Change:
    return record_change(
        actor,
        table,
        kind="seat_handover_requested",
        public={**seat_public(seat), "seconds": delay_seconds()},
        subject=seat,
        action_id=action_id,
    )


def request(actor: Actor, table: Table, seat: Seat, action_id: str | None) -> tuple[Change, str]:
    """A new claim link for the seat (its own phone's, or the host's request): the change and
    the claim token. Called by `seat_handover` inside its transaction, rights checked."""
    own = actor.seat is not None and actor.seat.pk == seat.pk
    at_once = own or not has_secret(seat, table)
    # One open move per seat: a new request replaces any earlier link.
    Handover.objects.filter(seat=seat, state__in=OPEN).update(state=Handover.State.CANCELLED)
    now = timezone.now()
    handover = Handover(
        table=table,
        seat=seat,
        consented=own,
        requested_by=actor.label,
        action_id=action_id or "",
        state=Handover.State.READY if at_once else Handover.State.PENDING,
        not_before=now if at_once else now + timedelta(seconds=delay_seconds()),
    )
    handover.save()
    if at_once:
        return _move(actor, table, seat, by_host=not own, action_id=action_id), handover.claim_token
    return _announce(actor, table, seat, action_id), handover.claim_token


def replayed(actor: Actor, table: Table, action_id: str | None) -> tuple[Change, str]:
    """A repeated handover tap: the link it made, only to whoever made it, while still open."""
    handover = Handover.objects.filter(
        table=table, action_id=action_id or "", requested_by=actor.label, state__in=OPEN
    ).first()
    if handover is None:
        raise ActionError(_("That link was used or replaced. Ask for a new one."), status=409)
    return already_applied(table, action_id), handover.claim_token


@action
def handover_confirm(actor: Actor, *, action_id: str | None = None) -> Change:
    """The seat's own phone agrees to the move the host asked for: it happens now."""
    table = actor.table
    if actor.seat is None:
        raise ActionError(_("Only the seat's own phone can agree to this."), status=403)
    handover = Handover.objects.filter(seat=actor.seat, state=Handover.State.PENDING).first()
    if handover is None:
        raise ActionError(_("Nothing is waiting for your agreement."), status=409)
    handover.state = Handover.State.READY
    handover.consented = True
    handover.save(update_fields=["state", "consented"])
    return _move(actor, table, actor.seat, by_host=True, action_id=action_id)


@action
def handover_cancel(actor: Actor, *, seat_id: object, action_id: str | None = None) -> Change:
    """Anyone at the table (or the host) stops a move that is waiting: the seat stays put."""
    table = actor.table
    seat = seat_of(table, seat_id, known=actor.seat)
    waiting = Handover.objects.filter(seat=seat, state=Handover.State.PENDING)
    # Once the countdown is over nobody objected in time: the move is decided (the seat's own
    # phone may still agree, which changes nothing).
    updated = waiting.filter(not_before__gt=timezone.now()).update(state=Handover.State.CANCELLED)
    if not updated and waiting.exists():
        raise ActionError(
            _("Too late to object: the time is up, and the seat moves to the new phone."),
            status=409,
        )
    if not updated:
        return already_applied(table, action_id)
    public = {**seat_public(seat), "by_name": actor.seat.name if actor.seat else ""}
    return record_change(
        actor,
        table,
        kind="seat_handover_cancelled",
        public=public,
        subject=seat,
        action_id=action_id,
    )


def handover_claim(claim_token: str) -> tuple[Handover, str]:
    """The new phone asks for its seat. Returns the handover and, when this very call hands the
    seat over (the link is then spent), the seat's token; otherwise an empty string.

    A waiting move completes here once its delay has passed (or the seat no longer holds a
    secret). A link made at once while the seat held no secret, claimed only after the seat
    came to hold one (a deal in between), is announced and waits like a host's request.
    """
    if not claim_token or len(claim_token) > 64:
        raise NotFound()
    with transaction.atomic():
        table_id = (
            Handover.objects.filter(claim_token=claim_token)
            .values_list("table_id", flat=True)
            .first()
        )
        if table_id is None:
            raise NotFound()
        table = Table.objects.select_for_update().get(pk=table_id)
        handover = Handover.objects.select_related("seat").get(claim_token=claim_token)
        handover.table = table
        seat = handover.seat
        seat.table = table
        now = timezone.now()
        if (
            handover.state == Handover.State.READY
            and not handover.consented
            and has_secret(seat, table)
        ):
            handover.state = Handover.State.PENDING
            handover.not_before = now + timedelta(seconds=delay_seconds())
            handover.save(update_fields=["state", "not_before"])
            _announce(None, table, seat, None)
        elif handover.state == Handover.State.PENDING and (
            handover.not_before <= now or not has_secret(seat, table)
        ):
            handover.state = Handover.State.READY
            handover.consented = True
            handover.save(update_fields=["state", "consented"])
            _move(None, table, seat, by_host=True)
        if handover.state != Handover.State.READY:
            return handover, ""
        handover.state = Handover.State.CLAIMED
        handover.save(update_fields=["state"])
        return handover, seat.token
