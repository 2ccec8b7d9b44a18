"""Tables in the states a seat's dialog shows, made through the real service functions: a lobby,
identities dealt, heroes being chosen, plain and 军争 games with equipment, tricks, chains, 酒,
the dead and the dying, ten seats, dark souls, a finished game, and 3 vs 3 (which needs the
`registered` fixture of tests.support.modeplay)."""

from __future__ import annotations

from collections.abc import Callable

from companion import actions
from companion.games.afterlife import actions as afterlife
from companion.games.maneuvering import actions as maneuver
from companion.models import Seat, Table
from tests.actions.flow_helpers import after, holder_of, to_phase
from tests.actions.test_turns import first_game
from tests.support.factories import make_table
from tests.support.game import by_identity, fresh, kill, picked_all, started
from tests.support.modeplay import in_play


def _equip(table: Table, seat: Seat, *names: str) -> None:
    for name in names:
        actions.equipment_set(token=table.host_token, seat_id=seat.pk, name=name)


def _dying(table: Table, seat: Seat) -> None:
    actions.seat_change_hp(token=table.host_token, seat_id=seat.pk, delta=-fresh(seat).hp)


def lobby() -> Table:
    return make_table(4)[0]


def dealt() -> Table:
    return make_table(5, deal=True)[0]


def choosing() -> Table:
    """The lord has chosen; two others have picked, unrevealed (a phone sees its own pick)."""
    table, seats = started(5)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
    for seat in [fresh(s) for s in seats if s.pk != lord.pk][:2]:
        actions.hero_pick(token=seat.token, hero_id=seat.hero_candidates[-1])
    table.refresh_from_db()
    return table


def plain_five() -> Table:
    """No 军争: horses, a weapon, 乐不思蜀 on a seat, a rebel dead, the holder in play."""
    table, seats = first_game(5)
    holder = holder_of(table)
    to_phase(table, "play")
    _equip(table, holder, "赤兔", "青釭剑")
    _equip(table, after(seats, holder, 2), "绝影", "仁王盾")
    actions.trick_place(token=table.host_token, seat_id=after(seats, holder).pk, name="乐不思蜀")
    lord = by_identity(table, "lord")[0]
    rebel = next(s for s in by_identity(table, "rebel") if s.pk != holder.pk)
    kill(table, rebel, lord)
    table.refresh_from_db()
    return table


def maneuver_eight() -> Table:
    """军争: weapons, armour and horses, two chained, the holder drank 酒, one dead, one dying."""
    table, seats = first_game(8, maneuvering=True)
    holder = holder_of(table)
    to_phase(table, "play")
    b, c, d, e = (after(seats, holder, n) for n in (1, 2, 3, 4))
    _equip(table, holder, "古锭刀", "赤兔")
    _equip(table, b, "藤甲", "绝影")
    _equip(table, c, "白银狮子", "麒麟弓")
    maneuver.seat_set_chained(token=holder.token, seat_id=b.pk, chained=True)
    maneuver.seat_set_chained(token=holder.token, seat_id=c.pk, chained=True)
    maneuver.seat_drink_wine(token=holder.token, seat_id=holder.pk)
    actions.trick_place(token=holder.token, seat_id=b.pk, name="兵粮寸断")
    lord = by_identity(table, "lord")[0]
    victims = [s for s in (d, e) if s.pk != lord.pk]
    kill(table, victims[0], lord)
    if len(victims) > 1:
        _dying(table, victims[1])
    table.refresh_from_db()
    return table


def ten() -> Table:
    """Ten seats, two dead, horses on both sides of the holder."""
    table, seats = first_game(10)
    holder = holder_of(table)
    _equip(table, holder, "赤兔")
    _equip(table, after(seats, holder, -1), "绝影")
    lord = by_identity(table, "lord")[0]
    for rebel in [s for s in by_identity(table, "rebel") if s.pk != holder.pk][:2]:
        kill(table, rebel, lord)
    table.refresh_from_db()
    return table


def souls() -> Table:
    """Dark souls: a dead loyalist's 罗汉 haunts the lord."""
    table, _seats = picked_all(6, dark_souls=True)
    lord = by_identity(table, "lord")[0]
    loyalist = by_identity(table, "loyalist")[0]
    kill(table, loyalist, by_identity(table, "rebel")[0])
    afterlife.soul_haunt(token=loyalist.token, seat_id=lord.pk)
    table.refresh_from_db()
    return table


def finished() -> Table:
    """The lord killed: every identity shown, nothing to change."""
    table, _seats = first_game(4)
    kill(table, by_identity(table, "lord")[0], by_identity(table, "rebel")[0])
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def threes() -> Table:
    """3 vs 3 in play, 军争 on, a vanguard dead."""
    table, seats = in_play("threes")
    Table.objects.filter(pk=table.pk).update(options={**table.options, "maneuvering": True})
    table.refresh_from_db()
    _equip(table, seats[0], "赤兔")
    kill(table, seats[2], seats[3])
    table.refresh_from_db()
    return table


SCENES: dict[str, Callable[[], Table]] = {
    "lobby": lobby,
    "dealt": dealt,
    "choosing": choosing,
    "plain_five": plain_five,
    "maneuver_eight": maneuver_eight,
    "ten": ten,
    "souls": souls,
    "finished": finished,
    "threes": threes,
}
