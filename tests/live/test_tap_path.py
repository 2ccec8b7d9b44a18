"""The path of one tap (docs/architecture.md, "The path of one tap"): an HP change sent over a
phone's socket goes through five stops, in this order, and enters at most so many of the
project's modules outside `rules/` on the way (a ceiling, not a list: the document says which
modules they are today and why each is there). A new detour that adds a module fails here."""

from __future__ import annotations

import pytest

from companion import hooks, panels
from tests.support import taptrace

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# The five stops, in the order the tap goes through them: from the phone's socket back out to
# every screen's.
STOPS = (
    "web/consumers/table.py",  # the phone's socket receives the tap
    "web/consumers/socket_taps.py",  # checked, queued on the database thread
    "web/dispatch.py",  # judged once: the tap's form, then its action
    "actions/hp.py",  # the write: one transaction, one event, the version bumped
    "live/broadcast.py",  # on commit: rendered once per language, handed to the layer
    "web/consumers/table.py",  # every screen's socket sends its frame
)

# The project's modules outside rules/ an HP tap enters (docs/architecture.md counts them): a
# seat that does not hold the turn, on the in-memory layer. The turn's holder's tap also
# redraws the turn bar (its hand limit is his HP).
CEILING = 20
TURN_BAR = 6
# On Redis the socket checks that the layer is reachable before it takes a tap
# (web/consumers/layer_probe.py) and the throttles count in the shared cache (infra/cache.py),
# where the in-memory layer delivers in this process (live/layers.py).
ON_REDIS = {"web/consumers/layer_probe.py", "infra/cache.py"}
IN_MEMORY = {"live/layers.py"}


def _ceiling(outside: set[str]) -> int:
    return CEILING + (len(ON_REDIS) - len(IN_MEMORY) if outside & ON_REDIS else 0)


def _check_games(traced: taptrace.Traced) -> None:
    """No file of a game's package but the hooks of the games on at this table (the house
    rules, on at every identity table: their slot is padded alike for every phone), and none of
    the groups app nor of the phones' panels (companion.panels: asked for a phone's whole
    private part, which an HP tap's delta does not send)."""
    on_here = {f"games/{game.key}/hooks.py" for game in hooks.on(traced.table)}
    assert on_here <= {"games/house/hooks.py"}, on_here
    games = [n for n in traced.outside_rules if n.startswith("games/") and n not in on_here]
    assert not games, games
    assert panels.registered()  # the groups app's question is there to be asked
    groups = [n for n in traced.outside_rules if n.startswith("groups/") or n == "panels.py"]
    assert not groups, groups


async def test_an_hp_tap_goes_through_the_five_stops_within_the_ceiling() -> None:
    traced = await taptrace.hp_tap()
    assert traced.answer is None  # answered by its own frame: the tap was applied
    order = traced.order
    assert len(set(STOPS)) == 5
    at = 0
    for stop in STOPS:  # the stops in this order (with anything between them)
        assert stop in order[at:], (stop, order)
        at = order.index(stop, at) + 1
    _check_games(traced)
    outside = traced.outside_rules
    assert len(outside) <= _ceiling(outside), sorted(outside)
    # Neither the whole public state nor the turn bar: the seat's delta needs neither.
    assert not outside & {"read/state.py", "read/turn.py"}


async def test_the_turn_holders_hp_tap_adds_only_the_turn_bar() -> None:
    traced = await taptrace.hp_tap(holder=True)
    assert traced.answer is None
    _check_games(traced)
    outside = traced.outside_rules
    assert "read/turn.py" in outside and "read/state.py" not in outside
    assert len(outside) <= _ceiling(outside) + TURN_BAR, sorted(outside)
