"""The shared steps of a game through the services, for the tests of every layer: a seat
re-read, seats by identity, a table's snapshot (to prove a refusal changed nothing), a started game,
a game in play (every hero picked) and a death recorded the way a phone records it.
"""

from __future__ import annotations

from companion import actions
from companion.models import Seat, Table
from tests.support.factories import make_table


def fresh(seat: Seat) -> Seat:
    return Seat.objects.get(pk=seat.pk)


def by_identity(table: Table, identity: str) -> list[Seat]:
    return list(table.seats.filter(identity=identity).order_by("position"))


def snapshot(table: Table) -> tuple:
    table.refresh_from_db()
    rows = Seat.objects.filter(table=table).order_by("pk")
    fields = ("hp", "max_hp", "dying", "alive", "hero", "hero_pick", "killer_id", "identity")
    return (
        table.version,
        table.status,
        tuple(tuple(getattr(s, f) for f in fields) + (tuple(s.hero_candidates),) for s in rows),
    )


def started(players: int = 4, **options: bool) -> tuple[Table, list[Seat]]:
    table, seats = make_table(players, deal=True, **options)
    actions.game_start(token=table.host_token)
    table.refresh_from_db()
    return table, [fresh(s) for s in seats]


def picked_all(players: int = 4, **options: bool) -> tuple[Table, list[Seat]]:
    """A table whose heroes are all chosen: the game is in play."""
    table, seats = started(players, **options)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
    for seat in seats:
        seat = fresh(seat)
        if seat.identity != "lord":
            actions.hero_pick(token=seat.token, hero_id=seat.hero_candidates[-1])
    table.refresh_from_db()
    return table, [fresh(s) for s in seats]


def kill(table: Table, victim: Seat, killer: Seat | None) -> None:
    victim = fresh(victim)
    actions.seat_change_hp(
        token=table.host_token,
        seat_id=victim.pk,
        delta=-victim.hp,
        source=killer.pk if killer else "",
    )
    actions.seat_die(token=victim.token, seat_id=victim.pk)
