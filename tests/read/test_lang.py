"""English pages name every card, hero and kingdom in English (with the Chinese name beside it
where players match the physical card), and say what they mean: the wording fixes
and the table helpers around them (turn timer, the join page, chart colours).
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.utils import timezone, translation

from companion import actions
from companion.infra.staticstorage import joined_text
from companion.models import Seat, Table
from companion.read import session_games, sessions
from companion.read.state import public_state
from companion.rules.cards import equipment_catalogue, load_deck
from companion.rules.heroes import STANDARD_HEROES
from companion.rules.scoring import FINAL_DUEL, LOYALISTS_ALIVE, REBELS_ALIVE
from companion.rules.skills import skills_for
from companion.rules.tricks import DELAYED_TRICKS
from companion.words.names import CHECK_NAMES, KINGDOM_NAMES, card_label
from tests.read.test_i18n import PO_PATH, parse_po
from tests.support.factories import make_table
from tests.support.game import by_identity, fresh, kill, started
from tests.support.langscan import english_names, stray_cjk, visible_text

pytestmark = pytest.mark.django_db

SIMA_YI = "WEI002"


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """English requests leave English active on this thread: give the next test the default."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def english() -> Client:
    client = Client()
    client.cookies["sgs_lang"] = "en"
    return client


def chinese() -> Client:
    client = Client()
    client.cookies["sgs_lang"] = "zh-hans"
    return client


def _pick_all(table: Table, seats: list[Seat]) -> None:
    """Every hero chosen; one non-lord seat plays 司马懿 (鬼才), so the judgement waits."""
    lord = by_identity(table, "lord")[0]
    actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
    for seat in seats:
        seat = fresh(seat)
        if seat.identity != "lord":
            actions.hero_pick(token=seat.token, hero_id=seat.hero_candidates[-1])
    others = [fresh(s) for s in seats if fresh(s).identity != "lord"]
    taken = {fresh(s).hero for s in seats}
    if SIMA_YI not in taken:
        Seat.objects.filter(pk=others[0].pk).update(hero=SIMA_YI)


def played_table() -> tuple[Table, list[Seat], dict[str, Any]]:
    """A 5-player 军争 game played through the services to a pending judgement: equipment of
    every kind, every delayed trick, judgements, damage, a rescue, a death and an undo."""
    table, seats = started(5, maneuvering=True)
    _pick_all(table, seats)
    table.refresh_from_db()
    order = list(table.seats.order_by("position"))
    lord = next(s for s in order if s.identity == "lord")
    actions.timer_set(token=table.host_token, seconds=90)
    for name in ("麒麟弓", "八卦阵", "的卢", "紫骍"):
        actions.equipment_set(token=lord.token, seat_id=lord.pk, name=name, replace=True)
    actions.equipment_set(token=lord.token, seat_id=lord.pk, name="青釭剑", replace=True)
    actions.equipment_remove(token=lord.token, seat_id=lord.pk, slot="armor")
    target = order[1]
    # The host records the delayed tricks (the current player may only in the play phase).
    host = table.host_token
    for trick in ("乐不思蜀", "兵粮寸断"):
        actions.trick_place(token=host, seat_id=target.pk, name=trick)
    actions.trick_place(token=host, seat_id=lord.pk, name="闪电")
    actions.trick_remove(token=host, seat_id=target.pk, name="兵粮寸断")
    actions.turn_advance(token=lord.token)  # judgement phase
    # A free judgement first (resolved), then 闪电 waiting for 鬼才.
    sima = next(fresh(s) for s in order if fresh(s).hero == SIMA_YI)
    actions.judgement_flip(
        token=lord.token, seat_id=lord.pk, check="eight_trigrams", suit="heart", rank=3
    )
    actions.judgement_confirm(token=sima.token)
    actions.judgement_flip(
        token=lord.token, seat_id=lord.pk, check="lightning", suit="spade", rank=5, trick="闪电"
    )
    actions.judgement_replace(token=sima.token, suit="heart", rank=7)
    actions.judgement_confirm(token=sima.token)
    actions.judgement_flip(
        token=target.token, seat_id=target.pk, check="indulgence", suit="heart", rank=9
    )
    actions.judgement_confirm(token=sima.token)
    victim = order[2]
    actions.seat_change_hp(token=victim.token, seat_id=victim.pk, delta=-1, source=lord.pk)
    actions.event_undo(token=victim.token)
    actions.seat_change_hp(token=victim.token, seat_id=victim.pk, delta=-1, source=lord.pk)
    actions.seat_change_hp(
        token=table.host_token, seat_id=victim.pk, delta=-fresh(victim).hp, source=lord.pk
    )
    actions.seat_rescue(token=table.host_token, seat_id=victim.pk, by=order[3].pk)
    actions.judgement_flip(token=lord.token, seat_id=lord.pk, check="luoshen", suit="club", rank=12)
    table.refresh_from_db()
    return table, [fresh(s) for s in order], {"lord": lord, "target": target, "sima": sima}


def finished_table() -> tuple[Table, list[Seat]]:
    """`played_table` played to the end: the Lord's side kills every rebel and the renegade."""
    table, seats, who = played_table()
    lord = next(s for s in seats if s.identity == "lord")
    actions.judgement_confirm(token=who["sima"].token)
    for seat in seats:
        if seat.identity in ("rebel", "renegade"):
            kill(table, seat, lord)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table, [fresh(s) for s in seats]


def pages(table: Table, seats: list[Seat]) -> dict[str, str]:
    """Every page and dialog of the table, rendered in English."""
    client = english()
    urls = {"display": f"/t/{table.code}/", "host": f"/h/{table.host_token}/"}
    for seat in seats:
        urls[f"phone {seat.name}"] = f"/p/{seat.token}/"
        urls[f"seat {seat.name}"] = f"/h/{table.host_token}/seat/{seat.pk}"
        urls[f"own seat {seat.name}"] = f"/p/{seat.token}/seat/{seat.pk}"
        urls[f"equip {seat.name}"] = f"/p/{seat.token}/equip/{seat.pk}"
        urls[f"judge {seat.name}"] = f"/p/{seat.token}/judge/{seat.pk}"
        urls[f"replace {seat.name}"] = f"/p/{seat.token}/replace"
    urls["session"] = f"/h/{table.host_token}/session/"
    urls["game"] = f"/h/{table.host_token}/game/{table.game_number}/"
    urls["display session"] = f"/t/{table.code}/session/"
    urls["join"] = f"/j/{table.code}/"
    found = {}
    for label, url in urls.items():
        response = client.get(url)
        if response.status_code == 200:
            found[label] = response.content.decode()
    return found


def test_every_card_equipment_hero_skill_and_kingdom_has_an_english_name() -> None:
    ascii_name = re.compile(r"^[A-Z][A-Za-zü ()'-]*$")
    for card in load_deck(ex=True, maneuvering=True):
        assert ascii_name.match(card.name_en), card
    for equipment in equipment_catalogue(maneuvering=True):
        assert ascii_name.match(equipment.name_en), equipment
    assert {e.name_zh: e.name_en for e in equipment_catalogue()}["麒麟弓"] == "Qilin Bow"
    for trick in DELAYED_TRICKS:
        assert english_names()[trick]
    for hero in STANDARD_HEROES:
        assert ascii_name.match(hero.name_en), hero
        assert hero.kingdom in KINGDOM_NAMES
        for skill in skills_for(hero.id):
            assert ascii_name.match(skill.name_en), skill
    for zh, en in CHECK_NAMES.values():
        assert ascii_name.match(en) and zh
    with translation.override("en"):
        assert card_label("乐不思蜀") == "Indulgence 乐不思蜀"
        assert card_label("麒麟弓") == "Qilin Bow 麒麟弓"
    with translation.override("zh-hans"):
        assert card_label("麒麟弓") == "麒麟弓"


def test_no_english_source_string_holds_chinese_without_its_english_name() -> None:
    """Every UI string is English; a Chinese name in one stands beside its English name."""
    stray = {e.msgid: stray_cjk(e.msgid) for e in parse_po(PO_PATH) if stray_cjk(e.msgid)}
    assert stray == {}


@pytest.mark.parametrize("make", ["played", "finished"])
def test_english_pages_of_a_played_table_have_no_stray_chinese(make: str) -> None:
    if make == "played":
        table, seats, _who = played_table()
    else:
        table, seats = finished_table()
    found = pages(table, seats)
    assert len(found) >= 6 * len(seats) - 2, sorted(found)
    stray = {label: stray_cjk(visible_text(html)) for label, html in found.items()}
    assert {label: runs for label, runs in stray.items() if runs} == {}
    display = found["display"]
    if make == "played":
        # The names a player matches to the physical cards, English first.
        assert '<span class="en">Qinggang Sword</span> 青釭剑<small>2</small>' in display
        assert '<span class="en">Indulgence</span> 乐不思蜀' in display
        assert "Demonic Talent 鬼才" in visible_text(display)
        assert "Qilin Bow 麒麟弓" in visible_text(found["equip " + seats[0].name])
        assert "Lightning 闪电" in visible_text(found["seat " + seats[0].name]) or any(
            "Lightning 闪电" in visible_text(found["seat " + s.name]) for s in seats
        )
        lord = next(s for s in seats if s.identity == "lord")
        kingdom_zh, kingdom_en = KINGDOM_NAMES[_hero_kingdom(lord.hero)]
        phone = found["phone " + lord.name]
        assert (
            f'<span class="kingdom-badge"><span class="en">{kingdom_en}</span> {kingdom_zh}'
            in phone
        )
    else:
        assert "The Lord and the Loyalists win" in display


def _hero_kingdom(hero_id: str) -> str:
    return next(h.kingdom for h in STANDARD_HEROES if h.id == hero_id)


def test_chinese_pages_keep_the_chinese_names_alone() -> None:
    table, seats, _who = played_table()
    display = chinese().get(f"/t/{table.code}/").content.decode()
    assert "青釭剑<small>2</small>" in display and "Qinggang" not in display
    assert '<span class="chip trick" data-help="card:乐不思蜀">乐不思蜀</span>' in display
    assert "Demonic Talent" not in display and "鬼才" in display


def test_history_lines_show_no_change_numbers() -> None:
    table, seats, _who = played_table()
    for client in (english(), chinese()):
        for url in (f"/t/{table.code}/", f"/h/{table.host_token}/seat/{seats[2].pk}"):
            text = visible_text(client.get(url).content.decode())
            assert not re.search(r"#\d+", text), url


def test_undo_says_what_was_undone_in_words() -> None:
    table, seats, _who = played_table()
    victim, lord = seats[2], next(s for s in seats if s.identity == "lord")
    with translation.override("en"):
        lines = [line.text for line in public_state(table).history + _older(table)]
    undo = next(t for t in lines if t.startswith("Undone"))
    # The undone line itself (with any damage skill it named), then the HP it leaves.
    assert undo.startswith(
        f"Undone: {victim.name} took 1 damage from {lord.name} (HP {victim.max_hp - 1})"
    )
    assert undo.endswith(f" · {victim.name} has HP {victim.max_hp}")
    assert "#" not in undo
    with translation.override("zh-hans"):
        lines = [line.text for line in _older(table)]
    assert any(t.startswith("已撤销：") and lord.name in t for t in lines)


def _older(table: Table) -> list[Any]:
    from companion.read.history import history_lines

    return history_lines(table, limit=None)


def test_undo_of_an_old_event_without_its_line_still_says_what_kind() -> None:
    from companion.words.history import describe

    with translation.override("en"):
        text = describe("undo", {"name": "Ann", "undone_kind": "died", "undone_version": 7})["text"]
    assert text == "Undone: the death of Ann"


def test_judgement_words() -> None:
    from companion.words.labels import outcome_label

    with translation.override("en"):
        assert outcome_label("escaped") == "no effect: the trick is discarded"
    with translation.override("zh-hans"):
        assert outcome_label("escaped") == "不生效：此牌弃置，照常进行"
        assert "判定失效" not in outcome_label("escaped")


def test_counted_score_lines_say_what_they_count() -> None:
    rebels = session_games.ScoreItem(REBELS_ALIVE, 2, 3)
    loyal = session_games.ScoreItem(LOYALISTS_ALIVE, 2, 1)
    duel = session_games.ScoreItem(FINAL_DUEL, 1, 5)
    with translation.override("zh-hans"):
        assert (rebels.label, rebels.detail) == ("3 名存活反贼 × 2 分", "= +6")
        assert duel.label == "最终单挑：本局 5 名玩家 × 1 分"
    with translation.override("en"):
        assert (rebels.label, rebels.detail) == ("3 rebels alive × 2 points", "= +6")
        assert (loyal.label, loyal.detail) == ("1 loyalist alive × 2 points", "= +2")
        assert duel.label == "Final duel: 5 players in the game × 1 point"
        base = session_games.ScoreItem("base", 4)
        assert (base.label, base.detail) == ("Base score", "+4")


def test_the_games_list_is_not_called_a_count() -> None:
    table, _seats = finished_table()
    body = chinese().get(f"/h/{table.host_token}/session/").content.decode()
    assert "<h3>对局记录</h3>" in body
    assert '<th class="num">局数</th>' in body  # the standings' column is a count
    assert "<h3>Games</h3>" in english().get(f"/h/{table.host_token}/session/").content.decode()


def test_readme_names_the_new_table_button_as_the_page_does() -> None:
    with translation.override("zh-hans"):
        button = translation.gettext("New table")
    home = chinese().get("/").content.decode()
    assert button in home
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"**{button} / New table**" in readme
    assert "新开一桌" not in readme


def test_english_identity_word_is_not_letter_spaced() -> None:
    css = joined_text("css/app.css")
    assert re.search(r'html\[lang="en"\] \.idn-big \{ letter-spacing: normal; \}', css)


def test_wording_of_refusals_in_english() -> None:
    table, seats, who = played_table()
    client = english()
    from tests.web.test_views import csrf_post

    other = next(s for s in seats if s.pk != who["sima"].pk and s.identity != "lord")
    answer = csrf_post(client, f"/p/{other.token}/act/replace", {"suit": "heart", "rank": "3"})
    text = visible_text(answer.content.decode())
    assert "Only Sima Yi can replace a judgement card." in text and not stray_cjk(text)


# The server command ---------------------------------------------------------------------------


def _play_output(monkeypatch: pytest.MonkeyPatch, *args: str, lan: list[str]) -> str:
    import uvicorn

    monkeypatch.setattr("companion.management.commands.play.local_addresses", lambda: lan)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    out = io.StringIO()
    call_command("play", "--port", "8123", "--no-migrate", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_play_on_loopback_says_phones_cannot_join(
    monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    text = _play_output(monkeypatch, "--host", host, lan=["10.1.2.3"])
    assert "Phones on this network open" not in text
    assert "Phones cannot join" in text and "--host 0.0.0.0" in text
    assert "10.1.2.3" not in text and "█" not in text and "▀" not in text  # no QR to scan


def test_play_without_a_network_says_phones_cannot_join_yet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = _play_output(monkeypatch, lan=[])
    assert "Phones on this network open" not in text
    assert "Phones cannot join yet" in text and "Wi-Fi" in text


def test_play_on_the_network_still_prints_the_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _play_output(monkeypatch, lan=["10.1.2.3"])
    assert "Phones on this network open:" in text and "http://10.1.2.3:8123/" in text


# The turn timer, the join page, chart colours ---------------------------------------


def test_turn_timer_counts_from_when_it_is_set() -> None:
    table, seats, _who = played_table()
    actions.timer_set(token=table.host_token, seconds=0)
    Table.objects.filter(pk=table.pk).update(turn_started_at=timezone.now() - timedelta(minutes=10))
    before = time.time() * 1000
    actions.timer_set(token=table.host_token, seconds=60)
    after = time.time() * 1000
    table.refresh_from_db()
    deadline = public_state(table).turn.deadline_ms
    assert before + 60_000 - 1000 <= deadline <= after + 60_000 + 1000
    # The next turn counts from its own start.
    lord = next(s for s in seats if s.identity == "lord")
    Table.objects.filter(pk=table.pk).update(pending_judgement={})
    # Nothing left to judge (the played table may hold delayed tricks): the turn can move on.
    Seat.objects.filter(table=table).update(judgement_zone=[])
    while Table.objects.get(pk=table.pk).turn_seat_id == lord.pk:
        start = time.time() * 1000
        actions.turn_advance(token=lord.token)
    table.refresh_from_db()
    assert public_state(table).turn.deadline_ms >= start + 60_000 - 1000


@pytest.mark.parametrize("case", ["locked", "started", "full"])
def test_join_page_says_the_table_is_closed_before_a_name_is_typed(case: str) -> None:
    if case == "full":
        table, _seats = make_table(10)
        words = "This table is full."
    elif case == "locked":
        table, _seats = make_table(3)
        actions.table_lock(token=table.host_token, locked=True)
        words = "The host has locked this table."
    else:
        table, _seats = started(4)
        words = "This game has already started"
    body = english().get(f"/j/{table.code}/").content.decode()
    assert words in body and 'class="banner join-closed"' in body
    assert 'name="name"' not in body
    with translation.override("zh-hans"):
        zh = chinese().get(f"/j/{table.code}/").content.decode()
    assert 'class="banner join-closed"' in zh and 'name="name"' not in zh


def test_join_page_of_an_open_table_asks_for_a_name() -> None:
    table, _seats = make_table(3)
    body = english().get(f"/j/{table.code}/").content.decode()
    assert 'name="name"' in body and "join-closed" not in body


def test_chart_colours_follow_the_player_not_the_rank() -> None:
    from tests.support.sessions import deal, start
    from tests.support.sessions import kill as session_kill

    table, seats = make_table(4)
    colours = {}
    ranks = {}
    for game, lord in enumerate(("P1", "P4")):
        others = [n for n in ("P1", "P2", "P3", "P4") if n != lord]
        deal(
            table, {lord: "lord", others[0]: "loyalist", others[1]: "rebel", others[2]: "renegade"}
        )
        start(table)
        session_kill(table, others[1], lord)
        session_kill(table, others[2], lord)
        summary = sessions.current_summary(table)
        colours[game] = {row.name: row.colour for row in summary.standings}
        ranks[game] = [row.name for row in summary.standings]
        chart = summary.line_chart
        for row in summary.standings:
            assert re.search(
                rf'<polyline fill="none" stroke="{row.colour}"[^>]*><title>{row.name}</title>',
                chart,
            )
        bars = summary.bar_chart
        assert bars.count('class="chart-player"') == 4
    assert ranks[0] != ranks[1], "the ranking must change for this test to mean anything"
    assert colours[0] == colours[1]
    assert len(set(colours[0].values())) == 4
    by_seat = sorted(seats, key=lambda s: s.pk)
    assert [colours[0][s.name] for s in by_seat] == [sessions.charts.colour(i) for i in range(4)]
