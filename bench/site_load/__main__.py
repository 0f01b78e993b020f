"""The command line: `python -m bench.site_load` (the package's docstring is its --help)."""

from __future__ import annotations

import argparse
import os
import sys

from bench.output import machine, write

from . import __doc__ as DESCRIPTION
from .runner import run_once


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.site_load",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="30 tables, 90 phones, 30 s")
    parser.add_argument("--tables", type=int, default=333)
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=9, help="hands per game (default 9)")
    parser.add_argument(
        "--duration", type=float, default=120.0, help="seconds a table takes for its game"
    )
    parser.add_argument("--poll", type=float, default=10.0, help="seconds between a phone's polls")
    parser.add_argument("--resend", type=float, default=0.02, help="share of deals sent twice")
    parser.add_argument(
        "--fragment-share",
        type=float,
        default=0.5,
        help="share of phones polling the standings page's fragment (the rest: the API)",
    )
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--threads", type=int, default=4, help="gthread threads per worker")
    parser.add_argument("--celery-concurrency", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="measure this many times over")
    parser.add_argument("--database", default="bench358")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument(
        "--cache",
        default="redis://127.0.0.1:6379/13",
        help='the Django cache the site shares (DJANGO_CACHE_URL, flushed); "" for local memory',
    )
    parser.add_argument("--catchup-timeout", type=float, default=600.0)
    parser.add_argument(
        "--cpu-every",
        type=float,
        default=2.0,
        help="seconds between the /proc CPU samples of the stack (default 2)",
    )
    parser.add_argument("--seed", type=int, default=358)
    parser.add_argument("--keep-db", action="store_true", help="leave the database afterwards")
    parser.add_argument("--out", help="where to write the JSON (default bench/results/...)")
    args = parser.parse_args(argv)
    if args.cpu_every <= 0:
        parser.error("--cpu-every must be more than 0")
    if args.quick:
        args.tables, args.phones, args.duration = 30, 90, 30.0
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    runs = [run_once(args) for _ in range(args.repeat)]
    report = {
        "benchmark": "site_load",
        "command": "python -m bench.site_load" + (" " + " ".join(argv or sys.argv[1:])).rstrip(),
        "machine": machine(),
        "server": {
            "gunicorn_workers": args.workers,
            "gunicorn_threads": args.threads,
            "celery_concurrency": args.celery_concurrency,
            "database": "PostgreSQL (loopback)",
            "broker": "Redis (loopback)",
            "cache": args.cache or "local memory in each process",
        },
        "tables": args.tables,
        "phones": args.phones,
        "deals_hands": args.deals,
        "poll_s": args.poll,
        "duration_s": args.duration,
        "fragment_share": args.fragment_share,
        "runs": runs,
    }
    write(report, "site_load-quick.json" if args.quick else "site_load.json", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
