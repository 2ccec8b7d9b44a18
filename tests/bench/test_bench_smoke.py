"""A short run of the load benchmark (bench/run.py), so the script cannot rot.

It starts real server processes like the benchmark always does (the embedded default; with
PostgreSQL and Redis configured, as in the second pass of scripts/test, also two processes on
them), seats 2 tables of 4 phones (the app's minimum for dealing identities), taps for a few
seconds and checks that every figure is printed and nothing was lost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from bench.report import render_text

BASE_DIR = Path(__file__).resolve().parents[2]
SMOKE = ["--tables", "2", "--phones", "4", "--rate", "2", "--duration", "3", "--warmup", "1"]
TIMEOUT_SECONDS = 90

pytestmark = [pytest.mark.backend, pytest.mark.multiprocess]


def run_bench(*extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    done = subprocess.run(
        [sys.executable, "bench/run.py", *SMOKE, *extra, "--json"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
        check=False,
    )
    assert done.returncode in (0, 1), f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    result = json.loads(done.stdout)
    assert done.returncode == (0 if result["ok"] else 1)
    return result


def check(result: dict, servers: int) -> None:
    setup = result["setup"]
    assert setup["tables_ready"] == 2 and setup["tables_failed"] == 0, setup
    assert setup["connections_made"] == 8 and setup["connections_failed"] == 0, setup
    assert setup["memory_per_phone_kb"] is not None
    assert result["config"]["servers"] == servers
    (run,) = result["runs"]
    assert run["taps_sent"] == run["taps_applied"] >= 10, run
    assert run["taps_refused"] == run["taps_failed"] == 0, run
    assert run["deliveries_expected"] == 4 * run["taps_applied"], run
    assert run["deliveries_received"] == run["deliveries_expected"], run
    assert run["lost"] == run["duplicated"] == run["out_of_order"] == 0, run
    assert run["private_received"] == run["private_expected"] == run["taps_applied"], run
    assert run["latency_ms"]["n"] == run["deliveries_received"]
    assert 0 < run["latency_ms"]["p50"] <= run["latency_ms"]["p99"] <= run["latency_ms"]["max"]
    assert run["cpu_per_tap_ms"] is not None and run["cpu_per_tap_ms"] > 0
    assert result["ok"], result

    text = render_text(result)
    for label in (
        "connections made 8, failed 0",
        "taps sent",
        "refused 0",
        "deliveries expected",
        "lost 0, duplicated 0",
        "tap→phone latency ms: p50",
        "p95",
        "p99",
        "max",
        "taps/s",
        "ms per tap",
        "per connected phone",
        "bottleneck:",
        "result: OK",
    ):
        assert label in text, f"{label!r} missing from the report:\n{text}"


def test_embedded_smoke() -> None:
    check(run_bench(), servers=1)


@pytest.mark.skipif(
    os.environ.get("DB") != "postgres" or not os.environ.get("REDIS_URL"),
    reason="needs PostgreSQL and Redis: set DB=postgres and REDIS_URL (second pass)",
)
def test_scale_out_smoke() -> None:
    check(run_bench("--scale-out", "2"), servers=2)


def test_help_documents_the_options() -> None:
    done = subprocess.run(
        [sys.executable, "bench/run.py", "--help"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    for option in ("--tables", "--phones", "--rate", "--duration", "--warmup", "--scale-out"):
        assert option in done.stdout
    assert "--json" in done.stdout


def worktrees() -> set[str]:
    """The paths of the repository's worktrees (not their commits: a developer's other
    worktrees move on while the suite runs)."""
    listed = subprocess.run(
        ["git", "worktree", "list", "--porcelain"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {
        line.removeprefix("worktree ")
        for line in listed.splitlines()
        if line.startswith("worktree ")
    }


def test_compare_runs_both_trees_in_turn() -> None:
    """bench/compare.py: a worktree of another commit and this tree, one run each, medians."""
    if os.environ.get("DB") == "postgres":
        pytest.skip("the embedded runs of the first pass cover it")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    before = worktrees()
    done = subprocess.run(
        [sys.executable, "bench/compare.py", "HEAD", "--rounds", "1", "--", *SMOKE],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=2 * TIMEOUT_SECONDS,
        check=False,
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    lines = done.stdout.splitlines()
    rounds = [line for line in lines if line.startswith("round 1")]
    assert len(rounds) == 2 and "this tree" in rounds[1], done.stdout
    assert all("ms/tap" in line and "lost 0" in line for line in rounds), done.stdout
    assert lines[-3].startswith("medians over 1 rounds"), done.stdout
    # compare.py's worktree (in a temporary directory) is gone again.
    left = [p for p in worktrees() - before if p.startswith(tempfile.gettempdir())]
    assert not left, f"the worktree is removed: {left}"
