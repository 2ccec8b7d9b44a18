"""军争 at the table through the services: a seat's chain, its 酒 marker, and a whole
resolved damage applied as one change with one event that one undo restores (docs/rules.md §9.9)."""

from __future__ import annotations

import pytest

from companion import actions
from companion.actions import ActionError
from companion.games.maneuvering import actions as maneuver
from companion.models import Event, Seat, Table
from companion.read.state import public_state
from tests.actions.flow_helpers import after, holder_of, to_phase
from tests.actions.test_turns import first_game
from tests.support.game import fresh

pytestmark = pytest.mark.django_db


def rows(table: Table) -> tuple:
    table.refresh_from_db()
    return (
        table.version,
        tuple(
            Seat.objects.filter(table=table)
            .order_by("pk")
            .values_list("hp", "dying", "damage_source", "chained", "wine", "alive")
        ),
    )


def chain(table: Table, *seats: Seat) -> None:
    for seat in seats:
        maneuver.seat_set_chained(token=table.host_token, seat_id=seat.pk, chained=True)


def test_a_fire_slash_along_a_chain_is_one_change_and_one_undo() -> None:
    table, seats = first_game(4, maneuvering=True)
    a, b, c, d = seats
    chain(table, b, d)
    actions.equipment_set(token=table.host_token, seat_id=d.pk, name="藤甲")
    before = rows(table)
    maneuver.damage_resolve(token=a.token, target=b.pk, card="火杀", source=a.pk)
    b_now, d_now = fresh(b), fresh(d)
    assert (b_now.hp, b_now.chained) == (b.hp - 1, False)
    assert (d_now.hp, d_now.chained) == (d.hp - 2, False)  # 藤甲: fire +1 (001:465)
    assert fresh(c).hp == c.hp
    table.refresh_from_db()
    assert table.version == before[0] + 1
    event = Event.objects.get(table=table, version=table.version)
    assert event.kind == "damage_resolved" and event.undoable
    assert [(s["seat"], s["amount"], s["modifiers"]) for s in event.public["steps"]] == [
        (b.pk, 1, []),
        (d.pk, 2, ["chain_passed", "vine_fire"]),
    ]
    actions.event_undo(token=table.host_token, version=event.version)
    assert rows(table)[1] == before[1]


def test_wine_once_a_turn_then_spent_by_the_slash_and_undone_with_it() -> None:
    table, seats = first_game(4, maneuvering=True)
    me = holder_of(table)
    other = after(seats, me)
    with pytest.raises(ActionError) as early:
        maneuver.seat_drink_wine(token=me.token, seat_id=me.pk)
    assert early.value.code == "not_play_phase"
    to_phase(table, "play")
    maneuver.seat_drink_wine(token=me.token, seat_id=me.pk)
    assert fresh(me).wine == "active"
    with pytest.raises(ActionError) as again:
        maneuver.seat_drink_wine(token=me.token, seat_id=me.pk)
    assert again.value.code == "once_per_turn"
    before = rows(table)
    maneuver.damage_resolve(token=me.token, target=other.pk, card="杀", source=me.pk)
    assert fresh(other).hp == other.hp - 2  # 酒 +1 (001:431)
    assert fresh(me).wine == "spent"
    with pytest.raises(ActionError):  # still once a turn
        maneuver.seat_drink_wine(token=me.token, seat_id=me.pk)
    event = Event.objects.filter(table=table).latest("version")
    assert event.public["wine_spent"] is True
    actions.event_undo(token=me.token)
    assert rows(table)[1] == before[1]
    assert fresh(me).wine == "active"


def test_the_end_of_the_turn_clears_the_wine() -> None:
    table, seats = first_game(4, maneuvering=True)
    me = holder_of(table)
    to_phase(table, "play")
    maneuver.seat_drink_wine(token=me.token, seat_id=me.pk)
    actions.turn_end(token=me.token)
    assert fresh(me).wine == ""


def test_a_chain_and_a_wine_are_undone_on_their_own() -> None:
    table, seats = first_game(4, maneuvering=True)
    me = holder_of(table)
    other = after(seats, me)
    maneuver.seat_set_chained(token=me.token, seat_id=other.pk, chained=True)
    assert fresh(other).chained
    actions.event_undo(token=me.token)
    assert not fresh(other).chained
    to_phase(table, "play")
    maneuver.seat_drink_wine(token=me.token, seat_id=me.pk)
    actions.event_undo(token=me.token)
    assert fresh(me).wine == ""


def test_a_seat_left_dying_pauses_the_chain_until_saved_then_it_goes_on() -> None:
    """docs/rules.md §9.9: a hero who becomes dying in a chain is saved or dies before the chain goes on
    (the strip says the chain is paused)."""
    table, seats = first_game(4, maneuvering=True)
    a, b, c, _d = seats
    for seat in (b, c):
        actions.seat_change_hp(token=table.host_token, seat_id=seat.pk, delta=-(seat.hp - 1))
    chain(table, b, c)
    maneuver.damage_resolve(token=table.host_token, target=c.pk, card="雷杀", source=a.pk)
    event = Event.objects.filter(table=table).latest("version")
    assert event.public["dying"] == [c.pk]
    assert event.public["paused"]["rest"] == [b.pk]
    now_c, now_b = fresh(c), fresh(b)
    assert (now_c.hp, now_c.dying, now_c.damage_source_id, now_c.chained) == (0, True, a.pk, False)
    assert (now_b.hp, now_b.dying, now_b.chained) == (1, False, True)  # not yet
    state = public_state(fresh(a).table)
    assert state.games.get("chain_pause") is not None and state.games.get("chain_pause").waiting
    # Nothing else can be dealt, and the chain cannot go on, until he is settled (docs/rules.md §6).
    with pytest.raises(ActionError) as refused:
        maneuver.damage_resolve(token=table.host_token, target=a.pk, card="决斗", source=b.pk)
    assert refused.value.code == "dying_seat"
    with pytest.raises(ActionError) as early:
        maneuver.damage_continue(token=table.host_token)
    assert early.value.code == "dying"
    actions.seat_rescue(token=table.host_token, seat_id=c.pk, by=a.pk, kind="peach")
    state = public_state(fresh(a).table)
    assert state.games.get("chain_pause") is not None and not state.games.get("chain_pause").waiting
    maneuver.damage_continue(token=table.host_token)
    now_b = fresh(b)
    assert (now_b.hp, now_b.dying, now_b.damage_source_id, now_b.chained) == (0, True, a.pk, False)
    assert public_state(fresh(a).table).games.get("chain_pause") is None
    # The continuation is its own change: undone, the chain waits again.
    last = Event.objects.filter(table=table).latest("version")
    assert last.kind == "chain_continued"
    actions.event_undo(token=table.host_token, version=last.version)
    assert fresh(b).chained and fresh(b).hp == 1
    assert public_state(fresh(a).table).games.get("chain_pause") is not None


def test_vine_armour_and_lightning_through_the_service() -> None:
    table, seats = first_game(4, maneuvering=True)
    a, b, c, _d = seats
    actions.equipment_set(token=table.host_token, seat_id=b.pk, name="藤甲")
    actions.equipment_set(token=table.host_token, seat_id=c.pk, name="白银狮子")
    maneuver.damage_resolve(token=table.host_token, target=b.pk, card="南蛮入侵", source=a.pk)
    assert fresh(b).hp == b.hp  # 藤甲 (001:465)
    maneuver.damage_resolve(token=table.host_token, target=c.pk, card="闪电")
    assert fresh(c).hp == c.hp - 1  # 白银狮子 (001:463)


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"card": "杀", "weapon_skill": True}, "weapon_skill_not_held"),
        ({"card": "闪电", "source": "self"}, "lightning_has_no_source"),
        ({"card": "火杀"}, "no_maneuvering"),
        ({"card": "杀", "damage_type": "fire"}, "no_maneuvering"),
        ({"card": "fireball"}, "unknown_damage"),
    ],
)
def test_impossible_damage_changes_nothing(fields: dict[str, object], code: str) -> None:
    maneuvering = code != "no_maneuvering"
    table, seats = first_game(4, maneuvering=maneuvering)
    a, b = seats[0], seats[1]
    fields = {"source": a.pk, **fields}
    if fields["source"] == "self":
        fields["source"] = a.pk
    before = rows(table)
    with pytest.raises(ActionError) as refused:
        maneuver.damage_resolve(token=table.host_token, target=b.pk, **fields)
    assert refused.value.code == code
    assert rows(table) == before


def test_chains_and_wine_need_the_maneuvering_expansion() -> None:
    table, seats = first_game(4)
    with pytest.raises(ActionError) as refused:
        maneuver.seat_set_chained(token=table.host_token, seat_id=seats[1].pk, chained=True)
    assert refused.value.code == "no_maneuvering"


def test_a_player_may_not_deal_damage_between_two_others() -> None:
    table, seats = first_game(4, maneuvering=True)
    a, b, c, _d = seats
    with pytest.raises(ActionError) as refused:
        maneuver.damage_resolve(token=c.token, target=b.pk, card="杀", source=a.pk)
    assert refused.value.status == 403
