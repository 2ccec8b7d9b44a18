"""A game through the services: HP (damage, recovery, max HP, who may change whose), dying and
death (peaches, wine, the killer's reward or penalty, dead seats).
"""

from __future__ import annotations

import pytest

from companion import actions
from companion.actions import ActionError
from companion.models import Event, Seat
from tests.support.game import by_identity, fresh, kill, picked_all, snapshot

pytestmark = pytest.mark.django_db


# HP ------------------------------------------------------------------------------------------


def test_damage_with_source_and_recovery_capped_at_max() -> None:
    table, seats = picked_all(4)
    a, b = seats[0], seats[1]
    actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=-2, source=b.pk)
    assert fresh(a).hp == a.max_hp - 2
    event = Event.objects.filter(table=table, kind="damage").latest("version")
    assert event.public["source"] == b.pk and event.public["amount"] == 2
    actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=5)
    assert fresh(a).hp == a.max_hp
    with pytest.raises(ActionError) as err:
        actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=1)
    assert err.value.code == "full_hp"


def test_players_change_only_their_own_hp_unless_referee_mode() -> None:
    table, seats = picked_all(4)
    a, b = seats[0], seats[1]
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.seat_change_hp(token=a.token, seat_id=b.pk, delta=-1)
    assert err.value.status == 403
    assert snapshot(table) == before
    actions.seat_change_hp(token=table.host_token, seat_id=b.pk, delta=-1)
    assert fresh(b).hp == b.max_hp - 1
    actions.table_set_options(token=table.host_token, options={"referee_mode": True})
    actions.seat_change_hp(token=a.token, seat_id=b.pk, delta=-1)
    assert fresh(b).hp == b.max_hp - 2
    event = Event.objects.filter(table=table, kind="damage").latest("version")
    assert event.actor_seat_id == a.pk


@pytest.mark.parametrize(
    ("delta", "source", "kind"),
    [
        (0, "", "normal"),
        (-11, "", "normal"),
        ("x", "", "normal"),
        (-1, "999999", "normal"),
        (-1, "", "fire"),
        (-1, "", "acid"),
    ],
)
def test_bad_hp_changes_are_refused(delta: object, source: str, kind: str) -> None:
    table, seats = picked_all(4)
    before = snapshot(table)
    with pytest.raises(ActionError):
        actions.seat_change_hp(
            token=seats[0].token, seat_id=seats[0].pk, delta=delta, source=source, damage_type=kind
        )
    assert snapshot(table) == before


def test_max_hp_change_clamps_hp() -> None:
    table, seats = picked_all(4)
    a = seats[0]
    actions.seat_set_max_hp(token=a.token, seat_id=a.pk, max_hp_value=2)
    a = fresh(a)
    assert a.max_hp == 2 and a.hp == 2
    for bad in (0, 13, "x"):
        with pytest.raises(ActionError):
            actions.seat_set_max_hp(token=a.token, seat_id=a.pk, max_hp_value=bad)


# Dying and death --------------------------------------------------------------------------------


def test_dying_then_saved_by_peaches() -> None:
    table, seats = picked_all(4)
    # Not the lord: a lord 孙权 given a 桃 by a Wu hero heals 2 (救援, tests/actions/test_flow_hp_loss.py).
    a = next(s for s in seats if s.identity != "lord")
    b = next(s for s in seats if s.pk != a.pk)
    actions.seat_change_hp(token=table.host_token, seat_id=a.pk, delta=-(a.hp + 1), source=b.pk)
    a = fresh(a)
    assert a.dying and a.hp == -1 and a.damage_source_id == b.pk
    actions.seat_rescue(token=b.token, seat_id=a.pk)
    assert fresh(a).dying and fresh(a).hp == 0
    actions.seat_rescue(token=a.token, seat_id=a.pk)
    a = fresh(a)
    assert not a.dying and a.hp == 1
    assert Event.objects.filter(table=table, kind="rescue").count() == 2
    with pytest.raises(ActionError) as err:
        actions.seat_rescue(token=b.token, seat_id=a.pk)
    assert err.value.code == "not_dying"


def test_wine_needs_the_expansion() -> None:
    table, seats = picked_all(4)
    a = seats[0]
    actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=-a.hp)
    with pytest.raises(ActionError) as err:
        actions.seat_rescue(token=a.token, seat_id=a.pk, kind="wine")
    assert err.value.code == "no_wine"
    table, seats = picked_all(4, maneuvering=True)
    a = seats[0]
    actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=-a.hp, damage_type="fire")
    actions.seat_rescue(token=a.token, seat_id=a.pk, kind="wine")
    assert fresh(a).hp == 1 and not fresh(a).dying


def test_a_player_cannot_record_anothers_peach() -> None:
    table, seats = picked_all(4)
    a, b, c = seats[0], seats[1], seats[2]
    actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=-a.hp)
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.seat_rescue(token=b.token, seat_id=a.pk, by=c.pk)
    assert err.value.status == 403
    assert snapshot(table) == before


def test_death_reveals_identity_clears_zones_and_names_the_killer() -> None:
    table, seats = picked_all(5)
    rebel = by_identity(table, "rebel")[0]
    loyalist = by_identity(table, "loyalist")[0]
    Seat.objects.filter(pk=rebel.pk).update(equipment={"weapon": "青釭剑"}, judgement_zone=["闪电"])
    kill(table, rebel, loyalist)
    rebel = fresh(rebel)
    assert not rebel.alive and rebel.killer_id == loyalist.pk
    assert rebel.equipment == {} and rebel.judgement_zone == []
    died = Event.objects.get(table=table, kind="died")
    assert died.public["identity"] == "rebel"
    assert died.public["consequence"] == "draw3"
    table.refresh_from_db()
    assert table.status == "playing"


def test_lord_killing_a_loyalist_is_penalised() -> None:
    table, seats = picked_all(7)
    lord = by_identity(table, "lord")[0]
    loyalist = by_identity(table, "loyalist")[0]
    kill(table, loyalist, lord)
    assert Event.objects.get(table=table, kind="died").public["consequence"] == "lord_discards_all"


def test_lightning_death_has_no_killer_and_no_reward() -> None:
    table, seats = picked_all(5)
    rebel = by_identity(table, "rebel")[0]
    kill(table, rebel, None)
    died = Event.objects.get(table=table, kind="died")
    assert died.public["killer"] is None and died.public["consequence"] == ""


def test_only_dying_players_die_and_not_by_others() -> None:
    table, seats = picked_all(4)
    a, b = seats[0], seats[1]
    before = snapshot(table)
    with pytest.raises(ActionError):
        actions.seat_die(token=a.token, seat_id=a.pk)
    actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=-a.hp)
    with pytest.raises(ActionError):
        actions.seat_die(token=b.token, seat_id=a.pk)
    assert fresh(a).alive
    # Only the damage itself changed the table.
    assert snapshot(table)[0] == before[0] + 1


def test_dead_seats_take_no_hp_and_deal_no_damage() -> None:
    table, seats = picked_all(5)
    rebel = by_identity(table, "rebel")[0]
    other = next(s for s in seats if s.pk != rebel.pk)
    kill(table, rebel, None)
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.seat_change_hp(token=table.host_token, seat_id=rebel.pk, delta=-1)
    assert err.value.code == "dead"
    with pytest.raises(ActionError) as err:
        actions.seat_change_hp(token=other.token, seat_id=other.pk, delta=-1, source=rebel.pk)
    assert err.value.code == "dead_source"
    assert snapshot(table) == before
