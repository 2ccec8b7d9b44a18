"""The rules help in the dialogs: the names the judgement helper, the damage dialogs and a
seat's HP history show carry `data-help` (the rules-help block of js/live.js opens the
entry in place), each the key of an entry that exists, in both languages."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from companion import actions
from companion.rules import help as rules_help
from tests.actions.flow_helpers import after, holder_of, to_phase
from tests.actions.test_turns import first_game
from tests.games.maneuvering.test_dialog import dialog, scene
from tests.web.test_views import csrf_client, htmx_post

pytestmark = pytest.mark.django_db

LANGS = ("zh-hans", "en")


def help_keys(html: str) -> list[str]:
    keys = re.findall(r'data-help="([^"]+)"', html)
    for key in keys:
        assert rules_help.entry(key) is not None, key
    return keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_judgement_of_the_helper_opens_its_entry(lang: str) -> None:
    table, _seats = first_game(4, maneuvering=True)
    a = holder_of(table)
    page = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/p/{a.token}/judge/{a.pk}").content.decode()
    choices = re.findall(r'<label class="check-choice">.*?</label>', page, re.S)
    assert len(choices) >= 7
    for choice in choices:
        # The name of each choice, not the whole label (a first tap still chooses it).
        assert re.search(r'<span data-help="[^"]+">[^<]+</span>', choice), choice
    keys = help_keys(page)
    for key in ("card:乐不思蜀", "card:兵粮寸断", "card:闪电", "card:八卦阵", "skill:luoshen",
                "skill:tieji", "skill:ganglie"):  # fmt: skip
        assert key in keys


@pytest.mark.parametrize("lang", LANGS)
def test_the_damage_dialog_names_open_their_entries(lang: str) -> None:
    table, _seats, a, b, _c = scene()
    chosen = dialog(a.token, b.pk, lang, card="火杀", source=str(a.pk))
    assert re.search(r'<strong class="damage-card" data-help="card:火杀">', chosen)
    # 古锭刀's choice: its name opens the entry, the rest of the line ticks the box.
    option = re.search(r'<label class="check-row"><input[^>]*name="target_hand_empty".*?</label>',
                       chosen, re.S)  # fmt: skip
    assert option and 'data-help="card:古锭刀"' in option.group()
    other = dialog(a.token, b.pk, lang, card="other")
    assert 'class="damage-card">' in other  # "Other" is no card: nothing to open
    # 麒麟弓's horses.
    actions.equipment_set(token=table.host_token, seat_id=a.pk, name="麒麟弓", replace=True)
    actions.equipment_set(token=table.host_token, seat_id=b.pk, name="赤兔")
    horses = dialog(a.token, b.pk, lang, card="杀", source=str(a.pk))
    assert 'data-help="card:麒麟弓"' in horses and 'data-help="card:赤兔"' in horses
    help_keys(horses)


@pytest.mark.parametrize("lang", LANGS)
def test_the_hp_history_of_a_seat_links_the_cards_it_names(lang: str) -> None:
    table, seats = first_game(4, maneuvering=True)
    a = holder_of(table)
    b = after(seats, a)
    to_phase(table, "play")
    fields = {"target": b.pk, "card": "火杀", "source": a.pk}
    assert htmx_post(csrf_client(), f"/p/{a.token}/act/resolve", fields).status_code == 204
    page = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/p/{a.token}/seat/{b.pk}").content.decode()
    history = page.split('<ol class="events">', 1)[1].split("</ol>", 1)[0]
    assert '<span data-help="card:火杀">火杀</span>' in history, history
    help_keys(page)


@pytest.mark.parametrize("lang", LANGS)
def test_the_guicai_lines_open_its_entry(lang: str) -> None:
    """The judgement banner's 鬼才 note, 司马懿's question and the replace dialog's title: each
    names 鬼才 as a tap that opens its entry; the player's name in the note stays plain text."""
    from tests.actions.test_judge_skill_wait import flipped

    table, _seats, holder, sima = flipped()
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    judged = client.get(f"/p/{holder.token}/").content.decode()
    note = re.search(
        r'<span class="muted small guicai-note">(.*?)</span>\s*(?:</|<[a-z])', judged, re.S
    )
    assert note and 'data-help="skill:guicai"' in note.group(1) and sima.name in note.group(1)
    own = client.get(f"/p/{sima.token}/").content.decode()
    ask = re.search(r'<strong class="guicai-ask-title">(.*?)</strong>', own, re.S)
    assert ask and '<span data-help="skill:guicai">鬼才</span>' in ask.group(1)
    replace = client.get(f"/p/{sima.token}/replace").content.decode()
    title = re.search(r'<h2 id="replace-title">(.*?)</h2>', replace, re.S)
    assert title and '<span data-help="skill:guicai">鬼才</span>' in title.group(1)
    assert "skill:guicai" in help_keys(judged + own + replace)
