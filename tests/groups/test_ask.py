"""The phone's own section asks "Are you 张三 of 周五三国杀?" when its seat was matched by name
only at an attached evening: that phone alone, in its private frames and page (a panel,
companion.panels); the other phones, the display and the host console never receive it, in any
frame, channel-layer message or page; the phone once it answered is not asked again. No phone
fetches the question: group/ask takes the answer only."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from companion import actions, panels
from companion.groups import services
from companion.groups.ask import KEY
from companion.groups.models import Player, SeatLink
from companion.live import broadcast
from companion.models import Seat, Session, Table
from tests.groups.support import EVENINGS, evening_session, store_game
from tests.live.test_consumers import drain, drain_all, open_socket
from tests.support.game import by_identity, kill, picked_all

# The question, as the phone's two languages put it.
QUESTION = re.compile(r"张三 of 周五三国杀|周五三国杀的张三|group-ask")
# Who sits at the evening's table: 张三 on a new phone (by name: asked), 李四 on his own (by
# phone), two newcomers.
JOINING = (("张三", "new-phone"), ("李四", "phone-B"), ("小王", "phone-W"), ("小李", "phone-L"))


def _group() -> object:
    first = evening_session(1, "identity", EVENINGS[0][4])
    store_game(first, EVENINGS[0][0], 40, "lord", EVENINGS[0][4])
    return services.create_group("周五三国杀", first)


def _evening_two():
    group = _group()
    table = actions.table_create("identity")
    seats = [actions.seat_join(code=table.code, name=n, device=d)[0] for n, d in JOINING[:3]]
    session = Session.objects.create(
        table=table, number=1, players={str(s.pk): s.name for s in seats}
    )
    services.attach(group, session)
    return group, table, seats


def _asked(html: str) -> bool:
    return bool(QUESTION.search(html))


@pytest.mark.django_db
def test_only_the_phone_matched_by_name_is_asked_in_its_own_section(client) -> None:
    _group, table, (zhang, li, wang) = _evening_two()
    assert SeatLink.objects.get(seat=zhang.pk).how == "name"
    main = client.get(f"/p/{zhang.token}/").content.decode()
    own = main.split('id="my-seat"', 1)[1]
    assert "张三" in own and "周五三国杀" in own and 'hx-post="group/ask"' in own
    # Nothing fetches it: the page holds the question itself, and group/ask takes answers only.
    assert 'hx-get="group/ask"' not in main
    for token in (zhang.token, li.token, wang.token, table.host_token):
        prefix = "h" if token == table.host_token else "p"
        answer = client.get(f"/{prefix}/{token}/group/ask")
        assert answer.status_code == 405 and not _asked(answer.content.decode())
    for page in (f"/p/{li.token}/", f"/p/{wang.token}/", f"/h/{table.host_token}/"):
        assert not _asked(client.get(page).content.decode()), page
    assert not _asked(client.get(f"/t/{table.code}/").content.decode())
    # Another phone cannot answer for 张三: its own answer changes its own seat only (none).
    client.post(f"/p/{li.token}/group/ask", {"answer": "no"})
    assert SeatLink.objects.get(seat=zhang.pk).confirmed is False
    # 张三's phone answers yes: remembered, and not asked again.
    answer = client.post(f"/p/{zhang.token}/group/ask", {"answer": "yes"})
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store, private"
    link = SeatLink.objects.get(seat=zhang.pk)
    assert link.confirmed and "new-phone" in link.player.devices
    assert not _asked(client.get(f"/p/{zhang.token}/").content.decode())


@pytest.mark.django_db
def test_no_gives_the_seat_a_player_of_its_own(client) -> None:
    group, _table, (zhang, _li, _wang) = _evening_two()
    client.post(f"/p/{zhang.token}/group/ask", {"answer": "no"})
    link = SeatLink.objects.get(seat=zhang.pk)
    assert link.confirmed and link.how == "new"
    assert Player.objects.filter(group=group, name="张三").count() == 2


@pytest.mark.django_db
def test_a_change_redrawing_every_phone_asks_the_group_once() -> None:
    """The panel's values are read once for all the phones a change redraws, not per phone or
    per language, and the asked phone's frame is the one its own render gives."""
    _group, table, (zhang, li, wang) = _evening_two()
    asked: list[tuple[int, ...]] = []
    _template, values = panels.registered()[KEY]

    def counting(table: Table, seat_ids):
        asked.append(tuple(sorted(seat_ids)))
        return values(table, seat_ids)

    panels.add(KEY, _template, counting)
    try:
        with broadcast.collecting() as box:
            broadcast.seats_redrawn(table.pk, {zhang.pk, li.pk, wang.pk})
    finally:
        panels.add(KEY, _template, values)
    assert asked == [tuple(sorted((zhang.pk, li.pk, wang.pk)))]
    frames = {group: message["html"] for group, message in box}
    assert {g for g, html in frames.items() if _asked(html)} == {
        f"seat.{zhang.pk}.{lang}" for lang in broadcast.langs_in_use(table)
    }
    for group, html in frames.items():
        seat = Seat.objects.select_related("table").get(pk=int(group.split(".")[1]))
        assert html == broadcast.render_private(seat, group.split(".")[2])


def _pages(table: Table, seats: list[Seat]) -> dict[str, list[str]]:
    """Every page and fragment each screen may fetch (both languages, with and without
    HX-Request), by who fetched it: a seat's id, "host" or "display"."""
    found: dict[str, list[str]] = {}
    screens = {str(s.pk): f"/p/{s.token}/" for s in seats}
    screens["host"] = f"/h/{table.host_token}/"
    screens["display"] = f"/t/{table.code}/"
    for who, base in screens.items():
        client = Client()
        urls = [base, base + "session/", base + "group/", f"/j/{table.code}/", "/"]
        urls += [base + f"seat/{s.pk}" for s in seats]
        if who != "display":
            urls.append(base + "group/ask")
        for lang in ("zh-hans", "en"):
            client.cookies["sgs_lang"] = lang
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                for url in urls:
                    found.setdefault(who, []).append(client.get(url, **headers).content.decode())
    return found


@pytest.mark.backend
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_other_screen_ever_receives_the_question(monkeypatch) -> None:
    """From the attach to the answer, through an HP tap, the game's end and a reconnect: the
    question reaches 张三's phone, in its own group's frames and its own pages, and nothing
    else: no other phone, the display, the host console, a channel-layer message to another
    group, or a page anyone else fetches (the old group/ask included)."""
    sent: list[tuple[str, dict]] = []
    real_send = broadcast._send

    def spy(group: str, message: dict) -> None:
        sent.append((group, message))
        real_send(group, message)

    monkeypatch.setattr(broadcast, "_send", spy)

    def setup() -> tuple[object, Table, list[Seat]]:
        group = _group()
        table, seats = picked_all(len(JOINING))  # in play: an HP tap is a delta
        for seat, (name, device) in zip(seats, JOINING, strict=True):
            Seat.objects.filter(pk=seat.pk).update(name=name, device=device)
        table.refresh_from_db()
        return group, table, [Seat.objects.get(pk=s.pk) for s in seats]

    group, table, seats = await database_sync_to_async(setup)()
    zhang = seats[0]
    screens = {str(s.pk): f"/ws/{s.token}/" for s in seats}
    screens |= {"host": f"/ws/{table.host_token}/", "display": f"/ws/t/{table.code}/"}
    sockets, frames = {}, {who: [] for who in screens}
    for i, (who, path) in enumerate(screens.items()):
        sockets[who], first = await open_socket(path, lang="en" if i % 2 else "zh-hans")
        frames[who].append(first)
    assert not any(_asked(f) for got in frames.values() for f in got)  # no group yet

    async def collect() -> None:
        got = await drain_all(list(sockets.values()), timeout=0.2)
        for who, more in zip(sockets, got, strict=True):
            frames[who].extend(more)

    host = Client()
    link = f"/g/{group.token}/"  # type: ignore[attr-defined]
    # The host attaches the evening: 张三's phone is asked at once, over its socket.
    await database_sync_to_async(host.post)(f"/h/{table.host_token}/group/attach", {"link": link})
    await collect()
    assert any(_asked(f) for f in frames[str(zhang.pk)])
    # An HP tap (a delta: no private frame), then the game's end, which redraws every phone
    # (and which the group hears).
    mine = len(frames[str(zhang.pk)])
    await database_sync_to_async(actions.seat_change_hp)(
        token=zhang.token, seat_id=zhang.pk, delta=-1
    )
    await collect()
    assert not [f for f in frames[str(zhang.pk)][mine:] if 'id="my-seat"' in f]
    lord = await database_sync_to_async(lambda: by_identity(table, "lord")[0])()
    await database_sync_to_async(kill)(table, lord, None)
    await collect()
    redrawn = [f for f in frames[str(zhang.pk)][mine:] if 'id="my-seat"' in f]
    assert redrawn and _asked(redrawn[-1])
    await sockets[str(zhang.pk)].disconnect()
    sockets[str(zhang.pk)], first = await open_socket(screens[str(zhang.pk)], lang="zh-hans")
    assert _asked(first)
    frames[str(zhang.pk)].append(first)
    pages = await database_sync_to_async(_pages)(table, seats)
    assert any(_asked(p) for p in pages[str(zhang.pk)])
    # 张三's phone answers: its socket gets its own section again, without the question.
    before = len(sent)
    await database_sync_to_async(Client().post)(f"/p/{zhang.token}/group/ask", {"answer": "yes"})
    answer = await drain(sockets[str(zhang.pk)], timeout=0.2)
    assert answer and 'id="my-seat"' in answer[-1] and not _asked(answer[-1])
    frames[str(zhang.pk)].extend(answer)
    assert {g for g, _m in sent[before:]} <= {f"seat.{zhang.pk}.{x}" for x in ("zh-hans", "en")}
    await collect()
    after = await database_sync_to_async(_pages)(table, seats)

    for who, got in frames.items():
        if who != str(zhang.pk):
            assert not [f for f in got if _asked(f)], who
    for who, got in pages.items():
        if who != str(zhang.pk):
            assert not [p for p in got if _asked(p)], who
    assert not [p for got in after.values() for p in got if _asked(p)]
    assert sent
    for group_name, message in sent:
        if _asked(message.get("html", "")):
            assert group_name.startswith(f"seat.{zhang.pk}."), group_name
    for comm in sockets.values():
        await comm.disconnect()
