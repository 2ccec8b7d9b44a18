"""The hand-made parts of the hot path behave as the stock path they replace.

STOCK_PATH=1 (companion/settings.py) runs the ORM instead of companion/infra/fastsql.py, Channels'
in-memory layer and consumer loop instead of companion/live/layers.py and the consumer's overrides,
and `database_sync_to_async` instead of companion/infra/dbthread.py. The same taps, over the same
sockets, must give the same rows and the same frames either way; docs/performance.md has what
each hand-made part saves.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from companion.infra import dbthread, fastsql
from companion.models import Event, Seat, Table, TapOutcome
from tests.live.test_consumers import drain, open_socket
from tests.support.game import picked_all

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

LEAN = "companion.live.layers.LeanInMemoryChannelLayer"
STOCK = "channels.layers.InMemoryChannelLayer"


@pytest.fixture(params=["hand-made", "stock"])
def path(
    request: pytest.FixtureRequest, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    stock = request.param == "stock"
    settings.STOCK_PARTS = settings.STOCK_PARTS_ALL if stock else frozenset()
    if not os.environ.get("REDIS_URL"):
        # On PostgreSQL + Redis the layer is Channels' own Redis layer either way.
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": STOCK if stock else LEAN}}
    monkeypatch.setattr(fastsql, "STOCK", stock)
    monkeypatch.setattr(dbthread, "STOCK", stock)
    yield request.param


def _layer_name() -> str:
    layer = get_channel_layer()
    return f"{type(layer).__module__}.{type(layer).__qualname__}"


async def _tap(
    comm: Any, name: str, action_id: str, fields: dict[str, Any]
) -> tuple[Any, list[str]]:
    """A tap over the socket; its JSON answer (None when its own frame answered it) and the
    frames the tapping socket got until then."""
    await comm.send_to(
        text_data=json.dumps(
            {"type": "act", "name": name, "fields": fields, "action_id": action_id}
        )
    )
    frames: list[str] = []
    while True:
        frame = await comm.receive_from(timeout=5)
        if frame.startswith("{"):
            return json.loads(frame), frames
        frames.append(frame)
        if f'data-action="{action_id}"' in frame:
            return None, frames


async def _scene() -> dict[str, Any]:
    """Four phones and a display; a tap of each kind over the socket; what each screen got."""
    table, seats = await database_sync_to_async(picked_all)(4)
    me = seats[1]
    socks = [(await open_socket(f"/ws/{s.token}/"))[0] for s in seats]
    display, _ = await open_socket(f"/ws/t/{table.code}/")
    answers: list[Any] = []
    frames: list[list[str]] = [[] for _ in range(len(socks) + 1)]
    taps = [
        ("hp", {"seat": me.pk, "delta": -1}),
        ("hp", {"seat": me.pk, "delta": 1}),
        ("equip", {"seat": me.pk, "name": "赤兔"}),
        ("hp", {"seat": me.pk, "delta": -me.hp}),
        # Refused (another seat's HP): judged without a savepoint, then again with one to
        # record the refusal; nothing of it stays but that record.
        ("hp", {"seat": seats[2].pk, "delta": -1}),
    ]
    for i, (name, fields) in enumerate(taps):
        answer, seen = await _tap(socks[1], name, f"stockpath{i:03d}", fields)
        answers.append(answer)
        for j, comm in enumerate([*socks, display]):
            got = await drain(comm)
            frames[j].extend([*seen, *got] if j == 1 else got)
    rows = await database_sync_to_async(
        lambda: {
            "hp": list(Seat.objects.filter(table=table).order_by("pk").values_list("hp", "dying")),
            "events": list(
                Event.objects.filter(table=table).order_by("version").values_list("kind", "actor")
            ),
            "version": Table.objects.get(pk=table.pk).version,
            "outcomes": list(
                TapOutcome.objects.filter(table=table).values_list("action_id", "kind", "status")
            ),
            "other_hp": Seat.objects.get(pk=seats[2].pk).hp - seats[2].hp,
        }
    )()
    for comm in [*socks, display]:
        await comm.disconnect()
    rows["hp"] = [
        (hp - before.hp, dying) for (hp, dying), before in zip(rows["hp"], seats, strict=True)
    ]
    rows["events"] = [(k, re.sub(r"\d+", "n", a)) for k, a in rows["events"]]
    return {
        "answers": answers,
        "frames": frames,
        "rows": rows,
        "layer": _layer_name(),
        "start": (me.hp, me.max_hp),
    }


async def test_the_same_taps_give_the_same_rows_and_frames_on_both_paths(path: str) -> None:
    scene = await _scene()
    if not os.environ.get("REDIS_URL"):
        assert scene["layer"] == (STOCK if path == "stock" else LEAN)
    # Every tap applied and answered by its own frame (no separate "done"), the last refused.
    assert scene["answers"][:4] == [None, None, None, None]
    refused = scene["answers"][4]
    assert (refused["type"], refused["status"], refused["action_id"]) == (
        "error",
        403,
        "stockpath004",
    )
    assert scene["rows"]["outcomes"] == [("stockpath004", "refused", 403)]
    assert scene["rows"]["other_hp"] == 0
    hp, max_hp = scene["start"]
    assert scene["rows"]["hp"][1] == (-hp, True)
    kinds = [k for k, _a in scene["rows"]["events"]][-4:]
    assert kinds == ["damage", "recover", "equipped", "damage"]
    # Each screen got one delta per tap, in order, each showing that step; no whole state.
    for screen in scene["frames"]:
        deltas = [f for f in screen if 'id="table-delta"' in f]
        assert len(deltas) == 4, screen
        assert 'id="table-state"' not in "".join(screen)
        assert f'class="hp-num">{hp - 1}/{max_hp}<' in deltas[0]
        assert f'class="hp-num">{hp}/{max_hp}<' in deltas[1]
        assert "赤兔" in deltas[2] and 'class="distances"' in deltas[2]
        assert f'class="hp-num">0/{max_hp}<' in deltas[3] and "banner-dying" in deltas[3]
    # The tapping phone's own page: its HP tracker in each delta, its dying panel at the end.
    assert "dying-panel" in scene["frames"][1][-1] or any(
        "dying-panel" in f for f in scene["frames"][1][-2:]
    )
