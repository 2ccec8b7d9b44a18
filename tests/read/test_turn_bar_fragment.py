"""The turn bar built as a string (companion.live.pieces.turn_bar) against the template it
replaced (`turn_bar_partial.html` here, the live templates' former `turn_bar` partial): the same
markup, once whitespace between tags is folded, in every phase, with skips, a timer, tricks to
judge, skills, a judgement waiting, someone dying, a name to escape, games on, in both languages
(docs/performance.md: why it is a string)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from companion import hooks
from companion.live import pieces
from companion.read.state import public_state
from companion.read.turn import Turn
from companion.rules.skills import skills_for
from tests.support.game import picked_all

pytestmark = pytest.mark.django_db

_SOURCE = (Path(__file__).parent / "turn_bar_partial.html").read_text()
PARTIAL = Template(
    "{% load i18n l10n sgs game_tags %}"
    + _SOURCE.split("{% partialdef turn_bar %}")[1].split("{% endpartialdef %}")[0]
)


def folded(html: str) -> str:
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", str(html))).strip()


def variants(t: Turn) -> list[Turn]:
    """The turn bar's cases: each phase, and what changes its words and buttons."""
    skills = skills_for("WU003")  # 吕蒙: 克己
    found = [dataclasses.replace(t, phase=p) for p in ("start", "draw", "play", "discard", "end")]
    found += [
        dataclasses.replace(t, phase="judgement"),
        dataclasses.replace(t, phase="judgement", zone=["乐不思蜀", "闪电"]),
        dataclasses.replace(t, phase="start", zone=["兵粮寸断"]),
        dataclasses.replace(t, phase="draw", draw=1, draw_change=-1),
        dataclasses.replace(t, phase="discard", hand_limit=3, keji=True, skills=list(skills)),
        dataclasses.replace(t, deadline_ms=1_700_000_000_000, timer_seconds=60),
        dataclasses.replace(t, phases=[("start", "done"), ("judgement", "skipped")]),
        dataclasses.replace(t, dying_name='<b>"甲" & 乙</b>'),
        dataclasses.replace(t, pending_seat=t.seat_id),
        dataclasses.replace(t, pending_seat=t.seat_id + 1),
        dataclasses.replace(t, pending_seat=t.seat_id, pending_replacer="司马<懿>"),
        dataclasses.replace(t, pending_seat=t.seat_id, dying_name="someone"),
        dataclasses.replace(t, name="<i>O'Neil & co</i>", round=12),
        # The last three's countdown in its slot (at a table where that game is on).
        dataclasses.replace(
            t, games=hooks.Parts(on=t.games.on, values={**t.games.values, "last_three": 1})
        ),
    ]
    return found


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize("options", [{}, {"maneuvering": True}, {"last_three": True}])
def test_the_string_is_the_template(lang: str, options: dict[str, bool]) -> None:
    table, _seats = picked_all(5, **options)
    with translation.override(lang):
        turn = public_state(table).turn
        assert turn is not None
        for t in variants(turn):
            want = PARTIAL.render(Context({"t": t}))
            got = pieces.turn_bar(t)
            assert folded(got) == folded(want), t
        if "last_three" in options:
            assert "data-last-three" in pieces.turn_bar(variants(turn)[-1])
