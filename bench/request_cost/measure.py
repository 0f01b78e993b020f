"""One measurement: N requests of a kind, one after another, and the worker's CPU around them."""

from __future__ import annotations

import statistics
import time
from collections import Counter

from .kinds import FLOOR_PATH, Context, Kind, Request
from .server import TICK_MS, Server

#: A pause before each CPU reading, so the worker has finished the last request's tail
#: (closing the connection, request_finished) before it is read, and is idle while it is.
SETTLE_SECONDS = 0.05


def as_floor(kind: Kind, request: Request) -> Request:
    """The same request (method, headers, body, cookies) to the kind's floor view."""
    return Request(
        request.method,
        FLOOR_PATH.format(name=kind.name),
        request.headers,
        request.body,
        dict(request.cookies) if request.cookies is not None else None,
    )


def measure(server: Server, ctx: Context, kind: Kind, floor: bool) -> dict:
    if kind.before is not None:
        kind.before(ctx)
    count = kind.count(ctx)
    statuses: Counter[int] = Counter()
    time.sleep(SETTLE_SECONDS)
    started_cpu, started = server.cpu(), time.perf_counter()
    for i in range(count):
        request = kind.make(ctx, i)
        if floor:
            request = as_floor(kind, request)
        status, headers, content = server.request(
            request.method, request.path, request.headers, request.body, request.cookies
        )
        statuses[status] += 1
        if request.answered is not None:
            request.answered(status, headers, content)
    wall = time.perf_counter() - started
    time.sleep(SETTLE_SECONDS)
    used = server.cpu() - started_cpu
    return {
        "requests": count,
        "cpu_ms": round(used.ns / 1e6 / count, 3),
        "cpu_ms_ticks": round(used.ticks * TICK_MS / count, 3),
        "wall_ms": round(wall * 1000 / count, 3),
        "statuses": {str(status): n for status, n in sorted(statuses.items())},
    }


def summary(kind: Kind, site: list[dict], floor: list[dict], target: float) -> dict:
    """Medians of the repeats, and the ratio of the medians."""
    site_ms = statistics.median(run["cpu_ms"] for run in site)
    floor_ms = statistics.median(run["cpu_ms"] for run in floor)
    ratio = site_ms / floor_ms if floor_ms else None
    unexpected = sum(
        n for run in site for status, n in run["statuses"].items() if int(status) not in kind.expect
    )
    return {
        "what": kind.what,
        "site_cpu_ms": round(site_ms, 2),
        "floor_cpu_ms": round(floor_ms, 2),
        "ratio": None if ratio is None else round(ratio, 2),
        "target_ratio": target,
        "met": ratio is not None and ratio <= target,
        "site_wall_ms": round(statistics.median(run["wall_ms"] for run in site), 2),
        "floor_wall_ms": round(statistics.median(run["wall_ms"] for run in floor), 2),
        "site_unexpected_statuses": unexpected,
        "site_runs": site,
        "floor_runs": floor,
    }
