"""The hooks a game package reaches a seat's dialog, a dialog of its own, the end of a turn, a
card leaving a seat's equipment and the ring's grouped marks by (companion.hooks), through a
game defined here and registered for these tests only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.test import Client

from companion import actions, hooks
from companion.models import Event, Seat, Table
from companion.rules.offers import Asker, TableTurn
from tests.support.game import fresh, picked_all

KEY = "seamhooks"
CONTROLS = '<p class="seamhooks-controls">{{ games.seamhooks }}</p>'
ARMOUR = "八卦阵"


def probe_dialog(request: HttpRequest, token: str, seat_id: str) -> HttpResponse:
    return HttpResponse(f"seamhooks dialog of seat {int(seat_id)}")


class HooksProbe(hooks.Game):
    """Asks for every hook the seat dialog, the turn's end and the equipment reach."""

    key: ClassVar[str] = KEY
    templates: ClassVar[dict[str, str]] = {"seat_controls": f"games/{KEY}/seat_controls.html"}
    dialogs: ClassVar[dict[str, Any]] = {"seamhooks": probe_dialog}

    def __init__(self) -> None:
        self.ended: list[int] = []

    def is_on(self, table: Table) -> bool:
        return True

    def seat_dialog_parts(
        self, table: Table, seat: Any, asker: Asker | None, turn: TableTurn
    ) -> dict[str, Any]:
        asked = "the display" if asker is None else f"seat {asker.seat_id}"
        return {KEY: f"controls on {seat.name} for {asked}"}

    def turn_ending(self, table: Table, seat: Seat) -> None:
        self.ended.append(seat.pk)

    def equipment_left(self, table: Table, seat: Seat, slot: str, card: str) -> int:
        return 1 if card == ARMOUR and seat.hp < seat.max_hp else 0

    def seat_marks(self, table: Table, seat: Seat) -> tuple[hooks.SeatMark, ...]:
        return (
            hooks.SeatMark(css="", mark="seamhooks-a", label="A", titled=True, group="seamhooks"),
            hooks.SeatMark(css="", mark="seamhooks-b", label="B", group="seamhooks"),
        )


@pytest.fixture
def probe(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[HooksProbe]:
    folder = tmp_path / "games" / KEY
    folder.mkdir(parents=True)
    (folder / "seat_controls.html").write_text(CONTROLS)
    engine = engines["django"].engine  # type: ignore[attr-defined]
    monkeypatch.setattr(engine, "dirs", [*engine.dirs, tmp_path])
    game = HooksProbe()
    hooks.register(game)
    try:
        yield game
    finally:
        hooks.unregister(KEY)


@pytest.mark.django_db
def test_a_game_s_dialog_and_its_controls_in_a_seat_s_dialog(probe: HooksProbe) -> None:
    table, seats = picked_all(4)
    me, other = seats[0], seats[1]
    page = Client().get(f"/p/{me.token}/seamhooks/{other.pk}").content.decode()
    assert page == f"seamhooks dialog of seat {other.pk}"
    assert Client().get(f"/p/{me.token}/nosuchdialog/{other.pk}").status_code == 404
    mine = Client().get(f"/p/{me.token}/seat/{other.pk}").content.decode()
    assert f'class="seamhooks-controls">controls on {other.name} for seat {me.pk}<' in mine
    shown = Client().get(f"/t/{table.code}/seat/{other.pk}").content.decode()
    assert f">controls on {other.name} for the display<" in shown


@pytest.mark.django_db
def test_a_game_sees_the_turn_end_and_a_card_leave_and_groups_its_marks(
    probe: HooksProbe,
) -> None:
    table, _seats = picked_all(4)
    holder = Seat.objects.get(pk=table.turn_seat_id)
    actions.turn_end(token=holder.token)
    assert probe.ended == [holder.pk]

    Seat.objects.filter(pk=holder.pk).update(hp=holder.max_hp - 1)
    actions.equipment_set(token=table.host_token, seat_id=holder.pk, name=ARMOUR)
    actions.equipment_remove(token=table.host_token, seat_id=holder.pk, slot="armor")
    assert fresh(holder).hp == holder.max_hp  # the card leaving recovered 1 HP
    removed = Event.objects.filter(table=table).latest("version")
    assert (removed.public["recovered"], removed.after["hp"]) == (1, holder.max_hp)

    page = Client().get(f"/t/{table.code}/").content.decode()
    group = (
        '<span class="seamhooks"><span class="seamhooks-a" title="A">A</span>'
        '<span class="seamhooks-b">B</span></span>'
    )
    assert page.count(group) == 4  # one span for both marks, on each seat of the ring
