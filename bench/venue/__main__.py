"""The command line: `python -m bench.venue` (the package's docstring is its --help)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench.output import load_average, machine, write

from . import __doc__ as DESCRIPTION
from . import stack
from .phases import measure
from .report import print_phase, print_summary, summary
from .warm import warm


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.venue",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="20 tables, 40 phones")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--deals", type=int, default=9, help="hands per game (default 9)")
    parser.add_argument("--think", type=float, default=0.1, help="seconds between a table's deals")
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between a phone's polls")
    parser.add_argument("--resend", type=float, default=0.02, help="share of deals sent twice")
    parser.add_argument("--fragment-share", type=float, default=0.5)
    parser.add_argument("--repeat", type=int, default=2, help="floor and site phases, N times")
    parser.add_argument("--catchup-timeout", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=358)
    parser.add_argument("--workers", help="gunicorn workers instead of bin/serve's (to explore)")
    parser.add_argument("--threads", help="gthread threads instead of bin/serve's (to explore)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--out", help="where to write the JSON (default bench/results/...)")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.phones = 20, 40
    args.duration = args.think * args.deals  # what bench.site_load.clients paces a game by
    return args


def make_events(env: dict[str, str], args: argparse.Namespace) -> list:
    """One event a repeat, made in this process on the run's database before the stack
    starts (the round's pairing runs eagerly, here: the setup is not what is measured)."""
    from bench.site_load.event import make_event

    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    import django

    django.setup()
    return [make_event(args.tables, args.deals, args.seed + n) for n in range(args.repeat)]


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-venue-"))
    env, flags = stack.venue_env(folder), stack.serve_flags()
    flags.update(
        {name: getattr(args, name) for name in ("workers", "threads") if getattr(args, name)}
    )
    print(f"load average {load_average()}; temporary folder {folder}; bin/serve: {flags}")
    stack.prepare(env)
    made = time.monotonic()
    events = make_events(env, args)
    print(f"{args.repeat} events of {args.tables} tables in {time.monotonic() - made:.1f} s")
    processes, base_url = stack.start(folder, env, flags)
    phases = []
    try:
        warm(base_url, events[0][0].slug, [table.game_id for table in events[0][1]])
        for n, (event, tables) in enumerate(events):
            for kind in ("floor", "site") if n % 2 == 0 else ("site", "floor"):
                phases.append(measure(kind, args, event, tables, base_url))
                print_phase(n + 1, phases[-1])
                processes.check()
        cpu = processes.cpu_seconds()
    finally:
        processes.stop()
    result = summary(phases)
    result["worker_restarts"] = stack.worker_restarts(folder)
    print_summary(result, machine())
    report = {
        "benchmark": "venue",
        "command": "python -m bench.venue" + (" " + " ".join(argv or sys.argv[1:])).rstrip(),
        "machine": machine(),
        "load_average_after": load_average(),
        "server": {
            "gunicorn_workers": int(flags["workers"]),
            "gunicorn_threads": int(flags["threads"]),
            "worker": f"celery --beat --pool={flags['pool']}",
            "database": "SQLite file (WAL)",
            "broker": "folders (kombu filesystem)",
            "cache": "file-based",
        },
        "tables": args.tables,
        "phones": args.phones,
        "deals_hands": args.deals,
        "think_s": args.think,
        "poll_s": args.poll,
        "cpu_seconds": cpu,
        "summary": result,
        "phases": [{k: v for k, v in p.items() if k != "_seconds"} for p in phases],
    }
    write(report, f"venue{'-quick' if args.quick else ''}.json", args.out)
    if args.keep or result["errors"]:
        print(f"kept: {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
