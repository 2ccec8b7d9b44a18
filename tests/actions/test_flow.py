"""The game flow through the services and pages: the turn passes when its player dies, nothing
moves on while someone is dying, the lord's penalty, one-tap end of turn, undo of any change
(marked in the history and the timeline, at the same cost whatever the history), HP loss
against damage, and 救援."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from companion import actions, broadcast
from companion.actions import ActionError
from companion.models import Event, Seat, Table
from companion.state import public_state
from tests.actions.test_turns import first_game
from tests.support.game import by_identity, fresh, kill
from tests.web.test_views import csrf_client, htmx_post

pytestmark = pytest.mark.django_db


def holder_of(table: Table) -> Seat:
    table.refresh_from_db()
    return Seat.objects.get(pk=table.turn_seat_id)


def turn_of(table: Table) -> tuple[int | None, str, int, list[str]]:
    table.refresh_from_db()
    return table.turn_seat_id, table.phase, table.round, list(table.phase_skips)


def after(seats: list[Seat], seat: Seat, steps: int = 1) -> Seat:
    ids = [s.pk for s in seats]
    return seats[(ids.index(seat.pk) + steps) % len(seats)]


def to_phase(table: Table, phase: str) -> None:
    while holder_of(table) and table.phase != phase:
        actions.turn_advance(token=table.host_token)


def public_html(table: Table, lang: str = "zh-hans") -> str:
    table.refresh_from_db()
    return broadcast.render_public(public_state(table), lang)


# 8. The current player dies: the turn passes at once ------------------------------------------


def test_next_phase_and_end_turn_are_refused_while_someone_is_dying() -> None:
    table, seats = first_game(5)
    holder = holder_of(table)
    other = after(seats, holder, 2)
    actions.seat_change_hp(token=other.token, seat_id=other.pk, delta=-fresh(other).hp)
    before = turn_of(table), table.version
    for tap in (actions.turn_advance, actions.turn_end):
        for token in (holder.token, table.host_token):
            with pytest.raises(ActionError) as err:
                tap(token=token)
            assert err.value.code == "dying" and err.value.status == 409
            assert other.name in str(err.value.message)
    assert (turn_of(table), table.version) == before
    # Saved: the turn goes on.
    actions.seat_rescue(token=holder.token, seat_id=other.pk)
    actions.turn_advance(token=holder.token)
    assert turn_of(table)[1] == "judgement"


def test_when_the_current_player_dies_the_turn_passes_at_once_from_the_start() -> None:
    table, seats = first_game(5)
    lord = holder_of(table)
    # The lord's turn ends; the next player is in the play phase, with the draw phase skipped.
    actions.turn_end(token=lord.token)
    current = holder_of(table)
    Table.objects.filter(pk=table.pk).update(phase="play", phase_skips=["draw"])
    actions.seat_change_hp(token=current.token, seat_id=current.pk, delta=-fresh(current).hp)
    actions.seat_die(token=current.token, seat_id=current.pk)
    table.refresh_from_db()
    if table.status != "playing":  # a 5-player game cannot end with one death
        pytest.fail("the game ended")
    nxt = after(seats, current)
    assert turn_of(table) == (nxt.pk, "start", 1, [])
    died = Event.objects.get(table=table, kind="died")
    assert died.public["turn_to"] == nxt.pk
    assert f"{nxt.name} 的回合" in public_html(table)
    # The next player plays on: no tap was needed to move the turn off the dead seat.
    actions.turn_advance(token=nxt.token)
    assert turn_of(table)[:2] == (nxt.pk, "judgement")


def test_a_death_on_the_last_turn_of_a_round_starts_the_next_round_at_the_lord() -> None:
    table, seats = first_game(4)
    lord = holder_of(table)
    last = after(seats, lord, 3)
    Table.objects.filter(pk=table.pk).update(turn_seat=last, phase="discard")
    kill(table, last, None)
    assert turn_of(table) == (lord.pk, "start", 2, [])


def test_someone_else_dying_leaves_the_turn_where_it_is() -> None:
    table, seats = first_game(5)
    holder = holder_of(table)
    actions.turn_advance(token=holder.token)
    victim = after(seats, holder, 2)
    kill(table, victim, None)
    assert turn_of(table)[:2] == (holder.pk, "judgement")
    assert "turn_to" not in Event.objects.get(table=table, kind="died").public


def test_undoing_the_death_gives_the_turn_back() -> None:
    table, seats = first_game(5)
    actions.turn_end(token=holder_of(table).token)
    current = holder_of(table)
    actions.turn_advance(token=current.token)
    was = turn_of(table)
    kill(table, current, None)
    assert turn_of(table)[0] != current.pk
    died = Event.objects.get(table=table, kind="died")
    actions.event_undo(token=table.host_token, version=died.version)
    assert turn_of(table) == was
    assert fresh(current).alive and fresh(current).dying


# 9. The lord killing a loyalist discards the lord's equipment --------------------------------


def test_the_lord_killing_a_loyalist_loses_the_equipment_and_one_undo_brings_it_back() -> None:
    table, seats = first_game(7)
    lord = by_identity(table, "lord")[0]
    loyalist = by_identity(table, "loyalist")[0]
    actions.equipment_set(token=lord.token, seat_id=lord.pk, name="麒麟弓")
    actions.equipment_set(token=lord.token, seat_id=lord.pk, name="赤兔")
    state = public_state(table)
    reach = {r.seat_id: r.attack for r in next(s for s in state.seats if s.id == lord.pk).distances}
    assert all(reach.values())  # 麒麟弓: range 5 reaches everyone at a 7-seat table
    kill(table, loyalist, lord)
    assert fresh(lord).equipment == {}
    died = Event.objects.get(table=table, kind="died")
    assert died.public["consequence"] == "lord_discards_all"
    assert sorted(died.public["discarded"]) == sorted(["麒麟弓", "赤兔"])
    # Distances and the attack range follow at once: range 1, no -1 horse.
    table.refresh_from_db()
    state = public_state(table)
    rows = next(s for s in state.seats if s.id == lord.pk).distances
    assert [r.attack for r in rows if r.to > 1] and not any(r.attack for r in rows if r.to > 1)
    ring_item = public_html(table).split(f'data-seat="{lord.pk}"')[1].split("</li>")[0]
    assert "麒麟弓" not in ring_item and "赤兔" not in ring_item
    # One undo: the loyalist is back (dying) and so is the lord's equipment.
    actions.event_undo(token=table.host_token, version=died.version)
    assert fresh(lord).equipment == {"weapon": "麒麟弓", "minus_horse": "赤兔"}
    assert fresh(loyalist).alive


@pytest.mark.parametrize(("victim", "killer"), [("rebel", "lord"), ("loyalist", "rebel")])
def test_other_kills_leave_the_killers_equipment(victim: str, killer: str) -> None:
    table, seats = first_game(7)
    dead = by_identity(table, victim)[0]
    by = by_identity(table, killer)[0]
    actions.equipment_set(token=by.token, seat_id=by.pk, name="青釭剑")
    kill(table, dead, by)
    assert fresh(by).equipment == {"weapon": "青釭剑"}


# 10. One tap ends a turn ----------------------------------------------------------------------


def test_one_tap_ends_a_turn_with_nothing_to_judge() -> None:
    table, seats = first_game(4)
    lord = holder_of(table)
    start = table.version
    actions.turn_end(token=lord.token)
    nxt = after(seats, lord)
    assert turn_of(table) == (nxt.pk, "start", 1, [])
    assert table.version == start + 1
    ended = Event.objects.get(table=table, kind="turn_ended")
    assert ended.public["from"] == lord.pk
    assert ended.public["through"] == ["judgement", "draw", "play", "discard", "end"]
    html = public_html(table)
    assert f"{lord.name} 结束了回合" in html and f"{nxt.name} 的回合" in html


def test_end_turn_from_any_phase_leaves_out_skipped_phases_and_counts_rounds() -> None:
    table, seats = first_game(4)
    for _ in range(3):
        actions.turn_end(token=holder_of(table).token)
    last = holder_of(table)
    Table.objects.filter(pk=table.pk).update(phase="draw", phase_skips=["play"])
    actions.turn_end(token=last.token)
    lord = by_identity(table, "lord")[0]
    assert turn_of(table) == (lord.pk, "start", 2, [])
    ended = Event.objects.filter(table=table, kind="turn_ended").latest("version")
    assert ended.public["through"] == ["discard", "end"]
    assert ended.public["skipped"] == ["play"]


def test_end_turn_is_refused_with_tricks_to_judge_a_pending_judgement_or_another_phone() -> None:
    table, seats = first_game(4)
    holder = holder_of(table)
    other = after(seats, holder)
    with pytest.raises(ActionError) as err:
        actions.turn_end(token=other.token)
    assert err.value.code == "not_your_turn"
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    for phase in ("start", "judgement"):
        to_phase(table, phase)
        with pytest.raises(ActionError) as err:
            actions.turn_end(token=holder.token)
        assert err.value.code == "tricks_left"
    Table.objects.filter(pk=table.pk).update(pending_judgement={"seat": holder.pk})
    with pytest.raises(ActionError) as err:
        actions.turn_end(token=holder.token)
    assert err.value.code == "pending"


def test_a_lightning_left_after_the_judgement_phase_does_not_stop_the_end_of_a_turn() -> None:
    table, seats = first_game(4)
    holder = holder_of(table)
    to_phase(table, "play")
    actions.trick_place(token=holder.token, seat_id=holder.pk, name="闪电")
    actions.turn_end(token=holder.token)
    assert turn_of(table)[0] == after(seats, holder).pk


def test_the_turn_bar_offers_end_turn_unless_tricks_wait_and_the_tap_works_over_http() -> None:
    table, seats = first_game(4)
    holder = holder_of(table)
    html = public_html(table)
    assert 'hx-post="act/endturn"' in html and "结束回合" in html
    assert 'hx-post="act/next"' in html  # stepping phase by phase stays possible
    with translation.override("en"):
        assert "End turn" in public_html(table, "en")
    actions.trick_place(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    assert 'hx-post="act/endturn"' not in public_html(table)
    actions.trick_remove(token=table.host_token, seat_id=holder.pk, name="乐不思蜀")
    client = csrf_client()
    assert htmx_post(client, f"/p/{after(seats, holder).token}/act/endturn").status_code == 403
    assert htmx_post(client, f"/p/{holder.token}/act/endturn").status_code == 204
    assert turn_of(table)[0] == after(seats, holder).pk


# 11. Undo my last change, of any kind ---------------------------------------------------------


def test_undo_my_last_change_of_every_kind_in_turn() -> None:
    table, seats = first_game(4, maneuvering=True)
    me = holder_of(table)
    other = after(seats, me)
    to_phase(table, "draw")  # the next phase is play, where tricks are placed
    open_before = set(
        Event.objects.filter(table=table, undoable=True, undone_by__isnull=True).values_list(
            "pk", flat=True
        )
    )
    snapshots = []

    def state() -> tuple:
        me_now = fresh(me)
        other_now = fresh(other)
        return (
            turn_of(table),
            me_now.hp,
            me_now.dying,
            me_now.equipment,
            other_now.judgement_zone,
            other_now.hp,
        )

    steps = [
        lambda: actions.turn_advance(token=me.token),
        lambda: actions.equipment_set(token=me.token, seat_id=me.pk, name="青釭剑"),
        lambda: actions.equipment_set(token=me.token, seat_id=me.pk, name="麒麟弓", replace=True),
        lambda: actions.equipment_remove(token=me.token, seat_id=me.pk, slot="weapon"),
        lambda: actions.trick_place(token=me.token, seat_id=other.pk, name="乐不思蜀"),
        lambda: actions.trick_remove(token=me.token, seat_id=other.pk, name="乐不思蜀"),
        lambda: actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-1, source=other.pk),
        lambda: actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-1, loss=True),
        lambda: actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=1),
        lambda: actions.turn_end(token=me.token),
    ]
    for step in steps:
        snapshots.append(state())
        step()
    for expected in reversed(snapshots):
        actions.event_undo(token=me.token)
        assert state() == expected
    with pytest.raises(ActionError) as err:
        actions.event_undo(token=me.token)
    assert err.value.code == "nothing"
    assert Event.objects.filter(table=table, kind="undo").count() == len(steps)
    open_after = Event.objects.filter(table=table, undoable=True, undone_by__isnull=True)
    assert set(open_after.values_list("pk", flat=True)) == open_before  # the host's own steps


def test_undo_of_a_turn_end_restores_the_skips_and_the_turns_start_time() -> None:
    table, seats = first_game(4)
    me = holder_of(table)
    Table.objects.filter(pk=table.pk).update(phase="draw", phase_skips=["play"])
    table.refresh_from_db()
    started = table.turn_started_at
    actions.turn_end(token=me.token)
    actions.event_undo(token=me.token)
    table.refresh_from_db()
    assert (table.turn_seat_id, table.phase, table.phase_skips) == (me.pk, "draw", ["play"])
    assert table.turn_started_at == started


def test_an_undo_that_would_lose_a_newer_change_is_refused() -> None:
    table, seats = first_game(4)
    me = holder_of(table)
    nxt = after(seats, me)
    actions.equipment_set(token=me.token, seat_id=me.pk, name="青釭剑")
    actions.equipment_set(token=table.host_token, seat_id=me.pk, name="麒麟弓", replace=True)
    before = (fresh(me).equipment, Table.objects.get(pk=table.pk).version)
    with pytest.raises(ActionError) as err:
        actions.event_undo(token=me.token)
    assert err.value.code == "changed"
    assert (fresh(me).equipment, Table.objects.get(pk=table.pk).version) == before
    # A turn that has moved on since cannot be pulled back by its old holder.
    actions.turn_end(token=me.token)
    actions.turn_advance(token=nxt.token)
    with pytest.raises(ActionError) as err:
        actions.event_undo(token=me.token)
    assert err.value.code == "changed"
    assert turn_of(table)[:2] == (nxt.pk, "judgement")


def test_undone_lines_are_struck_through_and_labelled_in_the_history_and_the_timeline() -> None:
    table, seats = first_game(4)
    me = holder_of(table)
    actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-1)
    damage = Event.objects.get(table=table, kind="damage")
    actions.event_undo(token=me.token)
    assert Event.objects.get(pk=damage.pk).undone_by == Table.objects.get(pk=table.pk).version
    state = public_state(Table.objects.get(pk=table.pk))
    line = next(e for e in state.history if e.version == damage.version)
    assert line.undone
    assert not next(e for e in state.history if e.kind == "undo").undone
    zh = public_html(table)
    with translation.override("zh-hans"):
        words = line.text  # the line itself, without a change number (issue 11, item 17)
    assert f'class=" undone">{words} <span class="undone-mark">已撤销</span>' in zh
    assert '<span class="undone-mark">已撤销</span>' in zh
    assert '<span class="undone-mark">undone</span>' in public_html(table, "en")
    # The seat's HP history marks it too.
    dialog = Client().get(f"/p/{me.token}/seat/{me.pk}").content.decode()
    assert 'class="undone"' in dialog
    # The timeline of the finished game.
    kill(table, by_identity(table, "lord")[0], None)
    table.refresh_from_db()
    assert table.status == "finished"
    timeline = public_state(table).timeline
    assert next(e for e in timeline if e.version == damage.version).undone
    # The history and the timeline.
    assert public_html(table).count('<span class="undone-mark">已撤销</span>') == 2
    # The finished game's own page.
    page = Client().get(f"/t/{table.code}/game/{table.game_number}/").content.decode()
    assert '<span class="undone-mark">已撤销</span>' in page


def test_the_host_still_undoes_any_change_by_number_and_a_phone_only_its_own_last() -> None:
    table, seats = first_game(4)
    me = holder_of(table)
    other = after(seats, me)
    actions.equipment_set(token=me.token, seat_id=me.pk, name="青釭剑")
    equipped = Event.objects.get(table=table, kind="equipped")
    actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-1)
    with pytest.raises(ActionError) as err:
        actions.event_undo(token=me.token, version=equipped.version)  # not my last one
    assert err.value.status == 403
    with pytest.raises(ActionError) as err:
        actions.event_undo(token=other.token, version=equipped.version)
    assert err.value.status == 403
    actions.event_undo(token=table.host_token, version=equipped.version)
    assert fresh(me).equipment == {}
    # My last one is still the damage; then nothing (the equip is undone already).
    actions.event_undo(token=me.token)
    assert fresh(me).hp == fresh(me).max_hp
    with pytest.raises(ActionError) as err:
        actions.event_undo(token=me.token)
    assert err.value.code == "nothing"


# 14. Undo costs the same at 5,000 events as at 50 -----------------------------------------------


def _grow_history(table: Table, seats: list[Seat], count: int) -> None:
    """`count` more events as a long evening leaves them: every seat's HP taps (undoable), some
    undone, and phases; written in bulk (5,000 taps through the services take minutes)."""
    table.refresh_from_db()
    version = table.version
    rows = []
    for i in range(count):
        seat = seats[i % len(seats)]
        version += 1
        kind = "phase" if i % 7 == 0 else "damage"
        rows.append(
            Event(
                table_id=table.pk,
                version=version,
                game_number=table.game_number,
                kind=kind,
                actor=f"seat:{seat.pk}",
                actor_seat_id=seat.pk,
                subject_seat_id=seat.pk,
                before={"hp": 4},
                after={"hp": 3},
                public={"seat": seat.pk, "name": seat.name},
                undoable=True,
                undone_by=version + 1 if i % 3 == 0 else None,
            )
        )
    Event.objects.bulk_create(rows, batch_size=500)
    Table.objects.filter(pk=table.pk).update(version=version)


def _undo_cost(history: int) -> tuple[int, int, list[str]]:
    """Queries and SQLite virtual-machine steps (a measure of rows read) of one undo of the
    phone's last change after `history` events."""
    table, seats = first_game(4)
    me = holder_of(table)
    _grow_history(table, seats, history)
    actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-1)
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    connection.ensure_connection()
    raw = connection.connection
    sqlite = connection.vendor == "sqlite"
    if sqlite:
        raw.set_progress_handler(count, 1)
    try:
        with CaptureQueriesContext(connection) as queries:
            actions.event_undo(token=me.token)
    finally:
        if sqlite:
            raw.set_progress_handler(None, 1)
    assert fresh(me).hp == fresh(me).max_hp
    return len(queries.captured_queries), steps[0], [q["sql"] for q in queries.captured_queries]


def test_undo_costs_the_same_at_5000_events_as_at_50() -> None:
    small_queries, small_steps, _ = _undo_cost(50)
    big_queries, big_steps, sql = _undo_cost(5000)
    assert big_queries == small_queries, sql
    if connection.vendor == "sqlite":
        # Rows read: the same work within a few index levels, not a hundred times more.
        assert big_steps < small_steps * 1.2, (small_steps, big_steps)


def test_the_last_undoable_change_is_found_through_its_partial_index() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's query plan (PostgreSQL plans by table statistics)")
    table, seats = first_game(4)
    me = holder_of(table)
    query = (
        Event.objects.filter(table=table, actor_seat=me, undoable=True, undone_by__isnull=True)
        .order_by("-version")
        .values("pk")[:1]
    )
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
        plan = " ".join(str(row[-1]) for row in cursor.fetchall())
    assert "USING INDEX event_undo_last" in plan or "USING COVERING INDEX event_undo_last" in plan
    assert "SCAN" not in plan and "TEMP B-TREE" not in plan


# 15. HP loss against damage, and 救援 ----------------------------------------------------------


def test_hp_loss_has_no_source_and_a_death_by_it_rewards_nobody() -> None:
    table, seats = first_game(5)
    rebel = by_identity(table, "rebel")[0]
    other = next(s for s in seats if s.pk != rebel.pk)
    hp = fresh(rebel).hp
    actions.seat_change_hp(token=rebel.token, seat_id=rebel.pk, delta=-(hp - 1), loss=True)
    lost = Event.objects.get(table=table, kind="lose_hp")
    assert lost.public["amount"] == hp - 1 and "source" not in lost.public
    assert "skills" not in lost.public
    # Damage from a source first, then HP loss while dying: the damage's source stays the killer.
    actions.seat_change_hp(token=rebel.token, seat_id=rebel.pk, delta=-1, loss=True)
    rebel_now = fresh(rebel)
    assert rebel_now.dying and rebel_now.damage_source_id is None
    actions.seat_die(token=rebel.token, seat_id=rebel.pk)
    died = Event.objects.get(table=table, kind="died")
    assert died.public["killer"] is None and died.public["consequence"] == ""
    assert other.name not in died.public["killer_name"]
    zh = public_html(table)
    assert f"{rebel.name} 失去了 {hp - 1} 点体力" in zh


def test_hp_loss_refuses_a_gain_and_the_dialog_offers_it_over_http() -> None:
    table, seats = first_game(4)
    me = seats[0]
    with pytest.raises(ActionError) as err:
        actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=1, loss=True)
    assert err.value.code == "loss_positive"
    dialog = Client().get(f"/p/{me.token}/seat/{me.pk}").content.decode()
    assert 'name="lose" value="1"' in dialog and "失去体力" in dialog
    client = csrf_client()
    response = htmx_post(
        client, f"/p/{me.token}/act/hp", {"seat": me.pk, "delta": "-1", "lose": "1"}
    )
    assert response.status_code == 204
    assert Event.objects.filter(table=table, kind="lose_hp").count() == 1
    assert not Event.objects.filter(table=table, kind="damage").exists()


def test_damage_names_the_damage_skills_hp_loss_none() -> None:
    table, seats = first_game(4)
    sima, guo = seats[0], seats[1]
    Seat.objects.filter(pk=sima.pk).update(hero="WEI002")  # 司马懿: 反馈 needs a source
    Seat.objects.filter(pk=guo.pk).update(hero="WEI006")  # 郭嘉: 遗计
    actions.seat_change_hp(token=sima.token, seat_id=sima.pk, delta=-1, source=guo.pk)
    actions.seat_change_hp(token=sima.token, seat_id=sima.pk, delta=-1)
    actions.seat_change_hp(token=guo.token, seat_id=guo.pk, delta=-1)
    actions.seat_change_hp(token=guo.token, seat_id=guo.pk, delta=-1, loss=True)
    events = list(Event.objects.filter(table=table, kind__in=["damage", "lose_hp"]))
    assert [e.public.get("skills") for e in events] == [["反馈"], None, ["遗计"], None]
    zh = public_html(table)
    assert "可发动：反馈" in zh and "可发动：遗计" in zh


def sun_quan_dying(giver_hero: str) -> tuple[Table, Seat, Seat]:
    table, seats = first_game(5)
    lord = by_identity(table, "lord")[0]
    giver = next(s for s in seats if s.pk != lord.pk)
    Seat.objects.filter(pk=lord.pk).update(hero="WU001", hp=0, dying=True)
    Seat.objects.filter(pk=giver.pk).update(hero=giver_hero)
    return table, lord, giver


def test_a_wu_heros_peach_heals_the_dying_lord_sun_quan_two() -> None:
    table, lord, giver = sun_quan_dying("WU002")  # 甘宁, Wu
    actions.seat_rescue(token=giver.token, seat_id=lord.pk)
    lord_now = fresh(lord)
    assert lord_now.hp == 2 and not lord_now.dying
    rescue = Event.objects.get(table=table, kind="rescue")
    assert rescue.public["jiuyuan"] is True
    assert "救援" in public_html(table)
    # Undo takes both points back.
    actions.event_undo(token=giver.token)
    assert fresh(lord).hp == 0 and fresh(lord).dying


@pytest.mark.parametrize("giver_hero", ["SHU001", ""])
def test_any_other_peach_heals_one(giver_hero: str) -> None:
    table, lord, giver = sun_quan_dying(giver_hero)
    actions.seat_rescue(token=giver.token, seat_id=lord.pk)
    assert fresh(lord).hp == 1
    assert "jiuyuan" not in Event.objects.get(table=table, kind="rescue").public


def test_jiuyuan_never_heals_past_max_hp() -> None:
    table, lord, giver = sun_quan_dying("WU003")
    Seat.objects.filter(pk=lord.pk).update(max_hp=1)
    actions.seat_rescue(token=giver.token, seat_id=lord.pk)
    assert fresh(lord).hp == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_the_existing_history() -> None:
    """0006_flow_event_undo: events recorded before it are marked undoable (the kinds the old
    undo could pick) and undone (from the undo events' JSON, read once by the migration)."""
    from django.db.migrations.executor import MigrationExecutor

    old, new = [("companion", "0005_secrets_handover")], [("companion", "0006_flow_event_undo")]
    executor = MigrationExecutor(connection)
    executor.migrate(old)
    try:
        apps = executor.loader.project_state(old).apps
        OldTable, OldEvent = (
            apps.get_model("companion", "Table"),
            apps.get_model("companion", "Event"),
        )
        table = OldTable.objects.create(code="MIGRA", host_token="t" * 32)

        def event(version: int, kind: str, after: dict | None = None) -> None:
            OldEvent.objects.create(
                table=table, version=version, kind=kind, actor="host", after=after or {}
            )

        event(1, "damage")
        event(2, "damage")
        event(3, "undo", {"undoes": 2})
        event(4, "phase")
        executor = MigrationExecutor(connection)
        executor.migrate(new)
        marks = dict(Event.objects.filter(table_id=table.pk).values_list("version", "undoable"))
        undone = dict(Event.objects.filter(table_id=table.pk).values_list("version", "undone_by"))
        assert marks == {1: True, 2: True, 3: False, 4: False}
        assert undone == {1: None, 2: 3, 3: None, 4: None}
    finally:
        MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())


def test_undoing_a_phase_keeps_a_skip_a_judgement_added_since() -> None:
    table, seats = first_game(4)
    me = holder_of(table)
    actions.trick_place(token=table.host_token, seat_id=me.pk, name="乐不思蜀")
    actions.turn_advance(token=me.token)  # to judgement
    actions.judgement_flip(
        token=me.token, check="indulgence", suit="spade", rank=5, seat_id=me.pk, trick="乐不思蜀"
    )
    assert turn_of(table) == (me.pk, "judgement", 1, ["play"])
    actions.event_undo(token=me.token)  # the phase change (the judgement is not undoable)
    assert turn_of(table) == (me.pk, "start", 1, ["play"])


@pytest.mark.django_db(transaction=True)
def test_the_migration_carries_the_option_flags_into_the_options_field() -> None:
    """0008_table_mode_options: every table's five option booleans become its options, read
    through the identity game's typed options; and back, when the migration is undone."""
    from django.db.migrations.executor import MigrationExecutor

    flags = ("six_two_renegades", "eight_two_renegades", "first_game_mode", "referee_mode")
    old, new = [("companion", "0007_tap_outcome")], [("companion", "0008_table_mode_options")]
    executor = MigrationExecutor(connection)
    executor.migrate(old)
    try:
        OldTable = executor.loader.project_state(old).apps.get_model("companion", "Table")
        plain = OldTable.objects.create(code="MIGRB", host_token="u" * 32)
        set_ = OldTable.objects.create(
            code="MIGRC", host_token="v" * 32, maneuvering=True, referee_mode=True
        )
        executor = MigrationExecutor(connection)
        executor.migrate(new)
        first, second = Table.objects.get(pk=plain.pk), Table.objects.get(pk=set_.pk)
        assert first.mode == second.mode == "identity"
        assert first.options == dict.fromkeys((*flags, "maneuvering"), False)
        assert second.opts.maneuvering and second.opts.referee_mode
        assert not second.opts.first_game_mode and not second.opts.six_two_renegades
        executor = MigrationExecutor(connection)
        executor.migrate(old)
        BackTable = executor.loader.project_state(old).apps.get_model("companion", "Table")
        back = BackTable.objects.get(pk=set_.pk)
        assert back.maneuvering and back.referee_mode and not back.first_game_mode
    finally:
        MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())
