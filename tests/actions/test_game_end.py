"""A game through the services: the end (who wins, nothing changes after it), the next game, and
undo (a phone's own last change, someone else's, a death recorded by mistake).
"""

from __future__ import annotations

import pytest

from companion import actions
from companion.actions import ActionError, NotFound
from companion.models import Event, Game
from tests.support.game import by_identity, fresh, kill, picked_all, snapshot

pytestmark = pytest.mark.django_db


# End of the game ------------------------------------------------------------------------------


def test_lord_side_wins_when_rebels_and_renegade_are_dead() -> None:
    table, seats = picked_all(4)
    lord = by_identity(table, "lord")[0]
    for victim in by_identity(table, "rebel") + by_identity(table, "renegade"):
        kill(table, victim, lord)
    table.refresh_from_db()
    assert table.status == "finished" and table.winner == "lord"
    game = Game.objects.get(table=table, number=table.game_number)
    assert game.winner == "lord" and game.ended_at is not None
    results = {r["identity"]: r for r in game.results}
    assert len(results["lord"]["kills"]) == 2
    assert Event.objects.filter(table=table, kind="game_over").count() == 1


def test_rebels_win_when_the_lord_dies() -> None:
    table, seats = picked_all(5)
    lord = by_identity(table, "lord")[0]
    rebel = by_identity(table, "rebel")[0]
    kill(table, lord, rebel)
    table.refresh_from_db()
    assert table.winner == "rebels"


def test_renegade_wins_the_final_duel() -> None:
    table, seats = picked_all(4)
    renegade = by_identity(table, "renegade")[0]
    for victim in by_identity(table, "rebel") + by_identity(table, "loyalist"):
        kill(table, victim, renegade)
    kill(table, by_identity(table, "lord")[0], renegade)
    table.refresh_from_db()
    assert table.winner == "renegade"


def test_renegade_dying_in_the_final_duel_is_recorded() -> None:
    table, seats = picked_all(4)
    lord = by_identity(table, "lord")[0]
    for victim in by_identity(table, "rebel") + by_identity(table, "loyalist"):
        kill(table, victim, lord)
    renegade = by_identity(table, "renegade")[0]
    kill(table, renegade, lord)
    assert fresh(renegade).final_duel
    table.refresh_from_db()
    assert table.winner == "lord"


def test_no_hp_changes_after_the_end() -> None:
    table, seats = picked_all(4)
    lord = by_identity(table, "lord")[0]
    kill(table, lord, None)
    table.refresh_from_db()
    assert table.status == "finished"
    alive = next(s for s in seats if fresh(s).alive)
    with pytest.raises(ActionError):
        actions.seat_change_hp(token=table.host_token, seat_id=alive.pk, delta=-1)


def test_new_game_keeps_players_and_deals_fresh() -> None:
    table, seats = picked_all(4)
    kill(table, by_identity(table, "lord")[0], None)
    actions.identities_deal(token=table.host_token)
    table.refresh_from_db()
    assert table.status == "dealt" and table.game_number == 2 and table.winner == ""
    assert Game.objects.filter(table=table).count() == 2
    for seat in map(fresh, seats):
        assert seat.alive and seat.identity and seat.hero == "" and seat.hp == 0
        assert seat.token == next(s.token for s in seats if s.pk == seat.pk)
    assert Game.objects.get(table=table, number=1).winner == "rebels"


# Undo -----------------------------------------------------------------------------------------


def test_phone_undoes_its_own_last_change() -> None:
    table, seats = picked_all(4)
    a = seats[0]
    actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=-1)
    actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=-1)
    actions.event_undo(token=a.token)
    assert fresh(a).hp == a.max_hp - 1
    actions.event_undo(token=a.token)
    assert fresh(a).hp == a.max_hp
    with pytest.raises(ActionError) as err:
        actions.event_undo(token=a.token)
    assert err.value.code == "nothing"


def test_undo_of_someone_elses_change_needs_host() -> None:
    table, seats = picked_all(4)
    a, b = seats[0], seats[1]
    actions.seat_change_hp(token=a.token, seat_id=a.pk, delta=-1)
    event = Event.objects.filter(table=table, kind="damage").latest("version")
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.event_undo(token=b.token, version=event.version)
    assert err.value.status == 403
    assert snapshot(table) == before
    actions.event_undo(token=table.host_token, version=event.version)
    assert fresh(a).hp == a.max_hp
    with pytest.raises(ActionError) as err:
        actions.event_undo(token=table.host_token, version=event.version)
    assert err.value.code == "undone"
    with pytest.raises(NotFound):
        actions.event_undo(token=table.host_token, version=99999)


def test_host_undoes_a_death_recorded_by_mistake() -> None:
    table, seats = picked_all(5)
    rebel = by_identity(table, "rebel")[0]
    kill(table, rebel, seats[0] if seats[0].pk != rebel.pk else seats[1])
    died = Event.objects.get(table=table, kind="died")
    with pytest.raises(ActionError):
        actions.event_undo(token=rebel.token, version=died.version)
    actions.event_undo(token=table.host_token, version=died.version)
    rebel = fresh(rebel)
    assert rebel.alive and rebel.dying and rebel.killer_id is None
    actions.seat_rescue(token=table.host_token, seat_id=rebel.pk, by=rebel.pk)
    assert fresh(rebel).hp == 1
