"""bench/tap_trace.py on whichever setup the environment selects (embedded, or PostgreSQL +
Redis): the counts of one HP tap are there and sane, so the script cannot rot and a tap cannot
quietly start costing more statements, renders, sends or Redis round trips."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

from bench.tap_trace import render_table, trace

pytestmark = [pytest.mark.backend, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

REDIS = "Redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"]


async def test_one_hp_tap_costs_what_the_trace_says_whatever_the_phones() -> None:
    few = await trace(phones=4, taps=4, warmup=2)
    many = await trace(phones=8, taps=4, warmup=2)
    assert "SQL statements" in render_table(many)
    for result, phones in ((few, 4), (many, 8)):
        statements = result["sql_statements"]
        # One event appended, one HP written, the version bumped, one commit: per tap, exactly.
        assert statements["db thread: INSERT companion_event"] == 1, statements
        assert statements["db thread: UPDATE companion_seat"] == 1, statements
        assert statements["db thread: UPDATE companion_table"] == 1, statements
        assert result["commits_per_tap"] == 1
        assert 5 <= result["sql_per_tap"] <= 12, statements
        # No SQL on the event loop: every statement runs on the database thread.
        assert set(result["sql_by_thread"]) == {"db thread"}, result["sql_by_thread"]
        # One render of the delta, one group send to the table's group, one frame a screen.
        assert result["renders_per_tap"] == {"fragments.delta": 1, "public (delta)": 1}
        assert result["group_sends_per_tap"] == 1
        assert result["group_sends_by_kind"] == {"table": 1}
        assert 500 < result["group_send_html_bytes"]["max"] < 4000
        assert result["frames_per_tap"] == phones + 1
        assert result["stray_frames_after"] == 0
        if REDIS:
            commands = result["redis_commands"]
            assert commands["event loop: PUBLISH group"] == 1, commands
            # The languages of the table are on its row: the database thread asks Redis nothing
            # (no GET, and no HELLO or CLIENT SETINFO of a new connection per tap).
            assert not any(name.startswith("db thread") for name in commands), commands
            assert not any("HELLO" in name or "CLIENT" in name for name in commands), commands
            # Deserialized once per process, not once per screen.
            assert result["deserialized_per_tap"] == 1
        else:
            assert result["redis_commands_per_tap"] == 0
    if REDIS:
        # Every socket has gone: no subscription is left behind (its channel, its groups).
        shards = get_channel_layer()._get_layer()._shards
        assert not any(shard._subscribed_to for shard in shards)
    # The render, the send and the statements do not grow with the phones.
    for key in ("sql_per_tap", "renders_per_tap", "group_sends_per_tap", "commits_per_tap"):
        assert few[key] == many[key], key
