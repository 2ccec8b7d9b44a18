"""Taps by name: the form fields of every state-changing tap, mapped onto one action each.

The same table serves the HTTP view (`POST .../act/<name>`) and the phone's websocket
(`{"type": "act", "name": ..., "fields": {...}}`): either way the acting seat comes from the
token the phone was reached by, never from the fields.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.http import QueryDict

from companion import actions

# A tap's id, made by the phone: replays with the same id are applied once.
ACTION_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class Fields:
    """The `request.POST` of a tap that did not come as an HTTP request."""

    def __init__(self, fields: Mapping[str, Any]) -> None:
        self.POST = QueryDict(mutable=True)
        for name, value in fields.items():
            if isinstance(value, list):
                self.POST.setlist(name, [str(v) for v in value])
            else:
                self.POST[name] = str(value)


def _flag(request: Any, name: str) -> bool:
    return request.POST.get(name, "") in {"1", "on", "true", "yes"}


ACTIONS: dict[str, Callable[[Any, str, str | None], Any]] = {
    "move": lambda r, t, a: actions.seat_move(
        token=t, seat_id=r.POST.get("seat"), position=r.POST.get("position"), action_id=a
    ),
    "remove": lambda r, t, a: actions.seat_remove(token=t, seat_id=r.POST.get("seat"), action_id=a),
    "lock": lambda r, t, a: actions.table_lock(token=t, locked=_flag(r, "locked"), action_id=a),
    "options": lambda r, t, a: actions.table_set_options(
        token=t,
        options={
            name: _flag(r, name)
            for name in r.POST.getlist("fields") or actions.OPTION_FIELDS
            if name in actions.OPTION_FIELDS
        },
        action_id=a,
    ),
    "host": lambda r, t, a: actions.host_pass(token=t, seat_id=r.POST.get("seat"), action_id=a),
    "deal": lambda r, t, a: actions.identities_deal(
        token=t, confirm=_flag(r, "confirm"), action_id=a
    ),
    "start": lambda r, t, a: actions.game_start(token=t, action_id=a),
    "pick": lambda r, t, a: actions.hero_pick(token=t, hero_id=r.POST.get("hero", ""), action_id=a),
    "heroredeal": lambda r, t, a: actions.heroes_redeal(
        token=t, confirm=_flag(r, "confirm"), action_id=a
    ),
    "hp": lambda r, t, a: actions.seat_change_hp(
        token=t,
        seat_id=r.POST.get("seat"),
        delta=r.POST.get("delta"),
        source=r.POST.get("source", ""),
        damage_type=r.POST.get("damage_type", "normal"),
        loss=_flag(r, "lose"),
        action_id=a,
    ),
    "maxhp": lambda r, t, a: actions.seat_set_max_hp(
        token=t, seat_id=r.POST.get("seat"), max_hp_value=r.POST.get("max_hp"), action_id=a
    ),
    "rescue": lambda r, t, a: actions.seat_rescue(
        token=t,
        seat_id=r.POST.get("seat"),
        by=r.POST.get("by", ""),
        kind=r.POST.get("kind", "peach"),
        action_id=a,
    ),
    "die": lambda r, t, a: actions.seat_die(token=t, seat_id=r.POST.get("seat"), action_id=a),
    "undo": lambda r, t, a: actions.event_undo(token=t, version=r.POST.get("version"), action_id=a),
    "equip": lambda r, t, a: actions.equipment_set(
        token=t,
        seat_id=r.POST.get("seat"),
        name=r.POST.get("name", ""),
        replace=_flag(r, "replace"),
        action_id=a,
    ),
    "unequip": lambda r, t, a: actions.equipment_remove(
        token=t, seat_id=r.POST.get("seat"), slot=r.POST.get("slot", ""), action_id=a
    ),
    "trick": lambda r, t, a: actions.trick_place(
        token=t, seat_id=r.POST.get("seat"), name=r.POST.get("name", ""), action_id=a
    ),
    "untrick": lambda r, t, a: actions.trick_remove(
        token=t, seat_id=r.POST.get("seat"), name=r.POST.get("name", ""), action_id=a
    ),
    "nullify": lambda r, t, a: actions.trick_nullify(
        token=t, seat_id=r.POST.get("seat"), name=r.POST.get("name", ""), action_id=a
    ),
    "judge": lambda r, t, a: actions.judgement_flip(
        token=t,
        check=r.POST.get("check", ""),
        suit=r.POST.get("suit", ""),
        rank=r.POST.get("rank", ""),
        seat_id=r.POST.get("seat"),
        trick=r.POST.get("trick", ""),
        action_id=a,
    ),
    "replace": lambda r, t, a: actions.judgement_replace(
        token=t, suit=r.POST.get("suit", ""), rank=r.POST.get("rank", ""), action_id=a
    ),
    "confirm": lambda r, t, a: actions.judgement_confirm(token=t, action_id=a),
    "next": lambda r, t, a: actions.turn_advance(token=t, action_id=a),
    "endturn": lambda r, t, a: actions.turn_end(token=t, action_id=a),
    "turnset": lambda r, t, a: actions.turn_set(
        token=t,
        seat_id=r.POST.get("seat"),
        phase=r.POST.get("phase", ""),
        round_number=r.POST.get("round"),
        action_id=a,
    ),
    "timer": lambda r, t, a: actions.timer_set(token=t, seconds=r.POST.get("seconds"), action_id=a),
}

# Issue 10: the seat's own phone agrees to a move the host asked for; anyone stops one.
ACTIONS["handoverok"] = lambda r, t, a: actions.handover_confirm(token=t, action_id=a)
ACTIONS["handoverno"] = lambda r, t, a: actions.handover_cancel(
    token=t, seat_id=r.POST.get("seat"), action_id=a
)

# Taps that answer with a page of their own (a QR code) go through HTTP only.
HTTP_ONLY = frozenset({"handover"})
