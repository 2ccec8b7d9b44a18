"""The variants and house rules on (docs/variants.md): the display's header and the
phones' rules panel list them, a game's record keeps the options it was dealt with, and the
session history shows them per game, in both languages."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from companion.models import Game, Table
from tests.support.factories import make_table
from tests.support.sessions import deal, kill, start

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def page(url: str, lang: str = "zh-hans") -> str:
    client = Client()
    if lang == "en":
        client.cookies["sgs_lang"] = "en"
    return client.get(url).content.decode()


def status_line(body: str) -> str:
    match = re.search(r'<div class="status-line">.*?</div>', body, re.S)
    assert match, "the page has the header's status line"
    return match.group(0)


def rules_panel(body: str) -> str | None:
    match = re.search(r'<details class="rules-panel phone-only".*?</details>', body, re.S)
    return match.group(0) if match else None


def test_the_header_and_the_rules_panel_list_the_variants_on_in_both_languages() -> None:
    table, seats = make_table(5, rebirth=True, lord_five_cards=True)
    display_zh = page(f"/t/{table.code}/")
    header = status_line(display_zh)
    assert re.findall(r'data-variant="(\w+)"', header) == ["rebirth", "lord_five_cards"]
    assert "转世" in header and "主公起始 5 张手牌" in header
    header_en = status_line(page(f"/t/{table.code}/", "en"))
    assert "Rebirth" in header_en and "The lord starts with 5 cards" in header_en
    phone_zh = page(f"/p/{seats[1].token}/")
    panel = rules_panel(phone_zh)
    assert panel is not None and 'data-variants="rebirth lord_five_cards"' in panel
    assert "满 4 张（4–5 人局 3 张）即转世" in panel and "开启 2 项" in panel
    panel_en = rules_panel(page(f"/p/{seats[1].token}/", "en"))
    assert panel_en is not None and "at 4 cards (3 with 4–5 players)" in panel_en
    assert "Variants and house rules: 2 on" in panel_en
    assert "The lord draws one card more at the start." in panel_en


def test_a_table_without_variants_shows_no_list_and_no_panel() -> None:
    table, seats = make_table(5, maneuvering=True)
    for url in (f"/t/{table.code}/", f"/p/{seats[0].token}/", f"/h/{table.host_token}/"):
        body = page(url)
        assert "pill-variant" not in status_line(body)
        assert rules_panel(body) is None


def test_the_game_keeps_the_options_it_was_dealt_with() -> None:
    table, _seats = make_table(5, last_three=True, rebels_know_each_other=True)
    deal(table)
    game = Game.objects.get(table=table, number=1)
    assert game.options["last_three"] and game.options["rebels_know_each_other"]
    assert not game.options["rebirth"]
    assert game.options == table.opts.stored()


def finish(table: Table, identities: dict[str, str]) -> None:
    deal(table, identities)
    start(table)
    kill(table, "P2", "P1")
    kill(table, "P3", "P1")
    kill(table, "P4", "P1")
    assert table.status == "finished"


def test_the_session_history_shows_the_variants_per_game() -> None:
    table, _seats = make_table(4, lord_five_cards=True)
    finish(table, {"P1": "lord", "P2": "rebel", "P3": "renegade", "P4": "rebel"})
    # The next game is dealt with other options (the lobby form: changed in the database here).
    Table.objects.filter(pk=table.pk).update(
        options={**table.opts.stored(), "lord_five_cards": False}
    )
    table.refresh_from_db()
    finish(table, {"P1": "lord", "P2": "rebel", "P3": "renegade", "P4": "rebel"})
    p1 = table.seats.get(name="P1")
    for lang, word in (("zh-hans", "主公起始 5 张手牌"), ("en", "The lord starts with 5 cards")):
        client = Client()
        if lang == "en":
            client.cookies["sgs_lang"] = "en"
        body = client.get(f"/p/{p1.token}/session/", **HTMX).content.decode()
        cards = dict(
            re.findall(r'<article class="game-card" data-game="(\d+)">(.*?)</article>', body, re.S)
        )
        assert set(cards) == {"1", "2"}
        assert 'data-variant="lord_five_cards"' in cards["1"] and word in cards["1"]
        assert "game-variants" not in cards["2"]
        detail = client.get(f"/p/{p1.token}/game/1/", **HTMX).content.decode()
        assert 'class="game-variants small"' in detail and word in detail
        assert "game-variants" not in client.get(f"/p/{p1.token}/game/2/", **HTMX).content.decode()
    export = json.loads(Client().get(f"/p/{p1.token}/session/1/export.json").content)
    assert [g["variants"] for g in export["games"]] == [["lord_five_cards"], []]
