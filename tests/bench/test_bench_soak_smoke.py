"""A short run of the soak scenario (bench/soak.py), so the script cannot rot.

The embedded default (one process, nothing killed): 2 tables of 4 phones that follow js/live.js
tap for a few seconds; every phone opens, taps are acknowledged, every acknowledged tap is in the
event log, and every socket gets every change's frame once, in order. On PostgreSQL + Redis also
two processes with their channel layer on two Redis shards the soak starts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.livephone import PATTERNS, timings
from bench.servers import REDIS_SERVER

BASE_DIR = Path(__file__).resolve().parents[2]
SMOKE = ["--tables", "2", "--phones", "4", "--rate", "2", "--duration", "4", "--sample", "2"]

pytestmark = pytest.mark.multiprocess


def test_the_phone_model_finds_live_js_timings() -> None:
    live, model, missing = timings()
    assert not missing, f"bench/livephone.py PATTERNS no longer match js/live.js: {missing}"
    assert set(PATTERNS) <= set(live)
    assert model in ("legacy", "fixed")
    assert 0 < live["ACT_TIMEOUT"] < live["HEARTBEAT_MS"]


def test_embedded_soak_smoke() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DB", "REDIS_"))}
    done = subprocess.run(
        [sys.executable, "bench/soak.py", *SMOKE, "--drain", "10", "--json"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert done.returncode in (0, 1), f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    result = json.loads(done.stdout)
    assert result["setup"]["tables_ready"] == 2, result["setup"]
    assert result["phones_ever_open"] == result["phones_open_at_end"] == 8, result
    assert result["phones_open_over_time"][-1][1] == 8, result
    assert result["taps_made"] == result["taps_sent"] >= 4, result  # fewer on a loaded machine
    assert result["taps_acknowledged"] > 0, result
    assert result["acknowledged_missing"] == result["taps_unresolved"] == 0, result
    assert result["told_no_but_in_log"] == 0, result
    latency = result["tap_to_all_ms"]
    assert latency["n"] > 0 and result["taps_not_reaching_all"] == 0, result
    frames = result["frames"]
    assert frames["pushed"] > 0 and frames["missed"] == frames["repeated_or_out_of_order"] == 0
    assert 0 < latency["p50"] <= latency["p99"] <= latency["max"], latency
    assert result["ok"] and done.returncode == 0, result


@pytest.mark.backend
@pytest.mark.skipif(
    os.environ.get("DB") != "postgres" or not os.environ.get("REDIS_URL"),
    reason="needs PostgreSQL and Redis: set DB=postgres and REDIS_URL",
)
@pytest.mark.skipif(REDIS_SERVER is None, reason="no redis-server binary")
def test_two_processes_on_two_redis_shards_soak_smoke() -> None:
    """Two processes, their channel layer on two redis-servers of the soak's own, nothing killed:
    the phones of each table, spread over both processes, get every change's frame once and in
    order, both shards carried frames and subscriptions, and each channel is subscribed on the
    shard its name hashes to."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    shape = ["--tables", "3", *SMOKE[2:]]  # 3 tables: their groups land on both shards
    done = subprocess.run(
        [sys.executable, "bench/soak.py", *shape, "--drain", "10", "--json"]
        + ["--scale-out", "2", "--redis-shards", "2", "--no-restart"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
    )
    assert done.returncode in (0, 1), f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    result = json.loads(done.stdout)
    assert result["setup"]["tables_ready"] == 3, result["setup"]
    assert result["phones_ever_open"] == result["phones_open_at_end"] == 12, result
    assert "restart" not in result, result
    assert result["taps_acknowledged"] > 0, result
    assert result["acknowledged_missing"] == result["taps_unresolved"] == 0, result
    frames = result["frames"]
    # Every acknowledged tap reached every phone open when it was sent, on both processes.
    assert frames["pushed"] >= 3 * result["taps_acknowledged"], frames
    assert frames["missed"] == frames["repeated_or_out_of_order"] == 0, frames
    assert result["taps_not_reaching_all"] == 0, result
    shards = result["redis_shards"]
    assert len(shards) == 2 and len({s["url"] for s in shards}) == 2, shards
    assert all(s["publish"] > 0 and s["subscribe"] > 0 and s["channels"] > 0 for s in shards)
    # Both processes subscribe each group on the shard its name hashes to, as they publish.
    assert [s["misplaced"] for s in shards] == [0, 0], shards
    assert result["ok"] and done.returncode == 0, result
