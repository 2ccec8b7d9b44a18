"""The game flow through the services and pages, undo: undo of any change (marked in the history
and the timeline, at the same cost whatever the history, never losing a newer change), and the
migrations that carried the existing history's undo marks and the tables' option flags over.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from companion import actions
from companion.actions import ActionError
from companion.models import Event, Seat, Table
from companion.read.state import public_state
from tests.actions.flow_helpers import after, holder_of, public_html, to_phase, turn_of
from tests.actions.test_turns import first_game
from tests.support.game import by_identity, fresh, kill

pytestmark = pytest.mark.django_db


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
        words = line.text  # the line itself, without a change number
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


@pytest.mark.backend
def test_undo_costs_the_same_at_5000_events_as_at_50() -> None:
    small_queries, small_steps, _ = _undo_cost(50)
    big_queries, big_steps, sql = _undo_cost(5000)
    assert big_queries == small_queries, sql
    if connection.vendor == "sqlite":
        # Rows read: the same work within a few index levels, not a hundred times more.
        assert big_steps < small_steps * 1.2, (small_steps, big_steps)


@pytest.mark.backend
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


@pytest.mark.backend
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


@pytest.mark.backend
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
        # Only the columns 0008 knows (later migrations add others to Table).
        rows = Table.objects.only("id", "code", "mode", "options")
        first, second = rows.get(pk=plain.pk), rows.get(pk=set_.pk)
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
