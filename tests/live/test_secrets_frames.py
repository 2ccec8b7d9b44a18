"""A private frame goes to a seat exactly when that seat's own state changed.

Which phones receive a private frame at a version is visible on the network, whatever the frames
say. Over a played game (tests/support/scripted.py), each seat's private fragment is rendered before and
after every change: a seat whose fragment changed must get a frame (or the HP delta that carries
its HP tracker, or a reconnect), and a seat whose fragment did not change must get none.
"""

from __future__ import annotations

import re

import pytest

from companion.live import broadcast, fragments
from companion.models import Seat, Table
from companion.read.private import private_hp
from tests.support import scripted

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True)]


def _private(seat: Seat) -> tuple[str, str]:
    """The seat's private fragment without the version every change renews: whole, and without
    the HP tracker (which an HP change delivers in its public delta)."""
    html = re.sub(r'data-version="\d+"', "", broadcast.render_private(seat, "zh-hans"))
    with broadcast.translation.override("zh-hans"):
        tracker = fragments.hp_tracker(private_hp(seat, seat.table))
    tracker = re.sub(r'data-version="\d+"', "", tracker)
    assert tracker in html or not seat.max_hp
    return html, html.replace(tracker, "HP")


def _seats() -> dict[int, Seat]:
    return {s.pk: s for s in Seat.objects.select_related("table").order_by("position")}


@pytest.mark.parametrize("players", [4, 7, 10])
def test_a_private_frame_goes_exactly_to_the_seats_whose_own_state_changed(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted.pin(monkeypatch, scripted.identities_for(players))
    sent: list[tuple[str, dict]] = []
    real_send = broadcast._send
    monkeypatch.setattr(broadcast, "_send", lambda g, m: (sent.append((g, m)), real_send(g, m)))
    before: dict[int, tuple[str, str]] = {}
    checked = 0
    for played in scripted.play(players, finish=True):
        seats = _seats()
        after = {pk: _private(seat) for pk, seat in seats.items()}
        framed = {
            int(group.split(".")[1])
            for group, message in sent
            if group.startswith("seat.") and message["type"] == "table.fragment"
        }
        reconnected = {
            int(group.split(".")[1])
            for group, message in sent
            if group.startswith("seat.") and message["type"] == "access.changed"
        }
        deltas = {
            int(m)
            for group, message in sent
            if group.startswith("table.") and 'id="table-delta"' in message.get("html", "")
            for m in re.findall(r'<li class="seat[^"]*" data-seat="(\d+)"', message["html"])[:1]
        }
        sent.clear()
        if played.change is None:  # a join: the phone opens its page afterwards
            before = after
            continue
        if played.label in ("deal", "redeal", "new game"):
            # Every seat's identity is dealt anew: each phone gets a frame, whether or not its
            # identity happens to be the one it had (which phones got one must not tell).
            assert framed == set(seats), played.label
        for pk, (whole, rest) in after.items():
            label = f"{played.label} seat {seats[pk].position}"
            if pk in reconnected:
                continue
            if pk in deltas:
                # The delta carried the HP tracker; anything else must come in a frame.
                changed = before[pk][1] != rest
            else:
                changed = before.get(pk, ("",))[0] != whole or played.label in (
                    "redeal",
                    "new game",
                )
            if changed:
                assert pk in framed, f"{label}: its private state changed, no frame"
            else:
                assert pk not in framed, f"{label}: a private frame, nothing of its own changed"
            checked += 1
        before = after
    table = Table.objects.get()
    assert table.status == Table.Status.HEROES
    assert checked > 40 * players
