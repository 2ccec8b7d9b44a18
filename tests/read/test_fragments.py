"""companion/live/fragments.py: the seat, HP tracker, history line and HP delta, built as strings.

What the whole state and the delta show of a seat is checked against each other in
test_socket_taps.py; here, escaping, translation and what each piece shows in each state.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.utils import translation
from django.utils.html import escape

from companion.live import fragments
from companion.read.history import HistoryLine
from companion.read.private import PrivateState
from companion.read.public_seat import EquipmentView, PublicSeat
from companion.words.names import hero_card

NASTY = "<b>\"Zhang\" & 'Fei'</b>"


def _seat(**changes: object) -> PublicSeat:
    seat = PublicSeat(
        id=7, name="P1", position=2, alive=True, is_host=False, identity=None, hp=3, max_hp=4
    )
    return replace(seat, **changes)


def _me(**changes: object) -> PrivateState:
    me = PrivateState(
        seat_id=7,
        name="P1",
        identity=None,
        is_host=False,
        alive=True,
        version=12,
        history=[],
        status="playing",
        hp=3,
        max_hp=4,
    )
    return replace(me, **changes)


def test_seat_item_escapes_names_in_text_and_attributes() -> None:
    html = fragments.seat_item(_seat(name=NASTY, killer_name=NASTY, alive=False), 2, None)
    assert "<b>" not in html
    assert "&lt;b&gt;&quot;Zhang&quot; &amp; &#x27;Fei&#x27;&lt;/b&gt;" in html
    label = re.search(r'aria-label="([^"]*)"', html)
    assert label and "&quot;Zhang&quot;" in label.group(1)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh-hans", ("主公", "房主", "濒死", "的详情")),
        ("en", ("Lord", "Host", "Dying", "Details of")),
    ],
)
def test_seat_item_speaks_the_active_language(lang: str, words: tuple[str, ...]) -> None:
    seat = _seat(identity="lord", is_host=True, dying=True, hp=0)
    with translation.override(lang):
        html = fragments.seat_item(seat, 0, None)
    for word in words:
        assert word in html


def test_seat_item_shows_what_the_seat_has() -> None:
    plain = fragments.seat_item(_seat(), 2, None)
    assert plain.startswith('<li class="seat" data-seat="7" data-i="2">')
    assert '<span class="seat-no">3</span>' in plain
    assert '<span class="idn idn-hidden">?</span>' in plain
    assert '<span class="hp-num">3/4</span>' in plain
    for absent in ("seat-hero", "equip", "zone", "host-mark", "dying-mark", "dead-mark"):
        assert absent not in plain
    full = fragments.seat_item(
        _seat(
            hero=hero_card("WEI001"),
            equipment=[EquipmentView("weapon", "诸葛连弩", "Zhuge Crossbow", 1)],
            zone=["乐不思蜀"],
        ),
        2,
        7,
    )
    assert 'class="seat has-turn"' in full
    assert '<span class="seat-hero"><span class="hero-name kingdom-wei">' in full
    assert (
        '<span class="chip eq eq-weapon" data-help="card:诸葛连弩">诸葛连弩<small>1</small></span>'
        in full
    )
    assert '<span class="chip trick" data-help="card:乐不思蜀">乐不思蜀</span>' in full
    dead = fragments.seat_item(_seat(alive=False, identity="rebel", hp=0), 0, None)
    assert 'class="seat dead"' in dead and "idn-rebel" in dead and "阵亡" in dead


def test_hero_names_in_english_only_in_the_english_ui() -> None:
    hero = hero_card("WEI001")
    assert hero is not None
    with translation.override("zh-hans"):
        assert 'class="en"' not in fragments.hero_name(hero)
    with translation.override("en"):
        assert f'<span class="en">{hero.name_en}</span>' in fragments.hero_name(hero)


def test_hp_tracker_buttons_only_while_alive_in_play() -> None:
    live = fragments.hp_tracker(_me(), "tap0000001")
    assert 'data-version="12" data-action="tap0000001"' in live
    assert "hp-minus" in live and "hp-plus" in live and " disabled" not in live
    assert '<span class="hp-big">3<small>/4</small></span>' in live
    assert " disabled>+" in fragments.hp_tracker(_me(hp=4))
    assert "data-action" not in fragments.hp_tracker(_me(), None)
    for quiet in (_me(alive=False), _me(status="finished")):
        html = fragments.hp_tracker(quiet)
        assert "hp-minus" not in html and "hp-plus" not in html
    assert 'class="hp-tracker dying dead"' in fragments.hp_tracker(_me(dying=True, alive=False))


def test_event_line_escapes_and_marks() -> None:
    line = HistoryLine("seat_joined", {"name": NASTY}, 5, 0)
    html = fragments.event_line(line)
    assert html.startswith('<li class="">&lt;b&gt;')
    assert "<b>" not in html and escape(NASTY) in html
    died = fragments.event_line(HistoryLine("died", {"name": "P1"}, 9, 1), data_line=True)
    assert died.startswith('<li data-line class="important reveal">')


def test_delta_names_its_versions_and_tap() -> None:
    from companion.read.delta import TableDelta

    delta = TableDelta(
        version=13,
        base=12,
        seats=[(_seat(), 2)],
        line=HistoryLine("damage", {"seat": 7, "name": "P1", "amount": 1, "hp": 3}, 13, 1),
        turn=None,
        me=_seat(),
    )
    html = fragments.delta(delta, "tap0000002")
    # The seat's own tracker, made from the seat as every screen sees it, is the one its phone's
    # private state makes.
    assert fragments.hp_tracker(_me(version=13), "tap0000002") in html
    assert html.startswith(
        '<template id="table-delta" data-version="13" data-base="12" data-keep="15"'
        ' data-action="tap0000002">'
    )
    assert html.endswith("</template>")
    assert html.count('data-seat="7"') == 1 and 'id="my-hp"' in html and "data-line" in html
    assert "turn-bar" not in html
    assert 'data-action="' not in fragments.delta(delta, None)
