"""A game's own step in a damage the rules worked out (companion.hooks' `damage_steps`): a game
registered here for these tests only prevents a point of each step with a modifier of its own
(`rules.damage.game_modifier`) and words of its own (`words.history.change`): the damage lands
with it, and the event and the history line say it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import pytest
from django.utils import translation

from companion import actions, hooks
from companion.games.maneuvering import actions as maneuver
from companion.models import Event, Seat, Table
from companion.rules.damage import DamageStep, game_modifier, prevent
from companion.words.history import change, describe
from tests.support.game import by_identity, fresh, picked_all

pytestmark = pytest.mark.django_db

KEY = "seamdamage"
PROBE = game_modifier("seamdamage_prevented")


@change(PROBE)
def _probe_words(before: int, after: int) -> str:
    return f"seamdamage ward: {before} → {after}"


class Ward(hooks.Game):
    """On at every table: a point of each step that lands is kept off by the ward."""

    key: ClassVar[str] = KEY

    def is_on(self, table: Table) -> bool:
        return True

    def damage_steps(
        self, table: Table, seats: list[Seat], steps: tuple[DamageStep, ...]
    ) -> tuple[DamageStep, ...]:
        return tuple(prevent(step, 1, PROBE) for step in steps)


@pytest.fixture
def ward() -> Iterator[Ward]:
    game = hooks.register(Ward())
    yield game
    hooks.unregister(KEY)


def test_a_game_s_own_step_runs_in_a_worked_damage(ward: Ward) -> None:
    table, _seats = picked_all(4, maneuvering=True)
    Seat.objects.filter(table=table).exclude(identity="lord").update(hero="WEI004")
    lord = by_identity(table, "lord")[0]
    rebel = by_identity(table, "rebel")[0]
    hp = fresh(rebel).hp
    actions.turn_set(token=table.host_token, seat_id=lord.pk, phase="play")
    maneuver.seat_drink_wine(token=lord.token, seat_id=lord.pk)
    maneuver.damage_resolve(token=lord.token, target=rebel.pk, card="杀", source=lord.pk)
    assert fresh(rebel).hp == hp - 1  # 杀 + 酒 = 2, the ward keeps 1 off
    event = Event.objects.filter(table=table, kind="damage_resolved").latest("version")
    assert event.public["steps"][0]["changes"][-1] == ["seamdamage_prevented", 2, 1]
    with translation.override("en"):
        line = describe(event.kind, event.public)["text"]
    assert "seamdamage ward: 2 → 1" in line
