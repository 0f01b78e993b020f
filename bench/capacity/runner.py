"""One stack's run: the event, the recipes, the stack, the staircase, the cost pass."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench.output import load_average
from bench.venue import stack as venue_stack
from bench.venue.warm import warm

from . import plan, recipes, stacks
from .load import Keeper, Phase, Phone, drive

TICK = os.sysconf("SC_CLK_TCK")
#: Hands per game: no game of the run ends (a stress staircase posts a deal every 10 s).
HANDS = 500


def setup(env: dict[str, str], args: argparse.Namespace):
    """Django in this process on the run's database; the event (one table more than the
    largest stage: the spare the recipes are captured on)."""
    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"  # the setup's pairing, here
    import django

    django.setup()
    from bench.site_load.event import make_event

    return make_event(max(args.stages) + 1, HANDS, args.seed)


def make_keepers(tables, seed: int, pace: plan.Pace) -> list[Keeper]:
    import engine

    keepers = []
    for table in tables:
        record = {"ruleset": table.ruleset, "options": table.options, "deals": []}
        game = engine.game_from_record({**record, "first_dealer": table.first_dealer})
        keeper = Keeper(table.game_id, table.secret, game, random.Random(seed + table.number))
        keeper.sheet = [Phone() for _ in range(pace.sheet_phones)]
        keeper.standings = [Phone() for _ in range(pace.standings_phones)]
        keepers.append(keeper)
    return keepers


def phones_current(keepers: list[Keeper], etag: str | None) -> None:
    """Before a phase, every phone shows what is current, as phones polling all along do."""
    from django.db import connections

    from scoring.models import Game

    versions = dict(
        Game.objects.filter(pk__in=[k.game_id for k in keepers]).values_list("pk", "version")
    )
    connections.close_all()
    for keeper in keepers:
        for phone in keeper.sheet:
            phone.version, phone.seen = versions[keeper.game_id], keeper.floor_deals
        for phone in keeper.standings:
            phone.etag = etag


def deals_check(keepers: list[Keeper]) -> dict:
    """Every deal the site acknowledged is stored once (lost: acknowledged and missing;
    doubled: a number stored twice; unacknowledged: stored though its answer never came,
    to be sent again)."""
    from django.db import connections

    from scoring.models import DealEntry

    ids = [k.game_id for k in keepers]
    numbers = defaultdict(list)
    live = DealEntry.objects.filter(game_id__in=ids, undone_at=None)
    for game_id, number in live.values_list("game_id", "number"):
        numbers[game_id].append(number)
    connections.close_all()
    lost = doubled = unacknowledged = 0
    for keeper in keepers:
        stored = numbers[keeper.game_id]
        lost += len(set(range(1, keeper.acked + 1)) - set(stored))
        doubled += len(stored) - len(set(stored))
        unacknowledged += len({n for n in stored if n > keeper.acked})
    return {
        "acknowledged": sum(k.acked for k in keepers),
        "lost": lost,
        "doubled": doubled,
        "stored_unacknowledged": unacknowledged,
    }


def warm_replays(base_url: str, names: list[str], rounds: int = 4) -> None:
    """Every gunicorn thread reads the recipes once before anything counts."""
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    def get(name: str) -> None:
        try:
            httpx.get(f"{base_url}/bench-floor/replay/{name}/", timeout=30)
        except httpx.HTTPError:
            pass

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(get, names * 16 * rounds))


def fragment_etag(base_url: str, slug: str) -> str | None:
    import httpx

    return httpx.get(f"{base_url}/events/{slug}/standings/live/", timeout=30).headers.get("etag")


def run_phase(name, arrivals, keepers, base_url, slug, args, groups, table_count,
              warm_up=None, sheet_wait=0) -> dict:  # fmt: skip
    """One phase; first a pause, so that what an overloaded phase left queued in the server
    is done before this one's CPU is counted (and `warm_up`'s arrivals, not counted). With
    `sheet_wait`, the product's sheet polls ask to be held (plan.Pace.sheet_wait)."""
    time.sleep(args.pause)
    host, port = base_url.removeprefix("http://").split(":")
    phones_current(keepers, fragment_etag(base_url, slug))
    before, after = {}, {}
    tally = stacks.Tally(groups)

    def counting() -> None:
        before.update(tally.start())

    # Held questions outlast the schedule by up to their wait, while no phone sends anything
    # new: no evening has that tail, so with held sheets the CPU is counted over the
    # schedule's seconds (long phases: a phone's first question, asked at a random point of
    # its first period, is the only one a steady evening would not have; with
    # --spread-first-questions its wait is cut as if asked before the phase began).
    counted = None
    if sheet_wait and name == "product":
        counted = (args.seconds, lambda: after.update(tally.finish()))
    phase = Phase(name, host, int(port), slug, keepers, args.timeout,
                  not args.fresh_connections, sheet_wait,
                  getattr(args, "spread_first_questions", False))  # fmt: skip
    settle = args.pace.sheet_every
    result = asyncio.run(drive(phase, arrivals, warm_up=warm_up, counting=counting,
                               settle=settle, counted=counted))  # fmt: skip
    if not after:
        time.sleep(0.2)  # the last answers' tails (closing, logging) in the server's CPU
        after = tally.finish()
        result["cpu_counted_s"] = result["wall_s"]
    else:
        result["cpu_counted_s"] = args.seconds
    raw = {group: stacks.ticks_between(before[group], after[group]) / TICK for group in groups}
    # Less what the stack spends doing nothing for as long (the worker's broker polling,
    # gunicorn's heartbeats), measured once before the staircase.
    idle, lasted = getattr(args, "idle_cores", {}), result["cpu_counted_s"]
    server = {g: max(0.0, s - idle.get(g, 0.0) * lasted) for g, s in raw.items()}
    total = sum(server.values())
    result["server_cpu_s_raw"] = {group: round(s, 2) for group, s in raw.items()}
    result["server_cpu_s"] = {group: round(s, 2) for group, s in server.items()}
    count = result["requests"] or None
    result["server_cpu_ms_per_request"] = count and round(total * 1000 / count, 3)
    result["gunicorn_cpu_ms_per_request"] = count and round(server["gunicorn"] * 1000 / count, 3)
    result["server_ms_per_table_second"] = round(
        plan.measured_ms_per_table_second(total, table_count, args.seconds), 3
    )
    return result


def idle_cores(groups, seconds: float = 10.0) -> dict[str, float]:
    """Each group's CPU while nothing is asked of the stack, in cores."""
    before, started = stacks.cpu_ticks(groups), time.monotonic()
    time.sleep(seconds)
    after, lasted = stacks.cpu_ticks(groups), time.monotonic() - started
    return {g: stacks.ticks_between(before[g], after[g]) / TICK / lasted for g in groups}


def staircase(keepers, base_url, slug, args, groups, processes) -> list[dict]:
    stages, stopped = [], {"product": False, "floor": False}
    for number, tables in enumerate(sorted(args.stages)):
        arrivals = plan.schedule(tables, args.seconds, args.pace, args.seed + number)
        stage = {"tables": tables, "load_average_before": load_average()}
        order = ("floor", "product") if number % 2 == 0 else ("product", "floor")
        checked = deals_check(keepers[:tables]) if "product" in order else None
        for name in order:
            result = run_phase(name, arrivals, keepers[:tables], base_url, slug, args, groups,
                               tables, sheet_wait=args.pace.sheet_wait)  # fmt: skip
            lost = 0
            if name == "product":
                now = deals_check(keepers[:tables])
                result["deals"] = {k: now[k] - checked[k] for k in now}
                lost = result["deals"]["lost"] + result["deals"]["doubled"]
            result["verdict"] = plan.verdict(
                result["kinds"],
                result["generator_core_share"],
                lost,
                sum(result["generator_errors"].values()),
                plan.targets(args.pace),
            )
            stage[name] = result
            processes.check()
        stage["load_average_after"] = load_average()
        stages.append(stage)
        print_stage(stage)
        for name in stopped:
            stopped[name] |= not stage[name]["verdict"]["passed"]
        if args.stop_after_fail and all(stopped.values()):
            print("both product and floor have failed a stage: the staircase stops here")
            break
    return stages


def cost_pass(keepers, base_url, slug, args, groups) -> dict:
    """Each kind alone at --cost-rate a second for --cost-seconds, product then floor: the
    server CPU of one request of each kind, for the CPU model; then the baseline below both,
    a request gunicorn answers before Django (plan.BARE: what gunicorn alone costs)."""
    costs: dict[str, dict] = {"product": {}, "floor": {}}
    for kind in plan.KINDS:
        arrivals, warm_up = cost_arrivals(kind, len(keepers), args)
        for name in ("product", "floor"):
            result = run_phase(name, arrivals, keepers, base_url, slug, args, groups, 1, warm_up)
            costs[name][kind] = {
                "cpu_ms": result["server_cpu_ms_per_request"],
                "gunicorn_cpu_ms": result["gunicorn_cpu_ms_per_request"],
                "statuses": result["kinds"][kind]["statuses"],
                "errors": result["kinds"][kind]["errors"],
                "p95_ms": result["kinds"][kind]["p95_ms"],
                "connections": result["connections"],
            }
    # The baseline below both: gunicorn alone, answering before Django (plan.BARE).
    arrivals, warm_up = cost_arrivals(plan.BARE, len(keepers), args)
    result = run_phase("product", arrivals, keepers, base_url, slug, args, groups, 1, warm_up)
    costs["gunicorn_alone"] = {
        "cpu_ms": result["server_cpu_ms_per_request"],
        "gunicorn_cpu_ms": result["gunicorn_cpu_ms_per_request"],
        "statuses": result["kinds"][plan.BARE]["statuses"],
        "errors": result["kinds"][plan.BARE]["errors"],
        "p95_ms": result["kinds"][plan.BARE]["p95_ms"],
        "connections": result["connections"],
    }
    return costs


def cost_arrivals(kind: str, tables: int, args: argparse.Namespace):
    """The cost pass's arrivals of `kind`, each phone at its pace, and the warm-up before
    them: each phone's first request, when the server keeps a connection for longer than
    the phone's period (else every request opens one anyway: no warm-up)."""
    period = args.pace.period(kind)
    arrivals = plan.one_kind(kind, tables, args.cost_rate, args.cost_seconds, period)
    if args.fresh_connections or period >= args.keep_alive_s:
        return arrivals, None
    return arrivals, plan.one_kind(kind, tables, args.cost_rate, period, period)


def print_stage(stage: dict) -> None:
    print(f"\nT = {stage['tables']} (load average {stage['load_average_before']})")
    for name in ("floor", "product"):
        if name not in stage:
            continue
        phase = stage[name]
        v = phase["verdict"]
        print(
            f"  {name:<8} {'PASS' if v['passed'] else 'fail'}{'' if v['valid'] else ' (INVALID)'}"
            f"  {phase['requests']} requests in {phase['wall_s']} s; server"
            f" {phase['server_cpu_ms_per_request']} ms CPU a request; generator"
            f" {phase['generator_core_share']:.0%} of a core; connections {phase['connections']}"
        )
        for kind, f in phase["kinds"].items():
            print(
                f"    {kind:<10} {f['count']:>6} p50 {f['p50_ms']!s:>7} p95 {f['p95_ms']!s:>7}"
                f" p99 {f['p99_ms']!s:>7}  errors {f['errors']} {f['statuses']}"
            )
        if phase.get("sheet_ticks_skipped"):
            print(f"    sheet ticks skipped, a held question out: {phase['sheet_ticks_skipped']}")
        if "deals" in phase:
            print(f"    deals: {phase['deals']}")
        for note in phase["notes"][:3]:
            print(f"    note: {note}")


def run(name: str, args: argparse.Namespace) -> dict:
    """The whole run on one stack; the report's part for it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # one descriptor a request
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # in flight, when overloaded
    folder = Path(tempfile.mkdtemp(prefix=f"bench-capacity-{name}-"))
    env = stacks.environment(name, folder)
    flags = stacks.flags(name, args.sync_workers, args.keep_alive, args.server)
    args.keep_alive_s = stacks.keep_alive(flags)
    print(f"{name}: load average {load_average()}; folder {folder}; gunicorn {flags}", flush=True)
    stacks.prepare(name, env)
    made = time.monotonic()
    event, tables = setup(env, args)
    spare, tables = tables[-1], tables[:-1]
    about = recipes.capture(event.slug, spare, Path(env["BENCH_FLOOR_RECIPES"]))
    from django.db import connections

    connections.close_all()
    print(f"event of {len(tables)} tables in {time.monotonic() - made:.0f} s; recipes {about}")
    keepers = make_keepers(tables, args.seed, args.pace)
    processes, base_url = stacks.start(folder, env, flags)
    try:
        warm(base_url, event.slug, [k.game_id for k in keepers])
        warm_replays(base_url, list(about))
        groups = stacks.server_groups(name, processes)
        args.idle_cores = idle_cores(groups)
        print(f"the stack idle, cores: { {g: round(c, 4) for g, c in args.idle_cores.items()} }")
        stages = staircase(keepers, base_url, event.slug, args, groups, processes)
        costs = cost_pass(keepers, base_url, event.slug, args, groups) if args.cost_rate else {}
        cpu = processes.cpu_seconds()
    finally:
        processes.stop()
    stacks.clean(name)
    shutil.rmtree(folder, ignore_errors=True)
    return {
        "stack": name,
        "gunicorn": {
            "server": flags.get("server", "gunicorn"),
            "workers": int(flags["workers"]),
            "threads": int(flags["threads"]),
            "worker_class": flags.get("worker_class", venue_stack.SERVE_WORKER),
            "keep_alive_s": args.keep_alive_s,
        },
        "phones_keep_connections": not args.fresh_connections,
        "recipes": about,
        "idle_cores": {g: round(c, 4) for g, c in args.idle_cores.items()},
        "stages": stages,
        "costs": costs,
        "cpu_seconds": cpu,
    }
