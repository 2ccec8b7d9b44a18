"""Judgements: the flipped card, 鬼才's replacement, the verdict, and 闪电 striking or moving."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    action,
    record_change,
    seat_of,
    seat_public,
)
from companion.actions.hp import hp_hooks
from companion.actions.inputs import ordered_seats
from companion.actions.play import living_seat, require_playing
from companion.models import Seat, Table
from companion.rules.cards import expansions_on, parse_rank, parse_suit
from companion.rules.judgement import (
    JUDGED_DELAYED_TRICKS,
    Check,
    deck_checks,
    judge,
    rank_decides,
    replacer_may_act,
)
from companion.rules.turns import LIGHTNING, judgement_order, lightning_destination

SIMA_YI = "WEI002"  # 鬼才: may replace a judgement card before it takes effect
GUO_JIA = "WEI006"  # 天妒: takes his own judgement card after it takes effect
LIGHTNING_DAMAGE = 3


def _card(check: Check, suit: Any, rank: Any) -> tuple[str, int | None]:
    """The card as told: its suit, and its rank unless none was given and the rank does not
    decide this check (then None: the rank is not asked, docs/rules.md §5)."""
    try:
        if rank in (None, "") and not rank_decides(check):
            return parse_suit(str(suit or "")).value, None
        return parse_suit(str(suit or "")).value, parse_rank(rank if rank is not None else "")
    except (ValueError, TypeError):
        raise ActionError(
            _("Enter the card's suit and a rank from A to K."), code="bad_card"
        ) from None


def require_in_zone(zone: list[str], name: str) -> None:
    """Refuse a card that is not in this judgement zone."""
    if name not in zone:
        raise ActionError(_("That card is not in that judgement zone."), 409, "not_in_zone")


def require_judged_first(zone: list[str], name: str) -> None:
    """Refuse a delayed trick of the zone that is not the next judged (the last placed is)."""
    expected = judgement_order(zone)[0]
    if name != expected:
        raise ActionError(
            _("Judge %(name)s first: the last placed is judged first.") % {"name": expected},
            409,
            "order",
        )


def _guicai_seat(seats: list[Seat]) -> Seat | None:
    return next((s for s in seats if replacer_may_act(s.hero, s.alive)), None)


def _replacer_acting(table: Table, pending: dict[str, Any]) -> Seat | None:
    """The seat whose replacing skill (鬼才) may still act on the waiting judgement, if any."""
    owner = pending.get("guicai")
    if not owner:
        return None
    seat = Seat.objects.filter(table=table, pk=owner).first()
    return seat if seat is not None and replacer_may_act(seat.hero, seat.alive) else None


@action
def judgement_flip(
    actor: Actor,
    *,
    check: str,
    suit: Any,
    rank: Any,
    seat_id: Any = None,
    trick: str = "",
    action_id: str | None = None,
) -> Change:
    """Enter the flipped card of a judgement. With a living 司马懿 the result waits for 鬼才."""
    table = actor.table
    require_playing(table)
    if table.pending_judgement:
        raise ActionError(_("Finish the judgement on the table first."), 409, "pending")
    try:
        kind = Check(check)
    except ValueError:
        raise ActionError(_("Choose what is being judged."), code="bad_check") from None
    if kind not in deck_checks(**expansions_on(table.opts.flag)):
        raise ActionError(_("That is not a delayed trick of this deck."), code="no_trick")
    suit_value, rank_value = _card(kind, suit, rank)
    if seat_id in (None, "") and actor.seat is not None:
        seat = actor.seat
    else:
        seat = living_seat(table, seat_id)
    if not seat.alive:
        raise ActionError(_("That player is dead."), status=409, code="dead")
    if trick:
        require_in_zone(seat.judgement_zone, trick)
        if JUDGED_DELAYED_TRICKS.get(trick) != kind:
            raise ActionError(_("That card is judged differently."), code="bad_check")
        require_judged_first(seat.judgement_zone, trick)
    seats = ordered_seats(table)
    guicai = _guicai_seat(seats)
    pending: dict[str, Any] = {
        "seat": seat.pk,
        "check": kind.value,
        "suit": suit_value,
        "rank": rank_value,
        "trick": trick,
        "by": actor.label,
        "replaced": [],
        "guicai": guicai.pk if guicai else None,
    }
    if guicai is None:
        return _resolve(actor, table, seats, pending, action_id)
    table.pending_judgement = pending
    verdict = judge(kind, parse_suit(suit_value), rank_value)
    return record_change(
        actor,
        table,
        kind="judgement_pending",
        public={**seat_public(seat), **_judgement_public(pending), "outcome": verdict.outcome},
        after={"pending": pending},
        subject=seat,
        action_id=action_id,
    )


def _judgement_public(pending: dict[str, Any]) -> dict[str, Any]:
    return {
        "check": pending["check"],
        "suit": pending["suit"],
        "rank": pending["rank"],
        "trick": pending.get("trick", ""),
    }


@action
def judgement_replace(
    actor: Actor, *, suit: Any, rank: Any, action_id: str | None = None
) -> Change:
    """鬼才: 司马懿 replaces the judgement card with a hand card before it takes effect."""
    table = actor.table
    pending = dict(table.pending_judgement)
    if not pending:
        raise ActionError(_("There is no judgement waiting."), 409, "no_pending")
    guicai = pending.get("guicai")
    if not actor.is_host and not (actor.seat is not None and actor.seat.pk == guicai):
        raise ActionError(_("Only Sima Yi can replace a judgement card."), status=403)
    suit_value, rank_value = _card(Check(pending["check"]), suit, rank)
    pending["replaced"] = [*pending.get("replaced", []), [pending["suit"], pending["rank"]]]
    pending["suit"], pending["rank"] = suit_value, rank_value
    table.pending_judgement = pending
    seat = seat_of(table, pending["seat"])
    verdict = judge(Check(pending["check"]), parse_suit(suit_value), rank_value)
    return record_change(
        actor,
        table,
        kind="judgement_replaced",
        public={**seat_public(seat), **_judgement_public(pending), "outcome": verdict.outcome},
        before={"card": pending["replaced"][-1]},
        after={"pending": pending},
        subject=seat,
        action_id=action_id,
    )


@action
def judgement_confirm(actor: Actor, *, action_id: str | None = None) -> Change:
    """Let the waiting judgement take effect: 鬼才's owner passes (or, once 鬼才 can no longer
    act, the judged player or the host)."""
    table = actor.table
    pending = dict(table.pending_judgement)
    if not pending:
        raise ActionError(_("There is no judgement waiting."), 409, "no_pending")
    replacer = _replacer_acting(table, pending)
    if replacer is not None:
        # Nobody takes 鬼才 away; the result waits for its owner to pass.
        if actor.seat is None or actor.seat.pk != replacer.pk:
            raise ActionError(
                _("Waiting for %(name)s: only they can let it take effect (Demonic Talent 鬼才).")
                % {"name": replacer.name},
                409,
                "replacer_deciding",
            )
    elif not (actor.is_host or (actor.seat is not None and actor.seat.pk == pending["seat"])):
        raise ActionError(_("Only the judged player, Sima Yi or the host can confirm."), 403)
    return _resolve(actor, table, ordered_seats(table), pending, action_id)


def _resolve(
    actor: Actor, table: Table, seats: list[Seat], pending: dict[str, Any], action_id: str | None
) -> Change:
    """The judgement takes effect: the verdict, and for delayed tricks what happens to them."""
    seat = next(s for s in seats if s.pk == pending["seat"])
    kind = Check(pending["check"])
    verdict = judge(kind, parse_suit(pending["suit"]), pending["rank"])
    trick = pending.get("trick", "")
    effect: dict[str, Any] = {}
    private = set()
    if trick:
        zone = list(seat.judgement_zone)
        zone.remove(trick)
        seat.judgement_zone = zone
        if trick == LIGHTNING and verdict.outcome != "struck":
            effect.update(pass_lightning(seats, seats.index(seat), zone, LIGHTNING))
        if trick == LIGHTNING and verdict.outcome == "struck":
            # The games on at the table see it land (a game may prevent part of it before it
            # lands, or keep some HP).
            ctx = hp_hooks(
                table, seat, None, "lightning", -LIGHTNING_DAMAGE, seat.hp - LIGHTNING_DAMAGE
            )
            landed = -ctx.change
            seat.hp = ctx.hp
            effect.update(ctx.public)
            private |= ctx.private_seats
            if seat.hp <= 0 and not seat.dying:
                seat.dying = True
                seat.damage_source = None
            effect["damage"] = landed
            effect["hp"] = seat.hp
            effect["dying"] = seat.dying
            private.add(seat.pk)
        skipped = {"skip_play_phase": "play", "skip_draw_phase": "draw"}.get(verdict.next_step)
        if skipped and table.turn_seat_id == seat.pk and skipped not in table.phase_skips:
            table.phase_skips = [*table.phase_skips, skipped]
            effect["skips"] = skipped
        seat.save(update_fields=["judgement_zone", "hp", "dying", "damage_source"])
    table.pending_judgement = {}
    public = {
        **seat_public(seat),
        **_judgement_public(pending),
        "outcome": verdict.outcome,
        "next_step": verdict.next_step,
        "favourable": verdict.favourable,
        "replaced": bool(pending.get("replaced")),
        "tiandu": seat.hero == GUO_JIA,
        **effect,
    }
    return record_change(
        actor,
        table,
        kind="judgement",
        public=public,
        before={"zone_before": trick},
        after={"judgement": pending, "verdict": verdict.outcome},
        subject=seat,
        action_id=action_id,
        change=Change(table.pk, table.version, private_seats=private),
    )


def pass_lightning(seats: list[Seat], index: int, rest: list[str], name: str) -> dict[str, Any]:
    """A 闪电 that did not strike moves on to the next living player who can take it (saved),
    or stays with seats[index] (whose zone becomes `rest` plus it, saved by the caller); what
    the event says of it."""
    seat = seats[index]
    zones = [list(s.judgement_zone) for s in seats]
    zones[index] = rest
    target = lightning_destination([s.alive for s in seats], zones, index)
    if target is None:
        seat.judgement_zone = [*rest, name]
        return {"lightning_stays": True}
    receiver = seats[target]
    receiver.judgement_zone = [*receiver.judgement_zone, name]
    receiver.save(update_fields=["judgement_zone"])
    return {"moved_to": receiver.pk, "moved_to_name": receiver.name}
