#!/usr/bin/env python
"""Faults under phones that behave like the real page: a Redis outage (how often they reconnect
meanwhile) and a held database lock (how long a tap stays in doubt).

    .venv/bin/python bench/outage.py                     # 10 tables × 8 phones, Redis away 6 s
    .venv/bin/python bench/outage.py --tables 2 --outage 3 --json
    .venv/bin/python bench/outage.py --fault lock        # SQLite's write lock held 25 s

One `manage.py play` process on SQLite whose channel layer and cache are a private `redis-server`
(bench/servers.py's RedisServer, on a spare port: the machine's own Redis is never touched). The
tables are set up and their games started over HTTP (bench/soak.py's SoakBench), then every phone
opens its page and runs a bench/livephone.py LivePhone (live.js's reconnect, read from live.js).
Once every phone is open, redis-server is stopped for --outage seconds and started again. It
prints the socket handshakes the phones tried during the outage (per phone per second), and how
long after Redis came back every phone was current again (its socket's first state arrived).
With --fault lock (SQLite, the in-memory layer): every table taps once a second while another
connection holds the write lock for --lock seconds; it prints the taps' outcomes and the longest
time one stayed in doubt (from "checking…" to its outcome) and from tap to outcome.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fleet import Fleet  # noqa: E402
from bench.livephone import Hub, timings  # noqa: E402
from bench.procs import raise_fd_limit  # noqa: E402
from bench.servers import RedisServer  # noqa: E402
from bench.soak import SoakBench  # noqa: E402

OPEN_SECONDS = 60  # every phone open before the outage, and again after it


async def _all_open(bench: SoakBench, since: float, seconds: float) -> float | None:
    """Seconds from `since` until every phone had a current socket opened after it (None: not
    within `seconds`)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(p.open and p.opens and p.opens[-1] >= since for p in bench.phones):
            return max(p.opens[-1] for p in bench.phones) - since
        await asyncio.sleep(0.05)
    return None


def _bench(args: argparse.Namespace, fleet: Fleet) -> SoakBench:
    live, model, _missing = timings()
    args.arrive, args.rate, args.duration = 0, 1.0, 0.0
    return SoakBench(args, fleet, Hub(live, model))


async def _open_every_phone(bench: SoakBench) -> dict[str, Any]:
    """The tables set up over HTTP, then every phone's page open and its socket current."""
    setup = await bench.setup()
    for phone in bench.phones:
        bench.hub.spawn(phone.open_page())
    if await _all_open(bench, 0.0, OPEN_SECONDS) is None:
        raise RuntimeError("not every phone opened its socket")
    return setup


async def outage(args: argparse.Namespace, fleet: Fleet, redis: RedisServer) -> dict[str, Any]:
    bench = _bench(args, fleet)
    hub = bench.hub
    try:
        setup = await _open_every_phone(bench)
        await asyncio.sleep(0.5)
        stopped = time.monotonic()
        await asyncio.to_thread(redis.stop)
        await asyncio.sleep(args.outage)
        # A phone may be current again before `redis.start` returns (it returns once Redis
        # answers its own PING, and the server's probe may find Redis first): the opens that
        # count are those from the moment Redis was started.
        restarted = time.monotonic()
        await asyncio.to_thread(redis.start)
        back = time.monotonic()
        current = await _all_open(bench, restarted, OPEN_SECONDS)
        during = [t for p in bench.phones for t in p.attempts if stopped <= t < back]
        phones = len(bench.phones)
        return {
            "phones": phones,
            "tables_ready": setup["tables_ready"],
            "reconnect_model": hub.reconnect[0],
            "outage_s": round(back - stopped, 2),
            "handshakes_during_outage": len(during),
            "per_phone_per_s": round(len(during) / phones / (back - stopped), 2),
            "most_by_one_phone": max(
                sum(stopped <= t < back for t in p.attempts) for p in bench.phones
            ),
            "every_phone_current_after_s": None if current is None else round(current, 2),
        }
    finally:
        await bench.close()


async def held_lock(args: argparse.Namespace, fleet: Fleet) -> dict[str, Any]:
    """Every table taps once a second (its phones in turn) while another connection holds the
    SQLite write lock for --lock seconds; how long taps stayed in doubt ("checking…")."""
    bench = _bench(args, fleet)
    hub = bench.hub
    try:
        setup = await _open_every_phone(bench)
        lock = asyncio.create_task(asyncio.to_thread(_hold_lock, fleet, args.lock))
        turns = 0
        while not lock.done():
            for table in bench.tables:
                table.phones[turns % len(table.phones)].tap()
            turns += 1
            await asyncio.sleep(1.0)
        await lock
        deadline = time.monotonic() + 40
        while any(p.pending or p.queue for p in bench.phones) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        taps = list(hub.taps.values())
        doubted = [t for t in taps if t.doubt]
        outcomes: dict[str, int] = {}
        for tap in taps:
            outcomes[tap.outcome or "unresolved"] = outcomes.get(tap.outcome or "unresolved", 0) + 1
        return {
            "phones": len(bench.phones),
            "tables_ready": setup["tables_ready"],
            "lock_s": args.lock,
            "taps": len(taps),
            "outcomes": outcomes,
            "in_doubt": len(doubted),
            "longest_in_doubt_s": round(
                max((t.settled_at - t.doubt_at for t in doubted if t.settled_at), default=0), 2
            ),
            "longest_tap_to_answer_s": round(
                max((t.settled_at - t.t0 for t in taps if t.settled_at and t.t0), default=0), 2
            ),
            "taps_over_5_s_to_answer": sum(
                1 for t in taps if t.settled_at and t.t0 and t.settled_at - t.t0 > 5
            ),
            "answered_5xx": sum(1 for t in taps if t.status >= 500),
            "longest_doubts": sorted(
                (
                    (
                        round(t.settled_at - t.doubt_at, 2),
                        round(t.doubt_at - t.t0, 2),
                        t.via,
                        t.status,
                        t.outcome,
                    )
                    for t in doubted
                    if t.settled_at
                ),
                reverse=True,
            )[:5],
            "counts": hub.counts,
        }
    finally:
        await bench.close()


def _hold_lock(fleet: Fleet, seconds: float) -> None:
    """Another connection takes the app's SQLite write lock and keeps it `seconds`."""
    other = sqlite3.connect(fleet.tmp / "db.sqlite3", isolation_level=None, timeout=10)
    try:
        other.execute("BEGIN IMMEDIATE")
        time.sleep(seconds)
        other.execute("ROLLBACK")
    finally:
        other.close()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench/outage.py", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10, help="tables (10)")
    parser.add_argument("--phones", type=int, default=8, help="phones per table (8)")
    parser.add_argument("--outage", type=float, default=6.0, help="seconds without Redis (6)")
    parser.add_argument(
        "--fault", choices=("redis", "lock"), default="redis", help="Redis away, or a held lock"
    )
    parser.add_argument("--lock", type=float, default=25.0, help="seconds the lock is held (25)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser.parse_args(argv)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Start redis-server and the app, run the outage, stop everything (pass or fail)."""
    raise_fd_limit()
    if getattr(args, "fault", "redis") == "lock":
        fleet = Fleet(0, pin=False)
        try:
            fleet.start()
            result = asyncio.run(held_lock(args, fleet))
            result["server_log_problems"] = fleet.log_problems()
            return result
        finally:
            fleet.close()
    with tempfile.TemporaryDirectory(prefix="sgs-outage-") as tmp:
        redis = RedisServer(Path(tmp))
        redis.start()
        fleet = Fleet(0, pin=False, redis_url=redis.url())
        try:
            fleet.start()
            result = asyncio.run(outage(args, fleet, redis))
            result["server_log_problems"] = fleet.log_problems()
            return result
        finally:
            fleet.close()
            redis.stop()


def main(argv: list[str] | None = None) -> int:
    result = measure(parse_args(argv))
    if "--json" in (argv or sys.argv[1:]):
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
