"""What each screen may know, as plain data for the templates.

`public_state` is the only input of anything sent to the table's group or shown on the display:
it never carries a living non-lord seat's identity. `private_state` belongs to one seat's phone.
A template cannot leak what it was never given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from companion.models import MIN_PLAYERS, Event, Seat, Table
from companion.rules.identities import Identity, can_see_identity, distribution

HISTORY_LENGTH = 30


@dataclass(frozen=True)
class PublicSeat:
    id: int
    name: str
    position: int
    alive: bool
    is_host: bool
    # None unless everybody may see it: the lord, a dead seat, or any seat once the game is over.
    identity: str | None


@dataclass(frozen=True)
class PublicState:
    code: str
    status: str
    version: int
    locked: bool
    game_number: int
    options: dict[str, bool]
    seats: list[PublicSeat]
    history: list[dict[str, Any]]
    distribution: dict[str, int] = field(default_factory=dict)

    @property
    def seat_count(self) -> int:
        """How many seats are taken."""
        return len(self.seats)

    @property
    def can_deal(self) -> bool:
        """Whether the seats allow a deal."""
        return MIN_PLAYERS <= len(self.seats) and self.status in ("lobby", "dealt")


@dataclass(frozen=True)
class PrivateState:
    seat_id: int
    name: str
    identity: str | None
    is_host: bool
    alive: bool
    version: int
    history: list[dict[str, Any]]


def _visible_identity(seat: Seat, table: Table) -> str | None:
    if not seat.identity:
        return None
    visible = can_see_identity(
        viewer_is_target=False,
        viewer_identity=None,
        target_identity=Identity(seat.identity),
        target_alive=seat.alive,
        game_over=table.status == Table.Status.FINISHED,
    )
    return seat.identity if visible else None


def public_state(table: Table, seats: list[Seat] | None = None) -> PublicState:
    """The state everybody at the physical table may see."""
    if seats is None:
        seats = list(table.seats.order_by("position", "slot"))
    public_seats = [
        PublicSeat(
            id=s.pk,
            name=s.name,
            position=s.position,
            alive=s.alive,
            is_host=s.is_host,
            identity=_visible_identity(s, table),
        )
        for s in seats
    ]
    events = (
        Event.objects.filter(table=table, private_to__isnull=True)
        .order_by("-version")
        .values("version", "kind", "public", "created_at")[:HISTORY_LENGTH]
    )
    options = {
        "six_two_renegades": table.six_two_renegades,
        "eight_two_renegades": table.eight_two_renegades,
        "first_game_mode": table.first_game_mode,
    }
    counts: dict[str, int] = {}
    if MIN_PLAYERS <= len(seats) <= 10:
        from companion.actions import identity_options

        counts = {k.value: v for k, v in distribution(len(seats), identity_options(table)).items()}
    return PublicState(
        code=table.code,
        status=table.status,
        version=table.version,
        locked=table.locked,
        game_number=table.game_number,
        options=options,
        seats=public_seats,
        history=[describe(e["kind"], e["public"]) | {"version": e["version"]} for e in events],
        distribution=counts,
    )


def private_state(seat: Seat) -> PrivateState:
    """What only this seat's phone may see."""
    events = (
        Event.objects.filter(private_to=seat)
        .order_by("-version")
        .values("version", "kind", "public")[:HISTORY_LENGTH]
    )
    return PrivateState(
        seat_id=seat.pk,
        name=seat.name,
        identity=seat.identity or None,
        is_host=seat.is_host,
        alive=seat.alive,
        version=seat.table.version,
        history=[describe(e["kind"], e["public"]) | {"version": e["version"]} for e in events],
    )


def identity_label(identity: str | None) -> str:
    """The translated name of an identity."""
    labels = {
        "lord": _("Lord"),
        "loyalist": _("Loyalist"),
        "rebel": _("Rebel"),
        "renegade": _("Renegade"),
    }
    return labels.get(identity or "", "")


def describe(kind: str, public: dict[str, Any]) -> dict[str, Any]:
    """One history line from an event's public part only."""
    name = public.get("name", "")
    texts = {
        "table_created": _("Table opened"),
        "seat_joined": _("%(name)s joined") % {"name": name},
        "seat_moved": _("%(name)s moved to seat %(pos)s")
        % {"name": name, "pos": int(public.get("position", 0)) + 1},
        "seat_removed": _("%(name)s was removed") % {"name": name},
        "seat_handed_over": _("%(name)s's seat moved to another phone") % {"name": name},
        "host_passed": _("%(name)s is now the host") % {"name": name},
        "table_locked": _("Table locked"),
        "table_unlocked": _("Table unlocked"),
        "options_changed": _("Table options changed"),
        "identities_dealt": _("Identities dealt: %(name)s is the Lord")
        % {"name": public.get("lord_name", "")},
        "identities_redealt": _("Identities dealt again: %(name)s is the Lord")
        % {"name": public.get("lord_name", "")},
        "game_started": _("The game has started"),
    }
    return {"kind": kind, "text": texts.get(kind, kind), "important": kind.startswith("identities")}
