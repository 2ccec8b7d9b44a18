"""A Redis outage without a reconnect storm: phones that reconnect as js/live.js does
(bench/livephone.py, its reconnect read from live.js) against a real server process whose
channel layer is a private redis-server, stopped for 6 s (bench/outage.py). Before: every open
ended in 1013 and live.js started its backoff again on each, about 3-5 handshakes per phone a
second for the whole outage."""

from __future__ import annotations

import argparse

import pytest

from bench.outage import measure
from bench.servers import REDIS_SERVER

pytestmark = [
    pytest.mark.backend,
    pytest.mark.skipif(REDIS_SERVER is None, reason="no redis-server binary"),
]


def test_phones_retry_at_most_once_a_second_in_a_redis_outage_and_are_current_soon_after() -> None:
    result = measure(argparse.Namespace(tables=4, phones=8, outage=6.0, json=False))
    print("Redis away 6 s, 32 phones:", result)
    assert result["reconnect_model"] == "sticky"
    assert result["per_phone_per_s"] <= 1.0, result
    assert result["most_by_one_phone"] <= 7, result
    assert result["every_phone_current_after_s"] is not None, result
    assert result["every_phone_current_after_s"] < 5, result
