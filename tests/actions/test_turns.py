"""Equipment, delayed tricks, judgements, turns and phases through the services and pages."""

from __future__ import annotations

import pytest
from django.test import Client

from companion import actions
from companion.actions import ActionError
from companion.models import Event, Seat, Table
from companion.read.state import public_state
from tests.support.game import by_identity, fresh, picked_all
from tests.web.test_views import csrf_client, htmx_post

pytestmark = pytest.mark.django_db


def first_game(players: int = 4, **options: bool) -> tuple[Table, list[Seat]]:
    """A game in play without hero picks (first-game mode), seats in play order."""
    from tests.support.game import started

    table, _seats = started(players, first_game_mode=True, **options)
    return table, list(table.seats.order_by("position"))


def snapshot(table: Table) -> tuple:
    table.refresh_from_db()
    rows = tuple(
        Seat.objects.filter(table=table)
        .order_by("pk")
        .values_list("equipment", "judgement_zone", "hp", "alive")
    )
    return (table.version, table.turn_seat_id, table.phase, tuple(table.phase_skips), rows)


# Turns and phases ------------------------------------------------------------------------------


def test_game_begins_with_the_lords_start_phase_in_round_one() -> None:
    table, seats = first_game(5)
    lord = by_identity(table, "lord")[0]
    assert table.turn_seat_id == lord.pk and table.phase == "start" and table.round == 1


def test_phases_run_in_order_then_the_turn_passes_to_the_next_living_seat() -> None:
    table, seats = first_game(4)
    lord = by_identity(table, "lord")[0]
    phases = []
    for _ in range(5):
        actions.turn_advance(token=lord.token)
        table.refresh_from_db()
        phases.append(table.phase)
    assert phases == ["judgement", "draw", "play", "discard", "end"]
    actions.turn_advance(token=lord.token)
    table.refresh_from_db()
    after = seats[(seats.index(next(s for s in seats if s.pk == lord.pk)) + 1) % 4]
    assert table.turn_seat_id == after.pk and table.phase == "start" and table.round == 1


def test_round_counts_up_when_play_returns_to_the_lord() -> None:
    table, seats = first_game(4)
    for _ in range(4 * 6):
        table.refresh_from_db()
        actions.turn_advance(token=Seat.objects.get(pk=table.turn_seat_id).token)
    table.refresh_from_db()
    assert table.turn_seat_id == by_identity(table, "lord")[0].pk and table.round == 2


def test_dead_seats_are_skipped() -> None:
    table, seats = first_game(5)
    lord = by_identity(table, "lord")[0]
    index = seats.index(next(s for s in seats if s.pk == lord.pk))
    nxt = seats[(index + 1) % 5]  # never the lord: the lord is at `index`
    actions.seat_change_hp(token=nxt.token, seat_id=nxt.pk, delta=-fresh(nxt).hp)
    actions.seat_die(token=nxt.token, seat_id=nxt.pk)
    table.refresh_from_db()
    if table.status != "playing":
        return
    for _ in range(6):
        actions.turn_advance(token=lord.token)
    table.refresh_from_db()
    assert table.turn_seat_id == seats[(index + 2) % 5].pk


def test_only_the_current_player_or_host_advances() -> None:
    table, seats = first_game(4)
    other = next(s for s in seats if s.pk != table.turn_seat_id)
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.turn_advance(token=other.token)
    assert err.value.code == "not_your_turn" and err.value.status == 403
    assert snapshot(table) == before
    actions.turn_advance(token=table.host_token)
    table.refresh_from_db()
    assert table.phase == "judgement"


def test_host_corrects_turn_and_phase_and_refuses_nonsense() -> None:
    table, seats = first_game(4)
    target = seats[2]
    actions.turn_set(token=table.host_token, seat_id=target.pk, phase="play", round_number=3)
    table.refresh_from_db()
    assert (table.turn_seat_id, table.phase, table.round) == (target.pk, "play", 3)
    before = snapshot(table)
    for kwargs in ({"phase": "lunch"}, {"phase": "draw", "round_number": 0}):
        with pytest.raises(ActionError):
            actions.turn_set(token=table.host_token, seat_id=target.pk, **kwargs)
    with pytest.raises(ActionError):
        actions.turn_set(token=seats[0].token, seat_id=target.pk, phase="draw")
    assert snapshot(table) == before


def test_turn_state_shows_draw_count_hand_limit_and_phase_skills() -> None:
    table, seats = picked_all(4)
    holder = fresh(Seat.objects.get(pk=table.turn_seat_id))
    Seat.objects.filter(pk=holder.pk).update(hero="WU005")  # 周瑜: 英姿 draws one more
    actions.turn_set(token=table.host_token, seat_id=holder.pk, phase="draw")
    table.refresh_from_db()
    turn = public_state(table).turn
    assert turn.draw == 3
    assert [s.name_zh for s in turn.skills] == ["英姿"]
    actions.turn_set(token=table.host_token, seat_id=holder.pk, phase="discard")
    table.refresh_from_db()
    assert public_state(table).turn.hand_limit == fresh(holder).hp


# Equipment ---------------------------------------------------------------------------------------


def test_equip_replace_and_remove() -> None:
    table, seats = first_game(4)
    a = seats[0]
    actions.equipment_set(token=a.token, seat_id=a.pk, name="青釭剑")
    assert fresh(a).equipment == {"weapon": "青釭剑"}
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.equipment_set(token=a.token, seat_id=a.pk, name="麒麟弓")
    assert err.value.code == "slot_taken"
    assert snapshot(table) == before
    actions.equipment_set(token=a.token, seat_id=a.pk, name="麒麟弓", replace=True)
    actions.equipment_set(token=a.token, seat_id=a.pk, name="赤兔")
    actions.equipment_set(token=a.token, seat_id=a.pk, name="的卢")
    actions.equipment_set(token=a.token, seat_id=a.pk, name="八卦阵")
    assert fresh(a).equipment == {
        "weapon": "麒麟弓",
        "minus_horse": "赤兔",
        "plus_horse": "的卢",
        "armor": "八卦阵",
    }
    actions.equipment_remove(token=a.token, seat_id=a.pk, slot="weapon")
    assert "weapon" not in fresh(a).equipment


@pytest.mark.parametrize("name", ["", "倚天剑", "藤甲", "杀"])
def test_equipping_what_the_deck_does_not_have_is_refused(name: str) -> None:
    table, seats = first_game(4)
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.equipment_set(token=seats[0].token, seat_id=seats[0].pk, name=name)
    assert err.value.code == "no_card"
    assert snapshot(table) == before


def test_maneuvering_equipment_needs_the_option() -> None:
    table, seats = first_game(4, maneuvering=True)
    actions.equipment_set(token=seats[0].token, seat_id=seats[0].pk, name="藤甲")
    assert fresh(seats[0]).equipment == {"armor": "藤甲"}


def test_equipment_of_another_seat_needs_rights() -> None:
    table, seats = first_game(4)
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.equipment_set(token=seats[0].token, seat_id=seats[1].pk, name="青釭剑")
    assert err.value.status == 403
    assert snapshot(table) == before


def test_distances_update_with_equipment_and_deaths() -> None:
    table, seats = first_game(6)
    a = seats[0]
    state = public_state(table)
    rows = {r.seat_id: r for r in next(s for s in state.seats if s.id == a.pk).distances}
    opposite = seats[3]
    assert rows[opposite.pk].to == 3 and not rows[opposite.pk].attack
    actions.equipment_set(token=a.token, seat_id=a.pk, name="贯石斧")  # range 3
    table.refresh_from_db()
    rows = {
        r.seat_id: r for r in next(s for s in public_state(table).seats if s.id == a.pk).distances
    }
    assert rows[opposite.pk].attack and not rows[opposite.pk].reach
    assert len(public_state(table).matrix) == 6


def test_every_distance_row_is_the_rules_own_answer_for_that_pair() -> None:
    """Each row: the distance there and back, the attack and the trick reach, as the rules give
    them for that ordered pair, with horses and a weapon on, and a dead seat out of the ring."""
    from companion.queries.seats import seat_view
    from companion.rules.distance import can_attack, in_trick_reach, seat_distance

    table, seats = first_game(7)
    actions.equipment_set(token=seats[0].token, seat_id=seats[0].pk, name="贯石斧")
    actions.equipment_set(token=seats[0].token, seat_id=seats[0].pk, name="赤兔")
    actions.equipment_set(token=seats[4].token, seat_id=seats[4].pk, name="的卢")
    Seat.objects.filter(pk=seats[2].pk).update(alive=False)
    table.refresh_from_db()
    ordered = list(Seat.objects.filter(table=table).order_by("position"))
    views = [seat_view(s) for s in ordered]
    index = {s.pk: i for i, s in enumerate(ordered)}
    checked = 0
    for state_seat in public_state(table).seats:
        for row in state_seat.distances:
            i, j = index[state_seat.id], index[row.seat_id]
            assert (row.to, row.back, row.attack, row.reach) == (
                seat_distance(views, i, j),
                seat_distance(views, j, i),
                can_attack(views, i, j),
                in_trick_reach(views, i, j),
            ), (i, j)
            checked += 1
    assert checked == 6 * 5
    assert len({(r.to, r.back) for s in public_state(table).seats for r in s.distances}) > 2


# Delayed tricks and judgement ------------------------------------------------------------------


def in_play_phase(table: Table) -> Seat:
    """The current player, moved on to their play phase (delayed tricks are played then)."""
    holder = Seat.objects.get(pk=table.turn_seat_id)
    actions.turn_set(token=table.host_token, seat_id=holder.pk, phase="play")
    return holder


def test_no_two_delayed_tricks_of_one_name() -> None:
    table, seats = first_game(4)
    holder = in_play_phase(table)
    b = next(s for s in seats if s.pk != holder.pk)
    actions.trick_place(token=holder.token, seat_id=b.pk, name="乐不思蜀")
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.trick_place(token=holder.token, seat_id=b.pk, name="乐不思蜀")
    assert err.value.code == "duplicate"
    with pytest.raises(ActionError) as err:
        actions.trick_place(token=holder.token, seat_id=b.pk, name="兵粮寸断")
    assert err.value.code == "no_trick"
    assert snapshot(table) == before


def judged(table: Table, seat: Seat, trick: str, suit: str, rank: object) -> dict:
    actions.judgement_flip(
        token=seat.token,
        check={"乐不思蜀": "indulgence", "闪电": "lightning", "兵粮寸断": "supply_shortage"}[trick],
        suit=suit,
        rank=rank,
        seat_id=seat.pk,
        trick=trick,
    )
    return Event.objects.filter(table=table, kind="judgement").latest("version").public


def test_indulgence_failing_skips_the_play_phase() -> None:
    table, seats = first_game(4)
    holder = Seat.objects.get(pk=table.turn_seat_id)
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    actions.turn_advance(token=holder.token)  # to judgement
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.turn_advance(token=holder.token)
    assert err.value.code == "tricks_left"
    assert snapshot(table) == before
    result = judged(table, holder, "乐不思蜀", "spade", "K")
    assert result["outcome"] == "skip_play" and result["skips"] == "play"
    assert fresh(holder).judgement_zone == []
    actions.turn_advance(token=holder.token)  # draw
    actions.turn_advance(token=holder.token)  # play is skipped: discard
    table.refresh_from_db()
    assert table.phase == "discard"
    assert Event.objects.filter(table=table, kind="phase").latest("version").public["skipped"] == [
        "play"
    ]


def test_indulgence_heart_escapes() -> None:
    table, seats = first_game(4)
    holder = Seat.objects.get(pk=table.turn_seat_id)
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    result = judged(table, holder, "乐不思蜀", "heart", 1)
    assert result["outcome"] == "escaped" and "skips" not in result


def test_tricks_resolve_last_placed_first() -> None:
    table, seats = first_game(4)
    holder = Seat.objects.get(pk=table.turn_seat_id)
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="闪电")
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        judged(table, holder, "闪电", "heart", 5)
    assert err.value.code == "order"
    assert snapshot(table) == before
    judged(table, holder, "乐不思蜀", "heart", 5)
    judged(table, holder, "闪电", "heart", 5)


def test_lightning_not_striking_moves_on_over_dead_seats() -> None:
    table, seats = first_game(5)
    # Three seats in a row whose middle one is not the lord (whose death would end the game).
    i = next(i for i in range(5) if seats[(i + 1) % 5].identity != "lord")
    a, b, c = seats[i], seats[(i + 1) % 5], seats[(i + 2) % 5]
    actions.seat_change_hp(token=b.token, seat_id=b.pk, delta=-fresh(b).hp)
    actions.seat_die(token=b.token, seat_id=b.pk)
    table.refresh_from_db()
    if table.status != "playing":
        return
    actions.trick_place(token=table.host_token, seat_id=a.pk, name="闪电")
    result = judged(table, fresh(a), "闪电", "heart", 9)
    assert result["outcome"] == "passes_on" and result["moved_to"] == c.pk
    assert fresh(a).judgement_zone == [] and fresh(c).judgement_zone == ["闪电"]


@pytest.mark.parametrize(("rank", "strikes"), [(1, False), (2, True), (9, True), (10, False)])
def test_lightning_spade_two_to_nine_strikes_for_three_without_source(
    rank: int, strikes: bool
) -> None:
    table, seats = first_game(4)
    a = seats[0]
    hp = fresh(a).hp
    actions.trick_place(token=table.host_token, seat_id=a.pk, name="闪电")
    result = judged(table, fresh(a), "闪电", "spade", rank)
    assert (result["outcome"] == "struck") is strikes
    assert fresh(a).hp == (hp - 3 if strikes else hp)
    if strikes:
        assert fresh(a).judgement_zone == [] and fresh(a).damage_source_id is None


@pytest.mark.parametrize(("suit", "rank"), [("spade", 0), ("spade", 14), ("bells", 3), ("", 5)])
def test_bad_cards_are_refused(suit: str, rank: int) -> None:
    table, seats = first_game(4)
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.judgement_flip(token=seats[0].token, check="eight_trigrams", suit=suit, rank=rank)
    assert err.value.code == "bad_card"
    assert snapshot(table) == before


def test_guicai_replaces_before_the_result_takes_effect() -> None:
    table, seats = picked_all(4)
    sima = seats[1]
    Seat.objects.filter(table=table, hero="WEI002").update(hero="QUN002")
    Seat.objects.filter(pk=sima.pk).update(hero="WEI002")
    holder = seats[0]
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    actions.turn_set(token=table.host_token, seat_id=holder.pk, phase="judgement")
    actions.judgement_flip(
        token=holder.token, check="indulgence", suit="spade", rank=3, trick="乐不思蜀"
    )
    table.refresh_from_db()
    assert table.pending_judgement and fresh(holder).judgement_zone == ["乐不思蜀"]
    with pytest.raises(ActionError):
        actions.judgement_replace(token=seats[2].token, suit="heart", rank=3)
    with pytest.raises(ActionError):
        actions.turn_advance(token=holder.token)
    actions.judgement_replace(token=sima.token, suit="heart", rank=3)
    with pytest.raises(ActionError):
        actions.judgement_confirm(token=holder.token)
    actions.judgement_confirm(token=sima.token)
    result = Event.objects.filter(table=table, kind="judgement").latest("version").public
    assert result["outcome"] == "escaped" and result["replaced"]
    table.refresh_from_db()
    assert table.pending_judgement == {} and table.phase_skips == []


def test_tiandu_reminds_guo_jia() -> None:
    table, seats = picked_all(4)
    # No 司马懿 at the table, or the judgement would wait for 鬼才.
    Seat.objects.filter(table=table, hero="WEI002").update(hero="QUN002")
    Seat.objects.filter(pk=seats[0].pk).update(hero="WEI006")
    actions.judgement_flip(token=seats[0].token, check="free", suit="club", rank=7)
    result = Event.objects.filter(table=table, kind="judgement").latest("version").public
    assert result["tiandu"] is True


def test_death_clears_equipment_and_zone() -> None:
    table, seats = first_game(5)
    rebel = by_identity(table, "rebel")[0]
    actions.equipment_set(token=rebel.token, seat_id=rebel.pk, name="青釭剑")
    actions.trick_place(token=table.host_token, seat_id=rebel.pk, name="乐不思蜀")
    actions.seat_change_hp(token=rebel.token, seat_id=rebel.pk, delta=-fresh(rebel).hp)
    actions.seat_die(token=rebel.token, seat_id=rebel.pk)
    rebel = fresh(rebel)
    assert rebel.equipment == {} and rebel.judgement_zone == []


# Pages ----------------------------------------------------------------------------------------------


def test_judge_dialog_shows_odds_and_equip_dialog_lists_the_deck() -> None:
    table, seats = first_game(4)
    a = seats[0]
    judge = Client().get(f"/p/{a.token}/judge/{a.pk}").content.decode()
    # 108 cards (standard + EX): lightning 17/108, a heart 1/4, red 1/2.
    assert "16%" in judge and "25%" in judge and "50%" in judge
    assert 'value="supply_shortage"' not in judge
    equip = Client().get(f"/p/{a.token}/equip/{a.pk}").content.decode()
    for name in ("诸葛连弩", "麒麟弓", "八卦阵", "仁王盾", "寒冰剑", "赤兔", "绝影"):
        assert name in equip
    assert "藤甲" not in equip


def test_turn_tap_over_http_and_from_the_wrong_phone() -> None:
    table, seats = first_game(4)
    holder = Seat.objects.get(pk=table.turn_seat_id)
    other = next(s for s in seats if s.pk != holder.pk)
    client = csrf_client()
    assert htmx_post(client, f"/p/{other.token}/act/next").status_code == 403
    assert htmx_post(client, f"/p/{holder.token}/act/next").status_code == 204
    body = Client().get(f"/t/{table.code}/").content.decode()
    assert 'class="turn-bar"' in body and 'class="phase current"' in body
    assert 'class="matrix"' in body


def test_lightning_is_placed_in_ones_own_zone() -> None:
    table, seats = first_game(4)
    holder = in_play_phase(table)
    other = next(s for s in seats if s.pk != holder.pk)
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.trick_place(token=holder.token, seat_id=other.pk, name="闪电")
    assert err.value.code == "own_zone"
    assert snapshot(table) == before
    actions.trick_place(token=holder.token, seat_id=holder.pk, name="闪电")
    assert fresh(holder).judgement_zone == ["闪电"]


def test_judge_dialog_in_ones_judgement_phase_judges_the_next_trick() -> None:
    table, seats = first_game(4)
    holder = Seat.objects.get(pk=table.turn_seat_id)
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="闪电")
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    actions.turn_advance(token=holder.token)
    body = Client().get(f"/p/{holder.token}/judge/{holder.pk}").content.decode()
    assert 'name="trick" value="乐不思蜀"' in body
    assert 'value="indulgence" checked' in body
