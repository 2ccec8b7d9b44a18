"""A tiny run of bench/capacity.py, so the script cannot rot: 1 and 2 processes on PostgreSQL +
Redis, 2 tables of 4 phones, two steps of a second each; it prints both capacities (figures, not
a verdict: on a busy machine even the first step may not be held, and the capacity is then 0)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
TINY = ["--tables", "2", "--phones", "4", "--start", "2", "--step", "2", "--max", "4"]
TINY += ["--step-seconds", "1", "--warmup", "0.5", "--processes", "1,2"]

pytestmark = [
    pytest.mark.backend,
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        os.environ.get("DB") != "postgres" or not os.environ.get("REDIS_URL"),
        reason="needs PostgreSQL and Redis: set DB=postgres and REDIS_URL",
    ),
]


def capacity(*extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return subprocess.run(
        [sys.executable, "bench/capacity.py", *TINY, *extra],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


def test_capacity_prints_one_and_two_processes() -> None:
    done = capacity()
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    text = done.stdout
    assert re.search(r"^  1 process: [\d.]+ taps/s$", text, re.M), text
    assert re.search(r"^  2 processes: [\d.]+ taps/s$", text, re.M), text
    steps = re.findall(r"^  asked ([\d.]+) taps/s: achieved ([\d.]+), p99 ([\d.]+) ms", text, re.M)
    assert len(steps) >= 2, text  # at least the first step of each
    assert all(float(asked) == 2 or float(asked) == 4 for asked, _a, _p in steps), steps


def test_capacity_json_on_two_redis_shards() -> None:
    done = capacity("--redis-shards", "2", "--json")
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    result = json.loads(done.stdout)
    assert set(result["processes"]) == {"1", "2"}
    for found in result["processes"].values():
        assert found["setup"]["connections_made"] == 8, found["setup"]
        first = found["steps"][0]
        assert first["target_taps_per_s"] == 2 and first["taps_sent"] >= 2, first
        assert first["lost"] == first["duplicated"] == 0, first
        assert found["capacity_taps_per_s"] >= 0
        assert len(found["redis_shards"]) == 2
    # Every process count plans its cores afresh (the first run's pinning is undone).
    if len(os.sched_getaffinity(0)) >= 2:
        assert all("generator on core" in f["pinning"] for f in result["processes"].values())
