"""1 vs 1: when a player's hero falls and the next comes in, that player's phone is told in its
strip, as for every decision the table waits on (live.js shows a `.now-wait` on the phone its
data-for-seats names and vibrates it once): discard the fallen hero's cards and draw 4."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from companion.models import Seat
from companion.rules.heroes import hero_by_id
from tests.support.game import kill
from tests.support.modeplay import drafter, in_play, placement_now, registered

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]
__all__ = ["registered"]


def strip_waits(html: str) -> list[tuple[str, str]]:
    strip = html.split('id="now-strip"', 1)[1].split("</header>", 1)[0]
    return re.findall(
        r'<div class="now-wait" data-for-seats="([\d ]+)"[^>]*>(.*?)</div>', strip, re.S
    )


@pytest.mark.parametrize(("lang", "words"), [("zh-hans", "摸"), ("en", "draw 4")])
def test_the_player_whose_next_hero_comes_in_is_told_in_the_strip(lang: str, words: str) -> None:
    table, _seats = in_play("duel")
    lord, renegade = drafter(table, "lord"), drafter(table, "renegade")
    order = placement_now(table).lineup("renegade")
    client = Client()
    client.cookies["sgs_lang"] = lang
    before = client.get(f"/p/{renegade.token}/").content.decode()
    assert not [w for w in strip_waits(before) if w[0] == str(renegade.pk)]
    kill(table, renegade, lord)
    assert Seat.objects.get(pk=renegade.pk).hero == order[1]
    for seat in (renegade, lord):
        html = client.get(f"/p/{seat.token}/").content.decode()
        waits = strip_waits(html)
        # The same public markup on both phones; live.js shows it on the renegade's alone.
        assert [seat_ids for seat_ids, _text in waits] == [str(renegade.pk)], waits
        text = waits[0][1]
        assert words in text and hero_by_id(order[1]).name_zh in text, text
