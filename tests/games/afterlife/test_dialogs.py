"""Dark souls 暗魂 in the damage dialogs: when 罗汉 haunts the target, the seat
dialog's damage form and the damage-by-card dialog say, before anything is applied, that it
prevents 1 point of this damage before it lands (docs/rules.md §9.2), and the preview shows the point
taken off; for anybody else they say nothing of it."""

from __future__ import annotations

import pytest
from django.test import Client

from companion.games.afterlife import actions as afterlife
from tests.support.game import by_identity, kill, picked_all

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_damage_dialogs_name_the_luohan_that_will_block(lang: str) -> None:
    table, _seats = picked_all(6, dark_souls=True)
    lord = by_identity(table, "lord")[0]
    loyalist = by_identity(table, "loyalist")[0]
    rebel = by_identity(table, "rebel")[0]
    kill(table, loyalist, rebel)
    afterlife.soul_haunt(token=loyalist.token, seat_id=lord.pk)
    client = Client()
    client.cookies["sgs_lang"] = lang
    word = "罗汉" if lang == "zh-hans" else "Luohan 罗汉"
    before = "伤害生效前" if lang == "zh-hans" else "before it lands"
    for path in (f"seat/{lord.pk}", f"damage/{lord.pk}?card=杀&source={rebel.pk}"):
        html = client.get(f"/p/{lord.token}/{path}").content.decode()
        assert 'class="luohan-note' in html and word in html and loyalist.name in html, path
        assert before in html and "1 HP back" not in html, path
        other = client.get(f"/p/{lord.token}/{path.replace(str(lord.pk), str(rebel.pk), 1)}")
        assert "luohan-note" not in other.content.decode()
    # The 杀's preview already takes the point off: 1 damage, none lands.
    preview = client.get(f"/p/{lord.token}/damage/{lord.pk}?card=杀&source={rebel.pk}")
    text = preview.content.decode()
    step = (
        "罗汉在伤害生效前防止 1 点：1 → 0"
        if lang == "zh-hans"
        else "prevents 1 before it lands: 1 → 0"
    )
    assert step in text, text
