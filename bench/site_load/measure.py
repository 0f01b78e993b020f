"""What a run measures: the endpoints timed, their latencies and the timeline."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

TARGET_P95_MS = 100.0
DEAL = "POST /api/games/{id}/deals"
RESEND = "POST /api/games/{id}/deals (resent)"
PATCH = "PATCH /api/games/{id}/deals/{n}"
KEEP = "GET /games/{id}/keep/{token}/"
PAGE = "GET /games/{id}/ (keeper)"
CONFIRM = "POST /games/{id}/confirm/"
SHEET = "GET /games/{id}/sheet/?v="
API_STANDINGS = "GET /api/events/{slug}/standings"
FRAGMENT = "GET /events/{slug}/standings/live/"
TARGETED = (DEAL, API_STANDINGS, FRAGMENT)


def percentile(ordered: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    if not ordered:
        return float("nan")
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


@dataclass
class Series:
    expected: tuple[int, ...]
    seconds: list[float] = field(default_factory=list)
    at: list[float] = field(default_factory=list)  # when each request started
    by_status: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter = field(default_factory=Counter)

    def add(self, status: str, seconds: float, at: float) -> None:
        self.seconds.append(seconds)
        self.at.append(at)
        self.by_status[status].append(seconds)
        if not status.isdigit() or int(status) not in self.expected:
            self.errors[status] += 1

    def summary(self) -> dict:
        def figures(values: list[float]) -> dict:
            ordered = sorted(values)
            return {
                "count": len(ordered),
                "p50_ms": round(percentile(ordered, 50) * 1000, 1),
                "p95_ms": round(percentile(ordered, 95) * 1000, 1),
                "p99_ms": round(percentile(ordered, 99) * 1000, 1),
                "max_ms": round(ordered[-1] * 1000, 1) if ordered else None,
            }

        return {
            **figures(self.seconds),
            "errors": sum(self.errors.values()),
            "errors_by_status": dict(self.errors),
            "by_status": {status: figures(v) for status, v in sorted(self.by_status.items())},
        }


class Stats:
    def __init__(self) -> None:
        self.series: dict[str, Series] = {}
        self.notes: list[str] = []

    def declare(self, name: str, *expected: int) -> None:
        self.series[name] = Series(expected)

    async def request(self, client, name: str, method: str, url: str, **kwargs):
        """One timed request (headers and the whole body); None if it did not complete."""
        started = time.perf_counter()
        try:
            response = await client.request(method, url, **kwargs)
        except Exception as error:  # noqa: BLE001 - every failure is counted, none stops the run
            self.series[name].add(
                f"exc:{type(error).__name__}", time.perf_counter() - started, started
            )
            if len(self.notes) < 20:
                self.notes.append(f"{name}: {type(error).__name__}: {error}")
            return None
        self.series[name].add(str(response.status_code), time.perf_counter() - started, started)
        if response.status_code not in self.series[name].expected and len(self.notes) < 20:
            self.notes.append(f"{name} {url}: {response.status_code} {response.text[:200]}")
        return response

    def timeline(self, names: tuple[str, ...], bucket: float, lag=((), ())) -> list[dict]:
        """Per `bucket` seconds of the run: requests a second, the p95 of `names`, and the
        p99 of this process's event-loop lag (`lag`: when, how late), which shows when the
        load generator, not the site, held answers up."""
        starts = [t for series in self.series.values() for t in series.at]
        if not starts:
            return []
        origin = min(starts)
        count = int((max(starts) - origin) // bucket) + 1
        rows = [{"from_s": round(i * bucket), "requests_per_s": 0.0} for i in range(count)]
        for series in self.series.values():
            for t in series.at:
                rows[int((t - origin) // bucket)]["requests_per_s"] += 1 / bucket
        for name in names:
            buckets = defaultdict(list)
            for t, seconds in zip(self.series[name].at, self.series[name].seconds, strict=True):
                buckets[int((t - origin) // bucket)].append(seconds)
            for i, row in enumerate(rows):
                values = sorted(buckets.get(i, []))
                row[f"p95_ms {name}"] = round(percentile(values, 95) * 1000) if values else None
        lags = defaultdict(list)
        for t, late in zip(*lag, strict=True):
            if t >= origin:
                lags[int((t - origin) // bucket)].append(late)
        for i, row in enumerate(rows):
            values = sorted(lags.get(i, []))
            row["loop_lag_p99_ms"] = round(percentile(values, 99) * 1000) if values else None
        for row in rows:
            row["requests_per_s"] = round(row["requests_per_s"], 1)
        return rows
