"""Where a request's time goes: cProfile around the site's own view, in this process.

For a kind that misses its target: the same request as the server gets (made by the kind
on the spare table), through the test client (the whole middleware stack, production
settings, the same database and cache), profiled only while the client runs. A write is
rolled back each time so it can be made again; a first-phone sheet forgets its kept partial
first. Own time (tottime) is summed by area: Django's packages two levels deep (templates,
the ORM, middleware...), other libraries by name, this project by app; the project's own
functions (middleware aside) are listed by cumulative time; so are all functions below 80 %
of the whole (under the middleware chain and the view: the template render, the ORM's
parts...); and every function by own time.
Timed in this thread's CPU time (not wall time, which would count the waits on PostgreSQL
and Redis); cProfile's own overhead roughly doubles the figures: read the shares.
"""

from __future__ import annotations

import cProfile
import pstats
import random
import sys
import sysconfig
import time
from collections import Counter
from contextlib import contextmanager, nullcontext
from pathlib import Path

from bench.site_load.stack import ROOT

from .kinds import Context, Kind, _forget_sheet

STDLIB = sysconfig.get_paths()["stdlib"]


def area(filename: str) -> str:
    if "site-packages/" in filename:
        parts = filename.split("site-packages/", 1)[1].split("/")
        return "/".join(parts[:2]) if parts[0] == "django" and len(parts) > 2 else parts[0]
    if filename.startswith(str(ROOT)):
        return "app: " + Path(filename).relative_to(ROOT).parts[0]
    if filename.startswith(STDLIB):
        return "stdlib: " + Path(filename).relative_to(STDLIB).parts[0].removesuffix(".py")
    return "builtins" if filename.startswith("~") or filename.startswith("<") else filename


@contextmanager
def rolled_back():
    from django.db import connection

    connection.ensure_connection()
    connection.set_autocommit(False)
    try:
        yield
    finally:
        connection.rollback()
        connection.set_autocommit(True)


def profile(kind: Kind, ctx: Context, count: int) -> dict:
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    spare = ctx.spare
    client.get(f"/games/{spare.game_id}/keep/{spare.secret}/")  # the keeper's session
    alone = Context(ctx.slug, [spare], spare, 1, random.Random(1), dict(ctx.etags))
    alone.refresh_versions()
    profiler = cProfile.Profile(time.process_time)  # CPU: waits on the database are not costs
    for i in range(count + 1):  # the first warms, unprofiled
        request = kind.make(alone, 0)
        headers = {k: v for k, v in request.headers.items() if k != "Content-Type"}
        if kind.name == "sheet_render":
            _forget_sheet(spare.game_id)
        writes = request.method != "GET"
        with rolled_back() if writes else nullcontext():
            if i:
                profiler.enable()
            client.generic(
                request.method,
                request.path,
                data=request.body or b"",
                content_type=request.headers.get("Content-Type", "application/octet-stream"),
                headers=headers,
            )
            profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stderr)
    total = sum(row[2] for row in stats.stats.values())
    areas: Counter[str] = Counter()
    for (filename, _, _), row in stats.stats.items():
        areas[area(filename)] += row[2]
    ms = 1000 / count

    def row(key, figures) -> dict:
        filename, line, name = key
        return {
            "function": f"{area(filename)} {Path(filename).name}:{line} {name}",
            "cumulative_ms": round(figures[3] * ms, 2),
            "own_ms": round(figures[2] * ms, 2),
            "calls_per_request": round(figures[1] / count, 1),
        }

    items = stats.stats.items()
    app = [item for item in items if area(item[0][0]) not in ("app: config", "app: bench")]
    app = [item for item in app if area(item[0][0]).startswith("app: ")]
    return {
        "requests": count,
        "total_ms_per_request": round(total * ms, 2),
        "own_time_by_area_ms": {
            name: round(seconds * ms, 2) for name, seconds in areas.most_common(15)
        },
        "app_functions_by_cumulative_ms": [
            row(*item) for item in sorted(app, key=lambda item: item[1][3], reverse=True)[:20]
        ],
        "inner_functions_by_cumulative_ms": [  # below the middleware chain and the view
            row(*item)
            for item in sorted(items, key=lambda item: item[1][3], reverse=True)
            if item[1][3] < 0.8 * total
        ][:25],
        "functions_by_own_ms": [
            row(*item) for item in sorted(items, key=lambda item: item[1][2], reverse=True)[:15]
        ],
    }
