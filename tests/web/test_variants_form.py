"""The host's lobby form for the identity game's variants and house rules (docs/rules.md §9,
docs/variants.md): one line each on what it changes, an option that excludes one on shown
disabled with the reason, the options that will not deal to the players seated named, and the
taps refused with the reason."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from companion.models import Table
from tests.support.factories import make_table
from tests.web.test_views import csrf_client, htmx_post

pytestmark = pytest.mark.django_db

VARIANTS = (
    "rebirth",
    "dark_souls",
    "first_out_protection",
    "last_three",
    "lord_pack",
    "rebels_know_each_other",
    "lord_five_cards",
)


def host_page(client: Client, table: Table, lang: str = "zh-hans") -> str:
    return client.get(f"/h/{table.host_token}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def variants_form(page: str) -> str:
    match = re.search(r'<form class="options variants".*?</form>', page, re.S)
    assert match, "the lobby shows the variants form"
    return match.group(0)


def checkbox(form: str, name: str) -> str:
    match = re.search(rf'<input type="checkbox" name="{name}"[^>]*>', form)
    assert match, name
    return match.group(0)


def test_the_lobby_lists_each_variant_with_one_line_in_both_languages() -> None:
    table, _ = make_table(6)
    client = Client()
    zh = variants_form(host_page(client, table))
    en = variants_form(host_page(client, table, "en"))
    for name in VARIANTS:
        assert f'name="fields" value="{name}"' in zh
        assert "checked" not in checkbox(zh, name) and "disabled" not in checkbox(zh, name)
    assert "变体与自定规则" in zh and "转世" in zh and "暗魂" in zh and "主公起始 5 张手牌" in zh
    assert "满 4 张（4–5 人局 3 张）即转世" in zh
    assert "Variants and house rules" in en and "Rebirth" in en
    assert "at 4 cards (3 with 4–5 players)" in en and "Last three" in en
    assert "Variants" not in zh  # every line translated


def test_switching_variants_on_and_off_by_the_form() -> None:
    table, _ = make_table(6)
    client = csrf_client()
    data = {"fields": list(VARIANTS), "rebirth": "1", "lord_five_cards": "1"}
    assert htmx_post(client, f"/h/{table.host_token}/act/options", data).status_code == 204
    table.refresh_from_db()
    assert table.opts.variants_on() == ("rebirth", "lord_five_cards")
    form = variants_form(host_page(client, table))
    assert "checked" in checkbox(form, "rebirth") and "checked" in checkbox(form, "lord_five_cards")
    # The other options' form leaves the variants as they are.
    data = {"fields": ["maneuvering"], "maneuvering": "1"}
    assert htmx_post(client, f"/h/{table.host_token}/act/options", data).status_code == 204
    table.refresh_from_db()
    assert table.opts.maneuvering and table.opts.variants_on() == ("rebirth", "lord_five_cards")


def test_an_option_that_excludes_one_on_is_disabled_with_the_reason() -> None:
    table, _ = make_table(6, rebirth=True)
    client = Client()
    form = variants_form(host_page(client, table))
    assert "disabled" in checkbox(form, "dark_souls")
    assert "disabled" not in checkbox(form, "first_out_protection")
    assert "转世与暗魂都规定阵亡者之后的去向，只能选其一。" in form
    en = variants_form(host_page(client, table, "en"))
    assert "Rebirth and dark souls both decide what becomes of the dead: choose one." in en


def test_a_clash_posted_anyway_is_refused_with_the_reason_and_changes_nothing() -> None:
    table, _ = make_table(6, dark_souls=True)
    client = csrf_client()
    version = table.version
    data = {"fields": ["first_out_protection"], "first_out_protection": "1"}
    response = htmx_post(client, f"/h/{table.host_token}/act/options", data)
    assert response.status_code == 400
    assert "首个出局者的保护规则只用于不使用暗魂的牌桌。" in response.content.decode()
    table.refresh_from_db()
    assert table.version == version and not table.opts.first_out_protection


@pytest.mark.parametrize("players", [4, 5])
def test_an_option_that_does_not_fit_the_players_is_named_and_refuses_the_deal(
    players: int,
) -> None:
    """Rebels who know each other need two rebels: 4 players deal one. (The last-three rule
    fits every table from 4, docs/rules.md §9.4)"""
    table, _ = make_table(players, rebels_know_each_other=True, last_three=True)
    client = csrf_client()
    form = variants_form(host_page(client, table))
    reason = "反贼互认至少需要两名反贼，本局只有一名。"
    response = htmx_post(client, f"/h/{table.host_token}/act/deal")
    table.refresh_from_db()
    assert "最后三人" in form and "至少需要 5 名玩家" not in form
    if players == 4:
        assert reason in form
        assert response.status_code == 409 and reason in response.content.decode()
        assert table.status == Table.Status.LOBBY
    else:
        assert reason not in form
        assert response.status_code == 204 and table.status == Table.Status.DEALT
