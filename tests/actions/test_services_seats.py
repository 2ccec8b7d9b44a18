"""The service functions of companion.actions, the table and its seats: creating a table, joining
(names, codes, a full, locked or started table), moving and removing seats, host-only actions,
bad tokens, handing a seat or the host's rights over; and every refusal.
"""

from __future__ import annotations

import pytest

from companion import actions
from companion.actions import ActionError, NotFound
from companion.models import MAX_SEATS, Event, Seat
from tests.actions.services_helpers import events, snapshot
from tests.support.factories import make_table, other_token

pytestmark = pytest.mark.django_db


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
    # The host gets a one-time claim link, never the seat's token; in the lobby (no
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


def test_clean_code_maps_lookalikes() -> None:
    assert actions.clean_code(" abcd0 ") == "ABCDO"
    assert actions.clean_code("abc") == ""
