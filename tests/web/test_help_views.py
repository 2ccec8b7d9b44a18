"""The help pages: the help page and its search, one entry as a page and as the
fragment a tap opens in place, the identity tips file, and the guided first game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from companion.rules import help as rules_help
from tests.support.langscan import stray_cjk, visible_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    yield
    translation.activate(settings.LANGUAGE_CODE)


def client(lang: str) -> Client:
    c = Client()
    c.cookies["sgs_lang"] = lang
    return c


def test_the_help_page_lists_every_entry_in_both_languages() -> None:
    zh = client("zh-hans").get("/help/").content.decode()
    en = client("en").get("/help/").content.decode()
    for e in rules_help.card_entries() + rules_help.hero_entries() + rules_help.faq_entries():
        assert f'data-entry="{e.key}"' in zh and f'data-entry="{e.key}"' in en
    assert "Eight Diagram 八卦阵" in visible_text(en)
    assert "当你需要使用或打出闪时" in zh and "When you need to use or play a Dodge" in en


def test_the_english_help_page_has_no_chinese_without_its_english_name() -> None:
    en = client("en").get("/help/").content.decode()
    assert stray_cjk(visible_text(en)) == []


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("sha", "card:杀"),
        ("bagua", "card:八卦阵"),
        ("Demonic", "skill:guicai"),
        ("闪电", "card:闪电"),
    ],
)
def test_the_search_finds_by_pinyin_name_and_words(query: str, first: str) -> None:
    html = client("en").get("/help/", {"q": query}).content.decode()
    keys = [part.split('"')[0] for part in html.split('data-entry="')[1:]]
    assert keys and keys[0] == first
    assert 'data-entry="card:桃园结义"' not in html or query == "taoyuan"


def test_an_entry_opens_as_a_fragment_and_as_a_page() -> None:
    url = f"/help/card/{quote('八卦阵')}/"
    pop = client("en").get(url, {"pop": "1"}).content.decode()
    assert "<html" not in pop and "data-help-close" in pop
    assert "Eight Diagram 八卦阵" in visible_text(pop)
    assert "♠2 ♣2" in pop
    page = client("zh-hans").get(url).content.decode()
    assert "<html" in page and "八卦阵" in page
    assert client("en").get("/help/card/nothing/").status_code == 404
    assert client("en").get("/help/spell/八卦阵/").status_code == 404


def test_a_hero_entry_links_its_skills_and_marks_the_lord_skill() -> None:
    html = client("en").get("/help/hero/WEI001/", {"pop": "1"}).content.decode()
    assert 'data-help="skill:jianxiong"' in html and 'data-help="skill:hujia"' in html
    assert "only while this hero is the lord" in html


def test_role_tips_are_one_file_for_every_phone() -> None:
    response = client("en").get("/help/roles.json")
    tips = json.loads(response.content)
    assert set(tips) == {"lord", "loyalist", "rebel", "renegade"}
    assert response.content == client("zh-hans").get("/help/roles.json").content


def test_the_first_game_path_for_five_players() -> None:
    c = client("en")
    choose = c.get("/first-game/").content.decode()
    assert 'href="?n=5"' in choose
    titles = []
    for step in range(4):
        html = c.get("/first-game/", {"n": 5, "step": step}).content.decode()
        titles.append(visible_text(html))
        assert 'class="fg-checklist"' in html
    assert "2 Rebels" in titles[0] and "set all J, Q and K aside (26 cards)" in titles[0]
    assert "the lord 5" in titles[2]
    assert "End turn" in titles[3]
    assert "Nullification 无懈可击" in titles[0]
    # The identity cards are printed in Chinese: their names stand beside the English ones.
    identity_cards = ("Lord 主公", "Loyalist 忠臣", "Rebel 反贼", "Renegade 内奸")
    for text in titles:
        for pair in identity_cards:
            text = text.replace(pair, pair.split()[0])
        assert stray_cjk(text) == []
    zh = client("zh-hans").get("/first-game/", {"n": 5, "step": 0}).content.decode()
    assert "反贼2张" in zh
