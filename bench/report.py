"""Figures and the report: nearest-rank percentiles, the median line over the runs, and the
human-readable text of a result (the same data as --json)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

from bench.client import POOL_LIMIT

OTHER_LOAD_LIMIT = 25.0  # % of a core used by other processes during the window


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-pct * len(ordered) // 100))))
    return ordered[rank - 1]


def spread(values: list[float]) -> dict[str, float | int]:
    ms = [v * 1000 for v in values]
    return {
        "n": len(ms),
        "p50": round(percentile(ms, 50), 2),
        "p95": round(percentile(ms, 95), 2),
        "p99": round(percentile(ms, 99), 2),
        "max": round(max(ms, default=0.0), 2),
    }


def _minus(a: float | None, b: float | None) -> float | None:
    return round(a - b, 2) if a is not None and b is not None else None


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Median of each headline figure over the runs; losses and errors are summed."""

    def med(get: Callable[[dict[str, Any]], Any]) -> float | None:
        values = [get(r) for r in runs if get(r) is not None]
        return round(statistics.median(values), 2) if values else None

    return {
        "runs": len(runs),
        "latency_ms": {
            key: med(lambda r, key=key: r["latency_ms"][key])
            for key in ("p50", "p95", "p99", "max")
        },
        "achieved_taps_per_s": med(lambda r: r["achieved_taps_per_s"]),
        "cpu_per_tap_ms": med(lambda r: r["cpu_per_tap_ms"]),
        "kernel_cpu_per_tap_ms": med(lambda r: r["kernel_cpu_per_tap_ms"]),
        "loop_cpu_per_tap_ms": med(lambda r: r["loop_cpu_per_tap_ms"]),
        "services_cpu_per_tap_ms": med(lambda r: r["services_cpu_per_tap_ms"]),
        "server_core_busy_pct": med(lambda r: r["server_core_busy_pct"]),
        "lost": sum(r["lost"] for r in runs),
        "duplicated": sum(r["duplicated"] for r in runs),
        "taps_refused": sum(r["taps_refused"] for r in runs),
        "taps_failed": sum(r["taps_failed"] for r in runs),
        "generator_bottleneck": any(r["generator"]["bottleneck"] for r in runs),
    }


def render_text(result: dict[str, Any]) -> str:
    """The human-readable report of a result (the same data as --json)."""
    c = result["config"]
    s = result["setup"]
    out = []
    mode = (
        f"scale-out: {c['servers']} process(es), PostgreSQL + Redis"
        if c["scale_out"]
        else "embedded default: SQLite, in-memory layer, one process"
    )
    out.append(
        f"sgs bench · {mode} · {c['tables']} tables × {c['phones']} phones · "
        f"{c['rate']} tap/table/s · {c['duration']} s × {c['repeat']} (warm-up {c['warmup']} s) · "
        f"taps over {'the websocket' if c.get('via', 'ws') == 'ws' else 'HTTP'}"
    )
    out.append(
        f"  pinning: {c['pinning']}; {c['cpus']} CPU(s); python {c['python']}; app {c['app']}; "
        f"{c['started']}"
    )
    if c.get("settings", "companion.settings") != "companion.settings":
        out.append(f"  settings: {c['settings']} (a what-if, not the app's own)")
    out.append(
        f"setup: tables ready {s['tables_ready']}, failed {s['tables_failed']} · "
        f"connections made {s['connections_made']}, failed {s['connections_failed']} · "
        f"{s['setup_seconds']} s (HTTP {s['http_setup_seconds']} s, "
        f"websockets {s['connect_seconds']} s)"
    )
    per_phone = s["memory_per_phone_kb"]
    out.append(
        f"memory: server RSS idle {s['rss_idle_kb'] / 1024:.1f} MB, before phones "
        f"{s['rss_before_phones_kb'] / 1024:.1f} MB, with {s['phones_connected']} phones "
        f"{s['rss_after_phones_kb'] / 1024:.1f} MB → "
        f"{'n/a' if per_phone is None else f'{per_phone:.1f} KB'} per connected phone"
    )
    for error in s["errors"]:
        out.append(f"  ! {error}")
    for r in result["runs"]:
        lat, tab, rep, gen = r["latency_ms"], r["table_latency_ms"], r["reply_ms"], r["generator"]
        out.append(f"run {r['run']} ({r['window_s']} s):")
        refusals = f" {r['refusals']}" if r["refusals"] else ""
        out.append(
            f"  taps sent {r['taps_sent']}: applied {r['taps_applied']}, refused "
            f"{r['taps_refused']}{refusals}, failed {r['taps_failed']} · achieved "
            f"{r['achieved_taps_per_s']} taps/s (target {r['target_taps_per_s']})"
        )
        out.append(
            f"  deliveries expected {r['deliveries_expected']}, received "
            f"{r['deliveries_received']} ({r.get('late', 0)} after the drain), lost {r['lost']}, "
            f"duplicated {r['duplicated']}, "
            f"out of order {r['out_of_order']} · tapper's own HP tracker "
            f"{r['private_received']}/{r['private_expected']} · dropped sockets "
            f"{r['dropped_connections']} · drained in {r['drain_s']} s · frames "
            f"{r.get('frame_kchars', '?')}K characters on average"
        )
        if r["taps_queued_in_generator"]:
            out.append(
                f"  ! {r['taps_queued_in_generator']} taps waited for one of the generator's "
                f"{POOL_LIMIT} connections per port (the server had that many requests open); "
                "their latency starts when they were sent, not when they were due"
            )
        out.append(
            f"  tap→phone latency ms: p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  "
            f"max {lat['max']}  (n={lat['n']})"
        )
        out.append(
            f"  tap→whole table ms: p50 {tab['p50']}  p99 {tab['p99']} · tap answered ms: "
            f"p50 {rep['p50']}  p99 {rep['p99']}"
        )
        services = (
            f" (+ PostgreSQL/Redis {r['services_cpu_per_tap_ms']} ms)"
            if r["services_cpu_per_tap_ms"] is not None
            else ""
        )
        saturated = ""
        if r["server_saturated"] or r["taps_failed"]:
            saturated = " → SATURATED" if r["server_saturated"] else " → overloaded"
            saturated += " (CPU per tap counts work on taps that then timed out or failed)"
        out.append(
            f"  server CPU {r['server_cpu_s']} s, its core(s) {r['server_core_busy_pct']} % "
            f"busy{saturated} · {r['cpu_per_tap_ms']} ms per tap (event loop "
            f"{r['loop_cpu_per_tap_ms']} ms, other threads "
            f"{_minus(r['cpu_per_tap_ms'], r['loop_cpu_per_tap_ms'])} ms; kernel "
            f"{r['kernel_cpu_per_tap_ms']} ms){services} · "
            f"RSS {r['rss_kb'] / 1024:.1f} MB"
        )
        verdict = "YES: " + "; ".join(gen["reasons"]) if gen["bottleneck"] else "no"
        out.append(
            f"  generator: CPU {gen['cpu_pct']} %, send slip p99 {gen['send_slip_ms']['p99']} "
            f"ms, loop lag p99 {gen['loop_lag_ms']['p99']} ms → bottleneck: {verdict}"
        )
        disturbed = (
            " → figures DISTURBED by other processes"
            if r["other_load_pct"] >= OTHER_LOAD_LIMIT
            else ""
        )
        out.append(
            f"  rest of the machine busy {r['other_load_pct']} % of a core "
            f"(load average {r['load_average']}){disturbed}"
        )
    m = result.get("median")
    if m and m["runs"] > 1:
        lat = m["latency_ms"]
        out.append(
            f"median of {m['runs']} runs: p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  "
            f"max {lat['max']} ms · {m['achieved_taps_per_s']} taps/s · "
            f"{m['cpu_per_tap_ms']} ms CPU per tap · lost {m['lost']}, duplicated "
            f"{m['duplicated']}"
        )
    for line in result["server_log_problems"][:8]:
        out.append(f"  server log: {line}")
    out.append("result: OK" if result["ok"] else "result: PROBLEMS (see above)")
    return "\n".join(out)
