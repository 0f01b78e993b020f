"""The command line: `python -m bench.door` (the package's docstring is its --help)."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.output import load_average, machine, write
from bench.request_cost.server import TICK_MS, Server
from bench.site_load.stack import (
    Processes,
    drop_database,
    flush_redis,
    manage,
    recreate_database,
    server_env,
)

from . import BARE, FULL
from . import __doc__ as DESCRIPTION
from .held import VenueServer, held_batch

WAYS = ("door", "full", "bare")
SETTLE_SECONDS = 0.05


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.door",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--backend", choices=("sqlite", "pg"), default="sqlite")
    parser.add_argument("--quick", action="store_true", help="100 polls, 1 repeat")
    parser.add_argument("--tables", type=int, default=30, help="tables in play")
    parser.add_argument("--polls", type=int, default=400, help="requests per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="measurements, after a warm-up")
    parser.add_argument("--target-ms", type=float, default=1.0, help="CPU ms a poll at most")
    parser.add_argument("--database", default="bench358_door")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/11", help="the broker (pg)")
    parser.add_argument("--cache", default="redis://127.0.0.1:6379/12", help="the cache (pg)")
    parser.add_argument(
        "--held", action="store_true",
        help="a held question's cost on bin/serve's worker instead (bench/door/held.py)",
    )  # fmt: skip
    parser.add_argument("--phones", type=int, default=200, help="held questions a batch")
    parser.add_argument("--wait", type=int, default=2, help="seconds each held question waits")
    parser.add_argument("--seed", type=int, default=358)
    parser.add_argument("--out", help="where to write the JSON (default bench/results/...)")
    args = parser.parse_args(argv)
    if args.quick:
        args.polls, args.repeat, args.tables, args.phones = 100, 1, 10, 50
    return args


def prepare(args: argparse.Namespace, folder: Path) -> dict[str, str]:
    """A fresh database, migrated; the static files collected; Django set up here."""
    env = server_env(args, str(folder / "static"))
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    if args.backend == "pg":
        recreate_database(args.database)
        flush_redis(args.redis)
        flush_redis(args.cache)
    else:  # bin/serve's stack: a SQLite file (WAL), the file cache, the folder broker
        env["DATABASE_URL"] = f"sqlite:///{folder / 'db.sqlite3'}"
        env["DJANGO_CACHE_URL"] = f"file://{folder / 'cache'}"
        env["ALLOW_LOCAL_BROKER"] = "1"
        env.pop("CELERY_BROKER_URL", None)
    manage(env, "migrate")
    manage(env, "collectstatic")
    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"  # the setup's builds, here, before measuring
    import django

    django.setup()
    return env


def sheet_unchanged(games: list[tuple[int, int]]) -> dict:
    """The watchers' sheet at the version it shows, game after game: a 204."""

    def make(i: int) -> tuple[str, dict]:
        game, version = games[i % len(games)]
        return f"games/{game}/sheet/?v={version}", {}

    return {"what": "sheet poll, unchanged (204)", "expect": 204, "make": make}


def kinds(server: Server, slug: str, games: list[tuple[int, int]]) -> dict:
    """Each kind: its i-th request (path, headers), to which each way puts its prefix."""
    status, headers, version = server.request("GET", f"/events/{slug}/next/version/")
    if status != 200:
        raise RuntimeError(f"the version poll answered {status}")
    tag = headers["etag"]
    return {
        "sheet_unchanged": sheet_unchanged(games),
        "next_seat_version_unchanged": {
            "what": "My next seat's version, unchanged (304)",
            "expect": 304,
            "make": lambda i: (f"events/{slug}/next/version/", {"If-None-Match": tag}),
        },
    }


def measure(server: Server, kind: dict, way: str, count: int) -> dict:
    statuses: dict[int, int] = {}
    time.sleep(SETTLE_SECONDS)
    started_cpu, started = server.cpu(), time.perf_counter()
    for i in range(count):
        path, headers = kind["make"](i)
        path = {"door": "/", "full": FULL, "bare": BARE}[way] + (path if way != "bare" else "")
        status, _, _ = server.request("GET", path, headers)
        statuses[status] = statuses.get(status, 0) + 1
    wall = time.perf_counter() - started
    time.sleep(SETTLE_SECONDS)
    used = server.cpu() - started_cpu
    return {
        "cpu_ms": round(used.ns / 1e6 / count, 3),
        "cpu_ms_ticks": round(used.ticks * TICK_MS / count, 3),
        "wall_ms": round(wall * 1000 / count, 3),
        "statuses": {str(s): n for s, n in sorted(statuses.items())},
    }


def summary(kind: dict, runs: dict[str, list[dict]], target: float) -> dict:
    ms = {way: statistics.median(run["cpu_ms"] for run in runs[way]) for way in WAYS}
    wrong = sum(
        n for run in runs["door"] + runs["full"] for s, n in run["statuses"].items()
        if int(s) != kind["expect"]
    )  # fmt: skip
    return {
        "what": kind["what"],
        **{f"{way}_cpu_ms": round(ms[way], 3) for way in WAYS},
        "door_over_full": round(ms["door"] / ms["full"], 2),
        "saved_percent": round(100 * (1 - ms["door"] / ms["full"]), 1),
        "door_over_bare": round(ms["door"] / ms["bare"], 2),
        "target_ms": target,
        "met": ms["door"] <= target,
        "unexpected_statuses": wrong,
        "runs": runs,
    }


def held(args: argparse.Namespace, server: Server, games: list[tuple[int, int]]) -> dict:
    """A held question (a batch of --phones at once) against the plain poll and the bare 204
    on bin/serve's worker, alternating, --repeat times after a warm-up; medians compared."""
    plain = sheet_unchanged(games)
    runs: dict[str, list[dict]] = {"held": [], "door": [], "bare": []}
    for repeat in range(args.repeat + 1):
        figures = {
            "held": held_batch(server, games, args.phones, args.wait),
            "door": measure(server, plain, "door", args.polls),
            "bare": measure(server, plain, "bare", args.polls),
        }
        if repeat:
            for way, figure in figures.items():
                runs[way].append(figure)
        print(f"repeat {repeat or 'warm-up'} done; load average {load_average()}", flush=True)
    ms = {way: statistics.median(run["cpu_ms"] for run in runs[way]) for way in runs}
    wrong = sum(
        n for run in runs["held"] + runs["door"] for s, n in run["statuses"].items() if s != "204"
    )
    what = f"sheet held {args.wait} s, unchanged (204 at its deadline), {args.phones} at once"
    return {
        "held_question": {
            "what": what,
            "held_cpu_ms": round(ms["held"], 3),
            "plain_cpu_ms": round(ms["door"], 3),
            "bare_cpu_ms": round(ms["bare"], 3),
            "held_over_plain": round(ms["held"] / ms["door"], 2),
            "target_ms": args.target_ms,
            "met": ms["held"] <= args.target_ms,
            "unexpected_statuses": wrong,
            "runs": runs,
        }
    }


def run(args: argparse.Namespace) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="bench358-door-"))
    load = {"start": load_average()}
    env = prepare(args, folder)
    from bench.request_cost.event import make_event

    event, tables = make_event(args.tables, 3, args.seed)
    games = [(table.game_id, table.version) for table in tables]
    processes = Processes(folder)
    try:
        if args.held:
            results = held(args, VenueServer(processes, env, wsgi="bench.door.wsgi"), games)
        else:
            results = polls(args, Server(processes, env, wsgi="bench.door.wsgi"), event, games)
        processes.check()
    finally:
        processes.stop()
    load["end"] = load_average()
    from django.db import connections

    connections.close_all()
    if args.backend == "pg":
        drop_database(args.database)
        flush_redis(args.redis)
        flush_redis(args.cache)
    shutil.rmtree(folder, ignore_errors=True)
    return {"load_average": load, "results": results}


def polls(args: argparse.Namespace, server: Server, event, games: list[tuple[int, int]]) -> dict:
    """Each kind at the door, past it and bare, alternating, --repeat times after a warm-up."""
    measured = kinds(server, event.slug, games)
    runs = {name: {way: [] for way in WAYS} for name in measured}
    for repeat in range(args.repeat + 1):  # the first warms the worker and is not kept
        for name, kind in measured.items():
            order = WAYS if repeat % 2 == 0 else tuple(reversed(WAYS))
            for way in order:
                figures = measure(server, kind, way, args.polls)
                if repeat:
                    runs[name][way].append(figures)
        print(f"repeat {repeat or 'warm-up'} done; load average {load_average()}", flush=True)
    return {name: summary(kind, runs[name], args.target_ms) for name, kind in measured.items()}


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    measured = run(args)
    stack = {
        "sqlite": {"database": "SQLite (WAL, a file)", "cache": "files"},
        "pg": {"database": "PostgreSQL (loopback)", "cache": args.cache},
    }[args.backend]
    report = {
        "benchmark": "door",
        "command": "python -m bench.door" + (" " + " ".join(argv or sys.argv[1:])).rstrip(),
        "machine": machine(),
        "server": {"gunicorn": "1 sync worker, production settings", **stack},
        "tables": args.tables,
        "polls": args.polls,
        "repeat": args.repeat,
        **measured,
    }
    if args.held:
        server_line = "1 process of bin/serve's gunicorn (config.gunicorn_venue)"
        report["server"]["gunicorn"] = server_line
        r = report["results"]["held_question"]
        print(f"\n{r['what']}: {r['held_cpu_ms']} ms a question")
        print(f"the plain poll {r['plain_cpu_ms']} ms, bare {r['bare_cpu_ms']} ms")
        print(f"held ÷ plain {r['held_over_plain']}; {'met' if r['met'] else 'MISSED'}")
        print(f"unexpected statuses: {r['unexpected_statuses']}")
    print(f"\n{'request':<42} {'door':>6} {'full':>6} {'bare':>6} {'door÷full':>9}  ≤ target")
    for r in report["results"].values() if not args.held else ():
        print(
            f"{r['what']:<42} {r['door_cpu_ms']:>6} {r['full_cpu_ms']:>6} {r['bare_cpu_ms']:>6}"
            f" {r['door_over_full']:>9}  {'met' if r['met'] else 'MISSED'}"
            f" (unexpected statuses: {r['unexpected_statuses']})"
        )
    print(f"load average {report['load_average']}")
    name = (
        f"door-{args.backend}" + ("-held" if args.held else "") + ("-quick" if args.quick else "")
    )
    write(report, f"{name}.json", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
