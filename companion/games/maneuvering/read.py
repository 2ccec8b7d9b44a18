"""军争's damage dialog as data for its template: the card first, then the source, then the
resolved result in words before anything is applied; one tap applies it as one change
(actions.damage_resolve).

The dialog re-renders itself with what has been chosen so far (a GET form): nothing is written
until the apply form posts to `act/resolve`. What is offered at each step is `rules.offers`';
the weapon choices only when the source holds that weapon, 火攻 through its guided path
(`rules.cards.fire_attack`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion import hooks
from companion.actions import ActionError
from companion.games.maneuvering.actions import damage_preview, shown_key, step_public
from companion.games.maneuvering.rules import KEY
from companion.games.maneuvering.rules.cards import FireAttackStage
from companion.games.maneuvering.rules.offers import (
    DamageChoice,
    accepted_card,
    damage_choice,
    damage_options,
    effective_source,
    fire_attack_step,
    may_be_source,
    offered_cards,
    source_known,
    source_may_be_none,
)
from companion.games.maneuvering.words import chain_words, step_words
from companion.models import Table
from companion.rules.cards import Suit
from companion.rules.damage import DamageCard

SUITS = [(s.value, s.symbol, s.is_red) for s in Suit]


@dataclass(frozen=True)
class DamageAsk:
    """The dialog's answers so far, as the query string gives them (`source`: a seat id, or None;
    `no_source`: "no source" was chosen; `discarded`: 火攻's user discarded the suit, None before
    he says)."""

    card: str = ""
    source: int | None = None
    no_source: bool = False
    shown: str = ""
    discarded: bool | None = None
    answers: DamageChoice = DamageChoice()


def damage_dialog_context(table: Table, seat_id: int, ask: DamageAsk) -> dict[str, Any] | None:
    """The damage dialog's template context for the target `seat_id` at the step `ask` has
    reached (None: no such seat, or no game in play)."""
    seat = table.seats.filter(pk=seat_id).first()
    if seat is None or table.status != Table.Status.PLAYING:
        return None
    maneuvering = table.opts.flag(KEY)
    seats = list(table.seats.order_by("position", "slot"))
    names = {s.pk: s.name for s in seats}
    card = accepted_card(ask.card, maneuvering=maneuvering, mode=table.mode)
    source_id = ask.source if ask.source in names else None
    chosen_source = source_known(card, source_id=source_id, no_source=ask.no_source)
    source_id = effective_source(card, source_id)
    source = next((s for s in seats if s.pk == source_id), None)
    context: dict[str, Any] = {
        "seat": seat,
        "card": card,
        "cards": offered_cards(maneuvering=maneuvering, mode=table.mode),
        "maneuvering": maneuvering,
        "sources": [
            s for s in seats if s.alive and may_be_source(card, source_id=s.pk, target_id=seat.pk)
        ],
        "source_allowed_none": source_may_be_none(card),
        "source_chosen": chosen_source,
        "source": source,
        "source_raw": "none" if source is None else str(source.pk),
        "suits": SUITS,
        "fields": {},
        "options": {},
        # The games on: their notes on this damage (slot "damage_note").
        "games": hooks.public_parts(table, seats),
    }
    if not chosen_source:
        return context

    fields: dict[str, str] = {
        "target": str(seat.pk),
        "card": card,
        "source": "" if source is None else str(source.pk),
    }
    # 火攻's guided path: the target shows a card, the user says whether he discarded its suit.
    if card == DamageCard.FIRE_ATTACK:
        path = fire_attack_step(
            user=source.pk if source is not None else seat.pk,
            target=seat.pk,
            shown=ask.shown,
            discarded=ask.discarded,
        )
        context["fire"] = path.stage.value
        context["shown"] = path.shown.value if path.shown else ""
        context["shown_symbol"] = path.shown.symbol if path.shown else ""
        if path.stage is not FireAttackStage.DAMAGE:
            return context
        context["discarded"] = "yes"

    weapon = (source.equipment or {}).get("weapon", "") if source is not None else ""
    options = damage_options(
        card, weapon=weapon, target_equipment=seat.equipment or {}, maneuvering=maneuvering
    )
    chosen = damage_choice(options, ask.answers, maneuvering=maneuvering)
    fields.update(
        {
            "target_hand_empty": "1" if chosen.hand_empty else "",
            "weapon_skill": "1" if chosen.weapon_skill else "",
            "black": "1" if chosen.black else "",
            "damage_type": chosen.damage_type,
            "amount": chosen.amount,
        }
    )
    context["options"] = options
    context["chosen"] = chosen
    try:
        steps = damage_preview(
            table,
            target=seat.pk,
            card=card,
            source=fields["source"],
            amount=fields["amount"] or None,
            damage_type=fields["damage_type"],
            weapon_skill=chosen.weapon_skill,
            black=chosen.black,
            target_hand_empty=chosen.hand_empty,
        )
    except ActionError as error:
        context["refused"] = str(error.message)
        return context
    public = [step_public(step, names) for step in steps]
    first = steps[0]
    if chosen.qilin and first.amount > 0:
        fields["qilin"] = chosen.qilin
    if chosen.axe:
        fields["axe"] = "1"
    fields["shown"] = shown_key(steps)  # what is applied is what this preview shows
    context["fields"] = {k: v for k, v in fields.items() if v}
    context["preview"] = {
        "steps": [step_words(s) for s in public],
        "chain": chain_words(public),
        "wine": first.wine_spent,
        "dying": [s["name"] for s in public if s["dying"]],
        # docs/rules.md §9.9: a seat left dying in the middle is saved or dies before the chain
        # goes on.
        "pause_at": next(
            (i for i, s in enumerate(public) if s["dying"] and i + 1 < len(public)), None
        ),
        "discards": first.discards,
    }
    return context
