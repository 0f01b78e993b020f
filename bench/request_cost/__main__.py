"""The command line: `python -m bench.request_cost` (the package's docstring is its --help)."""

from __future__ import annotations

import argparse
import sys

from bench.output import machine, write

from . import __doc__ as DESCRIPTION
from .runner import run


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.request_cost",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="10 tables, 100 polls, 1 repeat")
    parser.add_argument("--tables", type=int, default=30, help="tables in play (one is spare)")
    parser.add_argument("--deals", type=int, default=3, help="deals at each table before")
    parser.add_argument("--polls", type=int, default=400, help="requests per measurement of a poll")
    parser.add_argument(
        "--repeat", type=int, default=3, help="measurements of each, after a warm-up"
    )
    parser.add_argument("--target", type=float, default=2.0, help="site ÷ floor at most")
    parser.add_argument("--profile", type=int, default=50, help="requests profiled (0: none)")
    parser.add_argument("--only", help="the requests measured, by name: deal,table")
    parser.add_argument(
        "--without-templates",
        action="store_true",
        help="render every template as an empty string (bench/request_cost/untemplated.py)",
    )
    parser.add_argument("--database", default="bench358_cost")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/11", help="the broker")
    parser.add_argument("--cache", default="redis://127.0.0.1:6379/12", help="the Django cache")
    parser.add_argument("--seed", type=int, default=358)
    parser.add_argument("--out", help="where to write the JSON (default bench/results/...)")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.polls, args.repeat, args.profile = 10, 100, 1, 20
    return args


def print_report(report: dict) -> None:
    print(f"\n{'request':<46} {'site ms':>8} {'floor ms':>9} {'ratio':>6}  {'≤ 2×':<5} queries")
    for r in report["results"].values():
        met = "met" if r["met"] else "MISSED"
        print(
            f"{r['what']:<46} {r['site_cpu_ms']:>8} {r['floor_cpu_ms']:>9} {r['ratio']!s:>6}"
            f"  {met:<6} {r['queries']}"
        )
    print(f"load average {report['load_average']}")
    for name, p in report["profiles"].items():
        print(f"\nprofile of {name}: {p['total_ms_per_request']} ms a request under cProfile")
        for where, ms in p["own_time_by_area_ms"].items():
            print(f"  {ms:>7} ms own  {where}")
        for row in p["app_functions_by_cumulative_ms"][:12]:
            print(f"  {row['cumulative_ms']:>7} ms cum  {row['function']}")
        for row in p["inner_functions_by_cumulative_ms"][:12]:
            print(f"  {row['cumulative_ms']:>7} ms cum  {row['function']}")
        for row in p["functions_by_own_ms"][:10]:
            print(f"  {row['own_ms']:>7} ms own  {row['function']}")


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    measured = run(args)
    report = {
        "benchmark": "request_cost",
        "command": "python -m bench.request_cost" + (" " + " ".join(argv or sys.argv[1:])).rstrip(),
        "machine": machine(),
        "server": {
            "gunicorn": "1 sync worker, production settings (DJANGO_DEBUG=0)",
            "settings": "bench.floor.settings",
            "templates": "none: each rendered as ''" if args.without_templates else "the site's",
            "database": "PostgreSQL (loopback)",
            "cache": args.cache,
        },
        "tables": args.tables,
        "deals_before": args.deals,
        "polls": args.polls,
        "repeat": args.repeat,
        **measured,
    }
    print_report(report)
    name = "request_cost-quick.json" if args.quick else "request_cost.json"
    write(report, name, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
