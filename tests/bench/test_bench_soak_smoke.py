"""A short run of the soak scenario (bench/soak.py), so the script cannot rot.

The embedded default only (one process, nothing killed): 2 tables of 4 phones that follow
js/live.js tap for a few seconds; every phone opens, taps are acknowledged, and every
acknowledged tap is in the event log.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.livephone import PATTERNS, timings

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
    assert 0 < latency["p50"] <= latency["p99"] <= latency["max"], latency
    assert result["ok"] and done.returncode == 0, result
