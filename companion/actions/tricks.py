"""Delayed tricks: placed in a judgement zone, taken out, or cancelled by 无懈可击."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.actions.core import ActionError, Actor, Change, action, record_change, seat_public
from companion.actions.inputs import ordered_seats, refuse_card
from companion.actions.judgement import pass_lightning, require_in_zone, require_judged_first
from companion.actions.play import delta_change, living_seat, require_playing
from companion.models import Seat, Table
from companion.queries.seats import seat_view
from companion.rules.cards import expansions_on
from companion.rules.distance import in_trick_reach
from companion.rules.tricks import (
    Fate,
    TargetProblem,
    deck_delayed_tricks,
    nullified_fate,
    target_problem,
)
from companion.rules.turns import Phase, can_place_delayed_trick


@action
def trick_place(actor: Actor, *, seat_id: Any, name: str, action_id: str | None = None) -> Change:
    """Put a delayed trick into a seat's judgement zone (whoever played it records it)."""
    table = _players_table(actor)
    if actor.seat is not None and not actor.seat.alive and not actor.is_host:
        raise ActionError(_("A dead player cannot play cards."), 409, "dead_source")
    seat = living_seat(table, seat_id)
    if name not in deck_delayed_tricks(**expansions_on(table.opts.flag)):
        raise ActionError(_("That is not a delayed trick of this deck."), code="no_trick")
    refuse_card(table, name)  # a mode may play without a card (Mode.card_refused)
    if not actor.is_host:
        # The current player plays it in their play phase, on a target the card allows; the host
        # may put one anywhere (a correction).
        _trick_user(actor, table)
        _trick_target(table, actor, seat, name)
    zone = list(seat.judgement_zone)
    if not can_place_delayed_trick(zone, name):
        raise ActionError(
            _("%(name)s is already in that judgement zone.") % {"name": name}, 409, "duplicate"
        )
    return _zone_changed(actor, seat, "trick_placed", name, [*zone, name], action_id)


@action
def trick_remove(actor: Actor, *, seat_id: Any, name: str, action_id: str | None = None) -> Change:
    """Take a delayed trick out of a zone (过河拆桥, 顺手牵羊, or a mistake)."""
    table = _players_table(actor)
    if not actor.is_host:
        # 过河拆桥 and 顺手牵羊 are the current player's, in their play phase; the host corrects.
        _trick_user(actor, table)
    seat = living_seat(table, seat_id)
    zone = list(seat.judgement_zone)
    require_in_zone(zone, name)
    rest = [card for card in zone if card != name]
    return _zone_changed(actor, seat, "trick_removed", name, rest, action_id)


def _zone_changed(
    actor: Actor, seat: Seat, kind: str, name: str, zone: list[str], action_id: str | None
) -> Change:
    """Write `seat`'s new judgement zone `zone` (card `name` placed or taken out) and record it,
    sent as a delta of that seat."""
    before = list(seat.judgement_zone)
    seat.judgement_zone = zone
    seat.save(update_fields=["judgement_zone"])
    return record_change(
        actor,
        actor.table,
        kind=kind,
        public={
            **seat_public(seat),
            "card": name,
            "by_name": actor.seat.name if actor.seat else "",
        },
        before={"zone": before},
        after={"zone": seat.judgement_zone},
        subject=seat,
        action_id=action_id,
        change=delta_change(actor.table, [seat]),
    )


def _players_table(actor: Actor) -> Table:
    """The actor's table, in play, tapped from a seat or the host's console."""
    table = actor.table
    require_playing(table)
    if actor.seat is None and not actor.is_host:
        raise ActionError(_("Only a player can do that."), status=403)
    return table


def _trick_user(actor: Actor, table: Table) -> None:
    """Delayed tricks, 过河拆桥 and 顺手牵羊 are played by the current player in the play phase."""
    if actor.seat is None or actor.seat.pk != table.turn_seat_id:
        raise ActionError(
            _("Only the current player plays cards now."), status=403, code="not_your_turn"
        )
    if table.phase != Phase.PLAY.value:
        raise ActionError(
            _("Tricks are played in the play phase."), status=409, code="not_play_phase"
        )


def _trick_target(table: Table, actor: Actor, seat: Seat, name: str) -> None:
    """Refuse a target the card's text does not allow (rules.tricks)."""

    assert actor.seat is not None
    seats = ordered_seats(table)
    index = {s.pk: i for i, s in enumerate(seats)}
    own = actor.seat.pk == seat.pk
    reach = own or in_trick_reach(
        [seat_view(s) for s in seats], index[actor.seat.pk], index[seat.pk]
    )
    problem = target_problem(name, own_zone=own, in_reach=reach)
    if problem is TargetProblem.OWN_ZONE:
        # 闪电 is played into one's own judgement zone; only then does it travel.
        raise ActionError(_("Lightning 闪电 goes into your own judgement zone."), 409, "own_zone")
    if problem is TargetProblem.NOT_SELF:
        raise ActionError(
            _("%(name)s is played on another player.") % {"name": name}, 409, "not_self"
        )
    if problem is TargetProblem.OUT_OF_REACH:
        raise ActionError(
            _("%(name)s only reaches a player at distance 1.") % {"name": name},
            409,
            "out_of_reach",
        )


@action
def trick_nullify(actor: Actor, *, seat_id: Any, name: str, action_id: str | None = None) -> Change:
    """无懈可击 cancels the delayed trick about to be judged: no card is flipped; a 闪电 moves on
    to the next living player's zone, any other trick is discarded (docs/rules.md §3)."""
    table = actor.table
    require_playing(table)
    if table.pending_judgement:
        raise ActionError(_("Finish the judgement on the table first."), 409, "pending")
    seat = living_seat(table, seat_id)
    if not actor.is_host and not (actor.seat is not None and actor.seat.pk == seat.pk):
        raise ActionError(
            _("Only the judged player or the host can record that."), status=403, code="not_yours"
        )
    if table.turn_seat_id != seat.pk or table.phase != Phase.JUDGEMENT.value:
        raise ActionError(
            _("Delayed tricks are judged in their holder's judgement phase."), 409, "not_judging"
        )
    zone = list(seat.judgement_zone)
    require_in_zone(zone, name)
    require_judged_first(zone, name)
    seats = ordered_seats(table)
    before = {str(s.pk): list(s.judgement_zone) for s in seats if s.judgement_zone}
    index = next(i for i, s in enumerate(seats) if s.pk == seat.pk)
    seat = seats[index]
    rest = [card for card in zone if card != name]
    seat.judgement_zone = rest
    public: dict[str, Any] = {
        **seat_public(seat),
        "card": name,
        "by_name": actor.seat.name if actor.seat else "",
        "fate": nullified_fate(name).value,
    }
    if nullified_fate(name) is Fate.MOVES_ON:
        public.update(pass_lightning(seats, seats.index(seat), rest, name))
    seat.save(update_fields=["judgement_zone"])
    after = {str(s.pk): list(s.judgement_zone) for s in seats if s.judgement_zone}
    for pk in before:
        after.setdefault(pk, [])
    return record_change(
        actor,
        table,
        kind="trick_nullified",
        public=public,
        before={"zones": before},
        after={"zones": after},
        subject=seat,
        action_id=action_id,
    )
