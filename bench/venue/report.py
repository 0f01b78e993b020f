"""The figures: deals against the floor's writes, pooled over the repeats, and the checks."""

from __future__ import annotations

from bench.site_load.measure import DEAL, percentile

from .floor import READ, WRITE

TARGET_DEAL_P95_MS = 150.0


def figures(seconds: list[float]) -> dict:
    ordered = sorted(seconds)
    return {
        "count": len(ordered),
        **{f"p{q}_ms": round(percentile(ordered, q) * 1000, 1) for q in (50, 95, 99)},
        "max_ms": round(ordered[-1] * 1000, 1) if ordered else None,
    }


def pooled(phases: list[dict], kind: str, name: str) -> dict:
    return figures([s for p in phases if p["phase"] == kind for s in p["_seconds"].get(name, [])])


def summary(phases: list[dict]) -> dict:
    """Deals and writes pooled over every repeat, the ratio, errors, lost and doubled."""
    deals, writes = pooled(phases, "site", DEAL), pooled(phases, "floor", WRITE)
    site = [p for p in phases if p["phase"] == "site"]
    lost = sum(p["checks"]["lost_deals"] for p in site)
    doubled = sum(p["checks"]["doubled_deals"] for p in site)
    errors = sum(p["errors"] for p in phases)
    return {
        "deals_site": deals,
        "writes_floor": writes,
        "reads_floor": pooled(phases, "floor", READ),
        "ratio_p95_site_over_floor": round(deals["p95_ms"] / writes["p95_ms"], 2),
        "errors": errors,
        "lost_deals": lost,
        "doubled_deals": doubled,
        "games_not_as_sent": sum(p["checks"]["games_not_as_sent"] for p in site),
        "games_not_confirmed": sum(p["checks"]["games_not_confirmed"] for p in site),
        "standings_equal_fresh_build": all(
            p["checks"]["standings_equal_fresh_build"] for p in site
        ),
        "targets": {
            "errors 0": errors == 0,
            "lost or doubled 0": lost + doubled == 0,
            # Retired: a closed loop's latency is the queue its own clients build
            # (Little's law); capacity is bench.capacity's open-loop staircase. Still shown.
            f"deal p95 < {TARGET_DEAL_P95_MS:.0f} ms (retired: see bench.capacity)": deals["p95_ms"]
            < TARGET_DEAL_P95_MS,
        },
    }


def print_phase(number: int, phase: dict) -> None:
    print(
        f"\nrun {number}, {phase['phase']}: {phase['seconds']} s, {phase['requests']} requests,"
        f" load average {phase['load_average']['before']} -> {phase['load_average']['after']},"
        f" loop lag p99 {phase['event_loop_lag_ms']['p99']} ms"
    )
    for name, s in phase["endpoints"].items():
        errors = f"  errors {s['errors_by_status']}" if s["errors"] else ""
        print(
            f"  {name:<40} {s['count']:>6} p50 {s['p50_ms']:>7} p95 {s['p95_ms']:>7}"
            f" p99 {s['p99_ms']:>7} max {s['max_ms']!s:>8}{errors}"
        )
    if "checks" in phase:
        c = phase["checks"]
        print(
            f"  deals sent {c['deals_sent']}, stored {c['deals_stored_live']}; lost"
            f" {c['lost_deals']}, doubled {c['doubled_deals']}, not as sent"
            f" {c['games_not_as_sent']}, not confirmed {c['games_not_confirmed']}; standings"
            f" equal a fresh build: {c['standings_equal_fresh_build']}; worker {phase['worker']}"
        )
    for note in phase["notes"][:5]:
        print(f"  note: {note}")


def print_summary(result: dict, machine: dict) -> None:
    deals, writes = result["deals_site"], result["writes_floor"]
    print(f"\nmachine: {machine['nproc']} x {machine['cpu']}, {machine['memory_gib']} GiB")
    for label, f in (("deals (site)", deals), ("writes (floor)", writes)):
        print(
            f"{label:<15} {f['count']:>6}  p50 {f['p50_ms']:>7}  p95 {f['p95_ms']:>7}"
            f"  p99 {f['p99_ms']:>7} ms"
        )
    print(
        f"ratio site p95 / floor p95: {result['ratio_p95_site_over_floor']}; errors"
        f" {result['errors']}, lost {result['lost_deals']}, doubled {result['doubled_deals']};"
        f" worker restarted {result['worker_restarts']['count']} times"
        f" {result['worker_restarts']['errors'] or ''}"
    )
    for name, met in result["targets"].items():
        print(f"target {name}: {'met' if met else 'MISSED'}")
