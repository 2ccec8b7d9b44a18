"""Table helpers: equipment, delayed tricks, judgements, turns and phases, the turn timer."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    _already,
    _record,
    _require_host,
    _seat_of,
    _seat_public,
    action,
    may_act_on,
)
from companion.actions.inputs import mode_of, seat_view, statuses
from companion.models import Seat, Table
from companion.rules.cards import EquipmentSlot, equipment_by_name, parse_rank, parse_suit
from companion.rules.distance import in_trick_reach
from companion.rules.flow import DYING, TurnBlocked, advance_blocker, end_turn_route
from companion.rules.judgement import JUDGED_DELAYED_TRICKS, Check, judge
from companion.rules.tricks import Fate, TargetProblem, nullified_fate, target_problem
from companion.rules.turns import (
    LIGHTNING,
    PHASE_ORDER,
    Phase,
    can_place_delayed_trick,
    judgement_order,
    lightning_destination,
    next_phase,
)

SLOTS = {
    EquipmentSlot.WEAPON: "weapon",
    EquipmentSlot.ARMOR: "armor",
    EquipmentSlot.PLUS_HORSE: "plus_horse",
    EquipmentSlot.MINUS_HORSE: "minus_horse",
}
SLOT_NAMES = tuple(SLOTS.values())
DELAYED_TRICKS = ("乐不思蜀", "兵粮寸断", "闪电")
# Equipment that moves distances or attack ranges (the distance table comes with its change).
RANGE_SLOTS = frozenset({"weapon", "plus_horse", "minus_horse"})
SIMA_YI = "WEI002"  # 鬼才: may replace a judgement card before it takes effect
GUO_JIA = "WEI006"  # 天妒: takes his own judgement card after it takes effect
TIMER_CHOICES = (0, 30, 60, 90, 120, 180)
LIGHTNING_DAMAGE = 3


def _ordered(table: Table) -> list[Seat]:
    return list(table.seats.order_by("position", "slot"))


def _all(seats: list[Seat]) -> set[int]:
    return {s.pk for s in seats}


def _in_play(table: Table) -> None:
    if table.status != Table.Status.PLAYING:
        raise ActionError(
            _("That is only possible while a game is being played."), 409, "not_playing"
        )


def _living(table: Table, seat_id: Any) -> Seat:
    seat = _seat_of(table, seat_id)
    if not seat.alive:
        raise ActionError(_("That player is dead."), status=409, code="dead")
    return seat


def _may_act_on(actor: Actor, table: Table, seat: Seat) -> None:
    """Own seat, the host, or anyone in referee mode."""
    if not may_act_on(actor, seat.pk):
        raise ActionError(_("You can only change your own seat."), status=403, code="not_yours")


def begin_turns(table: Table, seats: list[Seat]) -> None:
    """The first turn: the start phase in round 1 of the seat the mode names (the identity
    game: the lord, RULES.md §3)."""
    first = seats[mode_of(table).first_turn(statuses(seats))]
    now = timezone.now()
    table.turn_seat = first
    table.round = 1
    table.phase = Phase.START.value
    table.phase_skips = []
    table.turn_started_at = now
    table.phase_started_at = now
    table.pending_judgement = {}


def _delta(table: Table, seats: list[Seat], *parts: str, host_panel: bool = False) -> Change:
    """A change sent as a delta of these seats and parts (issue 20, item 8): equipment, a
    delayed trick, the turn moving."""
    unique = list({s.pk: s for s in seats}.values())
    return Change(
        table.pk, table.version, host_panel=host_panel, delta_seats=unique, parts=frozenset(parts)
    )


# Equipment ------------------------------------------------------------------------------------


@action
def equipment_set(
    actor: Actor, *, seat_id: Any, name: str, replace: bool = False, action_id: str | None = None
) -> Change:
    """Equip a card of the real deck; another of the same kind replaces it (when confirmed)."""
    table = actor.table
    _in_play(table)
    seat = _living(table, seat_id)
    _may_act_on(actor, table, seat)
    try:
        card = equipment_by_name(name or "", maneuvering=table.opts.maneuvering)
    except KeyError:
        raise ActionError(_("No such equipment in this deck."), code="no_card") from None
    slot = SLOTS[card.slot]
    current = dict(seat.equipment)
    if current.get(slot) == card.name_zh:
        return _already(table, action_id)
    if current.get(slot) and not replace:
        raise ActionError(
            _("%(old)s is equipped there already: replace it?") % {"old": current[slot]},
            status=409,
            code="slot_taken",
        )
    before = dict(current)
    current[slot] = card.name_zh
    seat.equipment = current
    seat.save(update_fields=["equipment"])
    return _record(
        actor,
        table,
        kind="equipped",
        public={
            **_seat_public(seat),
            "card": card.name_zh,
            "slot": slot,
            "replaced": before.get(slot, ""),
        },
        before={"equipment": before},
        after={"equipment": current},
        subject=seat,
        action_id=action_id,
        change=_delta(table, [seat], *(["distances"] if slot in RANGE_SLOTS else [])),
    )


@action
def equipment_remove(
    actor: Actor, *, seat_id: Any, slot: str, action_id: str | None = None
) -> Change:
    """Take a card out of a seat's equipment zone."""
    table = actor.table
    _in_play(table)
    seat = _living(table, seat_id)
    _may_act_on(actor, table, seat)
    if slot not in SLOT_NAMES:
        raise ActionError(_("No such equipment slot."), code="no_slot")
    current = dict(seat.equipment)
    if not current.get(slot):
        raise ActionError(_("Nothing is equipped there."), status=409, code="empty_slot")
    before = dict(current)
    card = current.pop(slot)
    seat.equipment = current
    seat.save(update_fields=["equipment"])
    return _record(
        actor,
        table,
        kind="unequipped",
        public={**_seat_public(seat), "card": card, "slot": slot},
        before={"equipment": before},
        after={"equipment": current},
        subject=seat,
        action_id=action_id,
        change=_delta(table, [seat], *(["distances"] if slot in RANGE_SLOTS else [])),
    )


# Delayed tricks -------------------------------------------------------------------------------


@action
def trick_place(actor: Actor, *, seat_id: Any, name: str, action_id: str | None = None) -> Change:
    """Put a delayed trick into a seat's judgement zone (whoever played it records it)."""
    table = actor.table
    _in_play(table)
    if actor.seat is None and not actor.is_host:
        raise ActionError(_("Only a player can do that."), status=403)
    if actor.seat is not None and not actor.seat.alive and not actor.is_host:
        raise ActionError(_("A dead player cannot play cards."), 409, "dead_source")
    seat = _living(table, seat_id)
    if name not in DELAYED_TRICKS or (name == "兵粮寸断" and not table.opts.maneuvering):
        raise ActionError(_("That is not a delayed trick of this deck."), code="no_trick")
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
    seat.judgement_zone = [*zone, name]
    seat.save(update_fields=["judgement_zone"])
    return _record(
        actor,
        table,
        kind="trick_placed",
        public={
            **_seat_public(seat),
            "card": name,
            "by_name": actor.seat.name if actor.seat else "",
        },
        before={"zone": zone},
        after={"zone": seat.judgement_zone},
        subject=seat,
        action_id=action_id,
        change=_delta(table, [seat]),
    )


@action
def trick_remove(actor: Actor, *, seat_id: Any, name: str, action_id: str | None = None) -> Change:
    """Take a delayed trick out of a zone (过河拆桥, 顺手牵羊, or a mistake)."""
    table = actor.table
    _in_play(table)
    if actor.seat is None and not actor.is_host:
        raise ActionError(_("Only a player can do that."), status=403)
    if not actor.is_host:
        # 过河拆桥 and 顺手牵羊 are the current player's, in their play phase; the host corrects.
        _trick_user(actor, table)
    seat = _living(table, seat_id)
    zone = list(seat.judgement_zone)
    if name not in zone:
        raise ActionError(_("That card is not in that judgement zone."), 409, "not_in_zone")
    seat.judgement_zone = [card for card in zone if card != name]
    seat.save(update_fields=["judgement_zone"])
    return _record(
        actor,
        table,
        kind="trick_removed",
        public={
            **_seat_public(seat),
            "card": name,
            "by_name": actor.seat.name if actor.seat else "",
        },
        before={"zone": zone},
        after={"zone": seat.judgement_zone},
        subject=seat,
        action_id=action_id,
        change=_delta(table, [seat]),
    )


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
    seats = _ordered(table)
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
    to the next living player's zone, any other trick is discarded (RULES §3)."""
    table = actor.table
    _in_play(table)
    if table.pending_judgement:
        raise ActionError(_("Finish the judgement on the table first."), 409, "pending")
    seat = _living(table, seat_id)
    if not actor.is_host and not (actor.seat is not None and actor.seat.pk == seat.pk):
        raise ActionError(
            _("Only the judged player or the host can record that."), status=403, code="not_yours"
        )
    if table.turn_seat_id != seat.pk or table.phase != Phase.JUDGEMENT.value:
        raise ActionError(
            _("Delayed tricks are judged in their holder's judgement phase."), 409, "not_judging"
        )
    zone = list(seat.judgement_zone)
    if name not in zone:
        raise ActionError(_("That card is not in that judgement zone."), 409, "not_in_zone")
    expected = judgement_order(zone)[0]
    if name != expected:
        raise ActionError(
            _("Judge %(name)s first: the last placed is judged first.") % {"name": expected},
            409,
            "order",
        )
    seats = _ordered(table)
    before = {str(s.pk): list(s.judgement_zone) for s in seats if s.judgement_zone}
    index = next(i for i, s in enumerate(seats) if s.pk == seat.pk)
    seat = seats[index]
    rest = [card for card in zone if card != name]
    seat.judgement_zone = rest
    public: dict[str, Any] = {
        **_seat_public(seat),
        "card": name,
        "by_name": actor.seat.name if actor.seat else "",
        "fate": nullified_fate(name).value,
    }
    if nullified_fate(name) is Fate.MOVES_ON:
        public.update(_pass_lightning(seats, seats.index(seat), rest, name))
    seat.save(update_fields=["judgement_zone"])
    after = {str(s.pk): list(s.judgement_zone) for s in seats if s.judgement_zone}
    for pk in before:
        after.setdefault(pk, [])
    return _record(
        actor,
        table,
        kind="trick_nullified",
        public=public,
        before={"zones": before},
        after={"zones": after},
        subject=seat,
        action_id=action_id,
    )


# Judgement -----------------------------------------------------------------------------------


def _card(suit: Any, rank: Any) -> tuple[str, int]:
    try:
        return parse_suit(str(suit or "")).value, parse_rank(rank if rank is not None else "")
    except (ValueError, TypeError):
        raise ActionError(
            _("Enter the card's suit and a rank from A to K."), code="bad_card"
        ) from None


def _guicai_seat(seats: list[Seat]) -> Seat | None:
    return next((s for s in seats if s.alive and s.hero == SIMA_YI), None)


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
    _in_play(table)
    if table.pending_judgement:
        raise ActionError(_("Finish the judgement on the table first."), 409, "pending")
    try:
        kind = Check(check)
    except ValueError:
        raise ActionError(_("Choose what is being judged."), code="bad_check") from None
    if kind is Check.SUPPLY_SHORTAGE and not table.opts.maneuvering:
        raise ActionError(_("That is not a delayed trick of this deck."), code="no_trick")
    suit_value, rank_value = _card(suit, rank)
    if seat_id in (None, "") and actor.seat is not None:
        seat = actor.seat
    else:
        seat = _living(table, seat_id)
    if not seat.alive:
        raise ActionError(_("That player is dead."), status=409, code="dead")
    if trick:
        if trick not in seat.judgement_zone:
            raise ActionError(_("That card is not in that judgement zone."), 409, "not_in_zone")
        if JUDGED_DELAYED_TRICKS.get(trick) != kind:
            raise ActionError(_("That card is judged differently."), code="bad_check")
        expected = judgement_order(seat.judgement_zone)[0]
        if trick != expected:
            raise ActionError(
                _("Judge %(name)s first: the last placed is judged first.") % {"name": expected},
                409,
                "order",
            )
    seats = _ordered(table)
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
    return _record(
        actor,
        table,
        kind="judgement_pending",
        public={**_seat_public(seat), **_judgement_public(pending), "outcome": verdict.outcome},
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
    suit_value, rank_value = _card(suit, rank)
    pending["replaced"] = [*pending.get("replaced", []), [pending["suit"], pending["rank"]]]
    pending["suit"], pending["rank"] = suit_value, rank_value
    table.pending_judgement = pending
    seat = _seat_of(table, pending["seat"])
    verdict = judge(Check(pending["check"]), parse_suit(suit_value), rank_value)
    return _record(
        actor,
        table,
        kind="judgement_replaced",
        public={**_seat_public(seat), **_judgement_public(pending), "outcome": verdict.outcome},
        before={"card": pending["replaced"][-1]},
        after={"pending": pending},
        subject=seat,
        action_id=action_id,
    )


@action
def judgement_confirm(actor: Actor, *, action_id: str | None = None) -> Change:
    """Let the waiting judgement take effect (鬼才 was not used, or was used already)."""
    table = actor.table
    pending = dict(table.pending_judgement)
    if not pending:
        raise ActionError(_("There is no judgement waiting."), 409, "no_pending")
    allowed = actor.is_host or (
        actor.seat is not None and actor.seat.pk in (pending["seat"], pending.get("guicai"))
    )
    if not allowed:
        raise ActionError(_("Only the judged player, Sima Yi or the host can confirm."), 403)
    return _resolve(actor, table, _ordered(table), pending, action_id)


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
            effect.update(_pass_lightning(seats, seats.index(seat), zone, LIGHTNING))
        if trick == LIGHTNING and verdict.outcome == "struck":
            seat.hp -= LIGHTNING_DAMAGE
            if seat.hp <= 0 and not seat.dying:
                seat.dying = True
                seat.damage_source = None
            effect["damage"] = LIGHTNING_DAMAGE
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
        **_seat_public(seat),
        **_judgement_public(pending),
        "outcome": verdict.outcome,
        "next_step": verdict.next_step,
        "favourable": verdict.favourable,
        "replaced": bool(pending.get("replaced")),
        "tiandu": seat.hero == GUO_JIA,
        **effect,
    }
    return _record(
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


def _pass_lightning(seats: list[Seat], index: int, rest: list[str], name: str) -> dict[str, Any]:
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


# Turns and phases ------------------------------------------------------------------------------


def _turn_to_move(actor: Actor) -> Seat:
    """The seat whose turn the actor moves on (its own, or any as host), once nothing holds the
    turn up: the game is in play, nobody is dying and no judgement waits."""
    table = actor.table
    _in_play(table)
    current = table.turn_seat
    if current is None:
        raise ActionError(_("Nobody has the turn."), 409, "no_turn")
    if not actor.is_host and not (actor.seat is not None and actor.seat.pk == current.pk):
        raise ActionError(_("It is not your turn."), status=403, code="not_your_turn")
    _refuse_while_dying(table)
    if table.pending_judgement:
        raise ActionError(_("Finish the judgement on the table first."), 409, "pending")
    return current


@action
def turn_advance(actor: Actor, *, action_id: str | None = None) -> Change:
    """The current player moves on to the next phase (skipped phases are passed over)."""
    table = actor.table
    current = _turn_to_move(actor)
    phase = Phase(table.phase)
    if phase is Phase.JUDGEMENT and current.alive and current.judgement_zone:
        raise ActionError(
            _("Judge the delayed tricks first (last placed first)."), 409, "tricks_left"
        )
    before = {"seat": current.pk, "phase": phase.value, "round": table.round, **_turn_extra(table)}
    skipped: list[str] = []
    seats = _ordered(table)
    nxt = next_phase(phase) if current.alive else None
    while nxt is not None and nxt.value in table.phase_skips:
        skipped.append(nxt.value)
        nxt = next_phase(nxt)
    now = timezone.now()
    if nxt is None:
        _pass_turn(table, seats, current, now)
        kind = "turn"
    else:
        table.phase = nxt.value
        kind = "phase"
    table.phase_started_at = now
    holder = table.turn_seat
    assert holder is not None  # a game in play always has a turn
    return _record(
        actor,
        table,
        kind=kind,
        public={
            **_seat_public(holder),
            "phase": table.phase,
            "round": table.round,
            "skipped": skipped,
        },
        before=before,
        after={"seat": holder.pk, "phase": table.phase, "round": table.round},
        subject=holder,
        action_id=action_id,
        change=_delta(table, [current, holder], "strip", "turn", host_panel=True),
    )


def _refuse_while_dying(table: Table) -> None:
    """Nothing moves on while a player is dying: a 桃 or the death comes first (RULES §6)."""
    dying = table.seats.filter(alive=True, dying=True).values_list("name", flat=True).first()
    if advance_blocker(someone_dying=dying is not None, judgement_pending=False) == DYING:
        raise ActionError(
            _("%(name)s is dying: give a Peach or record the death first.") % {"name": dying},
            409,
            "dying",
        )


def _turn_extra(table: Table) -> dict[str, Any]:
    """What an undo of a phase or turn change needs beyond seat, phase and round."""
    started = table.turn_started_at
    return {
        "skips": list(table.phase_skips),
        "turn_started_at": started.isoformat() if started else "",
    }


def _turn_now(table: Table) -> dict[str, Any]:
    return {"seat": table.turn_seat_id, "phase": table.phase, "round": table.round}


def _pass_turn(table: Table, seats: list[Seat], current: Seat, now: datetime) -> Seat:
    """The turn passes from `current` to the next living seat's start phase; a round begins
    when it comes back to the lord (rules.flow.pass_turn, RULES §3). Returns the new holder."""
    index = next(i for i, s in enumerate(seats) if s.pk == current.pk)
    passed = mode_of(table).next_turn(statuses(seats), index)
    holder = seats[passed.seat]
    table.round += 1 if passed.new_round else 0
    table.turn_seat = holder
    table.phase = Phase.START.value
    table.phase_skips = []
    table.turn_started_at = now
    return holder


@action
def turn_end(actor: Actor, *, action_id: str | None = None) -> Change:
    """One tap ends the turn: through the phases left (skipped ones and an empty judgement
    passed over) to the end, and the turn passes to the next living player's start phase."""
    table = actor.table
    current = _turn_to_move(actor)
    try:
        route = end_turn_route(
            Phase(table.phase), table.phase_skips, current.judgement_zone if current.alive else []
        )
    except TurnBlocked:
        raise ActionError(
            _("Judge the delayed tricks first (last placed first)."), 409, "tricks_left"
        ) from None
    before = {
        "seat": current.pk,
        "phase": table.phase,
        "round": table.round,
        **_turn_extra(table),
    }
    now = timezone.now()
    holder = _pass_turn(table, _ordered(table), current, now)
    table.phase_started_at = now
    return _record(
        actor,
        table,
        kind="turn_ended",
        public={
            **_seat_public(holder),
            "from": current.pk,
            "from_name": current.name,
            "through": [p.value for p in route],
            "skipped": [p.value for p in PHASE_ORDER if p.value in before["skips"]],
            "phase": table.phase,
            "round": table.round,
        },
        before=before,
        after={"seat": holder.pk, "phase": table.phase, "round": table.round},
        subject=holder,
        action_id=action_id,
        change=_delta(table, [current, holder], "strip", "turn", host_panel=True),
    )


@action
def turn_set(
    actor: Actor,
    *,
    seat_id: Any,
    phase: str,
    round_number: Any = None,
    action_id: str | None = None,
) -> Change:
    """The host corrects whose turn and which phase it is."""
    table = actor.table
    _require_host(actor)
    _in_play(table)
    seat = _living(table, seat_id)
    if phase not in [p.value for p in PHASE_ORDER]:
        raise ActionError(_("No such phase."), code="bad_phase")
    before = {"seat": table.turn_seat_id, "phase": table.phase, "round": table.round}
    if seat.pk != table.turn_seat_id:
        table.phase_skips = []
        table.turn_started_at = timezone.now()
    if round_number not in (None, ""):
        try:
            value = int(round_number)
        except (TypeError, ValueError):
            raise ActionError(_("No such round.")) from None
        if not 1 <= value <= 999:
            raise ActionError(_("No such round."))
        table.round = value
    table.turn_seat = seat
    table.phase = phase
    table.phase_started_at = timezone.now()
    return _record(
        actor,
        table,
        kind="turn_set",
        public={**_seat_public(seat), "phase": phase, "round": table.round},
        before=before,
        after={"seat": seat.pk, "phase": phase, "round": table.round},
        subject=seat,
        action_id=action_id,
    )


@action
def timer_set(actor: Actor, *, seconds: Any, action_id: str | None = None) -> Change:
    """Turn the reminder timer on (seconds per turn) or off (0). Host only."""
    table = actor.table
    _require_host(actor)
    try:
        value = int(seconds)
    except (TypeError, ValueError):
        raise ActionError(_("Choose a timer length.")) from None
    if value not in TIMER_CHOICES:
        raise ActionError(_("Choose a timer length."))
    if value == table.timer_seconds:
        return _already(table, action_id)
    before = table.timer_seconds
    table.timer_seconds = value
    if value and table.turn_seat_id:
        # The countdown runs from now, not from the start of the turn under way (which may have
        # begun long ago): the timer's deadline is turn_started_at + timer_seconds.
        table.turn_started_at = timezone.now()
    return _record(
        actor,
        table,
        kind="timer",
        public={"seconds": value},
        before={"seconds": before},
        after={"seconds": value},
        action_id=action_id,
    )
