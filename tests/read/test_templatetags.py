"""The `jades` tag: the live template's HP jades, rendered once per value and language."""

from __future__ import annotations

import re

import pytest
from django.template.loader import get_template
from django.utils import translation

from companion.templatetags.sgs import jades


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_jades_are_the_partial_for_every_hp_and_language(lang: str) -> None:
    partial = get_template("companion/live/cards.html#jades")
    with translation.override(lang):
        for max_hp in range(1, 9):
            for hp in range(-2, max_hp + 1):
                html = jades(hp, max_hp)
                assert html == partial.render(
                    {"marks": [i < hp for i in range(max_hp)], "hp": hp, "max": max_hp}
                )
                assert html.count("<i class=") == max_hp
                assert html.count('class="jade on"') == max(hp, 0)
                label = re.search(r'aria-label="([^"]*)"', html)
                assert label
                expected = f"HP {hp} of {max_hp}" if lang == "en" else f"体力 {hp}/{max_hp}"
                assert label.group(1) == expected


def test_jades_follow_the_active_language_after_caching() -> None:
    with translation.override("en"):
        english = jades(2, 4)
    with translation.override("zh-hans"):
        chinese = jades(2, 4)
    with translation.override("en"):
        assert jades(2, 4) == english
    assert "HP 2 of 4" in english and "体力 2/4" in chinese
