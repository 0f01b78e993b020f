"""One run: the database, the event, the recipes, the server, the measurements."""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

from bench.output import load_average
from bench.site_load.stack import (
    Processes,
    drop_database,
    flush_redis,
    manage,
    recreate_database,
    server_env,
)

from . import recipes
from .event import make_event
from .kinds import KINDS, Context, Kind
from .measure import measure, summary
from .profiling import profile
from .server import Server

SETTINGS = "bench.floor.settings"


def prepare(args: argparse.Namespace, logs: Path) -> dict[str, str]:
    """A fresh database, migrated; the static files collected; Django set up here."""
    env = server_env(args, str(logs / "static"))
    env["DJANGO_SETTINGS_MODULE"] = SETTINGS
    env[recipes.RECIPES_ENV] = str(logs / "recipes.json")
    recreate_database(args.database)
    flush_redis(args.redis)
    flush_redis(args.cache)
    manage(env, "migrate")
    manage(env, "collectstatic")
    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"  # the setup's builds, here, before measuring
    import django

    django.setup()
    return env


#: What a request needs measured before it: a first render is of the version a deal made.
NEEDS = {"sheet_render": "deal"}


def chosen(only: str | None) -> list[Kind]:
    """The kinds named in `only` (comma-separated) and what they need, in the benchmark's
    order; all for None."""
    if not only:
        return KINDS
    names = set(only.split(","))
    unknown = names - {kind.name for kind in KINDS}
    if unknown:
        raise SystemExit(f"--only: no such request {', '.join(sorted(unknown))}")
    names |= {NEEDS[name] for name in names if name in NEEDS}
    return [kind for kind in KINDS if kind.name in names]


def capture_all(ctx: Context, kinds: list[Kind]) -> dict[str, list[dict]]:
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    return {kind.name: kind.capture(client, ctx) for kind in kinds}


def login_keepers(server: Server, ctx: Context) -> None:
    """Each table's keeper opens the keeper's link once: a session on the server."""
    for table in ctx.tables:
        path = f"/games/{table.game_id}/keep/{table.secret}/"
        status, _, _ = server.request("GET", path, cookies=table.cookies)
        if status != 302 or "sessionid" not in table.cookies:
            raise RuntimeError(f"the keeper's link of game {table.game_id} answered {status}")


def run(args: argparse.Namespace) -> dict:
    kinds = chosen(args.only)
    logs = Path(tempfile.mkdtemp(prefix="bench358-cost-"))
    load = {"start": load_average()}
    print(f"load average {load['start']}; logs in {logs}", flush=True)
    env = prepare(args, logs)
    made = time.monotonic()
    event, tables = make_event(args.tables, args.deals, args.seed)
    ctx = Context(event.slug, tables[:-1], tables[-1], args.polls, random.Random(args.seed))
    captured = capture_all(ctx, kinds)
    recipes.save(captured, logs / "recipes.json")
    print(f"event {event.slug}: {len(tables)} tables in {time.monotonic() - made:.1f} s; recipes:",
          ", ".join(f"{name} {len(steps)} queries" for name, steps in captured.items()),
          flush=True)  # fmt: skip

    processes = Processes(logs)
    runs: dict[str, dict[str, list]] = {kind.name: {"site": [], "floor": []} for kind in kinds}
    try:
        wsgi = "bench.request_cost.untemplated" if args.without_templates else "config.wsgi"
        server = Server(processes, env, wsgi=wsgi)
        login_keepers(server, ctx)
        for repeat in range(args.repeat + 1):  # the first warms the worker and is not kept
            for kind in kinds:
                order = (False, True) if repeat % 2 == 0 else (True, False)
                for floor in order:
                    figures = measure(server, ctx, kind, floor)
                    if repeat:
                        runs[kind.name]["floor" if floor else "site"].append(figures)
            processes.check()
            print(f"repeat {repeat or 'warm-up'} done; load average {load_average()}", flush=True)
    except BaseException:
        print(f"failed: logs kept in {logs}; database {args.database} left")
        raise
    finally:
        processes.stop()
    load["end"] = load_average()

    results = {
        kind.name: summary(kind, runs[kind.name]["site"], runs[kind.name]["floor"], args.target)
        for kind in kinds
    }
    for name, result in results.items():
        result["queries"] = len(captured[name])
        result["statements"] = [
            ("in transaction: " if step["atomic"] else "") + step["sql"][:160]
            for step in captured[name]
        ]
    profiles = {}
    for kind in kinds:
        if not results[kind.name]["met"] and args.profile:
            profiles[kind.name] = profile(kind, ctx, args.profile)
    from django.db import connections

    connections.close_all()
    drop_database(args.database)
    flush_redis(args.redis)
    flush_redis(args.cache)
    shutil.rmtree(logs, ignore_errors=True)
    return {"load_average": load, "results": results, "profiles": profiles}
