"""The 军争 damage dialog: the card first, then the source, then the resolved result in
words before anything is applied; one tap applies it as one change (actions.damage_resolve).

The dialog re-renders itself with what has been chosen so far (a GET form): nothing is written
until the apply form posts to `act/resolve`. The weapon choices are offered only when the source
holds that weapon; 火攻 goes through its guided path (rules.maneuvering.fire_attack).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from companion import hooks
from companion.actions import ActionError, Actor
from companion.actions.damage import HORSE_SLOTS, QILIN, damage_preview, shown_key, step_public
from companion.models import Table
from companion.rules.cards import Suit
from companion.rules.damage import FEATHER_FAN, GUDING, ICE_SWORD, RENWANG, DamageCard
from companion.rules.maneuvering import FireAttackError, FireAttackStage, fire_attack
from companion.web.views.common import _not_found, _private, with_actor
from companion.words.maneuver_lines import chain_words, step_words

AXE = "贯石斧"
# The common cards, one tap each; 军争's own only with the expansion.
COMMON = ("杀", "火杀", "雷杀", "决斗", "南蛮入侵", "万箭齐发", "闪电", "火攻")
MANEUVERING_ONLY = frozenset({"火杀", "雷杀", "火攻"})
# Cards used on other players only: the target is not offered as their source.
OTHERS_ONLY = frozenset({"杀", "火杀", "雷杀", "决斗", "南蛮入侵", "万箭齐发"})
SUITS = [(s.value, s.symbol, s.is_red) for s in Suit]


def _flag(value: str | None) -> bool:
    return value in ("1", "on", "true", "yes")


@require_GET
@with_actor
def damage_dialog(request: HttpRequest, actor: Actor, token: str, seat_id: int) -> HttpResponse:
    """The damage dialog for one seat, at the step the query string has reached."""
    table = actor.table
    seat = table.seats.filter(pk=int(seat_id)).first()
    if seat is None or table.status != Table.Status.PLAYING:
        return _not_found(request)
    maneuvering = table.opts.maneuvering
    q = request.GET
    seats = list(table.seats.order_by("position", "slot"))
    names = {s.pk: s.name for s in seats}
    card = q.get("card", "")
    if card not in {c.value for c in DamageCard} or (card in MANEUVERING_ONLY and not maneuvering):
        card = ""
    source_raw = q.get("source", "")
    source_id = int(source_raw) if source_raw.isdigit() and int(source_raw) in names else None
    source_chosen = bool(card) and (
        card == DamageCard.LIGHTNING or source_raw == "none" or source_id is not None
    )
    if card == DamageCard.LIGHTNING:
        source_id = None
    source = next((s for s in seats if s.pk == source_id), None)
    weapon = (source.equipment or {}).get("weapon", "") if source is not None else ""
    slash = card in ("杀", "火杀", "雷杀")
    context: dict[str, Any] = {
        "seat": seat,
        "card": card,
        "cards": [c for c in COMMON if maneuvering or c not in MANEUVERING_ONLY],
        "maneuvering": maneuvering,
        "sources": [s for s in seats if s.alive and not (card in OTHERS_ONLY and s.pk == seat.pk)],
        "source_allowed_none": card not in OTHERS_ONLY,
        "source_chosen": source_chosen,
        "source": source,
        "source_raw": "none" if source is None else str(source.pk),
        "suits": SUITS,
        "fields": {},
        "options": {},
        # The games on: their notes on this damage (slot "damage_note").
        "games": hooks.public_parts(table, seats),
    }
    if not source_chosen:
        return _private(render(request, "companion/live.html#damage_dialog", context))

    fields: dict[str, str] = {
        "target": str(seat.pk),
        "card": card,
        "source": "" if source is None else str(source.pk),
    }
    # 火攻's guided path: the target shows a card, the user says whether he discarded its suit.
    if card == DamageCard.FIRE_ATTACK:
        shown = q.get("shown", "")
        discarded = q.get("discarded", "")
        try:
            path = fire_attack(
                user=source.pk if source is not None else seat.pk,
                target=seat.pk,
                target_hand_empty=False,
                shown=shown or None,
                discarded=None if discarded not in ("yes", "no") else discarded == "yes",
            )
        except (FireAttackError, ValueError):
            path = fire_attack(user=seat.pk, target=seat.pk, target_hand_empty=False)
        context["fire"] = path.stage.value
        context["shown"] = path.shown.value if path.shown else ""
        context["shown_symbol"] = path.shown.symbol if path.shown else ""
        if path.stage is not FireAttackStage.DAMAGE:
            return _private(render(request, "companion/live.html#damage_dialog", context))
        context["discarded"] = "yes"

    options = {
        "hand_empty": slash and weapon == GUDING,
        "fan": card == "杀" and weapon == FEATHER_FAN and maneuvering,
        "ice": slash and weapon == ICE_SWORD,
        "black": slash and (seat.equipment or {}).get("armor") == RENWANG,
        "axe": slash and weapon == AXE,
        "qilin": [
            ((seat.equipment or {})[slot], slot)
            for slot in HORSE_SLOTS
            if slash and weapon == QILIN and (seat.equipment or {}).get(slot)
        ],
        "kind": card in ("skill", "other"),
        "amount": card in ("skill", "other"),
    }
    chosen = {
        "hand_empty": options["hand_empty"] and _flag(q.get("target_hand_empty")),
        "weapon_skill": (options["fan"] or options["ice"]) and _flag(q.get("weapon_skill")),
        "black": options["black"] and _flag(q.get("black")),
        "axe": options["axe"] and _flag(q.get("axe")),
        "qilin": q.get("qilin", "")
        if q.get("qilin", "") in dict((slot, name) for name, slot in options["qilin"])
        else "",
        "damage_type": q.get("damage_type", "")
        if options["kind"]
        and q.get("damage_type", "") in ("normal", "fire", "thunder")
        and (maneuvering or q.get("damage_type") == "normal")
        else "",
        "amount": q.get("amount", "")
        if options["amount"]
        and q.get("amount", "")
        in (
            "1",
            "2",
            "3",
        )
        else "",
    }
    fields.update(
        {
            "target_hand_empty": "1" if chosen["hand_empty"] else "",
            "weapon_skill": "1" if chosen["weapon_skill"] else "",
            "black": "1" if chosen["black"] else "",
            "damage_type": chosen["damage_type"],
            "amount": chosen["amount"],
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
            weapon_skill=chosen["weapon_skill"],
            black=chosen["black"],
            target_hand_empty=chosen["hand_empty"],
        )
    except ActionError as error:
        context["refused"] = str(error.message)
        return _private(render(request, "companion/live.html#damage_dialog", context))
    public = [step_public(step, names) for step in steps]
    first = steps[0]
    if chosen["qilin"] and first.amount > 0:
        fields["qilin"] = chosen["qilin"]
    if chosen["axe"]:
        fields["axe"] = "1"
    fields["shown"] = shown_key(steps)  # what is applied is what this preview shows
    context["fields"] = {k: v for k, v in fields.items() if v}
    context["preview"] = {
        "steps": [step_words(s) for s in public],
        "chain": chain_words(public),
        "wine": first.wine_spent,
        "dying": [s["name"] for s in public if s["dying"]],
        # docs/rules.md §9.9: a seat left dying in the middle is saved or dies before the chain goes
        # on.
        "pause_at": next(
            (i for i, s in enumerate(public) if s["dying"] and i + 1 < len(public)), None
        ),
        "discards": first.discards,
    }
    return _private(render(request, "companion/live.html#damage_dialog", context))
