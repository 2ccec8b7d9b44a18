"""A table's hero box: kept on the session, changed by the host only, one
event each; the offers (the lord's, the lord pack's, the others', a draft) drawn from it, a
switched-off standard hero never offered; an added hero dealt, picked and played with its HP;
a hero in play cannot leave the box; a new session keeps the box."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion import actions
from companion.actions import ActionError
from companion.actions.box_offers import BoxRefused
from companion.models import Event, Game, Seat, Session, Table
from companion.queries.box import table_box
from companion.rules import box
from tests.support.factories import make_table
from tests.support.game import by_identity, fresh, started
from tests.support.modeplay import dealt_and_started, draft_now, mode_table, registered  # noqa: F401

pytestmark = pytest.mark.django_db

XIANDI = {
    "name_zh": "汉献帝",
    "name_en": "Emperor Xian",
    "kingdom": "qun",
    "hp": 3,
    "gender": "male",
    "lord": True,
    "skills": [
        {"name": "天命", "text": "当你成为杀的目标时，你可以弃置两张牌，然后摸两张牌。"},
        {"name": "密诏", "text": "出牌阶段限一次，你可以将所有手牌交给一名角色。", "lord": True},
    ],
}
YUANSHAO = {
    "name_zh": "袁绍",
    "name_en": "Yuan Shao",
    "kingdom": "qun",
    "hp": 4,
    "gender": "male",
    "lord": True,
    "skills": [{"name": "乱击", "text": "你可以将两张花色相同的手牌当万箭齐发使用。"}],
}
LORDS = {"WEI001", "SHU001", "WU001"}


def test_the_box_is_kept_on_the_session_and_each_change_is_an_event() -> None:
    table, _seats = make_table(4)
    assert table_box(table) == box.Box()
    actions.box_add(token=table.host_token, fields=XIANDI)
    actions.box_switch(token=table.host_token, hero_id="QUN003", on=False)
    table.refresh_from_db()
    stored = Session.objects.get(pk=table.session_id).box
    assert stored["standard_off"] == ["QUN003"]
    assert [h["name_zh"] for h in stored["added"]] == ["汉献帝"]
    hero_box = table_box(table)
    assert "QUN003" not in hero_box.ids() and "ADD001" in hero_box.ids()
    assert hero_box.hero("ADD001").skills[1].lord
    events = list(Event.objects.filter(table=table, kind="box_changed").order_by("version"))
    assert [e.public["what"] for e in events] == ["add", "off"]
    assert events[0].before["box"]["added"] == [] and events[0].after["box"]["added"]
    actions.box_switch(token=table.host_token, hero_id="QUN003", on=True)
    actions.box_remove(token=table.host_token, hero_id="ADD001")
    assert fresh_box(table) == box.Box()


def fresh_box(table: Table) -> box.Box:
    table.refresh_from_db()
    return table_box(table)


def test_only_the_host_changes_the_box() -> None:
    table, seats = make_table(4)
    player = next(s for s in seats if not s.is_host)
    for change in (
        lambda: actions.box_add(token=player.token, fields=XIANDI),
        lambda: actions.box_switch(token=player.token, hero_id="QUN003", on=False),
        lambda: actions.box_import(token=player.token, text=box.export_box(box.Box())),
    ):
        with pytest.raises(ActionError) as refused:
            change()
        assert refused.value.status == 403
    assert fresh_box(table) == box.Box()


def test_a_bad_hero_is_refused_naming_its_field_and_nothing_changes() -> None:
    table, _seats = make_table(4)
    cases = [
        ({**XIANDI, "name_zh": "Xian"}, "name_zh"),
        ({**XIANDI, "hp": 9}, "hp"),
        ({**XIANDI, "kingdom": "han"}, "kingdom"),
        ({**XIANDI, "gender": ""}, "gender"),
        ({**XIANDI, "skills": [{"name": "天命", "text": ""}]}, "skill_0"),
    ]
    version = table.version
    for fields, field in cases:
        with pytest.raises(BoxRefused) as refused:
            actions.box_add(token=table.host_token, fields=fields)
        assert refused.value.field == field
    actions.box_add(token=table.host_token, fields=XIANDI)
    with pytest.raises(BoxRefused) as refused:
        actions.box_add(token=table.host_token, fields={**XIANDI, "name_en": "again"})
    assert refused.value.code == "duplicate_name" and refused.value.field == "name_zh"
    table.refresh_from_db()
    assert table.version == version + 1


def with_lords(
    players: int = 5, *, prepare: Callable[[Table], object] | None = None, **options: bool
) -> Table:
    """A table whose box holds 汉献帝 and 袁绍 (and what `prepare` changes: the box is locked
    from the deal on), identities dealt."""
    table, _seats = make_table(players, **options)
    actions.box_add(token=table.host_token, fields=XIANDI)
    actions.box_add(token=table.host_token, fields=YUANSHAO)
    if prepare is not None:
        prepare(table)
    actions.identities_deal(token=table.host_token)
    table.refresh_from_db()
    return table


def test_the_lord_pack_draws_its_lord_from_the_box_lords_added_ones_too() -> None:
    table = with_lords(lord_pack=True)
    actions.game_start(token=table.host_token)
    lords_seen: set[str] = set()
    lord_heroes = LORDS | {"ADD001", "ADD002"}
    for _ in range(40):
        offer = by_identity(table, "lord")[0].hero_candidates
        assert len(offer) == 4 and offer[3] in lord_heroes
        assert not set(offer[:3]) & lord_heroes
        lords_seen.add(offer[3])
        if {"ADD001", "ADD002"} <= lords_seen:
            break
        actions.heroes_redeal(token=table.host_token, confirm=True)
    assert {"ADD001", "ADD002"} <= lords_seen


def test_an_added_lord_picked_plays_with_its_hp_and_the_others_draw_from_the_box() -> None:
    table = with_lords(
        lord_pack=True,
        prepare=lambda t: actions.box_switch(token=t.host_token, hero_id="QUN003", on=False),
    )
    actions.game_start(token=table.host_token)
    lord = by_identity(table, "lord")[0]
    for _ in range(60):
        if "ADD002" in lord.hero_candidates:
            break
        actions.heroes_redeal(token=table.host_token, confirm=True)
        lord = fresh(lord)
    actions.hero_pick(token=lord.token, hero_id="ADD002")
    event = Event.objects.get(table=table, kind="hero_lord_picked")
    assert event.public["names"] == {"ADD002": ["袁绍", "Yuan Shao"]}
    others = [fresh(s) for s in Seat.objects.filter(table=table).exclude(pk=lord.pk)]
    offered = {h for s in others for h in s.hero_candidates}
    assert "ADD002" not in offered and "QUN003" not in offered
    for seat in others:
        actions.hero_pick(token=seat.token, hero_id=seat.hero_candidates[0])
    lord = fresh(lord)
    assert lord.hero == "ADD002"
    assert lord.max_hp == 5, "袁绍's 4 HP, and 1 more as the lord (5 players)"


def test_a_switched_off_standard_hero_is_never_offered() -> None:
    off = {"QUN003", "WEI002", "SHU002", "WU002", "QUN001"}
    seen: set[str] = set()
    for _ in range(8):
        table, _seats = make_table(5)
        for hero_id in off:
            actions.box_switch(token=table.host_token, hero_id=hero_id, on=False)
        actions.identities_deal(token=table.host_token)
        actions.game_start(token=table.host_token)
        lord = by_identity(table, "lord")[0]
        actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
        for seat in Seat.objects.filter(table=table):
            seen |= set(seat.hero_candidates)
    assert not seen & off
    assert len(seen) >= 12


def test_an_added_hero_is_offered_to_the_others() -> None:
    def prepare(table: Table) -> None:
        for hero_id in [h.id for h in box.STANDARD if h.id not in LORDS][:18]:
            actions.box_switch(token=table.host_token, hero_id=hero_id, on=False)
        actions.box_add(token=table.host_token, fields={**XIANDI, "name_zh": "文丑", "lord": False})

    for _ in range(30):
        table = with_lords(4, prepare=prepare)
        actions.game_start(token=table.host_token)
        lord = by_identity(table, "lord")[0]
        actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
        others = Seat.objects.filter(table=table).exclude(pk=lord.pk)
        offered = {h for s in others for h in s.hero_candidates}
        if "ADD003" in offered:
            return
    pytest.fail("an added hero was never offered to the others")


def test_a_box_too_small_for_the_deal_is_refused() -> None:
    table, _seats = make_table(8)
    for hero in box.STANDARD[:12]:
        actions.box_switch(token=table.host_token, hero_id=hero.id, on=False)
    actions.identities_deal(token=table.host_token)
    with pytest.raises(ActionError) as refused:
        actions.game_start(token=table.host_token)
        lord = by_identity(table, "lord")[0]
        actions.hero_pick(token=lord.token, hero_id=lord.hero_candidates[0])
    assert refused.value.code == "box_too_small"


def test_the_box_is_locked_from_the_deal_until_the_game_is_over() -> None:
    """Every change refused alike while a game runs, whatever it touches (the heroes in play
    or not, a valid file or not): the answer tells nothing of what the others hold."""
    table = with_lords(lord_pack=True)
    before = fresh_box(table)
    version = table.version
    for change in (
        lambda: actions.box_remove(token=table.host_token, hero_id="ADD001"),
        lambda: actions.box_remove(token=table.host_token, hero_id="ADD999"),
        lambda: actions.box_add(token=table.host_token, fields={**XIANDI, "name_zh": "文丑"}),
        lambda: actions.box_add(token=table.host_token, fields={}),
        lambda: actions.box_switch(token=table.host_token, hero_id="QUN003", on=False),
        lambda: actions.box_import(token=table.host_token, text=box.export_box(before)),
        lambda: actions.box_import(token=table.host_token, text=b"not json"),
    ):
        with pytest.raises(BoxRefused) as refused:
            change()
        assert (refused.value.code, refused.value.status) == ("box_locked", 409)
    actions.game_start(token=table.host_token)
    with pytest.raises(BoxRefused):
        actions.box_switch(token=table.host_token, hero_id="QUN003", on=False)
    table.refresh_from_db()
    assert fresh_box(table) == before and table.version == version + 1, "only the start"
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    actions.box_remove(token=table.host_token, hero_id="ADD001")
    assert [h.id for h in fresh_box(table).added] == ["ADD002"]


def test_a_new_session_keeps_the_box() -> None:
    table, _seats = make_table(4)
    actions.box_add(token=table.host_token, fields=XIANDI)
    table.refresh_from_db()
    first = table.session_id
    Game.objects.create(table=table, session_id=first, number=1)  # a session with a game
    actions.session_new(token=table.host_token)
    table.refresh_from_db()
    assert table.session_id != first
    assert [h.name_zh for h in table_box(table).added] == ["汉献帝"]


def test_import_replaces_the_box_and_a_bad_file_changes_nothing() -> None:
    source = with_lords(4)
    text = box.export_box(table_box(source))
    table, _seats = make_table(4)
    actions.box_import(token=table.host_token, text=text.encode())
    assert fresh_box(table) == table_box(source)
    for bad, code in (
        (b"not json", "not_json"),
        (b'{"format": "other", "version": 1}', "wrong_format"),
        (b'{"format": "sanguosha-box", "version": 2}', "wrong_version"),
    ):
        with pytest.raises(BoxRefused) as refused:
            actions.box_import(token=table.host_token, text=bad)
        assert refused.value.code == code
    assert fresh_box(table) == table_box(source)


def test_started_tables_without_a_box_deal_as_before() -> None:
    table, _seats = started(5)
    offer = by_identity(table, "lord")[0].hero_candidates
    assert len(offer) == 5 and LORDS <= set(offer)


@pytest.mark.usefixtures("registered")
def test_a_mode_draft_draws_its_pool_from_the_box() -> None:
    """1 vs 1's draft of ten (companion.actions.draft.start_draft) from the table's box: with
    all but ten heroes switched off, the pool is those ten, an added one among them."""
    table, _seats = mode_table("duel", 2)
    actions.box_add(token=table.host_token, fields={**XIANDI, "lord": False})
    keep = {"WEI001", "WEI002", "SHU001", "SHU002", "WU001", "WU002", "QUN001", "QUN002", "WEI003"}
    for hero in box.STANDARD:
        if hero.id not in keep:
            actions.box_switch(token=table.host_token, hero_id=hero.id, on=False)
    dealt_and_started(table)
    assert set(draft_now(table).pool) == keep | {"ADD001"}
