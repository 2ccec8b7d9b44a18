"""The service functions of companion.actions, the deal and how a change is written: options, the
deal and its refusals, one application per action id, one version and one event per change, and
the writes themselves (only the changed columns, only the indexes queries use).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion import actions
from companion.actions import ActionError
from companion.models import Event, Seat, Table
from tests.actions.services_helpers import events, snapshot
from tests.support.factories import make_table

pytestmark = [pytest.mark.backend, pytest.mark.django_db]


def test_options_change_and_refuse_unknown_or_late() -> None:
    table, _ = make_table(6)
    actions.table_set_options(token=table.host_token, options={"six_two_renegades": True})
    table.refresh_from_db()
    assert table.opts.six_two_renegades and table.options["six_two_renegades"] is True
    with pytest.raises(ActionError):
        actions.table_set_options(token=table.host_token, options={"bogus": True})
    actions.identities_deal(token=table.host_token)
    with pytest.raises(ActionError):
        actions.table_set_options(token=table.host_token, options={"first_game_mode": True})


@pytest.mark.parametrize("players", range(4, 11))
def test_deal_follows_distribution(players: int) -> None:
    table, _ = make_table(players, deal=True)
    dealt = sorted(table.seats.values_list("identity", flat=True))
    from companion.rules.identities import IdentityOptions, distribution

    expected = sorted(
        ident.value
        for ident, n in distribution(players, IdentityOptions()).items()
        for _ in range(n)
    )
    assert dealt == expected
    assert table.status == Table.Status.DEALT and table.locked and table.game_number == 1


@pytest.mark.parametrize(
    ("players", "option", "renegades"),
    [(6, "six_two_renegades", 2), (8, "eight_two_renegades", 2), (6, None, 1), (8, None, 1)],
)
def test_deal_honours_table_options(players: int, option: str | None, renegades: int) -> None:
    options = {option: True} if option else {}
    table, _ = make_table(players, deal=True, **options)
    assert table.seats.filter(identity="renegade").count() == renegades


def test_deal_needs_four_players() -> None:
    table, _ = make_table(3)
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.identities_deal(token=table.host_token)
    assert err.value.code == "player_count"
    assert snapshot(table) == before


def test_second_deal_needs_confirmation_and_is_recorded() -> None:
    table, _ = make_table(5, deal=True)
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.identities_deal(token=table.host_token)
    assert err.value.code == "confirm_redeal"
    assert snapshot(table) == before
    actions.identities_deal(token=table.host_token, confirm=True)
    table.refresh_from_db()
    assert events(table)[-1] == "identities_redealt"
    assert table.game_number == 1
    redeal = Event.objects.get(table=table, kind="identities_redealt")
    assert set(redeal.before["identities"]) == set(redeal.after["identities"])


def test_no_deal_after_start() -> None:
    table, _ = make_table(4, deal=True)
    actions.game_start(token=table.host_token)
    before = snapshot(table)
    with pytest.raises(ActionError):
        actions.identities_deal(token=table.host_token, confirm=True)
    assert snapshot(table) == before


def test_same_action_id_applies_once() -> None:
    table, _ = make_table(4)
    first = actions.identities_deal(token=table.host_token, action_id="tap-0001-abcd")
    again = actions.identities_deal(token=table.host_token, action_id="tap-0001-abcd")
    table.refresh_from_db()
    assert first.applied and not again.applied
    assert events(table).count("identities_dealt") == 1
    assert table.version == first.version


def test_every_change_bumps_version_by_one_with_one_event() -> None:
    table, seats = make_table(4)
    start = table.version
    actions.table_lock(token=table.host_token, locked=True)
    actions.seat_move(token=table.host_token, seat_id=seats[0].pk, position=3)
    actions.identities_deal(token=table.host_token)
    table.refresh_from_db()
    assert table.version == start + 3
    versions = list(
        Event.objects.filter(table=table, version__gt=start).values_list("version", flat=True)
    )
    assert versions == [start + 1, start + 2, start + 3]


def assigned_columns(queries: Any, table: str) -> list[str]:
    """The columns the one UPDATE of `table` among the captured queries sets."""
    updates = [q["sql"] for q in queries if q["sql"].startswith(f'UPDATE "{table}"')]
    assert len(updates) == 1, updates
    assigned = updates[0].split(" SET ", 1)[1].split(" WHERE ", 1)[0]
    return sorted(re.findall(r'"(\w+)" =', assigned))


def test_an_hp_tap_writes_only_the_table_fields_it_changed() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.support.game import picked_all

    table, seats = picked_all(4)
    with CaptureQueriesContext(connection) as queries:
        actions.seat_change_hp(token=seats[0].token, seat_id=seats[0].pk, delta=-1)
    assert assigned_columns(queries, "companion_table") == ["updated_at", "version"]
    table.refresh_from_db()
    assert table.version == Event.objects.filter(table=table).order_by("-version")[0].version


def test_an_hp_tap_writes_dying_and_its_source_only_when_they_may_change() -> None:
    """SQLite rewrites an index entry for every column an UPDATE names, changed or not: a plain
    HP change names `hp` alone; damage to 0 and the rescue name dying and its source too."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.support.game import picked_all

    def seat_columns(**change: object) -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            actions.seat_change_hp(token=seat.token, seat_id=seat.pk, **change)
        return assigned_columns(queries, "companion_seat")

    _table, seats = picked_all(4)
    seat = Seat.objects.get(pk=seats[1].pk)
    assert seat_columns(delta=-1) == ["hp"]
    assert seat_columns(delta=1) == ["hp"]
    seat.refresh_from_db()
    assert seat_columns(delta=-seat.hp, source=seats[0].pk) == ["damage_source_id", "dying", "hp"]
    seat.refresh_from_db()
    assert seat.dying and seat.damage_source_id == seats[0].pk
    assert seat_columns(delta=-1) == ["damage_source_id", "dying", "hp"]
    assert seat_columns(delta=2) == ["damage_source_id", "dying", "hp"]
    seat.refresh_from_db()
    assert seat.hp == 1 and not seat.dying and seat.damage_source_id is None
    assert seat_columns(delta=-1, source=seats[0].pk) == ["damage_source_id", "dying", "hp"]
    seat.refresh_from_db()
    assert seat.dying and seat.damage_source_id == seats[0].pk


def test_an_event_insert_maintains_only_the_indexes_queries_use() -> None:
    """Every tap appends an event, and each index costs the insert a page: the foreign keys
    have no index of their own (the table's is the prefix of (table, version)). The undo's
    (table, actor seat, version) is partial: only undoable events not undone yet."""
    from django.db import connection

    with connection.cursor() as cursor:
        described = connection.introspection.get_constraints(cursor, Event._meta.db_table)
    indexed = sorted(
        tuple(c["columns"]) for c in described.values() if c["index"] and not c["primary_key"]
    )
    assert indexed == sorted(
        [
            ("private_to_id",),
            ("table_id", "action_id"),
            ("table_id", "version"),
            ("table_id", "version"),
            ("table_id", "actor_seat_id", "version"),
        ]
    ), indexed


def test_dirty_table_fields_see_changes_made_in_place() -> None:
    from companion.actions.core import dirty_table_fields

    table, _seats = make_table(4)
    table = Table.objects.get(pk=table.pk)
    assert dirty_table_fields(table) == []
    table.phase_skips.append("draw")
    table.locked = True
    assert dirty_table_fields(table) == ["locked", "phase_skips"]
    # A table not read from the database (just made) saves every field.
    assert len(dirty_table_fields(Table(code="ZZZZZ"))) > 10


def test_the_replay_check_reads_the_action_index() -> None:
    """Asked on every tap: it must not scan the table's whole history (a long game has
    thousands of events). SQLite uses a partial index only when the query repeats its condition."""
    from django.db import connection

    from companion.actions.core import SEEN_SQL

    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL plans a tiny test table by its statistics, not by the query")
    table, _seats = make_table(4)
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + SEEN_SQL, [table.pk, "someaction"])
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert "event_action_once" in plan, plan
