"""A whole resolved damage applied (`damage_resolve`), and the rest of a chain after a seat it
left dying was saved or died (`damage_continue`): each one change with one event, so one undo
restores it. The steps are worked out by `preview`, and land through `landing`."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion import hooks
from companion.actions.core import (
    ActionError,
    Actor,
    Change,
    action,
    may_act_on,
    record_change,
    seat_of,
    seat_public,
)
from companion.actions.inputs import ordered_seats
from companion.actions.play import living_seat, require_playing
from companion.games.maneuvering.actions.landing import (
    apply_steps,
    hp_hooks,
    hp_row,
    record_steps,
    until_dying,
)
from companion.games.maneuvering.actions.preview import (
    CONTINUED,
    RESOLVED,
    paused_chain,
    seat_state,
    sent_flag,
    shown_key,
    work_out,
)
from companion.games.maneuvering.rules.cards import WineMarker, after_damage
from companion.games.maneuvering.rules.offers import AXE, HORSE_SLOTS, QILIN
from companion.games.maneuvering.rules.resolver import continue_damage
from companion.models import Seat
from companion.rules.damage import (
    DamageCard,
    DamageError,
    DamageRequest,
    DamageStep,
    DamageType,
    apply_step,
)


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
    require_playing(table)
    seats = ordered_seats(table)
    target_seat = living_seat(table, target, among=seats)
    source_seat = None if source in ("", None, "none") else seat_of(table, source, among=seats)
    if not (
        may_act_on(actor, target_seat.pk)
        or (source_seat is not None and may_act_on(actor, source_seat.pk))
    ):
        raise ActionError(_("You can only change your own seat."), status=403, code="not_yours")
    request, steps, seats, target_seat, source_seat = work_out(
        table,
        target=target,
        card=card,
        source=source,
        amount=amount,
        damage_type=damage_type,
        weapon_skill=weapon_skill,
        black=black,
        target_hand_empty=target_hand_empty,
        seats=seats,
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
    axe_used = sent_flag(axe)
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
    steps, paused = until_dying(steps)
    before = {str(pk): hp_row(s) for pk, s in by_pk.items()}
    touched = apply_steps(steps, by_pk)
    landed = hooks.steps_landed(table, seats, steps)
    # The games on at the table see it land (a game may keep some HP, or note the attack).
    games = hp_hooks(table, touched, before, source_seat, target_seat)
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
    return record_steps(
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


@action
def damage_continue(actor: Actor, *, action_id: str | None = None) -> Change:
    """The rest of a paused chain (docs/rules.md §9.9), from the table as it stands: each chained
    seat still alive and chained takes the chain's damage through its own armour; one change."""
    table = actor.table
    require_playing(table)
    pause = paused_chain(table)
    if pause is None:
        raise ActionError(_("No chain is waiting."), status=409, code="no_chain")
    seats = ordered_seats(table)
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
    states = [seat_state(s, hand_empty=False) for s in seats]
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
        return record_change(
            actor,
            table,
            kind=CONTINUED,
            public={**seat_public(subject), "steps": [], "dying": []},
            before={"seats": {}},
            after={"seats": {}},
            subject=subject,
            action_id=action_id,
            undoable=True,
        )
    last = found[-1]
    more = last.dying and any(
        by_pk[pk].alive and by_pk[pk].chained for pk in last.next_seats if pk in by_pk
    )
    before = {str(pk): hp_row(s) for pk, s in by_pk.items()}
    touched = apply_steps(tuple(found), by_pk)
    games = hp_hooks(table, touched, before, None, None)
    landed = hooks.steps_landed(table, seats, tuple(found))
    kept = {**games.public, **landed.public}
    return record_steps(
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
