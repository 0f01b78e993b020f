"""One phase of a run: the burst on the floor views or on the site, measured and checked."""

from __future__ import annotations

import argparse
import asyncio
import resource
import ssl
import time

from bench.output import load_average
from bench.site_load.clients import Run
from bench.site_load.event import check
from bench.site_load.measure import (
    API_STANDINGS,
    CONFIRM,
    DEAL,
    FRAGMENT,
    KEEP,
    PAGE,
    PATCH,
    RESEND,
    SHEET,
    Stats,
    percentile,
)

from . import floor, keepers


def measure(kind: str, args: argparse.Namespace, event, tables, base_url: str) -> dict:
    """Drive one phase ("floor" or "site") against the running stack; its figures."""
    stats = Stats()
    if kind == "floor":
        floor.declare(stats)
        drive = floor.drive
    else:
        for name, *expected in (
            (DEAL, 201),
            (RESEND, 200),
            (PATCH, 200),
            (KEEP, 302),
            (PAGE, 200),
            (CONFIRM, 302),
            (SHEET, 200, 204),
            (API_STANDINGS, 200, 304),
            (FRAGMENT, 200, 304),
        ):
            stats.declare(name, *expected)
        drive = keepers.drive
    run = Run(args, event.slug, tables, base_url, stats, asyncio.Event())
    run.tls = ssl.create_default_context()  # one for every keeper (site_load's clients.keeper)
    before = load_average()
    cpu_before = resource.getrusage(resource.RUSAGE_SELF)
    seconds = asyncio.run(drive(run))
    cpu_after = resource.getrusage(resource.RUSAGE_SELF)
    endpoints = {name: s.summary() for name, s in stats.series.items() if s.seconds}
    lag = sorted(run.lag)
    figures = {
        "phase": kind,
        "load_average": {"before": before, "after": load_average()},
        "seconds": round(seconds, 1),
        "requests": sum(s["count"] for s in endpoints.values()),
        "errors": sum(s["errors"] for s in endpoints.values()),
        "endpoints": endpoints,
        "load_generator_cpu_s": round(
            cpu_after.ru_utime + cpu_after.ru_stime - cpu_before.ru_utime - cpu_before.ru_stime, 1
        ),
        "event_loop_lag_ms": {
            "p50": round(percentile(lag, 50) * 1000, 1),
            "p99": round(percentile(lag, 99) * 1000, 1),
        },
        "notes": stats.notes,
        "_seconds": {name: s.seconds for name, s in stats.series.items()},  # for pooling
    }
    if kind == "site":
        figures["worker"] = wait_for_standings(event, args.catchup_timeout, run.last_confirmed)
        figures["checks"] = check(event, tables)
    return figures


def wait_for_standings(event, timeout: float, since: float) -> dict:
    """Seconds from the last confirmation until the stored standings are current (the
    worker's builds, through the folder broker), or None after `timeout`."""
    from django.db import close_old_connections

    from tournaments.results.selectors import standings_current

    since = since or time.monotonic()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        close_old_connections()
        if standings_current(event) is not None:
            return {"standings_current_after_s": round(time.monotonic() - since, 2)}
        time.sleep(0.2)
    return {"standings_current_after_s": None}
