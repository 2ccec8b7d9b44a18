"""The hero box page over HTTP: host only; a hero
added through the form, a refused one shown again with the reason under its field; a standard
hero switched; the JSON export imported into another table, a bad file refused with its reason;
an added hero named on the phone and the display, with its help entry (its typed skill texts, a
lord skill lord-only)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from companion import actions
from companion.models import Seat, Table
from companion.queries.box import table_box
from companion.rules import box
from tests.support.factories import make_table
from tests.support.game import by_identity, fresh, kill

pytestmark = pytest.mark.django_db

FORM = {
    "name_zh": "袁绍",
    "name_en": "Yuan Shao",
    "kingdom": "qun",
    "hp": "4",
    "gender": "male",
    "lord": "1",
    "skill_name_0": "乱击",
    "skill_text_0": "你可以将两张花色相同的手牌当万箭齐发使用。",
    "skill_name_1": "血裔",
    "skill_text_1": "锁定技，你每有一名其他群雄角色，你的手牌上限便+2。",
    "skill_lord_1": "1",
}


def client(lang: str = "zh-hans") -> Client:
    c = Client()
    c.cookies["sgs_lang"] = lang
    return c


def box_url(token: str) -> str:
    return f"/h/{token}/box/"


def test_the_host_reaches_the_box_page_from_the_host_panel_and_a_player_is_refused() -> None:
    table, seats = make_table(4)
    host_page = client().get(f"/h/{table.host_token}/").content.decode()
    assert 'href="box/"' in host_page
    page = client().get(box_url(table.host_token))
    assert page.status_code == 200
    assert "从下一次发牌起生效" in page.content.decode()
    player = next(s for s in seats if not s.is_host)
    assert client().get(f"/p/{player.token}/box/").status_code == 403
    assert client().post(f"/p/{player.token}/box/add", FORM).status_code == 403
    assert client().get(f"/p/{player.token}/box/export.json").status_code == 403
    assert client().get("/h/NOSUCHTOKEN/box/").status_code == 404


@pytest.mark.parametrize(
    ("lang", "field", "value", "message"),
    [
        ("zh-hans", "name_zh", "Yuan", "请用中文写名字"),
        ("en", "name_zh", "Yuan", "Write the name in Chinese"),
        ("zh-hans", "hp", "", "体力为 1 到 8 的整数"),
        ("en", "kingdom", "", "Choose a kingdom."),
        ("en", "skill_text_1", "", "A skill needs its name and its text."),
    ],
)
def test_a_refused_hero_comes_back_with_the_reason_under_its_field(
    lang: str, field: str, value: str, message: str
) -> None:
    table, _seats = make_table(4)
    response = client(lang).post(box_url(table.host_token) + "add", {**FORM, field: value})
    assert response.status_code == 400
    body = response.content.decode()
    assert message in body
    assert 'class="field-error"' in body
    assert 'value="Yuan Shao"' in body, "what was typed is kept"
    if field.startswith("skill_"):
        row = body.split('data-row="1"')[1].split("</div>")[0]
        assert message in row, "the error stands under the skill's own row"
    table.refresh_from_db()
    assert table_box(table).added == ()


def test_add_switch_remove_through_the_page() -> None:
    table, _seats = make_table(4)
    c = client("en")
    response = c.post(box_url(table.host_token) + "add", FORM)
    assert response.status_code == 303
    page = c.get(box_url(table.host_token)).content.decode()
    assert "袁绍" in page and "Yuan Shao" in page and "血裔" in page
    assert 'data-help="added:' in page
    c.post(box_url(table.host_token) + "switch", {"hero": "QUN003", "on": "0"})
    table.refresh_from_db()
    hero_box = table_box(table)
    assert "QUN003" not in hero_box.ids()
    assert hero_box.hero("ADD001").skills[1].lord
    c.post(box_url(table.host_token) + "remove", {"hero": "ADD001"})
    table.refresh_from_db()
    assert table_box(table).added == ()


def test_export_then_import_into_another_table_round_trips() -> None:
    table, _seats = make_table(4)
    c = client()
    c.post(box_url(table.host_token) + "add", FORM)
    c.post(box_url(table.host_token) + "switch", {"hero": "QUN003", "on": "0"})
    export = c.get(box_url(table.host_token) + "export.json")
    assert export.status_code == 200
    assert "attachment" in export["Content-Disposition"]
    data = json.loads(export.content.decode())
    assert data["format"] == "sanguosha-box" and data["standard_off"] == ["QUN003"]
    assert table.host_token not in export.content.decode()
    other, _seats = make_table(4)
    upload = export.content
    response = c.post(
        box_url(other.host_token) + "import",
        {"file": SimpleUploadedFile("box.json", upload, "application/json")},
    )
    assert response.status_code == 303
    other.refresh_from_db()
    table.refresh_from_db()
    assert table_box(other) == table_box(table)


@pytest.mark.parametrize(
    ("lang", "content", "message"),
    [
        ("zh-hans", b"{not json", "文件不是 JSON"),
        ("en", b"{not json", "The file is not JSON."),
        ("en", b'{"format": "sanguosha-box", "version": 7}', "another version"),
        (
            "en",
            json.dumps(
                {
                    "format": "sanguosha-box",
                    "version": 1,
                    "added": [{"id": "ADD001", "name_zh": "袁绍", "kingdom": "qun", "hp": 12}],
                }
            ).encode(),
            "Hero 1 in the file (hp): HP is a whole number from 1 to 8.",
        ),
    ],
)
def test_a_bad_file_is_refused_with_its_reason(lang: str, content: bytes, message: str) -> None:
    table, _seats = make_table(4)
    response = client(lang).post(
        box_url(table.host_token) + "import",
        {"file": SimpleUploadedFile("box.json", content, "application/json")},
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    table.refresh_from_db()
    assert table.session_id is None or table_box(table).added == ()


def lord_with_added(table: Table) -> Seat:
    actions.identities_deal(token=table.host_token)
    actions.game_start(token=table.host_token)
    lord = by_identity(table, "lord")[0]
    for _ in range(60):
        if "ADD001" in lord.hero_candidates:
            return lord
        actions.heroes_redeal(token=table.host_token, confirm=True)
        lord = fresh(lord)
    pytest.fail("袁绍 never offered")


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_an_added_hero_is_named_on_the_phone_and_the_display_with_its_help(lang: str) -> None:
    table, _seats = make_table(5, lord_pack=True)
    client().post(box_url(table.host_token) + "add", FORM)
    lord = lord_with_added(table)
    c = client(lang)
    offer = c.get(f"/p/{lord.token}/").content.decode()
    assert "袁绍" in offer and "乱击" in offer
    assert ("Yuan Shao" in offer) == (lang == "en")
    assert f'data-help="added:{table.code}.ADD001"' in offer
    assert f'data-help="added:{table.code}.ADD001.1"' in offer
    actions.hero_pick(token=lord.token, hero_id="ADD001")
    for seat in Seat.objects.filter(table=table).exclude(pk=lord.pk):
        actions.hero_pick(token=seat.token, hero_id=seat.hero_candidates[0])
    display = c.get(f"/t/{table.code}/").content.decode()
    assert display.count("袁绍") >= 2, "the seat and the history line name him"
    assert ("Yuan Shao" in display) == (lang == "en")
    phone = c.get(f"/p/{lord.token}/").content.decode()
    assert f'data-help="added:{table.code}.ADD001"' in phone
    assert "你可以将两张花色相同的手牌当万箭齐发使用。" in phone
    dialog = c.get(f"/t/{table.code}/seat/{lord.pk}").content.decode()
    assert "袁绍" in dialog and "乱击" in dialog
    entry = c.get(f"/help/added/{table.code}.ADD001/?pop=1")
    assert entry.status_code == 200
    text = entry.content.decode()
    assert "乱击" in text and "你可以将两张花色相同的手牌当万箭齐发使用。" in text
    lord_only = "只有这名武将身为主公时才有效" if lang == "zh-hans" else "only while this hero"
    assert lord_only in text, "the lord skill says it works only for the lord"
    skill = c.get(f"/help/added/{table.code}.ADD001.1/?pop=1").content.decode()
    assert "血裔" in skill and lord_only in skill
    assert c.get(f"/help/added/{table.code}.ADD009/").status_code == 404
    assert c.get("/help/added/NOPE.ADD001/").status_code == 404


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("zh-hans", "房主把袁绍加入了武将盒"),
        ("en", "The host added 袁绍 Yuan Shao to the hero box"),
    ],
)
def test_the_history_names_a_box_change(lang: str, line: str) -> None:
    table, _seats = make_table(4)
    client().post(box_url(table.host_token) + "add", FORM)
    assert line in client(lang).get(f"/t/{table.code}/").content.decode()
    assert "box_changed" not in client(lang).get(f"/t/{table.code}/").content.decode()


def test_guessing_table_codes_through_the_help_is_throttled() -> None:
    c = client()
    answers = [c.get(f"/help/added/ZZZZ{i}.ADD001/").status_code for i in range(40)]
    assert answers[0] == 404
    assert 429 in answers, "a guesser is stopped like at /t/<code>/"


def test_a_finished_game_names_its_added_hero_after_the_box_changed() -> None:
    table, _seats = make_table(5, lord_pack=True)
    client().post(box_url(table.host_token) + "add", FORM)
    lord = lord_with_added(table)
    actions.hero_pick(token=lord.token, hero_id="ADD001")
    for seat in Seat.objects.filter(table=table).exclude(pk=lord.pk):
        actions.hero_pick(token=seat.token, hero_id=seat.hero_candidates[0])
    kill(table, lord, None)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    actions.box_remove(token=table.host_token, hero_id="ADD001")  # allowed: the game is over
    page = client("en").get(f"/t/{table.code}/session/").content.decode()
    assert "袁绍" in page and "Yuan Shao" in page


def long_box(heroes: int) -> box.Box:
    """A box of `heroes` added heroes, each with six skills of 500 characters."""
    hero_box = box.Box()
    for i in range(heroes):
        hero_box = hero_box.add(
            {
                **FIELDS,
                "name_zh": f"武将{i}",
                "skills": [
                    {"name": f"技{j}", "text": f"{i}{j}" + "锁" * (box.MAX_SKILL_TEXT - 4)}
                    for j in range(box.MAX_SKILLS)
                ],
            }
        )
    return hero_box


FIELDS = {"kingdom": "qun", "hp": 4, "gender": "male", "lord": False}


@pytest.mark.backend
@pytest.mark.parametrize("htmx", [False, True])
def test_a_host_reimports_their_own_export_of_a_large_box(htmx: bool) -> None:
    table, _seats = make_table(4)
    actions.box_import(token=table.host_token, text=box.export_box(long_box(60)))
    c = client()
    export = c.get(box_url(table.host_token) + "export.json").content
    assert len(export) > 500_000, "far over the 16 KB a tap may send"
    other, _seats = make_table(4)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = c.post(
        box_url(other.host_token) + "import",
        {"file": SimpleUploadedFile("box.json", export, "application/json")},
        **headers,
    )
    assert response.status_code == 303, response.content[:200]
    other.refresh_from_db()
    table.refresh_from_db()
    assert table_box(other) == table_box(table)


@pytest.mark.parametrize(
    ("lang", "message"),
    [("zh-hans", "文件太大，不是武将盒。"), ("en", "The file is too large for a hero box.")],
)
@pytest.mark.parametrize("excess", [1, 100_000])
def test_a_file_over_the_box_limit_gets_the_box_pages_message(
    lang: str, message: str, excess: int
) -> None:
    table, _seats = make_table(4)
    content = b" " * (box.MAX_FILE_BYTES + excess)
    for headers, status in (({}, 400), ({"HTTP_HX_REQUEST": "true"}, 200)):
        response = client(lang).post(
            box_url(table.host_token) + "import",
            {"file": SimpleUploadedFile("box.json", content, "application/json")},
            **headers,
        )
        assert response.status_code == status
        assert response.get("X-Box-Refused") == (None if status == 400 else "400")
        body = response.content.decode()
        assert message in body and 'class="field-error" role="alert"' in body
        assert "<h1>" in body, "the box page itself"
