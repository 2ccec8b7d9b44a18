"""The last-three rule (docs/rules.md §9.4: "Last three: when only three players are
alive, after three more rounds every living player loses 1 HP at the end of each round (失去体力,
no source); if they all go out together the rule carries into the next round."), as actions:
the death that starts it, the countdown, the loss inside the turn action that starts the next
round (one event), the carry, the undo. docs/variants.md: the round of the third-last death is
not counted; the first loss is at the end of the fourth round after."""

from __future__ import annotations

import pytest
from django.utils import translation

from companion import actions
from companion.games.last_three import actions as last_three
from companion.models import Event, Seat, Table
from companion.read.state import public_state
from companion.words.history import describe as describe_any
from tests.support.game import by_identity, fresh, kill, picked_all

pytestmark = pytest.mark.django_db


def describe(kind: str, public: dict) -> dict:
    """A history line, in English."""
    with translation.override("en"):
        return describe_any(kind, public)


def three_left(**options: bool) -> tuple[Table, list[Seat]]:
    """5 players; the loyalist and the renegade are out: the lord and the two rebels play on."""
    table, _seats = picked_all(5, last_three=True, **options)
    kill(table, by_identity(table, "loyalist")[0], None)
    kill(table, by_identity(table, "renegade")[0], None)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table, list(table.seats.filter(alive=True).order_by("position"))


def end_round(table: Table) -> Event:
    """End turns (as the host) until a new round starts; its event."""
    start = table.round
    while table.round == start:
        actions.turn_end(token=table.host_token)
        table.refresh_from_db()
    return Event.objects.filter(table=table).order_by("-version").first()  # type: ignore[return-value]


def countdown(table: Table) -> int | None:
    """The countdown the turn bar shows (None: none)."""
    turn = public_state(table).turn
    assert turn is not None
    return turn.games.get("last_three")


def hps(seats: list[Seat]) -> list[int]:
    return [fresh(s).hp for s in seats]


def test_three_alive_start_the_countdown_then_each_round_end_takes_1_hp_from_all_at_once() -> None:
    table, living = three_left()
    started = table.round
    assert last_three.current(table).started == started
    died = Event.objects.filter(table=table, kind="died").order_by("-version").first()
    assert died is not None and died.public["last_three_started"] == started
    assert "countdown" in describe("died", died.public)["text"]
    assert countdown(table) == 4
    full = hps(living)
    # The round it started in and the three of the countdown end with no loss: 3, 2, 1 left.
    for left in (3, 2, 1, 0):
        event = end_round(table)
        assert "last_three" not in event.public
        assert countdown(table) == left
        assert hps(living) == full
    # The fourth round after ends with the loss: one event, every living player 1 HP.
    event = end_round(table)
    assert event.kind == "turn_ended" and table.round == started + 5
    assert hps(living) == [hp - 1 for hp in full]
    loss = event.public["last_three"]
    assert [s["seat"] for s in loss["losers"]] == [s.pk for s in living]
    assert not loss["carried"]
    text = describe(event.kind, event.public)["text"]
    assert "1 HP" in text and all(s.name in text for s in living)
    assert Event.objects.filter(table=table, version__gt=event.version - 1).count() == 1
    assert countdown(table) == 0
    # And at the end of every round after.
    end_round(table)
    assert hps(living) == [hp - 2 for hp in full]


def test_the_undo_of_that_turn_gives_every_hp_back_with_the_turn() -> None:
    table, living = three_left()
    for _ in range(4):
        end_round(table)
    full = hps(living)
    before_round = table.round
    event = end_round(table)
    assert hps(living) == [hp - 1 for hp in full]
    actions.event_undo(token=table.host_token, version=event.version)
    table.refresh_from_db()
    assert hps(living) == full and table.round == before_round
    assert Event.objects.get(pk=event.pk).undone_by is not None
    # Ended again, the loss is taken again, once.
    end_round(table)
    assert hps(living) == [hp - 1 for hp in full]


def test_a_loss_that_would_take_all_three_out_together_carries_to_the_next_round() -> None:
    table, living = three_left()
    for _ in range(4):
        end_round(table)
    for seat in living:  # everyone at 1 HP
        seat = fresh(seat)
        if seat.hp > 1:
            actions.seat_change_hp(token=table.host_token, seat_id=seat.pk, delta=1 - seat.hp)
    event = end_round(table)
    assert hps(living) == [1, 1, 1]
    assert event.public["last_three"]["carried"] is True
    assert "carries" in describe(event.kind, event.public)["text"]
    assert last_three.current(table).carried == 1
    # Still together at the next round's end: carried again.
    end_round(table)
    assert hps(living) == [1, 1, 1] and last_three.current(table).carried == 2
    # One of them recovers: now they do not all go out, and all lose 1 HP.
    lord = fresh(by_identity(table, "lord")[0])
    actions.seat_change_hp(token=table.host_token, seat_id=lord.pk, delta=1)
    event = end_round(table)
    assert sorted(hps(living)) == [0, 0, 1]
    rebels = [fresh(s) for s in by_identity(table, "rebel")]
    assert all(s.dying and s.damage_source_id is None for s in rebels)


def test_without_the_option_three_alive_change_nothing() -> None:
    table, _seats = picked_all(5)
    kill(table, by_identity(table, "loyalist")[0], None)
    kill(table, by_identity(table, "renegade")[0], None)
    table.refresh_from_db()
    living = list(table.seats.filter(alive=True))
    full = hps(living)
    for _ in range(6):
        event = end_round(table)
        assert "last_three" not in event.public
    assert hps(living) == full
    assert countdown(table) is None


def test_a_death_that_passes_the_turn_into_a_new_round_ends_the_round_with_the_loss() -> None:
    table, living = three_left()
    for _ in range(4):
        end_round(table)
    lord = by_identity(table, "lord")[0]
    last = living[living.index(next(s for s in living if s.pk == lord.pk)) - 1]
    actions.turn_set(token=table.host_token, seat_id=last.pk, phase="play")
    table.refresh_from_db()
    ending = table.round
    rest = [s for s in living if s.pk != last.pk]
    full = hps(rest)
    actions.seat_change_hp(token=table.host_token, seat_id=last.pk, delta=-fresh(last).hp)
    actions.seat_die(token=last.token, seat_id=last.pk)
    table.refresh_from_db()
    died = Event.objects.filter(table=table, kind="died").order_by("-version").first()
    assert died is not None and table.round == ending + 1
    assert hps(rest) == [hp - 1 for hp in full]
    assert died.public["last_three"]["round_end"] == ending
    assert "1 HP" in describe("died", died.public)["text"]
    # The host's undo of the death gives the HP back and the turn.
    actions.event_undo(token=table.host_token, version=died.version)
    table.refresh_from_db()
    assert hps(rest) == full and table.round == ending and fresh(last).alive


def test_at_four_players_the_first_death_starts_the_countdown_and_the_loss_follows() -> None:
    """docs/rules.md §9.4: the rule applies at every table size from 4, whenever exactly three are alive."""
    table, _seats = picked_all(4, last_three=True)
    assert table.status == Table.Status.PLAYING and table.opts.last_three
    kill(table, by_identity(table, "renegade")[0], None)
    table.refresh_from_db()
    assert last_three.current(table).started == table.round
    assert countdown(table) == 4
    living = list(table.seats.filter(alive=True).order_by("position"))
    full = hps(living)
    for _ in range(4):
        assert "last_three" not in end_round(table).public
    assert hps(living) == full
    assert end_round(table).public["last_three"]
    assert hps(living) == [hp - 1 for hp in full]
