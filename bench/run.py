#!/usr/bin/env python
"""Load benchmark: real server processes, real phones over HTTP and websockets, tap→phone latency.

    .venv/bin/python bench/run.py                      # embedded default, a modest run
    .venv/bin/python bench/run.py --tables 50 --phones 8 --rate 1 --duration 60 --repeat 3
    .venv/bin/python bench/run.py --scale-out 2 --tables 100 --rate 0.5 --duration 60
    .venv/bin/python bench/run.py --json > result.json  # machine-readable
    .venv/bin/python bench/run.py --profile /tmp/prof  # py-spy each server during the window
    .venv/bin/python bench/profile_summary.py /tmp/prof/run1-s0.txt
    .venv/bin/python bench/run.py --cprofile /tmp/cprof  # cProfile instead (pstats files)

What it does, in order:

1. Starts the app the way users run it: `manage.py play --host 127.0.0.1 --port P` with
   DATA_DIR=<a temporary directory>, STATIC_PLAIN=1, DEBUG=0. The default is the embedded
   setup (SQLite, in-memory channel layer, one process). With `--scale-out N` it creates its own
   PostgreSQL database (dropped at the end), migrates it once and starts N processes with
   DB=postgres, REDIS_URL (default redis://127.0.0.1:6379/0, or $REDIS_URL), a unique
   REDIS_PREFIX (its keys deleted at the end) and one SECRET_KEY. PostgreSQL is reached with
   DB_HOST/DB_PORT/DB_USER/DB_PASSWORD (default postgres@127.0.0.1:5432). Every server listens on
   127.0.0.1 only and is stopped at the end, also on Ctrl+C or an error (and killed by the kernel
   if this script dies). Where there are two or more cores, the servers are pinned with
   `taskset` to all cores but the last, and this generator to the last one (`--no-pin` to
   switch that off).
2. Creates T tables with P phones each (P >= 4, the app's minimum for dealing) through the
   app's own interface, as phones do: the host GETs /, POSTs /new/, GETs its console and sets
   first-game mode (POST /h/<host>/act/options fields=first_game_mode first_game_mode=1); each
   phone GETs and POSTs /j/<code>/ (its own cookies, CSRF from the sgs_csrf cookie sent as
   X-CSRFToken, Origin equal to the base URL) and connects its websocket /ws/<token>/ with that
   Origin. With --scale-out, the phones of a table are spread over the ports. Then the host deals
   and starts the game (first-game mode: no hero picking), and every phone must show "playing".
3. Load: one phone per table taps its own HP (delta=-1, then +1, alternating; a unique action_id
   per tap), as its page does: over its open websocket ({"type": "act", "name": "hp", "fields":
   {"seat": <its seat>, "delta": ...}}, answered by its change's own frame to the tapping phone,
   or "done" when there is none), or with --via http as the page's
   fallback (POST /p/<token>/act/hp, answered 204), at --rate taps per table per second, open
   loop, tables evenly staggered. --warmup seconds are not counted; then --duration seconds are
   measured (--repeat times, back to back, each drained before the next).
4. Every pushed fragment root (table-state, my-seat, host-panel, and the small frames of an HP
   change: table-delta, my-hp) carries data-version and data-action; each phone records when
   the public frame of each tap arrives, matched by action id. Latency runs from just before
   the tap is written to the moment the phone has the frame. Only taps answered (204, the
   change's own frame, or "done") count: when the server is overloaded, read "failed" and the
   achieved taps/s first. The host console's own websocket is not connected (its frames would
   go to nobody's phone).

It prints:
- connections made/failed;
- taps sent, applied (204), refused (4xx/5xx) and failed (no answer within 30 s);
- deliveries expected (each applied tap is due to every phone of its table that was connected
  when it was sent) and received; lost (never received), late (received only after that run's
  drain: after each window the script waits while frames keep coming, until 10 s pass without
  one or 120 s in all), duplicated and out-of-order deliveries; the tapper's own HP tracker (in the
  public delta of an HP change, or in its private frame);
- tap→phone latency p50/p95/p99/max, tap→whole table, and the time until the tap is answered
  (over the socket: the change's own frame at the tapping phone, or "done"; or the HTTP 204);
- achieved taps/s; server CPU per tap (utime+stime from /proc/<pid>/stat over the measured
  window, summed over the server processes; with --scale-out also PostgreSQL's and Redis's),
  and of it the servers' event-loop threads (websockets, Channels, relaying frames; the rest is
  the database thread) and the kernel's part;
- server RSS and memory per connected phone (RSS delta from just before the phones' websockets
  connect to just after, divided by the phones);
- whether this generator was the bottleneck (its CPU >= 80 % of its core, or its send schedule
  slipping or its event loop lagging at p99 by >= 5 ms and >= a tenth of the measured latency
  p99), and how busy the rest of the machine was (other processes' CPU makes every figure
  unreliable: the report says so);
- a median line over --repeat runs, and the errors the servers logged, counted.
Exit status 0 when everything due arrived exactly once and no tap was refused or failed, 1
otherwise, 2 when the setup failed, 130 when interrupted.

Other options: --settings MODULE runs the servers with another DJANGO_SETTINGS_MODULE, to
measure a settings change before the app makes it (bench/settings_no_persistent_db.py);
--wait-quiet S first waits up to S seconds for an idle machine; --keep-logs keeps the servers'
logs; --no-pin.

HTTP is spoken directly over asyncio streams (HTTP/1.1, keep-alive; a tap opens another
connection when all are busy, up to 1024 per port): a third-party client would cost the
generator several times more CPU per tap. Websockets use the `websockets` package with
permessage-deflate offered, as browsers do. Measured against a stub server, the generator used
14 % of its core at 100 taps/s with 800 phones.

This file holds the options and the main loop; the parts are in bench/: servers.py (one
`manage.py play` process, shared with the tests), fleet.py (the run's server processes),
procs.py (/proc readings, pinning), client.py (HTTP and websockets), tables.py (tables, phones
and their frames), load.py (the taps and each window's figures) and report.py (percentiles,
medians, the text report).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

try:
    import uvloop
except ImportError:  # optional: a faster event loop for the simulated phones
    uvloop = None

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fleet import Fleet, SetupError, app_version  # noqa: E402
from bench.load import Bench  # noqa: E402
from bench.procs import raise_fd_limit, wait_quiet  # noqa: E402
from bench.report import median_of, render_text  # noqa: E402
from bench.tables import MIN_PHONES, Phone  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bench/run.py",
        description="Start the app, seat phones at tables over HTTP + websockets, tap at a fixed "
        "rate and measure tap→phone latency, losses, CPU and memory.",
        epilog="Example (the issue's targets): --tables 50 --phones 8 --rate 1 --duration 60 "
        "--repeat 3; scale-out: --scale-out 2 --tables 100 --rate 0.5 --duration 60.",
    )
    parser.add_argument("--tables", type=int, default=10, help="tables (default 10)")
    parser.add_argument("--phones", type=int, default=8, help="phones per table, >= 4 (8)")
    parser.add_argument(
        "--rate", type=float, default=1.0, help="taps per table per second (default 1)"
    )
    parser.add_argument("--duration", type=float, default=15, help="measured seconds (15)")
    parser.add_argument("--warmup", type=float, default=3, help="unmeasured seconds first (3)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="measured windows back to back; prints medians (1)"
    )
    parser.add_argument(
        "--scale-out",
        type=int,
        default=0,
        metavar="N",
        help="N server processes on PostgreSQL + Redis instead of the embedded default",
    )
    parser.add_argument(
        "--via",
        choices=("ws", "http"),
        default="ws",
        help="how the tapping phone sends its tap: over its open websocket, as the page does "
        "(ws, default), or as an htmx POST, the page's fallback (http)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--no-pin", action="store_true", help="do not pin processes to cores")
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="record each server with py-spy (--gil) during each measured window, as collapsed "
        "stacks in DIR; summarise with bench/profile_summary.py",
    )
    parser.add_argument(
        "--cprofile",
        metavar="DIR",
        help="cProfile each server's event loop and database thread during each measured "
        "window (no py-spy needed): DIR/<pid>-loop.prof and DIR/<pid>-db.prof (-db0, -db1 ... "
        "with DB_THREADS on PostgreSQL), pstats files "
        "(bench/cprofile/sitecustomize.py)",
    )
    parser.add_argument(
        "--keep-logs", action="store_true", help="keep the temporary directory with server logs"
    )
    parser.add_argument(
        "--settings",
        default="companion.settings",
        metavar="MODULE",
        help="DJANGO_SETTINGS_MODULE for the servers, to measure a settings change before the "
        "app makes it (e.g. bench.settings_no_persistent_db); default companion.settings",
    )
    parser.add_argument(
        "--wait-quiet",
        type=float,
        default=0,
        metavar="S",
        help="first wait up to S seconds for the machine to be idle (shared machines)",
    )
    args = parser.parse_args(argv)
    if args.phones < MIN_PHONES or args.phones > 10:
        parser.error(f"--phones must be {MIN_PHONES} to 10 (the app deals 4 to 10 seats)")
    if not 1 <= args.tables <= 2000:
        parser.error("--tables must be 1 to 2000")
    if not 0 < args.rate <= 20:
        parser.error("--rate must be above 0 and at most 20")
    if not 0 < args.duration <= 3600 or not 0 <= args.warmup <= 600:
        parser.error("--duration must be 0 to 3600 s and --warmup 0 to 600 s")
    if not 1 <= args.repeat <= 20 or not 0 <= args.scale_out <= 16:
        parser.error("--repeat must be 1 to 20 and --scale-out 0 to 16")
    return args


async def close_sockets(bench: Bench) -> None:
    phones = [p for t in bench.tables for p in t.phones if p.ws is not None]

    async def close(phone: Phone) -> None:
        phone.open = False
        with contextlib.suppress(Exception):
            await asyncio.wait_for(phone.ws.close(), 3)
        if phone.reader is not None:
            phone.reader.cancel()

    await asyncio.gather(*(close(p) for p in phones))
    for pool in bench.pools:
        pool.close()


async def run_bench(args: argparse.Namespace, fleet: Fleet) -> dict[str, Any]:
    bench = Bench(args, fleet)
    try:
        setup = await bench.setup()
        runs = await bench.load()
    finally:
        await close_sockets(bench)
    return {"setup": setup, "runs": runs}


@contextlib.contextmanager
def terminate_on_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP unwind like Ctrl+C, so the servers are always stopped."""

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    # A signal already ignored (SIGHUP under nohup) stays ignored.
    previous = {
        s: signal.signal(s, handler)
        for s in (signal.SIGTERM, signal.SIGHUP)
        if signal.getsignal(s) is not signal.SIG_IGN
    }
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    raise_fd_limit()
    if args.cprofile:
        # The servers inherit this environment: their `sitecustomize` installs the signals.
        os.environ["SGS_CPROFILE_DIR"] = str(Path(args.cprofile).resolve())
        hook = str(Path(__file__).resolve().parent / "cprofile")
        os.environ["PYTHONPATH"] = os.pathsep.join(
            p for p in (hook, os.environ.get("PYTHONPATH", "")) if p
        )
    fleet = Fleet(
        args.scale_out, pin=not args.no_pin, keep_logs=args.keep_logs, settings=args.settings
    )
    runner: Callable[[Any], Any] = uvloop.run if uvloop is not None else asyncio.run
    config = {
        "tables": args.tables,
        "phones": args.phones,
        "rate": args.rate,
        "duration": args.duration,
        "warmup": args.warmup,
        "repeat": args.repeat,
        "scale_out": args.scale_out,
        "servers": args.scale_out or 1,
        "via": args.via,
        "settings": args.settings,
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "app": app_version(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    try:
        with terminate_on_signals():
            if args.wait_quiet:
                config["busy_before_start_pct"] = round(100 * wait_quiet(args.wait_quiet), 1)
            try:
                fleet.start()
                config["pinning"] = fleet.pin_note
                config["ports"] = [s.port for s in fleet.servers]
                measured = runner(run_bench(args, fleet))
            except SetupError as exc:
                print(f"setup failed: {exc}", file=sys.stderr)
                for server in fleet.servers:
                    print(f"--- {server.name} log:\n{server.log_tail()}", file=sys.stderr)
                return 2
            problems = fleet.log_problems()
    except KeyboardInterrupt as exc:
        print(f"interrupted ({exc or 'Ctrl+C'}); servers stopped", file=sys.stderr)
        return 130
    finally:
        fleet.close()
    runs = measured["runs"]
    setup = measured["setup"]
    ok = (
        setup["tables_failed"] == 0
        and setup["connections_failed"] == 0
        and all(
            r["lost"] == 0
            and r["duplicated"] == 0
            and r["taps_failed"] == 0
            and r["taps_refused"] == 0
            and r["private_received"] == r["private_expected"]
            and r["out_of_order"] == 0
            for r in runs
        )
    )
    result = {
        "config": config,
        "setup": setup,
        "runs": runs,
        "median": median_of(runs),
        "server_log_problems": problems,
        "ok": ok,
    }
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(render_text(result))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
