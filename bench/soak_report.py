"""The soak's figures and its report (bench/soak.py): the event log read straight from the
database, what the phones saw against it, and the human-readable text (the same data as --json)."""

from __future__ import annotations

import bisect
import sqlite3
from typing import Any

from bench.fleet import Fleet
from bench.livephone import Hub, LivePhone, LiveTap
from bench.report import spread
from bench.servers import pg_admin

EVENT_TABLE = "companion_event"  # companion.models.Event
OUTCOMES = ("applied", "merged", "refused", "not_applied")


def event_log(fleet: Fleet) -> set[str]:
    """The action ids in the event log, read straight from the servers' database."""
    sql = f"SELECT action_id FROM {EVENT_TABLE} WHERE action_id <> ''"  # noqa: S608
    if fleet.scale_out:
        with pg_admin(fleet.db_name) as conn:
            return {row[0] for row in conn.execute(sql)}
    db = sqlite3.connect(f"file:{fleet.tmp / 'db.sqlite3'}?mode=ro", uri=True, timeout=30)
    try:
        return {row[0] for row in db.execute(sql)}
    finally:
        db.close()


def reached(phone: LivePhone, version: int) -> float | None:
    """When the phone first showed `version` or a later one."""
    at = bisect.bisect_left([v for _t, v in phone.shown_at], version)
    return phone.shown_at[at][0] if at < len(phone.shown_at) else None


def to_all(tap: LiveTap) -> float | None:
    if not tap.version:
        return None
    times = [reached(p, tap.version) for p in tap.expected]
    if any(t is None for t in times):
        return None
    return max([tap.t0, *times]) - tap.t0  # type: ignore[list-item]


def figures(
    hub: Hub,
    phones: list[LivePhone],
    samples: list[tuple[float, int]],
    restart: dict[str, Any],
    log: set[str],
    drained: float,
) -> dict[str, Any]:
    """What the phones saw against what the event log `log` holds; `samples` are (seconds,
    phones open), `restart` what kill_and_restart noted (empty: nothing was killed)."""
    taps = list(hub.taps.values())
    by = {o: [t for t in taps if t.outcome == o] for o in OUTCOMES}
    unresolved = [t for t in taps if not t.outcome]
    applied = by["applied"]
    watched = [t for t in applied if t.expected]  # some phone of its table was open
    latencies = [d for d in map(to_all, watched) if d is not None]
    told_no = by["refused"] + by["not_applied"]
    result: dict[str, Any] = {
        "phones": len(phones),
        "phones_open_over_time": [[round(t), n] for t, n in samples],
        "phones_ever_open": sum(p.ever_open for p in phones),
        "phones_open_at_end": sum(p.open for p in phones),
        "taps_made": len(taps),
        "taps_sent": sum(1 for t in taps if t.t0),
        "taps_via_http_first": sum(1 for t in taps if t.t0 and t.via == "http"),
        "taps_acknowledged": len(applied),
        "taps_merged": len(by["merged"]),
        "taps_merged_in_log": sum(t.id in log for t in by["merged"]),
        "taps_refused": len(by["refused"]),
        "refusals": sorted({t.status for t in by["refused"] if t.status}),
        "taps_not_applied": len(by["not_applied"]),
        "taps_unresolved": len(unresolved),
        "taps_unresolved_in_log": sum(t.id in log for t in unresolved),
        "acknowledged_missing": sum(t.id not in log for t in applied),
        "told_no_but_in_log": sum(t.id in log for t in told_no),
        "tap_to_all_ms": spread(latencies),
        "taps_not_reaching_all": len(watched) - len(latencies),
        "reconnect_ms": spread(hub.reconnects),
        "counts": {k: v for k, v in sorted(hub.counts.items()) if not k.startswith("frames ")},
        "frames": {
            "pushed": hub.counts.get("frames pushed", 0),
            "missed": hub.counts.get("frames missed", 0),
            "repeated_or_out_of_order": hub.counts.get("frames repeated or out of order", 0),
        },
        "drain_s": round(drained, 1),
    }
    if restart:
        killed = restart["killed_at"]
        on_it = restart["phones"]
        back = [next((t for t in p.opens if t > killed), None) for p in restart["open"]]
        result["restart"] = {
            "killed_at_s": round(restart["at_s"], 1),
            "server_up_s": round(restart.get("up_s", -1), 1),
            "phones": len(on_it),
            "open_at_kill": len(back),
            "back": sum(t is not None for t in back),
            "open_at_end": sum(p.open for p in on_it),
            "reconnect_ms": spread([t - killed for t in back if t is not None]),
        }
    problems = {
        "acknowledged taps missing from the event log": result["acknowledged_missing"],
        "taps told refused or not applied yet in the event log": result["told_no_but_in_log"],
        "taps unresolved": len(unresolved),
        "phones not open at the end": len(phones) - result["phones_open_at_end"],
    }
    if not restart:
        # With a process killed, a change it made but had not published yet is lost with it, and
        # its phones sync: the frames count only when every process stayed up.
        problems["changes' frames a phone missed"] = result["frames"]["missed"]
        problems["frames repeated or out of order"] = result["frames"]["repeated_or_out_of_order"]
    result["problems"] = [f"{n} {what}" for what, n in problems.items() if n]
    result["ok"] = not result["problems"]
    return result


def render(config: dict[str, Any], setup: dict[str, Any], r: dict[str, Any]) -> str:
    mode = (
        f"{config['servers']} processes, PostgreSQL + Redis"
        if config["scale_out"]
        else "embedded default (one process)"
    )
    live = ", ".join(f"{k} {v:g} s" for k, v in config["live"].items())
    out = [
        f"sgs soak · {mode} · {config['tables']} tables × {config['phones']} phones · "
        f"{config['rate']} tap/table/s · {config['duration']} s · app {config['app']} · "
        f"{config['started']}",
        f"  phone model: live.js heartbeat {config['heartbeat']}; {live}",
        f"setup: tables ready {setup['tables_ready']}, failed {setup['tables_failed']} "
        f"({setup['setup_seconds']} s; host taps tapped again after a 503: "
        f"{setup.get('host_retries', 0)}); then every phone opens its page "
        f"(over {config['arrive']} s) while the tables tap",
    ]
    if config["live_missing"]:
        out.append(f"  ! not found in live.js (defaults used): {', '.join(config['live_missing'])}")
    out += [f"  ! {e}" for e in setup["errors"][:5]]
    series = " · ".join(f"{t} s {n}" for t, n in r["phones_open_over_time"])
    out.append(f"phones open (of {r['phones']}): {series}")
    out.append(f"  ever open {r['phones_ever_open']}, open at the end {r['phones_open_at_end']}")
    if "restart" in r:
        x, rc = r["restart"], r["restart"]["reconnect_ms"]
        out.append(
            f"restart: the last process killed at {x['killed_at_s']} s, answering again "
            f"{x['server_up_s']} s later; of its {x['phones']} phones {x['open_at_kill']} were "
            f"open, {x['back']} of them back, p50 {rc['p50'] / 1000:.1f} s  p95 "
            f"{rc['p95'] / 1000:.1f} s after the kill; {x['open_at_end']} open at the end"
        )
    out.append(
        f"taps: made {r['taps_made']}, sent {r['taps_sent']} ({r['taps_via_http_first']} over "
        f"HTTP first) · acknowledged {r['taps_acknowledged']}, merged {r['taps_merged']} "
        f"({r['taps_merged_in_log']} in the log), refused {r['taps_refused']}"
        f"{' ' + str(r['refusals']) if r['refusals'] else ''}, not applied "
        f"{r['taps_not_applied']}, UNRESOLVED "
        f"{r['taps_unresolved']} ({r['taps_unresolved_in_log']} in the log) after a "
        f"{r['drain_s']} s drain"
    )
    out.append(
        f"event log: acknowledged but MISSING {r['acknowledged_missing']} · told refused or "
        f"not applied but IN the log {r['told_no_but_in_log']}"
    )
    lat = r["tap_to_all_ms"]
    out.append(
        f"tap→all phones ms: p50 {lat['p50']}  p99 {lat['p99']}  max {lat['max']}  "
        f"(n={lat['n']}; {r['taps_not_reaching_all']} acknowledged taps never reached every "
        "phone open when they were sent)"
    )
    frames = r["frames"]
    out.append(
        f"frames of changes pushed to phones {frames['pushed']}: MISSED {frames['missed']}, "
        f"REPEATED or out of order {frames['repeated_or_out_of_order']} (each socket's run of "
        "versions)"
    )
    for shard in r.get("redis_shards", []):
        out.append(
            f"  Redis shard {shard['url']}: PUBLISH {shard['publish']}, "
            f"SUBSCRIBE {shard['subscribe']}; {shard['channels']} channels subscribed at the "
            f"end, {shard['misplaced']} of them NOT on the shard their name hashes to"
        )
    rc = r["reconnect_ms"]
    counts = " · ".join(f"{k} {v}" for k, v in r["counts"].items())
    out.append(f"phones: {counts or 'nothing closed or dropped'}")
    out.append(
        f"  reconnects (closed → open again) {rc['n']}: p50 {rc['p50'] / 1000:.1f} s  "
        f"p95 {rc['p95'] / 1000:.1f} s"
    )
    out += [f"  server log: {line}" for line in r["server_log_problems"][:8]]
    problems = "; ".join(r.get("problems", []))
    out.append(f"result: PROBLEMS: {problems}" if problems else "result: OK")
    return "\n".join(out)
