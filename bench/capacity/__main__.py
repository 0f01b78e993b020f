"""The command line: `python -m bench.capacity` (the package's docstring is its --help)."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.output import load_average, machine, write
from bench.site_load.stack import ROOT

from . import __doc__ as DESCRIPTION
from . import plan

STAGES = "100,200,400,600,800,1000,1200,1600,2000,2400"
#: The targets (docs/performance.md, "Capacity").
TARGET_RATIO = 1.0
TARGET_VENUE_TABLES = 2000
TARGET_UNCHANGED_POLL_MS = 1.0


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.capacity",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--stack", choices=("venue", "pg", "both"), default="both")
    parser.add_argument("--stages", default=STAGES, help=f"tables per stage (default {STAGES})")
    parser.add_argument("--seconds", type=float, default=60.0, help="each phase of a stage")
    parser.add_argument("--stress", action="store_true", help="a deal every 10 s, not 60 s")
    parser.add_argument("--deal-every", type=float, help="seconds between a keeper's deals")
    parser.add_argument("--sheet-every", type=float, default=5.0)
    parser.add_argument("--standings-every", type=float, default=10.0)
    parser.add_argument("--sheet-wait", type=int, default=0, metavar="SECONDS",
                        help="the watchers' sheet polls ask to be held this long, as the"
                        " table page asks (0: plain polls)")  # fmt: skip
    parser.add_argument("--spread-first-questions", action="store_true",
                        help="with --sheet-wait: each phone's first question waits a random"
                        " part of the wait, as in a steady evening (default: all phones start"
                        " within the first period)")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=10.0, help="a request's, seconds")
    parser.add_argument("--pause", type=float, default=5.0, help="seconds of quiet before a phase")
    parser.add_argument("--cost-rate", type=float, default=50.0,
                        help="requests a second of the cost pass (0: none)")  # fmt: skip
    parser.add_argument("--cost-seconds", type=float, default=10.0)
    parser.add_argument("--cores", type=float, default=2.0, help="of the CPU model")
    parser.add_argument("--utilisation", type=float, default=0.8, help="of the CPU model")
    parser.add_argument("--no-stop", dest="stop_after_fail", action="store_false",
                        help="run every stage, also after both phases failed one")  # fmt: skip
    parser.add_argument("--sync-workers", type=int, metavar="N",
                        help="a trial: N sync gunicorn workers, not the stack's")  # fmt: skip
    parser.add_argument("--keep-alive", type=float, metavar="SECONDS",
                        help="a trial: gunicorn's keep-alive, not bin/serve's")  # fmt: skip
    parser.add_argument("--server", choices=["gunicorn", "granian"], default="gunicorn",
                        help="a trial: granian serving the application, not gunicorn")  # fmt: skip
    parser.add_argument("--fresh-connections", action="store_true",
                        help="a new connection a request, whatever the server keeps")  # fmt: skip
    parser.add_argument("--seed", type=int, default=358)
    parser.add_argument("--quick", action="store_true", help="stages 10,20 of 20 s: a smoke run")
    parser.add_argument("--out", help="where to write the JSON (default bench/results/...)")
    args = parser.parse_args(argv)
    if args.quick:
        args.stages, args.seconds, args.cost_seconds = "10,20", 20.0, 5.0
    args.stages = [int(t) for t in str(args.stages).split(",")]
    deal_every = args.deal_every or (10.0 if args.stress else 60.0)
    args.pace = plan.Pace(
        deal_every, args.sheet_every, args.standings_every, sheet_wait=args.sheet_wait
    )
    return args


def summarise(part: dict, args: argparse.Namespace) -> dict:
    """Largest passing T of product and floor, their ratio, and the CPU model."""
    stages = part["stages"]
    largest = {
        name: plan.largest_passing([(s["tables"], s[name]["verdict"]) for s in stages if name in s])
        for name in ("product", "floor")
    }
    model = {}
    for name in ("product", "floor"):
        # The CPU a table costs, from the passing stages; when none passed, from the valid
        # ones (an overloaded server still did the work, if late).
        entry = {}
        for basis in ("passed", "valid"):
            measured = [
                s[name]["server_ms_per_table_second"]
                for s in stages
                if name in s and s[name]["verdict"][basis]
            ]
            if measured:
                per_table = statistics.median(measured)
                entry["staircase_ms_per_table_second"] = round(per_table, 3)
                entry["staircase_tables"] = plan.tables_on(args.cores, args.utilisation, per_table)
                entry["staircase_from"] = f"{basis} stages"
                break
        costs = part.get("costs", {}).get(name)
        if costs and all(costs[k]["cpu_ms"] for k in plan.KINDS):
            per_request = {k: costs[k]["cpu_ms"] for k in plan.KINDS}
            per_table = plan.cpu_ms_per_table_second(per_request, args.pace)
            entry["cost_ms_per_table_second"] = round(per_table, 3)
            entry["cost_tables"] = plan.tables_on(args.cores, args.utilisation, per_table)
        model[name] = entry
    summary = {
        "largest_passing": largest,
        "ratio_product_over_floor": plan.ratio(largest["product"], largest["floor"]),
        "ratio_reading": plan.ratio_reading(largest["product"], largest["floor"]),
        "cpu_model": {"cores": args.cores, "utilisation": args.utilisation, **model},
    }
    ratio = summary["ratio_product_over_floor"]
    readable = summary["ratio_reading"] in ("exact", "at least")
    targets = {
        f"product ≥ {TARGET_RATIO} × floor": readable
        and ratio is not None
        and ratio >= TARGET_RATIO
    }
    # The cost pass's model counts plain polls at their pace: with held sheets, the stages'
    # own CPU a table says what a table costs.
    tables = model["product"].get("staircase_tables")
    if not args.pace.sheet_wait:
        tables = model["product"].get("cost_tables", tables)
    if part["stack"] == "venue":
        targets[f"≥ {TARGET_VENUE_TABLES} tables by the CPU model"] = (
            tables is not None and tables >= TARGET_VENUE_TABLES
        )
    product_costs = part.get("costs", {}).get("product", {})
    for kind, what in ((plan.SHEET, "sheet poll (204)"), (plan.STANDINGS, "standings poll (304)")):
        poll = product_costs.get(kind, {}).get("gunicorn_cpu_ms")
        targets[f"unchanged {what} ≤ {TARGET_UNCHANGED_POLL_MS} ms gunicorn CPU"] = (
            poll is not None and poll <= TARGET_UNCHANGED_POLL_MS
        )
    summary["targets"] = targets
    # What no request can cost less than on this stack: gunicorn alone (runner.cost_pass).
    alone = part.get("costs", {}).get("gunicorn_alone", {})
    summary["gunicorn_alone_cpu_ms"] = alone.get("gunicorn_cpu_ms")
    return summary


def print_summary(name: str, summary: dict) -> None:
    largest = summary["largest_passing"]
    print(f"\n{name}: largest T passing (p95 < {plan.TARGET_P95_MS:.0f} ms, 0 errors):")
    for phase, found in largest.items():
        more = " (no stage failed: at least)" if found["censored"] else ""
        more += (
            " (stopped by an INVALID stage: the generator saturated)" if found["invalid"] else ""
        )
        print(f"  {phase:<8} {found['tables']}{more}")
    print(
        f"  ratio product / floor: {summary['ratio_product_over_floor']}"
        f" ({summary['ratio_reading']})"
    )
    print(f"  CPU model: {summary['cpu_model']}")
    alone = summary.get("gunicorn_alone_cpu_ms")
    if alone is not None:
        print(f"  gunicorn alone (a bare answer): {alone} ms CPU a request")
    for target, met in summary["targets"].items():
        print(f"  target {target}: {'met' if met else 'MISSED'}")


def run_part(name: str, args: argparse.Namespace, argv: list[str]) -> dict:
    """One stack in a process of its own (Django is set up once a process, on one database)."""
    if name == "pg":
        from .stacks import pg_missing

        missing = pg_missing()
        if missing:
            print(f"pg: skipped: {missing}")
            return {"stack": "pg", "skipped": missing}
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [sys.executable, "-u", "-m", "bench.capacity", *argv, "--stack", name, "--part"]
        subprocess.run([*command, out.name], cwd=ROOT, check=True)
        return json.loads(Path(out.name).read_text())


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    part_out = None
    if "--part" in argv:  # a stack's run, in the process run_part started
        at = argv.index("--part")
        part_out, argv = argv[at + 1], argv[:at] + argv[at + 2 :]
    args = parse(argv)
    if part_out:
        from .runner import run

        part = run(args.stack, args)
        part["summary"] = summarise(part, args)
        Path(part_out).write_text(json.dumps(part))
        return 0
    start = load_average()
    names = ("venue", "pg") if args.stack == "both" else (args.stack,)
    without = [a for a in argv if not a.startswith("--stack") and a not in names]
    parts = [run_part(name, args, without) for name in names]
    report = {
        "benchmark": "capacity",
        "command": "python -m bench.capacity" + (" " + " ".join(argv)).rstrip(),
        "machine": machine(),
        "load_average": {"start": start, "end": load_average()},
        "pace": vars(args.pace),
        "target_p95_ms": plan.TARGET_P95_MS,
        "seconds_per_phase": args.seconds,
        "stacks": {part["stack"]: part for part in parts},
    }
    for part in parts:
        if "summary" in part:
            print_summary(part["stack"], part["summary"])
    default = f"capacity{'-stress' if args.stress else ''}{'-quick' if args.quick else ''}.json"
    write(report, default, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
