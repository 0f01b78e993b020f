"""The command line: `python -m bench.publish_rush` (the package's docstring is its --help)."""

from __future__ import annotations

import argparse
import sys

from bench.output import load_average, machine, write
from bench.venue.stack import serve_flags

from . import __doc__ as DESCRIPTION
from .runner import TARGET_P95_MS, rush_once


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.publish_rush",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--backend",
        choices=("pg", "sqlite"),
        action="append",
        help="pg, sqlite, or both (the default); may be given twice",
    )
    parser.add_argument("--quick", action="store_true", help="99 players, 300 requests in 10 s")
    parser.add_argument("--players", type=int, default=999, help="a multiple of 3")
    parser.add_argument("--requests", type=int, default=3000, help="requests a phase")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds a phase spreads over")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds of quiet before a phase")
    parser.add_argument(
        "--wait-seconds",
        type=float,
        default=30.0,
        help="seconds each waiting phase lasts (the phones polling before the publish)",
    )
    parser.add_argument(
        "--next-poll-seconds",
        type=float,
        help="the next-seat page's pace (default: the page's own, VERSION_POLL_SECONDS)",
    )
    parser.add_argument(
        "--wait-repeat", type=int, default=2, help="waiting phases, in turn, of each kind"
    )
    parser.add_argument(
        "--no-held",
        dest="held",
        action="store_false",
        help="no held asks (on SQLite, the venue's server: a held phase and a held publish)",
    )
    serve = serve_flags()  # the venue laptop's gunicorn, as bin/serve starts it
    parser.add_argument(
        "--sqlite-workers",
        type=int,
        default=int(serve["workers"]),
        help="gunicorn processes on SQLite (default: bin/serve's)",
    )
    parser.add_argument(
        "--sqlite-threads",
        type=int,
        default=int(serve["threads"]),
        help="threads of each (default: bin/serve's)",
    )
    parser.add_argument(
        "--pg-workers", type=int, help="gunicorn processes on PostgreSQL (default: site_load's)"
    )
    parser.add_argument("--pg-threads", type=int, help="threads of each (default 4)")
    parser.add_argument("--seed", type=int, default=358)
    parser.add_argument("--out", help="where to write the JSON (default bench/results/...)")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.requests = 99, 300
    args.backend = args.backend or ["pg", "sqlite"]
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    started = load_average()
    backends = {name: rush_once(args, name) for name in args.backend}
    report = {
        "benchmark": "publish_rush",
        "command": "python -m bench.publish_rush" + (" " + " ".join(argv or sys.argv[1:])).rstrip(),
        "machine": machine(),
        "load_average": {"start": started, "end": load_average()},
        "players": args.players,
        "requests_per_phase": args.requests,
        "seconds_per_phase": args.seconds,
        "target_p95_ms": TARGET_P95_MS,
        "backends": backends,
    }
    print(f"\nmachine: {report['machine']}; load average {report['load_average']}")
    for name, figures in backends.items():
        met = all(target["met"] for target in figures["targets"].values())
        print(
            f"{name}: site p95 {figures['phases']['site']['p95_ms']} ms, floor p95"
            f" {figures['phases']['floor']['p95_ms']} ms, ratio"
            f" {figures['ratio_site_p95_to_floor_p95']}; targets {'met' if met else 'MISSED'}"
        )
        waiting = figures["waiting"]
        print(
            f"{name}: {waiting['phones']} phones waiting {waiting['seconds']} s: next-seat polls"
            f" {waiting['next_cpu_s']} CPU s ({waiting['next_polls']} polls), standings polls"
            f" {waiting['standings_cpu_s']} CPU s ({waiting['standings_polls']} polls):"
            f" ratio {waiting['ratio_cpu']}"
        )
        if "held_cpu_s" in waiting:
            held = figures["phases"]["held_publish"]
            print(
                f"{name}: held asks {waiting['held_cpu_ms_per_phone_minute']} CPU ms per phone"
                f" and minute ({waiting['held_polls']} asks, {waiting['held_answers']} held);"
                f" the standings polls {waiting['standings_cpu_ms_per_phone_minute']}, the"
                f" 12 s polls {waiting['next_cpu_ms_per_phone_minute']}: ratio to the"
                f" standings {waiting['ratio_held_per_phone_minute']}; publish to seen"
                f" {held['part_seen_after_commit']}"
            )
    name = "publish_rush-quick.json" if args.quick else "publish_rush.json"
    write(report, name, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
