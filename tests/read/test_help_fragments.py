"""The names a screen shows open their help entry with one tap. The markup
carries `data-help` (the rules-help block at the end of js/live.js opens the entry): the
ring's equipment and judgement zone, the history lines, the judgement helper."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from companion.live import fragments
from companion.read.history import HistoryLine
from companion.rules import help as rules_help
from companion.rules.heroes import STANDARD_HEROES
from companion.templatetags.sgs import check_help, phase_hint
from companion.words.names import hero_card


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_history_lines_link_the_cards_and_heroes_they_name(lang: str) -> None:
    with translation.override(lang):
        equipped = fragments.event_line(
            HistoryLine("equipped", {"name": "阿明", "card": "八卦阵", "seat": 1}, 3, 1)
        )
        placed = fragments.event_line(
            HistoryLine("trick_placed", {"name": "<i>", "card": "乐不思蜀", "seat": 1}, 4, 1)
        )
    assert '<span data-help="card:八卦阵">八卦阵</span>' in equipped
    assert '<span data-help="card:乐不思蜀">乐不思蜀</span>' in placed
    assert "&lt;i&gt;" in placed and "<i>" not in placed
    # A one-character card name is part of ordinary words: never linked.
    assert fragments._help_names().search("被阿明击杀") is None
    assert fragments._help_names().search("借刀杀人").group() == "借刀杀人"


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_history_lines_link_the_skills_they_name(lang: str) -> None:
    with translation.override(lang):
        replaced = fragments.event_line(
            HistoryLine(
                "judgement_replaced",
                {"name": "阿明", "suit": "heart", "rank": 3, "outcome": "fail", "seat": 1},
                5,
                1,
            )
        )
    assert '<span data-help="skill:guicai">鬼才</span>' in replaced, replaced
    assert '<span data-help="skill:tiandu">天妒</span>' in fragments.help_links("天妒：郭嘉")
    assert 'data-help="hero:' in fragments.help_links("天妒：郭嘉")
    # 救援 is also the ordinary word of a rescue: never linked.
    assert "data-help" not in fragments.help_links("对 阿明 的救援")
    assert fragments.help_links("<b>") == "&lt;b&gt;"


def test_every_judgement_of_the_helper_has_an_entry() -> None:
    for check in ("indulgence", "supply_shortage", "lightning", "eight_trigrams",
                  "iron_cavalry", "ganglie", "luoshen", "free"):  # fmt: skip
        assert rules_help.entry(check_help(check)) is not None, check


def test_phase_hints_in_the_active_language() -> None:
    with translation.override("en"):
        assert phase_hint("draw").startswith("Draw")
    with translation.override("zh-hans"):
        assert phase_hint("draw").startswith("摸牌阶段")
    assert phase_hint("nonsense") == ""


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_hero_card_opens_the_hero_and_each_skill(lang: str) -> None:
    for hero in STANDARD_HEROES:
        with translation.override(lang):
            card = hero_card(hero.id)
            html = render_to_string("companion/live/cards.html#hero_card", {"hero": card})
        assert f'data-help="hero:{hero.id}"' in html
        assert card is not None
        for skill in card.skills:
            assert f'data-help="skill:{skill.id}"' in html, (hero.id, skill.id)
            assert rules_help.entry(f"skill:{skill.id}") is not None
            if skill.lord_skill:
                # The card tags it; its entry says it works only for the lord.
                assert ("Lord skill" if lang == "en" else "主公技") in html
