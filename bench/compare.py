#!/usr/bin/env python
"""Side by side: the benchmark on another commit and on this working tree, in alternation.

    .venv/bin/python bench/compare.py 28477c0                      # 3 rounds, 50 tables, 20 s
    .venv/bin/python bench/compare.py HEAD~3 --rounds 5 -- --tables 100 --duration 30
    .venv/bin/python bench/compare.py --stock                      # STOCK_PATH=1 against this tree

This machine's speed drifts by up to half between runs minutes apart, so two benchmarks run an
hour apart compare the machine as much as the code. This script checks the other commit out in
a temporary git worktree, then runs `bench/run.py --repeat 1 --json` from that tree and from this
one in turn, `--rounds` times (A B A B ...), so both see the same drift, and prints each run's
server CPU per tap (and its event-loop part), latency p99 and losses, and the medians. Arguments
after `--` go to both runs (default: --tables 50 --phones 8 --rate 1 --duration 20). Each run is
the benchmark's own bounded run; the worktree is removed at the end. With `--stock` the other
side is this same tree run with STOCK_PATH=1 (the hot path as Django and Channels ship it:
companion/settings.py), which measures the hand-made parts against what they replace.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_ARGS = ["--tables", "50", "--phones", "8", "--rate", "1", "--duration", "20"]


def run_once(
    tree: Path, bench_args: list[str], env: dict[str, str] | None = None
) -> dict[str, Any]:
    """One benchmark run of the app in `tree`; its first (only) measured window."""
    done = subprocess.run(
        [sys.executable, str(tree / "bench" / "run.py"), "--repeat", "1", "--json", *bench_args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
    )
    if done.returncode not in (0, 1):
        raise SystemExit(
            f"bench/run.py failed in {tree}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        )
    result = json.loads(done.stdout)
    return dict(result["runs"][0])


def summary(run: dict[str, Any]) -> str:
    return (
        f"CPU {run['cpu_per_tap_ms']} ms/tap (event loop {run['loop_cpu_per_tap_ms']}) · "
        f"p99 {run['latency_ms']['p99']} ms · {run['achieved_taps_per_s']} taps/s · "
        f"lost {run['lost']}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", nargs="?", help="the commit to compare this working tree with")
    parser.add_argument(
        "--stock",
        nargs="?",
        const="1",
        help="compare with STOCK_PATH=1 (or the parts named: orm,layer,dbthread) instead",
    )
    parser.add_argument("--rounds", type=int, default=3, help="A/B pairs to run (default 3)")
    args, rest = parser.parse_known_args()
    if bool(args.base) == bool(args.stock):
        parser.error("name a commit, or --stock")
    bench_args = [a for a in rest if a != "--"] or DEFAULT_ARGS
    with contextlib.ExitStack() as stack:
        if args.stock:
            rev, base_tree, base_env = "stock", BASE_DIR, {"STOCK_PATH": args.stock}
        else:
            rev = subprocess.run(
                ["git", "rev-parse", "--short", args.base],
                cwd=BASE_DIR,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
            base_tree, base_env = Path(stack.enter_context(tempfile.TemporaryDirectory())) / rev, {}
            subprocess.run(
                ["git", "worktree", "add", "--detach", "--quiet", str(base_tree), rev],
                cwd=BASE_DIR,
                check=True,
            )
            stack.callback(
                subprocess.run,
                ["git", "worktree", "remove", "--force", str(base_tree)],
                cwd=BASE_DIR,
                check=False,
            )
        results: dict[str, list[dict[str, Any]]] = {rev: [], "this tree": []}
        for round_no in range(1, args.rounds + 1):
            for label, tree, env in ((rev, base_tree, base_env), ("this tree", BASE_DIR, {})):
                run = run_once(tree, bench_args, env)
                results[label].append(run)
                print(f"round {round_no} {label:>10}: {summary(run)}", flush=True)
    print(f"medians over {args.rounds} rounds ({' '.join(bench_args)}):")
    for label, runs in results.items():
        cpu = statistics.median(r["cpu_per_tap_ms"] for r in runs)
        loop = statistics.median(r["loop_cpu_per_tap_ms"] for r in runs)
        p99 = statistics.median(r["latency_ms"]["p99"] for r in runs)
        lost = sum(r["lost"] for r in runs)
        print(
            f"  {label:>10}: CPU {cpu:.2f} ms/tap (event loop {loop:.2f}) · "
            f"p99 {p99:.2f} ms · lost {lost}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
