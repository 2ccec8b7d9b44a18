"""The 军争 damage dialog: the card first, then the source, then the resolved result in words
before anything is applied (companion.games.maneuvering.read); one tap applies it as one change
(actions.damage_resolve)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.views.decorators.http import require_GET

from companion.actions import Actor
from companion.games.maneuvering.read import DamageAsk, damage_dialog_context
from companion.games.maneuvering.rules.offers import DamageChoice
from companion.web.views.common import not_found, private_headers, with_actor


def _flag(value: str | None) -> bool:
    return value in ("1", "on", "true", "yes")


def _ask(q: QueryDict) -> DamageAsk:
    """The dialog's answers so far, from its query string."""
    source = q.get("source", "")
    discarded = q.get("discarded", "")
    return DamageAsk(
        card=q.get("card", ""),
        source=int(source) if source.isdecimal() else None,
        no_source=source == "none",
        shown=q.get("shown", ""),
        discarded=None if discarded not in ("yes", "no") else discarded == "yes",
        answers=DamageChoice(
            hand_empty=_flag(q.get("target_hand_empty")),
            weapon_skill=_flag(q.get("weapon_skill")),
            black=_flag(q.get("black")),
            axe=_flag(q.get("axe")),
            qilin=q.get("qilin", ""),
            damage_type=q.get("damage_type", ""),
            amount=q.get("amount", ""),
        ),
    )


@require_GET
@with_actor
def damage_dialog(request: HttpRequest, actor: Actor, token: str, seat_id: int) -> HttpResponse:
    """The damage dialog for one seat, at the step the query string has reached."""
    context = damage_dialog_context(actor.table, int(seat_id), _ask(request.GET))
    if context is None:
        return not_found(request)
    return private_headers(render(request, "games/maneuvering/damage_dialog.html", context))
