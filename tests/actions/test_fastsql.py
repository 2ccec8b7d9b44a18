"""companion.infra.fastsql reads and writes rows exactly as the ORM does (on SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Model
from django.utils import timezone

from companion import actions
from companion.infra import fastrows, fastsql
from companion.models import Event, Seat, Table
from tests.support.game import picked_all

pytestmark = [pytest.mark.backend, pytest.mark.django_db]


@pytest.fixture(autouse=True, params=["fastsql", "stock"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test twice: fastsql's own SQL, and its stock path (STOCK_PATH=1: the ORM's calls
    behind the same functions, companion/settings.py); both must match the ORM."""
    monkeypatch.setattr(fastsql, "STOCK", request.param == "stock")
    return str(request.param)


def as_dict(obj: object) -> dict[str, object]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}  # type: ignore[attr-defined]


def test_read_one_equals_the_orm_for_every_field() -> None:
    table, seats = picked_all(5)
    Seat.objects.filter(pk=seats[0].pk).update(
        equipment={"weapon": "诸葛连弩"}, judgement_zone=["闪电"], dying=True
    )
    Table.objects.filter(pk=table.pk).update(
        phase_skips=["draw"], pending_judgement={"check": "lightning", "rank": 5}
    )
    for seat in seats:
        orm = Seat.objects.get(pk=seat.pk)
        fast = fastrows.read_one(Seat, "token = %s", [seat.token])
        assert fast is not None and as_dict(fast) == as_dict(orm)
    orm_table = Table.objects.get(pk=table.pk)
    fast_table = fastrows.read_one(Table, "id = %s", [table.pk], lock=True)
    assert fast_table is not None and as_dict(fast_table) == as_dict(orm_table)
    assert isinstance(fast_table.updated_at, type(orm_table.updated_at))
    assert fast_table._loaded_values == orm_table._loaded_values  # type: ignore[attr-defined]
    assert fastrows.read_one(Seat, "token = %s", ["no-such-token"]) is None


def test_read_pair_equals_the_orm_for_both_rows() -> None:
    table, seats = picked_all(5)
    Seat.objects.filter(pk=seats[2].pk).update(equipment={"horse_minus": "赤兔"}, dying=True)
    Table.objects.filter(pk=table.pk).update(phase_skips=["draw"])
    join = f"{Table._meta.db_table}.id = {Seat._meta.db_table}.table_id"
    where = f"{Seat._meta.db_table}.token = %s"
    orm_table = Table.objects.get(pk=table.pk)
    for seat in seats:
        pair = fastrows.read_pair(Seat, Table, join, where, [seat.token])
        assert pair is not None
        fast_seat, fast_table = pair
        assert as_dict(fast_seat) == as_dict(Seat.objects.get(pk=seat.pk))
        assert as_dict(fast_table) == as_dict(orm_table)
        assert fast_table._loaded_values == orm_table._loaded_values  # type: ignore[attr-defined]
        assert not fast_seat._state.adding and not fast_table._state.adding
    assert fastrows.read_pair(Seat, Table, join, where, ["no-such-token"]) is None


def test_read_rows_reads_each_row_as_read_one_does_in_a_batch_too() -> None:
    """Several reads sent together (inside a transaction's batch: one round trip on
    PostgreSQL) find what `read_one` finds, each; a lock first, then what it guards."""
    from django.db import transaction

    table, seats = picked_all(4)
    Seat.objects.filter(pk=seats[1].pk).update(equipment={"armor": "八卦阵"})
    queries = [
        (
            Table,
            "id = (SELECT table_id FROM companion_seat WHERE token = %s)",
            [seats[1].token],
            True,
        ),
        (Seat, "token = %s", [seats[1].token], False),
        (Seat, "token = %s", ["no-such-token"], False),
    ]
    with transaction.atomic(), fastsql.batch():
        found = fastrows.read_rows(queries)
    assert as_dict(found[0]) == as_dict(Table.objects.get(pk=table.pk))
    assert as_dict(found[1]) == as_dict(Seat.objects.get(pk=seats[1].pk))
    assert found[2] is None
    assert [as_dict(r) if r else None for r in fastrows.read_rows(queries)] == [
        as_dict(r) if r else None for r in found
    ]


def test_writes_in_a_batch_are_applied_at_its_end_and_their_errors_raised(path: str) -> None:
    """A batch's writes leave the rows they leave outside one; a failing one fails the
    transaction (raised at the batch's end at the latest), which then leaves nothing."""
    from django.db import DatabaseError, IntegrityError, transaction

    table, seats = picked_all(4)
    with transaction.atomic(), fastsql.batch():
        seat = Seat.objects.get(pk=seats[1].pk)
        seat.hp = 1
        fastsql.update(seat, ["hp"])
        event = fastsql.insert(
            Event(table=table, version=table.version + 1, kind="damage", actor="x"), key=False
        )
    assert Seat.objects.get(pk=seat.pk).hp == 1
    stored = Event.objects.get(table=table, version=table.version + 1)
    assert event.pk in (None, stored.pk)  # PostgreSQL was not asked for it
    with pytest.raises((IntegrityError, DatabaseError)):
        with transaction.atomic(), fastsql.batch():
            seat.hp = 2
            fastsql.update(seat, ["hp"])
            # The same (table, version) again: the unique constraint refuses it.
            fastsql.insert(
                Event(table=table, version=table.version + 1, kind="damage", actor="y"), key=False
            )
    assert Seat.objects.get(pk=seat.pk).hp == 1


def test_update_writes_like_save_with_update_fields() -> None:
    table, seats = picked_all(4)
    seat = Seat.objects.get(pk=seats[1].pk)
    seat.hp, seat.dying, seat.damage_source_id = -1, True, seats[0].pk
    seat.name = "not saved"
    fastsql.update(seat, ["hp", "dying", "damage_source"])
    again = Seat.objects.get(pk=seat.pk)
    assert (again.hp, again.dying, again.damage_source_id) == (-1, True, seats[0].pk)
    assert again.name == seats[1].name
    before = Table.objects.get(pk=table.pk).updated_at
    table = Table.objects.get(pk=table.pk)
    table.version += 1
    table.phase_skips = ["play"]
    fastsql.update(table, ["version", "updated_at", "phase_skips"])
    stored = Table.objects.get(pk=table.pk)
    assert stored.version == table.version and stored.phase_skips == ["play"]
    # auto_now applies, as in save().
    assert stored.updated_at >= before and stored.updated_at == table.updated_at


def test_insert_matches_create_and_keeps_constraints() -> None:
    from django.db import IntegrityError, transaction

    table, seats = picked_all(4)
    event = fastsql.insert(
        Event(
            table=table,
            version=table.version + 1,
            game_number=table.game_number,
            kind="damage",
            actor=f"seat:{seats[0].pk}",
            actor_seat=seats[0],
            subject_seat=seats[1],
            before={"hp": 4},
            after={"hp": 3, "names": ["甲", "乙"]},
            public={"seat": seats[1].pk},
            action_id="fastsqltest1",
        )
    )
    assert event.pk is not None and not event._state.adding
    stored = Event.objects.get(pk=event.pk)
    assert as_dict(stored) == as_dict(event)
    assert timezone.now() - stored.created_at < timedelta(minutes=1)
    duplicate = Event(
        table=table, version=table.version + 2, kind="damage", actor="x", action_id="fastsqltest1"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        fastsql.insert(duplicate)


def test_a_game_played_on_either_path_leaves_the_rows_the_tap_says(path: str) -> None:
    """The actions run through fastsql's functions whichever path is on: the lock and read of
    the actor, the HP write, the version bump and the event."""
    table, seats = picked_all(5)
    me = seats[2]
    actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-1)
    actions.equipment_set(token=table.host_token, seat_id=me.pk, name="赤兔")
    actions.seat_change_hp(token=me.token, seat_id=me.pk, delta=-(me.hp - 1))
    after = Seat.objects.get(pk=me.pk)
    assert (after.hp, after.dying, after.equipment) == (0, True, {"minus_horse": "赤兔"})
    events = list(Event.objects.filter(table=table).order_by("-version")[:3])
    assert [e.kind for e in events] == ["damage", "equipped", "damage"]
    assert Table.objects.get(pk=table.pk).version == events[0].version


def test_a_row_built_without_init_is_the_row_from_db_builds() -> None:
    """`fastsql.built` (every row fastsql reads, and `Table.from_db`) makes the instance Django's
    `Model.from_db` makes: the same attributes in the same order, the same state."""
    table, seats = picked_all(4)
    actions.seat_change_hp(token=seats[1].token, seat_id=seats[1].pk, delta=-1, action_id="b-1")
    event = Event.objects.filter(table=table).latest("version")
    for model, row in ((Seat, seats[1]), (Table, table), (Event, event)):
        names = [f.attname for f in model._meta.concrete_fields]
        values = list(model.objects.filter(pk=row.pk).values_list(*names).get())
        fast = fastsql.built(model, "default", names, values)
        stock = Model.from_db.__func__(model, "default", names, values)  # type: ignore[attr-defined]
        assert type(fast) is model
        fast_dict, stock_dict = dict(vars(fast)), dict(vars(stock))
        fast_state, stock_state = fast_dict.pop("_state"), stock_dict.pop("_state")
        assert list(fast_dict.items()) == list(stock_dict.items())
        assert (
            (fast_state.adding, fast_state.db)
            == (stock_state.adding, stock_state.db)
            == (
                False,
                "default",
            )
        )
        assert fast.pk == row.pk and as_dict(fast) == as_dict(model.objects.get(pk=row.pk))
    # A partial row is Django's own.
    partial = fastsql.built(Seat, "default", ["id", "name"], [seats[1].pk, seats[1].name])
    assert partial.get_deferred_fields()
