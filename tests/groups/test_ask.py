"""The phone's main screen asks "Are you 张三 of 周五三国杀?" when its seat was matched by name
only at an attached evening: that phone alone, reached by its own token; the others, the host
console and the phone once it answered get nothing."""

from __future__ import annotations

import pytest

from companion import actions
from companion.groups import services
from companion.groups.models import Player, SeatLink
from companion.models import Session
from tests.groups.support import EVENINGS, evening_session, store_game

pytestmark = pytest.mark.django_db


def _evening_two():
    first = evening_session(1, "identity", EVENINGS[0][4])
    store_game(first, EVENINGS[0][0], 40, "lord", EVENINGS[0][4])
    group = services.create_group("周五三国杀", first)
    table = actions.table_create("identity")
    # 张三 on a new phone (by name: asked), 李四 on his own (by phone), a newcomer.
    seats = [
        actions.seat_join(code=table.code, name=name, device=device)[0]
        for name, device in (("张三", "new-phone"), ("李四", "phone-B"), ("小王", "phone-W"))
    ]
    session = Session.objects.create(
        table=table, number=1, players={str(s.pk): s.name for s in seats}
    )
    services.attach(group, session)
    return group, table, seats


def test_only_the_phone_matched_by_name_is_asked_on_its_main_screen(client) -> None:
    group, table, (zhang, li, wang) = _evening_two()
    assert SeatLink.objects.get(seat=zhang.pk).how == "name"
    main = client.get(f"/p/{zhang.token}/").content.decode()
    assert 'id="group-ask" hx-get="group/ask"' in main
    asked = client.get(f"/p/{zhang.token}/group/ask")
    html = asked.content.decode()
    assert asked.status_code == 200 and asked["Cache-Control"] == "no-store, private"
    assert "张三" in html and "周五三国杀" in html and 'value="yes"' in html
    for other in (f"/p/{li.token}/group/ask", f"/p/{wang.token}/group/ask"):
        answer = client.get(other)
        assert answer.status_code == 204 and not answer.content
    assert client.get(f"/h/{table.host_token}/group/ask").status_code == 204
    # Another phone cannot answer for 张三: its own answer changes its own seat only (none).
    client.post(f"/p/{li.token}/group/ask", {"answer": "no"})
    assert SeatLink.objects.get(seat=zhang.pk).confirmed is False
    # 张三's phone answers yes: remembered, and not asked again.
    client.post(f"/p/{zhang.token}/group/ask", {"answer": "yes"})
    link = SeatLink.objects.get(seat=zhang.pk)
    assert link.confirmed and "new-phone" in link.player.devices
    assert client.get(f"/p/{zhang.token}/group/ask").status_code == 204


def test_no_gives_the_seat_a_player_of_its_own(client) -> None:
    group, _table, (zhang, _li, _wang) = _evening_two()
    client.post(f"/p/{zhang.token}/group/ask", {"answer": "no"})
    link = SeatLink.objects.get(seat=zhang.pk)
    assert link.confirmed and link.how == "new"
    assert Player.objects.filter(group=group, name="张三").count() == 2
