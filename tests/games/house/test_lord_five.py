"""The lord starts with five cards (docs/rules.md §9.6, seed 003): at the start, the guide on
every screen and the lord's phone say so, in both languages; after the first round, and at a
table without the house rule, nothing is said."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from companion.models import Seat, Table
from tests.support.factories import make_table
from tests.support.game import picked_all

pytestmark = pytest.mark.django_db

GUIDE = {
    "zh-hans": "开局时每人摸 4 张牌，主公摸 5 张（自定规则）。",
    "en": "To start, everyone draws 4 cards; the Lord draws 5 (house rule).",
}
LORD = {
    "zh-hans": "你的起始手牌为 5 张：现在摸牌（自定规则）。",
    "en": "You start with 5 cards: draw them now (house rule).",
}


def get(url: str, lang: str) -> str:
    client = Client()
    client.cookies["sgs_lang"] = lang
    return client.get(url).content.decode()


def my_seat(body: str) -> str:
    match = re.search(r'<section id="my-seat".*?</section>', body, re.S)
    assert match
    return match.group(0)


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_guide_and_the_lords_phone_say_five_cards_at_the_start(lang: str) -> None:
    table, _seats = make_table(5, deal=True, lord_five_cards=True)
    lord = Seat.objects.get(table=table, identity="lord")
    other = Seat.objects.filter(table=table).exclude(identity="lord").first()
    assert other is not None
    lord_page = get(f"/p/{lord.token}/", lang)
    assert LORD[lang] in my_seat(lord_page) and GUIDE[lang] in lord_page
    other_page = get(f"/p/{other.token}/", lang)
    assert "start-cards" not in my_seat(other_page) and GUIDE[lang] in other_page
    assert GUIDE[lang] in get(f"/t/{table.code}/", lang)


def test_in_the_first_round_it_is_said_and_then_no_more() -> None:
    table, _seats = picked_all(5, lord_five_cards=True)
    lord = Seat.objects.get(table=table, identity="lord")
    assert table.status == Table.Status.PLAYING and table.round == 1
    assert LORD["en"] in get(f"/p/{lord.token}/", "en")
    assert GUIDE["en"] in get(f"/t/{table.code}/", "en")
    Table.objects.filter(pk=table.pk).update(round=2, version=table.version + 1)
    assert "start-cards" not in get(f"/p/{lord.token}/", "en")
    assert "start-guide" not in get(f"/t/{table.code}/", "en")


def test_without_the_house_rule_nothing_is_said() -> None:
    table, _seats = make_table(5, deal=True)
    lord = Seat.objects.get(table=table, identity="lord")
    for url in (f"/p/{lord.token}/", f"/t/{table.code}/"):
        body = get(url, "en")
        assert "start-cards" not in body and "start-guide" not in body
