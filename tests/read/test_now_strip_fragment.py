"""The now strip built as a string (companion.live.pieces.now_strip) against the template it
replaced (`now_strip_partial.html` here, the live templates' former `now_strip` partial): the same
markup, once whitespace between tags is folded, in every stage of a game, with a first game's
hints, a timer, a short first draw, one and two seats dying (names to escape), 军争's chain,
鬼才's question, a mode's question and its draw notice, in both languages (docs/performance.md:
why it is a string)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from companion import actions
from companion.games.maneuvering import actions as maneuvering
from companion.live import pieces
from companion.read.modeview import DrawNotice, ModeView, Question
from companion.read.state import PublicState, public_state
from companion.read.turn import PendingJudgement
from tests.support.factories import make_table
from tests.support.game import by_identity, fresh, kill, picked_all, started

pytestmark = pytest.mark.django_db

# The partial rendered in place (`inline`), the file's other partials (鬼才's question) with it.
PARTIAL = Template(
    (Path(__file__).parent / "now_strip_partial.html")
    .read_text()
    .replace("{% partialdef now_strip %}", "{% partialdef now_strip inline %}")
)


def folded(html: str) -> str:
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", str(html))).strip()


def alike(state: PublicState) -> None:
    for oob in (False, True):
        want = PARTIAL.render(Context({"state": state, "oob": oob}))
        got = pieces.now_strip(state, oob)
        assert folded(got) == folded(want), state


def variants(state: PublicState) -> list[PublicState]:
    """What changes the strip's words and buttons, on top of a game in play."""
    turn = state.turn
    assert turn is not None
    seats = [dataclasses.replace(s, dying=True) for s in state.seats]
    seats[1] = dataclasses.replace(seats[1], name='<b>"甲" & 乙</b>')
    pending = PendingJudgement(
        seat_id=turn.seat_id,
        name="P1",
        check="乐不思蜀",
        card="♥5",
        red=True,
        outcome="favourable",
        favourable=True,
        guicai_id=state.seats[2].id,
        guicai_name="司马懿",
        trick="乐不思蜀",
        replaced=False,
    )
    asking = Question(state.seats[0].id, "P1", "first_side", ("warm", "cool"))
    return [
        state,
        dataclasses.replace(state, turn=dataclasses.replace(turn, deadline_ms=1_700_000_000_000)),
        dataclasses.replace(state, turn=dataclasses.replace(turn, phase="draw", draw_change=-1)),
        dataclasses.replace(state, turn=dataclasses.replace(turn, phase="play", draw_change=-1)),
        dataclasses.replace(state, seats=seats[:2] + list(state.seats[2:])),
        dataclasses.replace(state, seats=seats),
        dataclasses.replace(state, pending=pending),
        dataclasses.replace(state, pending=dataclasses.replace(pending, replaced=True)),
        dataclasses.replace(state, mode_view=ModeView(key="threes", asking=asking)),
        dataclasses.replace(
            state,
            mode_view=ModeView(
                key="duel", draw_notice=DrawNotice(cards=4, seat_id=state.seats[1].id)
            ),
        ),
        dataclasses.replace(state, turn=None),
    ]


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize(
    "options", [{}, {"first_game_mode": True}, {"maneuvering": True}, {"last_three": True}]
)
def test_the_string_is_the_template_in_play(lang: str, options: dict[str, bool]) -> None:
    # A first game has no heroes to pick: it is in play once started.
    table, seats = (started if options.get("first_game_mode") else picked_all)(5, **options)
    if options.get("maneuvering"):
        for seat in seats[:2]:
            maneuvering.seat_set_chained(token=table.host_token, seat_id=seat.pk, chained=True)
    victim = fresh(seats[3])
    actions.seat_change_hp(token=table.host_token, seat_id=victim.pk, delta=-victim.hp)
    table.refresh_from_db()
    with translation.override(lang):
        state = public_state(table)
        assert state.dying
        for variant in variants(state):
            alike(variant)


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_string_is_the_template_at_every_stage(lang: str) -> None:
    table, _seats = make_table(4)
    with translation.override(lang):
        alike(public_state(table))
        actions.identities_deal(token=table.host_token)
        table.refresh_from_db()
        alike(public_state(table))
        for status in ("heroes", "playing", "finished"):
            alike(dataclasses.replace(public_state(table), status=status))


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_string_is_the_template_at_the_end(lang: str) -> None:
    table, seats = picked_all(4)
    kill(table, by_identity(table, "lord")[0], by_identity(table, "rebel")[0])
    table.refresh_from_db()
    with translation.override(lang):
        state = public_state(table)
        assert state.status == "finished" and state.winner_headline
        alike(state)
