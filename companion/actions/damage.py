"""军争 at the table: a seat's chain (铁索连环), its 酒 marker, and a whole resolved
damage (companion.rules.damage) applied as one change with one event, so one undo restores it.

The damage is applied in full: every step of a chain at once. A seat it leaves dying is settled
afterwards with the usual rescue or death, in the order of the steps (`public["dying"]`): each
seat's damage does not depend on whether an earlier one was saved (docs/rules.md §9.9).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    _already,
    _record,
    _seat_of,
    _seat_public,
    action,
    may_act_on,
)
from companion.actions.inputs import _int, _ordered
from companion.actions.play import _delta, _in_play, _living
from companion.infra import fastsql
from companion.models import Event, Seat, Table
from companion.rules.damage import (
    DamageCard,
    DamageError,
    DamageRequest,
    DamageStep,
    DamageType,
    SeatState,
    apply_step,
    continue_damage,
    resolve_damage,
)
from companion.rules.damage_offers import AXE, HORSE_SLOTS, QILIN
from companion.rules.maneuvering import WineMarker, after_damage, drink
from companion.rules.turns import Phase

# 军争 cards and damage types: only with the expansion on.
_MANEUVERING_CARDS = frozenset(
    {DamageCard.FIRE_SLASH, DamageCard.THUNDER_SLASH, DamageCard.FIRE_ATTACK}
)
# The seat columns a resolved damage writes (and its undo restores).
_DAMAGE_FIELDS = ["hp", "dying", "damage_source", "chained", "wine", "equipment"]
RESOLVED = "damage_resolved"
# The rest of a chain, after a seat it left dying was saved or died (docs/rules.md §9.9).
CONTINUED = "chain_continued"
SEAT_STATE_KINDS = ("chained", "wine")


def _maneuvering(table: Table) -> None:
    if not table.opts.maneuvering:
        raise ActionError(
            _("That is a Maneuvering (军争) rule; that expansion is off."), code="no_maneuvering"
        )


def _may_act_on(actor: Actor, seat: Seat) -> None:
    if not may_act_on(actor, seat.pk):
        raise ActionError(_("You can only change your own seat."), status=403, code="not_yours")


@action
def seat_set_chained(
    actor: Actor, *, seat_id: Any, chained: Any, action_id: str | None = None
) -> Change:
    """铁索连环: chain a seat or set it free (the card's user taps it for each target)."""
    table = actor.table
    _in_play(table)
    _maneuvering(table)
    seat = _living(table, seat_id)
    # The seat itself, the host, referee mode, or the player whose turn it is (who uses the card).
    user = actor.seat is not None and actor.seat.pk == table.turn_seat_id
    if not (may_act_on(actor, seat.pk) or user):
        raise ActionError(_("You can only change your own seat."), status=403, code="not_yours")
    value = chained in (True, 1, "1", "true", "on", "yes")
    if seat.chained == value:
        return _already(table, action_id)
    seat.chained = value
    fastsql.update(seat, ["chained"])
    return _record(
        actor,
        table,
        kind="chained",
        public={**_seat_public(seat), "chained": value},
        before={"chained": not value},
        after={"chained": value},
        subject=seat,
        action_id=action_id,
        change=_delta(table, [seat], "hp", "strip"),
    )


@action
def seat_drink_wine(actor: Actor, *, seat_id: Any, action_id: str | None = None) -> Change:
    """酒 in one's own play phase: the next 杀 this turn deals +1; once a turn (001:431-433).
    A dying player's 酒 is a rescue (actions.hp.seat_rescue, kind "wine")."""
    table = actor.table
    _in_play(table)
    _maneuvering(table)
    seat = _living(table, seat_id)
    _may_act_on(actor, seat)
    if seat.dying:
        raise ActionError(
            _("A dying player drinks Wine as a rescue."), status=409, code="dying_rescue"
        )
    own_play = table.turn_seat_id == seat.pk and table.phase == Phase.PLAY.value
    result = drink(WineMarker(seat.wine), dying=False, own_play_phase=own_play)
    if result.refusal is not None:
        message = (
            _("Wine only once a turn.")
            if result.refusal.value == "once_per_turn"
            else _("Wine is drunk in one's own play phase.")
        )
        raise ActionError(message, status=409, code=result.refusal.value)
    before = seat.wine
    seat.wine = result.marker.value
    fastsql.update(seat, ["wine"])
    return _record(
        actor,
        table,
        kind="wine",
        public={**_seat_public(seat), "wine": seat.wine},
        before={"wine": before},
        after={"wine": seat.wine},
        subject=seat,
        action_id=action_id,
        change=_delta(table, [seat], "hp"),
    )


def _state(seat: Seat, *, hand_empty: bool) -> SeatState:
    """What the resolver needs of a seat row (a dead seat is never chained)."""
    equipment = seat.equipment or {}
    return SeatState(
        seat=seat.pk,
        hp=seat.hp,
        alive=seat.alive,
        hero=seat.hero,
        weapon=equipment.get("weapon", ""),
        armor=equipment.get("armor", ""),
        chained=seat.chained and seat.alive,
        hand_empty=hand_empty,
    )


def _row(seat: Seat) -> dict[str, Any]:
    return {
        "hp": seat.hp,
        "dying": seat.dying,
        "damage_source": seat.damage_source_id,
        "chained": seat.chained,
        "wine": seat.wine,
        "equipment": dict(seat.equipment or {}),
    }


def step_public(step: DamageStep, names: dict[int, str]) -> dict[str, Any]:
    return {
        "seat": step.seat,
        "name": names[step.seat],
        "amount": step.amount,
        "type": step.damage_type.value,
        "modifiers": [m.value for m in step.modifiers],
        "chain_removed": step.chain_removed,
        "hp_before": step.hp_before,
        "hp": step.hp_after,
        "dying": step.dying,
        "skills": [r.name_zh for r in step.reminders],
        "times": [r.times for r in step.reminders],
        "changes": [[c.modifier.value, c.before, c.after] for c in step.changes],
        "index": step.index,
        "chain_amount": step.chain_amount,
    }


def _flag(value: Any) -> bool:
    return value in (True, 1, "1", "true", "on", "yes")


def _work_out(
    table: Table,
    *,
    target: Any,
    card: Any,
    source: Any,
    amount: Any,
    damage_type: Any,
    weapon_skill: Any,
    black: Any,
    target_hand_empty: Any,
) -> tuple[DamageRequest, tuple[DamageStep, ...], list[Seat], Seat, Seat | None]:
    """The request and every step of a damage as the table stands (nothing written)."""
    target_seat = _living(table, target)
    source_seat = None if source in ("", None, "none") else _seat_of(table, source)
    try:
        damage_card = DamageCard(card)
        kind = DamageType(damage_type) if damage_type not in ("", None) else None
    except ValueError:
        raise ActionError(_("Unknown damage."), code="unknown_damage") from None
    if damage_card in _MANEUVERING_CARDS or (kind not in (None, DamageType.NORMAL)):
        _maneuvering(table)
    if _flag(weapon_skill) and source_seat is not None:
        if source_seat.equipment.get("weapon") == "朱雀羽扇":
            _maneuvering(table)
    seats = _ordered(table)
    request = DamageRequest(
        target=target_seat.pk,
        card=damage_card,
        source=source_seat.pk if source_seat is not None else None,
        amount=None if amount in ("", None) else _int(amount, _("Damage is a whole number.")),
        damage_type=kind,
        drank=source_seat is not None and source_seat.wine == WineMarker.ACTIVE.value,
        weapon_skill=_flag(weapon_skill),
        black=_flag(black),
        current=table.turn_seat_id if table.turn_seat_id in {s.pk for s in seats} else None,
    )
    states = [
        _state(s, hand_empty=s.pk == target_seat.pk and _flag(target_hand_empty)) for s in seats
    ]
    try:
        steps = resolve_damage(request, states)
    except DamageError as error:
        raise ActionError(
            _("That damage cannot happen: %(reason)s") % {"reason": str(error)},
            status=409,
            code=error.code,
        ) from None
    # The games on at the table may prevent part of a seat's step before it lands.
    steps = hooks.damage_steps(table, seats, steps)
    return request, steps, seats, target_seat, source_seat


def damage_preview(table: Table, **fields: Any) -> tuple[DamageStep, ...]:
    """What `damage_resolve` with these fields would do, step by step; nothing is written.
    ActionError (as damage_resolve) when it cannot happen."""
    _in_play(table)
    fields.pop("qilin", None)
    fields.pop("axe", None)
    return _work_out(table, **fields)[1]


def shown_key(steps: tuple[DamageStep, ...]) -> str:
    """What a preview showed, in a few characters: each seat reached, what it takes, its type
    and HP after (and 寒冰剑's discards). The dialog's apply form sends it back; a resolve that
    works out something else refuses, so what is applied is what was shown."""
    parts = [f"{s.seat}:{s.amount}:{s.damage_type.value}:{s.hp_after}" for s in steps]
    return ",".join(parts) + f"/{steps[0].discards}"


def _qilin_slot(value: Any, source_seat: Seat | None, target_seat: Seat, first: DamageStep) -> str:
    """The horse slot 麒麟弓 discards from the target ("": none)."""
    if value in ("", None):
        return ""
    if (
        source_seat is None
        or source_seat.equipment.get("weapon") != QILIN
        or not first.request.card.is_slash
        or first.amount <= 0
    ):
        raise ActionError(
            _(
                "Only the holder of Qilin Bow 麒麟弓 discards a horse, after his Slash dealt "
                "damage."
            ),
            status=409,
            code="qilin_not_held",
        )
    if value not in HORSE_SLOTS or not target_seat.equipment.get(value):
        raise ActionError(_("The target has no such horse."), status=409, code="no_horse")
    return str(value)


@action
def damage_resolve(
    actor: Actor,
    *,
    target: Any,
    card: Any,
    source: Any = "",
    amount: Any = None,
    damage_type: Any = "",
    weapon_skill: Any = False,
    black: Any = False,
    target_hand_empty: Any = False,
    qilin: Any = "",
    axe: Any = False,
    shown: Any = "",
    action_id: str | None = None,
) -> Change:
    """One damage worked out by the rules (酒, weapons, armour, chain) and applied to every seat
    it reaches: HP, dying (with its source), chains removed, the source's 酒 used, the horse
    麒麟弓 discards; one event. `axe`: 贯石斧 made the 杀 hit (recorded, nothing else).
    `shown`: the dialog's preview (`shown_key`); when the table now works it out otherwise (a
    seat's armour, HP or chain changed since), nothing is applied (409 `stale_preview`)."""
    table = actor.table
    _in_play(table)
    target_seat = _living(table, target)
    source_seat = None if source in ("", None, "none") else _seat_of(table, source)
    if not (
        may_act_on(actor, target_seat.pk)
        or (source_seat is not None and may_act_on(actor, source_seat.pk))
    ):
        raise ActionError(_("You can only change your own seat."), status=403, code="not_yours")
    request, steps, seats, target_seat, source_seat = _work_out(
        table,
        target=target,
        card=card,
        source=source,
        amount=amount,
        damage_type=damage_type,
        weapon_skill=weapon_skill,
        black=black,
        target_hand_empty=target_hand_empty,
    )
    if shown not in ("", None) and str(shown) != shown_key(steps):
        raise ActionError(
            _("The damage has changed since it was shown: look at it again."),
            status=409,
            code="stale_preview",
        )
    damage_card = request.card
    by_pk = {s.pk: s for s in seats}
    horse = _qilin_slot(qilin, source_seat, target_seat, steps[0])
    axe_used = _flag(axe)
    if axe_used and (
        source_seat is None
        or source_seat.equipment.get("weapon") != AXE
        or not damage_card.is_slash
    ):
        raise ActionError(
            _("Only the holder of Stone Axe 贯石斧 forces his Slash to hit."),
            status=409,
            code="axe_not_held",
        )
    steps, paused = _until_dying(steps)
    before = {str(pk): _row(s) for pk, s in by_pk.items()}
    touched = _apply_steps(steps, by_pk)
    landed = hooks.steps_landed(table, seats, steps)
    # The games on at the table see it land (a game may keep some HP, or note the attack).
    games = _hp_hooks(table, touched, before, source_seat, target_seat)
    discarded = ""
    if horse:
        victim = by_pk[target_seat.pk]
        discarded = victim.equipment.get(horse, "")
        victim.equipment = {k: v for k, v in victim.equipment.items() if k != horse}
    if source_seat is not None:
        spender = by_pk[source_seat.pk]
        spender.wine = after_damage(WineMarker(spender.wine), steps[0]).value
        if spender.wine != before[str(spender.pk)]["wine"]:
            touched.append(spender)
    first = steps[0]
    extra = {
        "card": damage_card.value,
        "source": request.source,
        "source_name": source_seat.name if source_seat is not None else "",
        "type": first.damage_type.value,
        "wine_spent": first.wine_spent,
        "discards": first.discards,
        "qilin": discarded,
        "axe": axe_used,
        **games.public,
        **landed.public,
    }
    return _record_steps(
        actor,
        table,
        RESOLVED,
        steps,
        paused,
        seats,
        by_pk,
        before,
        touched,
        target_seat,
        extra,
        action_id,
        distances=bool(horse),
        games=games,
        whole_page=landed.whole_page,
    )


def _hp_hooks(
    table: Table,
    touched: list[Seat],
    before: dict[str, dict[str, Any]],
    source: Seat | None,
    target: Seat | None,
) -> hooks.HpChange:
    """A resolved damage, applied to `touched` (`before`: each seat's row before it), handed to
    the games on at the table seat by seat, the target last (its source is its attacker; a
    chain's other seats have none): a seat whose HP a game raised is back as it was before,
    above 0. What the games add for the event and the screens, gathered in one context."""
    gathered = hooks.HpChange(
        table=table, seat=touched[0], source=source, kind="resolver", change=0, hp=0, hp_before=0
    )
    playing = hooks.on(table)
    if not playing:
        return gathered
    seen: set[int] = set()
    ordered = [s for s in touched if target is None or s.pk != target.pk]
    ordered += [s for s in touched if target is not None and s.pk == target.pk]
    for seat in ordered:
        if seat.pk in seen:
            continue
        seen.add(seat.pk)
        row = before.get(str(seat.pk), {})
        was = int(row.get("hp", seat.hp))
        ctx = hooks.HpChange(
            table=table,
            seat=seat,
            source=source if target is not None and seat.pk == target.pk else None,
            kind="resolver",
            change=seat.hp - was,
            hp=seat.hp,
            hp_before=was,
        )
        for game in playing:
            game.hp_change(ctx)
        if ctx.hp != seat.hp:
            seat.hp = ctx.hp
            if seat.hp > 0:
                seat.dying = bool(row.get("dying"))
                seat.damage_source_id = row.get("damage_source")
        gathered.public.update(ctx.public)
        gathered.public.update(ctx.after)
        gathered.private_seats |= ctx.private_seats
        gathered.whole_page = gathered.whole_page or ctx.whole_page
    return gathered


def _until_dying(steps: tuple[DamageStep, ...]) -> tuple[tuple[DamageStep, ...], DamageStep | None]:
    """The steps applied now: up to the first that leaves a seat dying while the chain has more
    to go (docs/rules.md §9.9: he is saved or dies before the chain goes on); that step, or None."""
    for i, step in enumerate(steps):
        if step.dying and i + 1 < len(steps):
            return steps[: i + 1], step
    return steps, None


def _apply_steps(steps: tuple[DamageStep, ...], by_pk: dict[int, Seat]) -> list[Seat]:
    touched: list[Seat] = []
    for step in steps:
        seat = by_pk[step.seat]
        seat.hp = step.hp_after
        if step.chain_removed:
            seat.chained = False
        if step.dying and not seat.dying:
            seat.dying = True
            seat.damage_source_id = step.source
        touched.append(seat)
    return touched


def _pause(step: DamageStep, names: dict[int, str]) -> dict[str, Any]:
    """What the rest of a paused chain needs, kept on its event (public: names only)."""
    request = step.request
    return {
        "dying": step.seat,
        "dying_name": names[step.seat],
        "rest": list(step.next_seats),
        "rest_names": [names[pk] for pk in step.next_seats if pk in names],
        "card": request.card.value,
        "target": request.target,
        "source": step.source,
        "type": step.damage_type.value,
        "index": step.index,
        "chain_amount": step.chain_amount,
    }


def _record_steps(
    actor: Actor,
    table: Table,
    kind: str,
    steps: tuple[DamageStep, ...],
    paused: DamageStep | None,
    seats: list[Seat],
    by_pk: dict[int, Seat],
    before: dict[str, dict[str, Any]],
    touched: list[Seat],
    subject: Seat,
    extra: dict[str, Any],
    action_id: str | None,
    *,
    distances: bool = False,
    games: hooks.HpChange | None = None,
    whole_page: bool = False,
) -> Change:
    changed = {s.pk: s for s in touched}
    for seat in changed.values():
        fastsql.update(seat, _DAMAGE_FIELDS)
    names = {s.pk: s.name for s in seats}
    newly_dying = {pk for pk, s in changed.items() if s.dying and not before[str(pk)]["dying"]}
    pause = _pause(paused, names) if paused is not None else None
    private = {*newly_dying, *(games.private_seats if games is not None else ())}
    return _record(
        actor,
        table,
        kind=kind,
        public={
            **_seat_public(subject),
            **extra,
            "steps": [step_public(step, names) for step in steps],
            "dying": [step.seat for step in steps if step.seat in newly_dying],
            **({"paused": pause} if pause else {}),
        },
        before={"seats": {str(pk): before[str(pk)] for pk in changed}},
        after={
            "seats": {str(pk): _row(s) for pk, s in changed.items()},
            **({"paused": pause} if pause else {}),
        },
        subject=subject,
        action_id=action_id,
        # A game may ask for every screen (what it shows changed): the whole page, not a delta.
        change=Change(table.pk, table.version, private_seats=private)
        if whole_page or (games is not None and games.whole_page)
        else _delta(
            table,
            list(changed.values()),
            *(("hp", "strip", "distances") if distances else ("hp", "strip")),
            private_seats=private,
        ),
    )


def paused_chain(table: Table) -> dict[str, Any] | None:
    """The chain waiting for a seat it left dying to be saved or die (None: no chain waits):
    the pause of the table's last resolved damage or continuation that is not undone."""
    if not table.opts.maneuvering:
        return None
    last = (
        Event.objects.filter(
            table=table,
            game_number=table.game_number,
            kind__in=(RESOLVED, CONTINUED),
            undone_by__isnull=True,
        )
        .order_by("-version")
        .only("after")
        .first()
    )
    pause: dict[str, Any] | None = last.after.get("paused") if last is not None else None
    return pause


@action
def damage_continue(actor: Actor, *, action_id: str | None = None) -> Change:
    """The rest of a paused chain (docs/rules.md §9.9), from the table as it stands: each chained
    seat still alive and chained takes the chain's damage through its own armour; one change."""
    table = actor.table
    _in_play(table)
    pause = paused_chain(table)
    if pause is None:
        raise ActionError(_("No chain is waiting."), status=409, code="no_chain")
    seats = _ordered(table)
    if any(s.alive and s.dying for s in seats):
        raise ActionError(
            _("Save the dying player or record the death first."), status=409, code="dying"
        )
    if actor.seat is None and not actor.is_host:
        raise ActionError(_("You can only change your own seat."), status=403, code="not_yours")
    by_pk = {s.pk: s for s in seats}
    source = pause["source"] if pause["source"] in by_pk else None
    request = DamageRequest(
        target=pause["target"],
        card=DamageCard(pause["card"]),
        source=source,
        damage_type=DamageType(pause["type"]),
    )
    previous = DamageStep(
        request=request,
        index=pause["index"],
        seat=pause["dying"],
        source=source,
        amount=0,
        damage_type=DamageType(pause["type"]),
        changes=(),
        chain_removed=True,
        hp_before=0,
        hp_after=0,
        dying=False,
        reminders=(),
        next_seats=tuple(pause["rest"]),
        chain_amount=pause["chain_amount"],
    )
    states = [_state(s, hand_empty=False) for s in seats]
    found: list[DamageStep] = []
    try:
        step = continue_damage(previous, states)
        while step is not None:
            step = hooks.damage_steps(table, seats, (step,))[0]
            found.append(step)
            if step.dying:
                break
            states = list(apply_step(step, states))
            step = continue_damage(step, states)
    except DamageError as error:
        raise ActionError(
            _("That damage cannot happen: %(reason)s") % {"reason": str(error)},
            status=409,
            code=error.code,
        ) from None
    if not found:
        # Nobody chained is left: the pause is over, nothing else changes.
        subject = by_pk.get(pause["dying"]) or seats[0]
        return _record(
            actor,
            table,
            kind=CONTINUED,
            public={**_seat_public(subject), "steps": [], "dying": []},
            before={"seats": {}},
            after={"seats": {}},
            subject=subject,
            action_id=action_id,
        )
    last = found[-1]
    more = last.dying and any(
        by_pk[pk].alive and by_pk[pk].chained for pk in last.next_seats if pk in by_pk
    )
    before = {str(pk): _row(s) for pk, s in by_pk.items()}
    touched = _apply_steps(tuple(found), by_pk)
    games = _hp_hooks(table, touched, before, None, None)
    landed = hooks.steps_landed(table, seats, tuple(found))
    kept = {**games.public, **landed.public}
    return _record_steps(
        actor,
        table,
        CONTINUED,
        tuple(found),
        last if more else None,
        seats,
        by_pk,
        before,
        touched,
        by_pk[found[0].seat],
        {"type": pause["type"], "card": pause["card"], **kept},
        action_id,
        games=games,
        whole_page=landed.whole_page,
    )


def undo_resolved(table: Table, target: Event) -> list[Seat]:
    """Put back every seat a resolved damage changed, while each is still as it left it."""
    after: dict[str, dict[str, Any]] = target.after.get("seats", {})
    seats = {s.pk: s for s in table.seats.filter(pk__in=[int(pk) for pk in after])}
    for pk, row in after.items():
        seat = seats.get(int(pk))
        now = _row(seat) if seat is not None else {}
        if seat is None or not seat.alive or any(now[k] != v for k, v in row.items()):
            raise ActionError(
                _("That change cannot be undone: the table has changed since."), 409, "changed"
            )
    for pk, row in target.before.get("seats", {}).items():
        seat = seats[int(pk)]
        seat.hp = row["hp"]
        seat.dying = row["dying"]
        seat.damage_source_id = row["damage_source"]
        seat.chained = row["chained"]
        seat.wine = row["wine"]
        if "equipment" in row:
            seat.equipment = row["equipment"]
        fastsql.update(seat, _DAMAGE_FIELDS)
    return list(seats.values())


def undo_seat_state(seat: Seat, target: Event) -> None:
    """Undo a chain or 酒 change on its seat, while the seat is still as it left it."""
    field = target.kind
    if getattr(seat, field) != target.after[field]:
        raise ActionError(
            _("That change cannot be undone: the table has changed since."), 409, "changed"
        )
    setattr(seat, field, target.before[field])
