"""The history lines of 3 vs 3 and 1 vs 1, in both languages, from the events' public
parts: a face-down pick names no hero, the go's question is worded, a hero's fall says what comes
in."""

from __future__ import annotations

import pytest
from django.utils import translation

from companion import actions
from companion.games.draft import actions as draft_actions
from companion.models import Event
from companion.rules.heroes import hero_by_id
from companion.words.history import describe
from tests.support.game import kill
from tests.support.modeplay import (
    dealt_and_started,
    draft_now,
    drafter,
    in_play,
    mode_table,
    registered,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]
__all__ = ["registered"]


def lines(table, lang: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    with translation.override(lang):
        return {
            e.kind: describe(e.kind, e.public)["text"]
            for e in Event.objects.filter(table=table, private_to__isnull=True).order_by("version")
        }


def test_a_face_down_pick_reads_as_one_in_both_languages() -> None:
    table, _seats = mode_table("duel", 2)
    dealt_and_started(table)
    draft = draft_now(table)
    down = min(draft.face_down)
    draft_actions.draft_pick(token=drafter(table, "lord").token, positions=[down])
    hero = hero_by_id(draft.pool[down])
    for lang, words in (("en", "a face-down hero"), ("zh-hans", "一张暗置武将")):
        text = lines(table, lang)["draft_picked"]
        assert words in text and hero.name_zh not in text and hero.name_en not in text


def test_the_go_and_a_fall_are_worded() -> None:
    table, _seats = in_play("threes")
    cold = drafter(table, "cold")
    actions.flow_answer(token=cold.token, answer="cold")
    actions.turn_end(token=cold.token)
    zh, en = lines(table, "zh-hans"), lines(table, "en")
    assert (
        "冷色方先行动" in zh["flow_answered"] and "the cold side acts first" in en["flow_answered"]
    )
    assert "由主帅选择" in zh["turn_ended"] and "commander or vanguards" in en["turn_ended"]
    duel, _seats = in_play("duel")
    kill(duel, drafter(duel, "lord"), None)
    assert "摸四张牌" in lines(duel, "zh-hans")["hero_fell"]
    assert "draw 4" in lines(duel, "en")["hero_fell"]
