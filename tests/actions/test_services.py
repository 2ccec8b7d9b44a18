"""The service functions of companion.actions: every flow of the table, and every refusal."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion import actions
from companion.actions import ActionError, NotFound
from companion.models import MAX_SEATS, Event, Seat, Table
from tests.support.factories import make_table, other_token

pytestmark = pytest.mark.django_db


def events(table: Table) -> list[str]:
    return list(
        Event.objects.filter(table=table).order_by("version").values_list("kind", flat=True)
    )


def snapshot(table: Table) -> tuple:
    """Everything a refused action must leave as it was."""
    table.refresh_from_db()
    seats = tuple(
        Seat.objects.filter(table=table)
        .order_by("pk")
        .values_list("pk", "position", "name", "token", "identity", "is_host", "alive")
    )
    return (table.version, table.status, table.locked, table.host_token, seats)


def test_table_create_gives_readable_code_and_first_event() -> None:
    table = actions.table_create()
    assert len(table.code) == 5
    assert not set(table.code) & set("01OIL")
    assert table.version == 1
    assert events(table) == ["table_created"]
    assert len(table.host_token) >= 22


def test_seat_join_records_event_and_bumps_version() -> None:
    table = actions.table_create()
    seat, created = actions.seat_join(code=table.code, name="  关羽  ", device="d1")
    table.refresh_from_db()
    assert created and seat.name == "关羽"
    assert seat.position == 0 and seat.slot == 0
    assert table.version == 2
    event = Event.objects.get(table=table, kind="seat_joined")
    assert event.version == 2 and event.subject_seat == seat and event.after["name"] == "关羽"


def test_seat_join_same_device_returns_same_seat() -> None:
    table = actions.table_create()
    first, created1 = actions.seat_join(code=table.code, name="A", device="phone")
    again, created2 = actions.seat_join(code=table.code, name="B", device="phone")
    assert created1 and not created2
    assert first.pk == again.pk
    assert Seat.objects.filter(table=table).count() == 1


def test_seat_join_accepts_lowercase_code() -> None:
    table = actions.table_create()
    seat, _ = actions.seat_join(code=table.code.lower(), name="A")
    assert seat.table_id == table.pk


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "name_empty"),
        ("   ", "name_empty"),
        ("x" * 17, "name_long"),
        ("a\u0000b", "name_chars"),
    ],
)
def test_seat_join_refuses_bad_names(name: str, code: str) -> None:
    table = actions.table_create()
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.seat_join(code=table.code, name=name)
    assert err.value.code == code
    assert snapshot(table) == before


def test_seat_join_name_16_characters_any_script_is_fine() -> None:
    table = actions.table_create()
    seat, _ = actions.seat_join(code=table.code, name="诸葛亮" * 5 + "孔")
    assert len(seat.name) == 16


def test_seat_join_refuses_duplicate_name_case_insensitive() -> None:
    table = actions.table_create()
    actions.seat_join(code=table.code, name="Zhao")
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.seat_join(code=table.code, name="zhao")
    assert err.value.code == "name_taken" and err.value.status == 409
    assert snapshot(table) == before


def test_seat_join_refuses_full_table() -> None:
    table, _ = make_table(MAX_SEATS)
    before = snapshot(table)
    with pytest.raises(ActionError) as err:
        actions.seat_join(code=table.code, name="Eleventh")
    assert err.value.code == "full"
    assert snapshot(table) == before


def test_seat_join_refuses_locked_and_started_tables() -> None:
    table, _ = make_table(4)
    actions.table_lock(token=table.host_token, locked=True)
    with pytest.raises(ActionError) as err:
        actions.seat_join(code=table.code, name="Late")
    assert err.value.code == "locked"
    actions.table_lock(token=table.host_token, locked=False)
    actions.identities_deal(token=table.host_token)
    with pytest.raises(ActionError) as err:
        actions.seat_join(code=table.code, name="Late")
    assert err.value.code == "started"


def test_seat_join_unknown_code_is_not_found() -> None:
    with pytest.raises(NotFound):
        actions.seat_join(code="ZZZZZ", name="A")
    with pytest.raises(NotFound):
        actions.seat_join(code="", name="A")


def test_database_refuses_an_eleventh_seat_even_without_the_ui() -> None:
    from django.db import IntegrityError, transaction

    table, _ = make_table(MAX_SEATS)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, slot=MAX_SEATS, position=10, name="X")
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, slot=3, position=10, name="Y")


def test_seat_move_reorders_and_renumbers() -> None:
    table, seats = make_table(5)
    actions.seat_move(token=table.host_token, seat_id=seats[4].pk, position=1)
    order = list(table.seats.order_by("position").values_list("name", flat=True))
    assert order == ["P1", "P5", "P2", "P3", "P4"]
    assert list(table.seats.order_by("position").values_list("position", flat=True)) == [
        0,
        1,
        2,
        3,
        4,
    ]
    event = Event.objects.get(table=table, kind="seat_moved")
    assert event.before["order"] != event.after["order"]


@pytest.mark.parametrize("position", [-1, 5, "x", None])
def test_seat_move_refuses_bad_positions(position: object) -> None:
    table, seats = make_table(5)
    before = snapshot(table)
    with pytest.raises(ActionError):
        actions.seat_move(token=table.host_token, seat_id=seats[0].pk, position=position)
    assert snapshot(table) == before


def test_host_actions_refused_for_players() -> None:
    table, seats = make_table(4)
    player = seats[1].token
    before = snapshot(table)
    calls = [
        lambda: actions.seat_move(token=player, seat_id=seats[0].pk, position=2),
        lambda: actions.seat_remove(token=player, seat_id=seats[0].pk),
        lambda: actions.table_lock(token=player, locked=True),
        lambda: actions.table_set_options(token=player, options={"first_game_mode": True}),
        lambda: actions.host_pass(token=player, seat_id=seats[1].pk),
        lambda: actions.identities_deal(token=player),
        lambda: actions.game_start(token=player),
        lambda: actions.seat_handover(token=player, seat_id=seats[0].pk),
    ]
    for call in calls:
        with pytest.raises(ActionError) as err:
            call()
        assert err.value.status == 403
    assert snapshot(table) == before


def test_actions_with_bad_tokens_are_not_found() -> None:
    table, seats = make_table(4)
    other, _ = make_table(4)
    before = snapshot(table)
    for token in ["", "nope", "x" * 200, other_token(seats[0].token)]:
        with pytest.raises(NotFound):
            actions.identities_deal(token=token)
    # Another table's host cannot touch this table's seats.
    with pytest.raises(ActionError):
        actions.seat_remove(token=other.host_token, seat_id=seats[0].pk)
    assert snapshot(table) == before


def test_seat_remove_deletes_seat_and_its_token() -> None:
    table, seats = make_table(4)
    actions.seat_remove(token=table.host_token, seat_id=seats[1].pk)
    assert not Seat.objects.filter(pk=seats[1].pk).exists()
    with pytest.raises(NotFound):
        actions.actor_for(seats[1].token)
    assert list(table.seats.values_list("position", flat=True).order_by("position")) == [0, 1, 2]


def test_seat_remove_after_deal_refused() -> None:
    table, seats = make_table(4, deal=True)
    before = snapshot(table)
    with pytest.raises(ActionError):
        actions.seat_remove(token=table.host_token, seat_id=seats[1].pk)
    assert snapshot(table) == before


def test_handover_issues_new_token_and_old_stops_at_once() -> None:
    # Issue 10: the host gets a one-time claim link, never the seat's token; in the lobby (no
    # secret yet) the seat moves at once and the first phone to claim the link gets it.
    table, seats = make_table(4)
    old = seats[2].token
    change, claim_token = actions.seat_handover(token=table.host_token, seat_id=seats[2].pk)
    assert claim_token != old and len(claim_token) >= 22
    assert change.revoked == [(seats[2].pk, old)]
    with pytest.raises(NotFound):
        actions.actor_for(old)
    with pytest.raises(NotFound):
        actions.actor_for(claim_token)
    _handover, new = actions.handover_claim(claim_token)
    assert new not in (old, claim_token)
    seat = actions.actor_for(new).seat
    assert seat.pk == seats[2].pk and seat.name == seats[2].name
    assert actions.handover_claim(claim_token)[1] == ""


def test_player_can_hand_over_own_seat_only() -> None:
    table, seats = make_table(4, deal=True)
    _change, claim_token = actions.seat_handover(token=seats[0].token, seat_id=seats[0].pk)
    _handover, new = actions.handover_claim(claim_token)
    seat = actions.actor_for(new).seat
    assert seat.pk == seats[0].pk and seat.identity == seats[0].identity
    with pytest.raises(ActionError):
        actions.seat_handover(token=seats[1].token, seat_id=seats[2].pk)


def test_host_pass_moves_rights_and_kills_console_link() -> None:
    table, seats = make_table(4)
    console = table.host_token
    actions.host_pass(token=console, seat_id=seats[1].pk)
    with pytest.raises(NotFound):
        actions.actor_for(console)
    assert actions.actor_for(seats[1].token).is_host
    # The new host can act, and pass it on again; the old host seat loses it.
    actions.table_lock(token=seats[1].token, locked=True)
    actions.host_pass(token=seats[1].token, seat_id=seats[3].pk)
    assert not actions.actor_for(seats[1].token).is_host
    assert actions.actor_for(seats[3].token).is_host
    assert Seat.objects.filter(table=table, is_host=True).count() == 1


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


def test_clean_code_maps_lookalikes() -> None:
    assert actions.clean_code(" abcd0 ") == "ABCDO"
    assert actions.clean_code("abc") == ""


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
    from companion.actions.core import _dirty_table_fields

    table, _seats = make_table(4)
    table = Table.objects.get(pk=table.pk)
    assert _dirty_table_fields(table) == []
    table.phase_skips.append("draw")
    table.locked = True
    assert _dirty_table_fields(table) == ["locked", "phase_skips"]
    # A table not read from the database (just made) saves every field.
    assert len(_dirty_table_fields(Table(code="ZZZZZ"))) > 10


def test_the_replay_check_reads_the_action_index() -> None:
    """Asked on every tap: it must not scan the table's whole history (a long game has
    thousands of events). SQLite uses a partial index only when the query repeats its condition."""
    from django.db import connection

    from companion.actions.core import _SEEN_SQL

    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL plans a tiny test table by its statistics, not by the query")
    table, _seats = make_table(4)
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + _SEEN_SQL, [table.pk, "someaction"])
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert "event_action_once" in plan, plan
