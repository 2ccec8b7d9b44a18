"""A game through the services: heroes, HP, dying, death, the end, undo and the next game."""

from __future__ import annotations

import pytest

from companion import actions
from companion.actions import ActionError, NotFound
from companion.models import Event, Game, Seat, Table
from companion.rules.heroes import LORD_HERO_IDS, hero_by_id
from tests.support.factories import make_table

pytestmark = pytest.mark.django_db


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


# Heroes ---------------------------------------------------------------------------------------


def test_start_offers_the_lord_five_with_the_three_lords() -> None:
    table, seats = started(5)
    assert table.status == "heroes" and table.hero_stage == "lord"
    lord = by_identity(table, "lord")[0]
    assert len(lord.hero_candidates) == 5
    assert set(LORD_HERO_IDS) <= set(lord.hero_candidates)
    assert all(not s.hero_candidates for s in seats if s.pk != lord.pk)


def test_first_game_mode_skips_heroes_with_hp_four_and_lord_five() -> None:
    table, seats = started(5, first_game_mode=True)
    assert table.status == "playing"
    for seat in seats:
        assert seat.hero == ""
        assert seat.max_hp == seat.hp == (5 if seat.identity == "lord" else 4)


def test_first_game_mode_four_players_lord_has_four() -> None:
    table, seats = started(4, first_game_mode=True)
    assert {s.max_hp for s in seats} == {4}


def test_others_wait_for_the_lord() -> None:
    table, seats = started(4)
    other = next(s for s in seats if s.identity != "lord")
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.hero_pick(token=other.token, hero_id="WEI002")
    assert err.value.code == "lord_first"
    assert snapshot(table) == before


def test_lord_pick_is_public_at_once_and_others_get_disjoint_candidates() -> None:
    table, seats = started(8)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id="SHU001")
    table.refresh_from_db()
    assert table.hero_stage == "others"
    lord = fresh(lord)
    assert lord.hero == "SHU001"
    hands = [fresh(s).hero_candidates for s in seats if s.pk != lord.pk]
    assert all(len(h) == 3 for h in hands)
    flat = [h for hand in hands for h in hand]
    assert len(flat) == len(set(flat)) and "SHU001" not in flat


def test_ten_players_get_two_candidates_each() -> None:
    table, seats = started(10)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
    hands = [fresh(s).hero_candidates for s in seats if s.pk != lord.pk]
    assert [len(h) for h in hands] == [2] * 9


def test_picks_stay_private_until_the_last_then_all_reveal_with_hp() -> None:
    table, seats = started(4)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id="WEI001")
    others = [fresh(s) for s in seats if s.pk != lord.pk]
    actions.hero_pick(token=others[0].token, hero_id=others[0].hero_candidates[0])
    # A change of mind is allowed until everyone has picked.
    actions.hero_pick(token=others[0].token, hero_id=others[0].hero_candidates[1])
    assert (
        fresh(others[0]).hero == "" and fresh(others[0]).hero_pick == others[0].hero_candidates[1]
    )
    actions.hero_pick(token=others[1].token, hero_id=others[1].hero_candidates[0])
    table.refresh_from_db()
    assert table.status == "heroes"
    actions.hero_pick(token=others[2].token, hero_id=others[2].hero_candidates[2])
    table.refresh_from_db()
    assert table.status == "playing" and table.hero_stage == ""
    for seat in map(fresh, seats):
        assert seat.hero == seat.hero_pick
        hero_hp = hero_by_id(seat.hero).hp
        # Four players: no lord bonus.
        assert seat.max_hp == seat.hp == hero_hp
    kinds = list(Event.objects.filter(table=table).values_list("kind", flat=True))
    assert kinds.count("heroes_revealed") == 1
    assert kinds.count("hero_repicked") == 1
    picked = Event.objects.filter(table=table, kind="hero_picked").first()
    assert "hero" not in picked.public and "pick" not in picked.public


def test_lord_gets_plus_one_from_five_players() -> None:
    table, seats = picked_all(5)
    lord = by_identity(table, "lord")[0]
    assert lord.max_hp == hero_by_id(lord.hero).hp + 1


def test_picking_a_hero_not_offered_or_twice_after_reveal_is_refused() -> None:
    table, seats = started(4)
    lord = by_identity(table, "lord")[0]
    not_offered = next(
        h for h in ["WU002", "WU003", "WU004", "QUN002"] if h not in lord.hero_candidates
    )
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.hero_pick(token=lord.token, hero_id=not_offered)
    assert err.value.code == "not_offered"
    assert snapshot(table) == before
    table, seats = picked_all(4)
    other = next(s for s in seats if s.identity != "lord")
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.hero_pick(token=other.token, hero_id=other.hero_candidates[0])
    assert err.value.code == "not_picking"
    assert snapshot(table) == before


def test_host_redeals_candidates_with_confirmation() -> None:
    table, seats = started(6)
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id="WU001")
    other = next(s for s in seats if s.pk != lord.pk)
    actions.hero_pick(token=other.token, hero_id=fresh(other).hero_candidates[0])
    before = snapshot(table)
    with pytest.raises(ActionError):
        actions.heroes_redeal(token=table.host_token)
    with pytest.raises(ActionError):
        actions.heroes_redeal(token=other.token, confirm=True)
    assert snapshot(table) == before
    actions.heroes_redeal(token=table.host_token, confirm=True)
    assert fresh(other).hero_pick == ""
    assert fresh(lord).hero == "WU001"
    assert Event.objects.filter(table=table, kind="heroes_redealt").count() == 1


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
    # Not the lord: a lord 孙权 given a 桃 by a Wu hero heals 2 (救援, tests/actions/test_flow.py).
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


def kill(table: Table, victim: Seat, killer: Seat | None) -> None:
    victim = fresh(victim)
    actions.seat_change_hp(
        token=table.host_token,
        seat_id=victim.pk,
        delta=-victim.hp,
        source=killer.pk if killer else "",
    )
    actions.seat_die(token=victim.token, seat_id=victim.pk)


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
