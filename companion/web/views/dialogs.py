"""The dialogs a screen opens over the table: a seat's details and controls, equipment, the
judgement helper and 鬼才's replacement card."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from companion import hooks
from companion.actions import Actor, NotFound
from companion.actions.core import may_act_on
from companion.actions.equipment import SLOTS
from companion.models import Table
from companion.read.deck import deck_odds
from companion.read.seat_view import hp_history, seat_dialog_view
from companion.rules.cards import equipment_catalogue, expansions_on, load_deck, rank_label
from companion.rules.judgement import JUDGED_DELAYED_TRICKS, Check, deck_checks, rank_decides
from companion.rules.offers import (
    Asker,
    TableTurn,
    seat_controls,
    trick_choices,
)
from companion.rules.turns import judgement_order
from companion.web.views.common import not_found, private_headers, with_actor, with_table
from companion.words.names import table_hero_card


def game_dialog(request: HttpRequest, token: str, name: str, seat_id: int) -> HttpResponse:
    """A game package's dialog of one seat (companion.hooks: `Game.dialogs`), by its name."""
    view = hooks.dialog(name)
    if view is None:
        return not_found(request)
    response: HttpResponse = view(request, token=token, seat_id=seat_id)
    return response


def _seat_dialog(
    request: HttpRequest, table: Table, actor: Actor | None, seat_id: int
) -> HttpResponse:
    """One seat: its hero card, HP and HP history; controls where the asker may act."""
    me = actor.seat if actor is not None else None
    view = seat_dialog_view(table, seat_id, asker_id=me.pk if me is not None else None)
    if view is None:
        return not_found(request)
    seat = view.seat
    if me is not None and me.pk == seat_id and seat.hero is None and me.hero_pick:
        # A player sees their own unrevealed pick; nobody else does.
        seat = replace(seat, hero=table_hero_card(me.hero_pick, table))
    asker = (
        None
        if actor is None
        else Asker(
            host=actor.is_host,
            seat_id=me.pk if me else None,
            alive=bool(me and me.alive),
            may_act=may_act_on(actor, seat_id),
        )
    )
    turn = TableTurn(
        playing=table.status == Table.Status.PLAYING, seat_id=table.turn_seat_id, phase=table.phase
    )
    controls = seat_controls(
        asker, turn, seat_alive=seat.alive, referee_mode=table.opts.referee_mode
    )
    tricks, can_play = trick_choices(
        asker,
        turn,
        seat_id=seat.id,
        seat_alive=seat.alive,
        in_reach=view.asker_reaches,
        mode=table.mode,
        **expansions_on(table.opts.flag),
    )
    context = {
        "seat": seat,
        "playing": turn.playing and seat.alive,
        "can_play": can_play,
        "tricks": tricks,
        "alive": view.alive,
        "can_adjust": controls.adjust,
        "can_rescue": controls.rescue,
        "can_die": controls.die,
        "can_undo": controls.undo,
        # "normal" and the damage types of the games on (an expansion's fire and thunder).
        "damage_types": hooks.damage_types(table),
        "hp_history": hp_history(table, seat_id),
        # The games on: their controls (slot "seat_controls") and their notes in the damage
        # controls (slot "damage_note").
        "games": hooks.seat_dialog_parts(table, view.games, seat, asker, turn),
    }
    return private_headers(render(request, "companion/live/dialogs/seat.html#seat_dialog", context))


@require_GET
@with_actor
def seat_dialog(request: HttpRequest, actor: Actor, token: str, seat_id: int) -> HttpResponse:
    """A seat's details for a phone or the host console."""
    return _seat_dialog(request, actor.table, actor, int(seat_id))


def _dialog_seat(actor: Actor, seat_id: int) -> tuple[Table, Any]:
    table = actor.table
    seat = table.seats.filter(pk=seat_id).first()
    if seat is None:
        raise NotFound()
    return table, seat


@require_GET
@with_actor
def equip_dialog(request: HttpRequest, actor: Actor, token: str, seat_id: int) -> HttpResponse:
    """The real deck's equipment, by kind, to equip on a seat."""
    try:
        table, seat = _dialog_seat(actor, int(seat_id))
    except NotFound:
        return not_found(request)
    labels = {
        "weapon": _("Weapon"),
        "armor": _("Armor"),
        "plus_horse": _("+1 horse"),
        "minus_horse": _("−1 horse"),
    }
    groups = []
    for slot, label in labels.items():
        cards = [
            c
            for c in equipment_catalogue(**expansions_on(table.opts.flag))
            if SLOTS[c.slot] == slot
        ]
        groups.append({"label": label, "cards": cards, "current": seat.equipment.get(slot, "")})
    context = {
        "seat": seat,
        "groups": groups,
        "english": translation.get_language().startswith("en"),
    }
    return private_headers(
        render(request, "companion/live/dialogs/equip.html#equip_dialog", context)
    )


RANKS = [(n, rank_label(n)) for n in range(1, 14)]


@require_GET
@with_actor
def judge_dialog(request: HttpRequest, actor: Actor, token: str, seat_id: int) -> HttpResponse:
    """The judgement helper: what is judged, its odds, then the flipped card."""
    try:
        table, seat = _dialog_seat(actor, int(seat_id))
    except NotFound:
        return not_found(request)
    expansions = expansions_on(table.opts.flag)
    deck = load_deck(ex=True, **expansions)
    codes = deck_checks(**expansions)
    # The odds from the live deck, saying what was taken out.
    live = deck_odds(table, codes)
    checks = [{"code": c.value, "odds": live.odds[c.value], "rank": rank_decides(c)} for c in codes]
    trick = request.GET.get("trick", "")
    trick = trick if trick in seat.judgement_zone else ""
    if not trick and table.turn_seat_id == seat.pk and table.phase == "judgement":
        # In one's own judgement phase the helper judges the next delayed trick.
        trick = next(iter(judgement_order(seat.judgement_zone)), "")
    selected = JUDGED_DELAYED_TRICKS[trick].value if trick else ""
    if selected:
        # A delayed trick is judged one way only: the other checks would be refused.
        checks = [c for c in checks if c["code"] == selected]
    # 无懈可击 on the trick about to be judged, in its holder's judgement phase.
    nullify = bool(
        trick
        and table.turn_seat_id == seat.pk
        and table.phase == "judgement"
        and not table.pending_judgement
        and (actor.is_host or (actor.seat is not None and actor.seat.pk == seat.pk))
    )
    context = {
        "seat": seat,
        "nullify": nullify,
        "checks": checks,
        "trick": trick,
        "selected": selected,
        "ranks": RANKS,
        "deck_size": len(deck),
        "live": live,
    }
    return private_headers(
        render(request, "companion/live/dialogs/judge.html#judge_dialog", context)
    )


@require_GET
@with_actor
def replace_dialog(request: HttpRequest, actor: Actor, token: str) -> HttpResponse:
    """鬼才: the card that replaces the judgement card (its rank only when it decides)."""
    pending = actor.table.pending_judgement or {}
    context = {
        "ranks": RANKS,
        "rank_needed": not pending or rank_decides(Check(pending["check"])),
    }
    return private_headers(
        render(request, "companion/live/dialogs/replace.html#replace_dialog", context)
    )


@require_GET
@with_table
def display_seat_dialog(request: HttpRequest, table: Table, seat_id: int) -> HttpResponse:
    """A seat's details on the public display: hero card and HP history only."""
    return _seat_dialog(request, table, None, int(seat_id))
