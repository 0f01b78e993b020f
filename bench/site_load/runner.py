"""One measurement, from an empty database to the report."""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import ssl
import sys
import tempfile
import time
from pathlib import Path

from bench.output import load_average

from .clients import Run, drive
from .cpu import Sampler, stack_groups
from .event import check, make_event, wait_for_worker
from .measure import (
    API_STANDINGS,
    CONFIRM,
    DEAL,
    FRAGMENT,
    KEEP,
    PAGE,
    PATCH,
    RESEND,
    SHEET,
    TARGET_P95_MS,
    TARGETED,
    Stats,
    percentile,
)
from .report import print_report
from .stack import (
    Processes,
    drop_database,
    flush_redis,
    free_port,
    manage,
    postgres_cpu_seconds,
    recreate_database,
    server_env,
    wait_until_serving,
)


def rush_window(run: Run, worker: dict, since: float) -> tuple[float, float] | None:
    """The confirmation rush, in time.monotonic(): from the first keeper opening their link
    (after their game's last deal) to the last confirm form answered, or on to the moment the
    worker's standings were current when that came later (None if it never did)."""
    if run.first_confirming is None or run.last_confirm_answered is None:
        return None
    end = run.last_confirm_answered
    if worker["standings_current_after_s"] is not None:
        end = max(end, since + worker["standings_current_after_s"])
    return run.first_confirming, end


def run_once(args: argparse.Namespace) -> dict:
    """One measurement from an empty database; everything it starts is stopped."""
    logs = Path(tempfile.mkdtemp(prefix="bench358-"))
    env = server_env(args, str(logs / "static"))
    before = load_average()
    print(f"load average {before}; logs and static files in {logs}", flush=True)

    from django.conf import settings
    from django.db import connections

    if settings.configured:  # a run before this one: its connections go with its database
        connections.close_all()
    recreate_database(args.database)
    flush_redis(args.redis)
    if args.cache:
        flush_redis(args.cache)
    manage(env, "migrate")
    manage(env, "collectstatic")

    # This process sets the event up and checks it afterwards through the same settings; its
    # own Celery tasks (pairing the round) run eagerly, here, before the load starts.
    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    import django

    django.setup()
    made = time.monotonic()
    event, tables = make_event(args.tables, args.deals, args.seed)
    print(f"event {event.slug}: {len(tables)} tables in {time.monotonic() - made:.1f} s")

    processes = Processes(logs)
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    try:
        gunicorn = [sys.executable, "-m", "gunicorn", "config.wsgi"]
        gunicorn += ["--bind", f"127.0.0.1:{port}", "--workers", str(args.workers)]
        gunicorn += ["--backlog", "2048", "--timeout", "120", "--keep-alive", "30"]
        if args.threads > 1:
            gunicorn += ["--worker-class", "gthread", "--threads", str(args.threads)]
        processes.start("gunicorn", gunicorn, env)
        celery = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING"]
        celery += [f"--concurrency={args.celery_concurrency}", "--without-gossip"]
        celery += ["--without-mingle", "--without-heartbeat"]
        processes.start("worker", celery, env)
        wait_until_serving(base_url, processes)
        print(f"serving on {base_url}; load for about {args.duration * 1.25:.0f} s", flush=True)

        stats = Stats()
        stats.declare(DEAL, 201)
        stats.declare(RESEND, 200)
        stats.declare(PATCH, 200)
        stats.declare(KEEP, 302)
        stats.declare(PAGE, 200)
        stats.declare(CONFIRM, 302)
        stats.declare(SHEET, 200, 204)
        stats.declare(API_STANDINGS, 200, 304)
        stats.declare(FRAGMENT, 200, 304)
        run = Run(args, event.slug, tables, base_url, stats, asyncio.Event())
        run.tls = ssl.create_default_context()
        cpu_before = resource.getrusage(resource.RUSAGE_SELF)
        # Sampled through the load and the worker's catch-up after it (the rush's end).
        sampler = Sampler(
            stack_groups(
                processes.running["gunicorn"].pid, processes.running["worker"].pid, os.getpid()
            ),
            every=args.cpu_every,
        )
        sampler.start()
        try:
            seconds = asyncio.run(drive(run))
            cpu_after = resource.getrusage(resource.RUSAGE_SELF)
            after_load = load_average()
            processes.check()
            print(f"load done in {seconds:.1f} s; waiting for the worker", flush=True)
            since = run.last_confirmed or time.monotonic()
            worker = wait_for_worker(event, args, since)
        finally:
            sampler.stop()
        sampled = sampler.report(
            {"load": (run.started, run.started + seconds), "rush": rush_window(run, worker, since)}
        )
        builds = list(event.standings.values_list("build_seconds", flat=True))
        worker["builds"] = len(builds)
        worker["build_ms_max"] = round(max(builds) * 1000, 1) if builds else None
        cpu = processes.cpu_seconds()
        cpu["postgres_backends"] = postgres_cpu_seconds(args.database)
        cpu["load_generator"] = round(
            cpu_after.ru_utime + cpu_after.ru_stime - cpu_before.ru_utime - cpu_before.ru_stime, 1
        )
    except BaseException:
        print(f"failed: logs kept in {logs}; database {args.database} left", file=sys.stderr)
        raise
    finally:
        processes.stop()

    checks = check(event, tables)
    endpoints = {name: s.summary() for name, s in stats.series.items() if s.seconds}
    requests = sum(s["count"] for s in endpoints.values())
    lag = sorted(run.lag)
    targets = {
        "errors": {"target": 0, "measured": sum(s["errors"] for s in endpoints.values())},
        "lost or doubled deals": {
            "target": 0,
            "measured": checks["lost_deals"] + checks["doubled_deals"],
        },
        **{
            f"p95 {name}": {
                "target_ms": TARGET_P95_MS,
                "measured_ms": endpoints[name]["p95_ms"],
                "met": endpoints[name]["p95_ms"] < TARGET_P95_MS,
            }
            for name in TARGETED
            if name in endpoints
        },
    }
    for name in ("errors", "lost or doubled deals"):
        targets[name]["met"] = targets[name]["measured"] == 0
    report = {
        "load_average": {"before": before, "after_load": after_load, "after": load_average()},
        "load_seconds": round(seconds, 1),
        "requests": requests,
        "requests_per_s": round(requests / seconds, 1),
        "targets": targets,
        "endpoints": endpoints,
        "checks": checks,
        "worker": worker,
        "cpu_seconds": cpu,
        "cpu": sampled,
        "event_loop_lag_ms": {
            "p50": round(percentile(lag, 50) * 1000, 1),
            "p99": round(percentile(lag, 99) * 1000, 1),
            "max": round(lag[-1] * 1000, 1) if lag else None,
        },
        "timeline": stats.timeline(TARGETED + (SHEET,), bucket=15.0, lag=(run.lag_at, run.lag)),
        "notes": stats.notes,
    }
    print_report(args, report)
    connections.close_all()
    if args.keep_db:
        print(f"database {args.database} kept")
    else:
        drop_database(args.database)
    if targets["errors"]["measured"]:
        print(f"errors answered: the site's logs are kept in {logs}")
    else:
        shutil.rmtree(logs, ignore_errors=True)
    return report
