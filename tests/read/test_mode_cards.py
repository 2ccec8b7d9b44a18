"""3 vs 3 and 1 vs 1 screens at a real table (rendered, both languages): the placement by hero
cards (HP and skills, one button per place, nothing chosen beforehand, a confirm), the draft
pool as cards marked with the side that took each, and the draw every screen announces: every
hero's four before the first turn, and a 1 vs 1 hero's four when it comes in, until the next
turn ends."""

from __future__ import annotations

import re

import pytest

from companion import actions
from companion.games.draft import actions as draft_actions
from companion.models import Seat, Table
from companion.rules.heroes import hero_by_id
from companion.rules.skills import skills_for
from tests.read.test_mode_screens import page
from tests.support.modeplay import (
    dealt_and_started,
    draft_all,
    draft_now,
    drafter,
    in_play,
    mode_table,
    registered,
    threes_lobby,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]
__all__ = ["registered"]

DRAW_FOUR = {"zh-hans": "每位武将在第一个回合前先摸 4 张牌", "en": "Every hero draws 4 cards"}
COMES_IN = {"zh-hans": "以满体力上场", "en": "comes in at full HP"}


def screens(table: Table) -> list[str]:
    table.refresh_from_db()
    return [f"/t/{table.code}/", f"/h/{table.host_token}/"] + [
        f"/p/{s.token}/" for s in table.seats.all()
    ]


@pytest.mark.parametrize(("key", "held"), [("threes", 8), ("duel", 5)])
def test_the_placement_is_by_hero_cards_with_nothing_chosen(key: str, held: int) -> None:
    table, _seats = threes_lobby() if key == "threes" else mode_table("duel", 2)
    dealt_and_started(table)
    draft_all(table)
    side = "warm" if key == "threes" else "lord"
    phone = page(f"/p/{drafter(table, side).token}/", "en")
    form = re.search(r'<form hx-post="act/draftplace".*?</form>', phone, re.S)
    assert form, "the drafter places"
    placement = form.group(0)
    assert "<select" not in placement and "checked" not in placement
    cards = placement.split('<li class="place-card')[1:]
    assert len(cards) == held
    for card in cards:
        found = re.search(r'data-hero="([A-Za-z0-9_]+)"', card)
        assert found
        hero_id = found.group(1)
        hero = hero_by_id(hero_id)
        assert f"{hero.hp} HP" in card
        for skill in skills_for(hero_id):
            if not skill.lord_skill:
                assert skill.name_zh in card
        # One button per place, each a required choice of this hero.
        for field in ("first", "second", "third"):
            assert f'type="radio" name="{field}" value="{hero_id}" required' in card
    assert "Commander" in placement or "First" in placement
    assert "Confirm the places" in placement


def test_the_draft_pool_is_cards_each_taken_one_marked_with_its_side() -> None:
    table, _seats = threes_lobby()
    dealt_and_started(table)
    draft_actions.draft_first(token=drafter(table, "warm").token, side="warm")
    first = draft_now(table).pool[0]
    draft_actions.draft_pick(token=drafter(table, "warm").token, positions=[0])
    for lang, warm in (("zh-hans", "暖色方"), ("en", "Warm")):
        display = page(f"/t/{table.code}/", lang)
        taken = re.search(r'<li class="pool-card taken side-warm[^"]*"[^>]*>(.*?)</li>', display)
        assert taken and hero_by_id(first).name_zh in taken.group(1)
        assert f'<span class="pool-side side-warm">{warm}</span>' in taken.group(1), taken.group(1)
        assert display.count('class="pool-card') == 16
        assert display.count('<span class="hero-hp"') >= 16


@pytest.mark.parametrize("key", ["threes", "duel"])
def test_every_screen_says_every_hero_draws_4_until_the_first_turn_ends(key: str) -> None:
    table, _seats = in_play(key)
    if key == "threes":
        actions.flow_answer(token=drafter(table, "cold").token, answer="cold")
    for lang in ("zh-hans", "en"):
        for url in screens(table):
            assert DRAW_FOUR[lang] in page(url, lang), (url, lang)
    table.refresh_from_db()
    actions.turn_end(token=Seat.objects.get(pk=table.turn_seat_id).token)
    for url in screens(table):
        assert DRAW_FOUR["zh-hans"] not in page(url), url


def test_a_duel_hero_coming_in_draws_4_on_every_screen_until_the_next_turn_ends() -> None:
    table, _seats = in_play("duel")
    table.refresh_from_db()
    actions.turn_end(token=Seat.objects.get(pk=table.turn_seat_id).token)
    lord = Seat.objects.get(pk=drafter(table, "lord").pk)
    actions.seat_change_hp(token=table.host_token, seat_id=lord.pk, delta=-lord.hp)
    actions.seat_die(token=lord.token, seat_id=lord.pk)
    lord.refresh_from_db()
    incoming = hero_by_id(lord.hero)
    for lang in ("zh-hans", "en"):
        for url in screens(table):
            text = page(url, lang)
            assert COMES_IN[lang] in text and incoming.name_zh in text, (url, lang)
    table.refresh_from_db()
    actions.turn_end(token=Seat.objects.get(pk=table.turn_seat_id).token)
    for url in screens(table):
        assert COMES_IN["zh-hans"] not in page(url), url


def test_a_seat_that_has_acted_carries_its_turned_card() -> None:
    table, _seats = in_play("threes")
    cold = drafter(table, "cold")
    actions.flow_answer(token=cold.token, answer="cold")
    display = page(f"/t/{table.code}/", "en")
    seat = re.search(rf'<li class="seat[^"]*" data-seat="{cold.pk}".*?</li>', display, re.S)
    assert seat and "sideways" in seat.group(0).split(">")[0]
    assert '<i class="card-sideways"></i>' in seat.group(0)
    assert 'href="/static/css/modes.css' in display or "css/modes." in display
