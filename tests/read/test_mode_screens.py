"""The screens of 3 vs 3 and 1 vs 1: each mode's own templates
(templates/companion/modes/<key>/, through read/screens.py) show the teams, the draft board and
the go on every screen, and on a phone the taps that phone may make now: join a team, choose
who picks first, pick, place, take back, answer the go. Both languages."""

from __future__ import annotations

import pytest
from django.test import Client

from companion.games.draft import actions as draft_actions
from companion.live import broadcast
from companion.models import Table
from companion.read.state import public_state
from companion.rules.heroes import hero_by_id
from tests.support.game import fresh
from tests.support.modeplay import (
    dealt_and_started,
    draft_all,
    draft_now,
    drafter,
    mode_table,
    registered,
    threes_lobby,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("registered")]
__all__ = ["registered"]


def page(url: str, lang: str = "zh-hans") -> str:
    client = Client()
    client.cookies["sgs_lang"] = lang
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_lobby_shows_the_teams_and_each_phone_its_team_taps() -> None:
    table, seats = threes_lobby()
    display = page(f"/t/{table.code}/", "en")
    assert 'id="mode-board"' in display and "Team 1" in display and "commander" in display
    phone = page(f"/p/{seats[0].token}/")
    assert 'hx-post="act/team"' in phone and 'hx-post="act/commander"' in phone
    assert "加入第1队" in phone


def test_the_draft_board_and_the_pick_taps_follow_whose_pick_it_is() -> None:
    table, _seats = threes_lobby()
    dealt_and_started(table)
    warm, cold = drafter(table, "warm"), drafter(table, "cold")
    assert 'hx-post="act/draftfirst"' in page(f"/p/{warm.token}/")
    assert 'hx-post="act/draftfirst"' not in page(f"/p/{cold.token}/")
    draft_actions.draft_first(token=warm.token, side="cold")
    cold_page, warm_page = page(f"/p/{cold.token}/", "en"), page(f"/p/{warm.token}/", "en")
    assert cold_page.count('hx-post="act/draftpick"') == 16
    assert 'hx-post="act/draftpick"' not in warm_page
    first = hero_by_id(draft_now(table).pool[0])
    display = page(f"/t/{table.code}/")
    assert first.name_zh in display and "冷色方" in display
    vanguard = table.seats.filter(identity="rebel").first()
    assert 'hx-post="act/draftpick"' not in page(f"/p/{vanguard.token}/")


def test_placing_shows_the_form_to_each_drafter_until_his_side_has_placed() -> None:
    table, _seats = mode_table("duel", 2)
    dealt_and_started(table)
    draft_all(table)
    lord = drafter(table, "lord")
    phone = page(f"/p/{lord.token}/", "en")
    assert 'hx-post="act/draftplace"' in phone and "Place your heroes face down" in phone
    held = [h for p, s in draft_now(table).picks if s == "lord" for h in [draft_now(table).pool[p]]]
    draft_actions.draft_place(token=lord.token, heroes=held[:3])
    phone = page(f"/p/{lord.token}/", "en")
    assert 'hx-post="act/draftplace"' not in phone and "Your places:" in phone
    assert "has placed its heroes" in page(f"/t/{table.code}/", "en")


def test_the_go_question_is_on_the_choosers_phone_only() -> None:
    table, _seats = threes_lobby()
    dealt_and_started(table)
    draft_all(table)
    from tests.support.modeplay import place_all

    place_all(table)
    cold, warm = drafter(table, "cold"), drafter(table, "warm")
    # The controls on the chooser's phone; every phone's strip carries the question (public: the
    # display says it too), shown on the chooser's phone only (data-for-seats).
    cold_page, warm_page = page(f"/p/{cold.token}/"), page(f"/p/{warm.token}/")
    assert cold_page.count('hx-post="act/answer"') == 2 + 2
    assert warm_page.count('hx-post="act/answer"') == 2
    assert f'<div class="now-wait" data-for-seats="{cold.pk}" hidden' in warm_page
    display = page(f"/t/{table.code}/", "en")
    assert "Which side acts first?" in display
    # The fragment a change sends is the mode's too.
    table.refresh_from_db()
    assert 'id="mode-board"' in broadcast.render_public(public_state(table), "en")
    assert 'id="mode-controls"' in broadcast.render_private(fresh(cold), "en")
    assert table.status == Table.Status.PLAYING
