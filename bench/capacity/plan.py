"""The pure parts of the open-loop staircase: when each phone sends, what a stage's figures
are, whether it passes, the largest passing T, and the CPU model.

No Django and no sockets here, so tests/test_bench_capacity.py checks it all in milliseconds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass

DEAL = "deal"
SHEET = "sheet"
STANDINGS = "standings"
KINDS = (DEAL, SHEET, STANDINGS)
#: The cost pass's baseline below the floor: a request gunicorn answers with a few bytes
#: before Django (bench/capacity/wsgi.py), on a fresh connection as every phone's.
BARE = "bare"
BARE_PATH = "/bench-bare/"

#: A stage passes when every kind's p95 is under this and nothing failed.
TARGET_P95_MS = 150.0
#: What a watcher's phone waits for: from the deal's scheduled send to the phone holding the
#: new version (reported always; judged only when the sheet's polls are held, `sheet_wait`).
NEWS = "news"
#: The generator runs on one thread: above this share of one core its own queue, not the
#: site's, would show in the latencies, and the stage says nothing (it is marked invalid).
GENERATOR_MAX_CORE_SHARE = 0.7


@dataclass(frozen=True)
class Pace:
    """Seconds between one phone's requests of each kind, and phones per table."""

    deal_every: float = 60.0  # the keeper (stress: 10)
    sheet_every: float = 5.0
    standings_every: float = 10.0
    sheet_phones: int = 3
    standings_phones: int = 1
    #: Seconds a watcher's sheet poll asks to be held (`&wait=`, config.door), 0 for none.
    #: Held, a phone sends nothing at a tick while its question is out, as htmx drops it.
    sheet_wait: int = 0

    def streams(self) -> tuple[tuple[str, int, float], ...]:
        """(kind, phone number, period) of every phone of one table."""
        return (
            (DEAL, 0, self.deal_every),
            *((SHEET, n, self.sheet_every) for n in range(self.sheet_phones)),
            *((STANDINGS, n, self.standings_every) for n in range(self.standings_phones)),
        )

    def period(self, kind: str) -> float:
        """Seconds between one phone's requests of `kind` (the cost pass's baseline, BARE,
        at the sheet's pace)."""
        return {DEAL: self.deal_every, STANDINGS: self.standings_every}.get(kind, self.sheet_every)

    def rates(self) -> dict[str, float]:
        """Requests a second of each kind that one table sends."""
        return {
            DEAL: 1 / self.deal_every,
            SHEET: self.sheet_phones / self.sheet_every,
            STANDINGS: self.standings_phones / self.standings_every,
        }


@dataclass(frozen=True, order=True)
class Arrival:
    at: float  # seconds after the phase starts: the scheduled send time
    kind: str
    table: int  # index into the event's tables
    phone: int  # which of the table's phones of this kind


def schedule(tables: int, seconds: float, pace: Pace, seed: int) -> list[Arrival]:
    """Every request of a phase, in the order of its scheduled time. Each phone starts at a
    random phase of its period and then keeps its period exactly, whatever the answers:
    open loop, as phones on a timer behave."""
    rng = random.Random(seed)
    arrivals = []
    for table in range(tables):
        for kind, phone, period in pace.streams():
            at = rng.uniform(0, period)
            while at < seconds:
                arrivals.append(Arrival(at, kind, table, phone))
                at += period
    arrivals.sort()
    return arrivals


def percentile(values: Iterable[float], q: float) -> float | None:
    """The nearest-rank q-th percentile (q in 0..100); None when there is nothing."""
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def latencies_ms(scheduled: list[float], answered: list[float]) -> list[float]:
    """Latency of each request from its scheduled send time, not from when it was sent: a
    request the generator or a queue held back counts its wait (no coordinated omission)."""
    return [(done - due) * 1000 for due, done in zip(scheduled, answered, strict=True)]


def figures(latencies: list[float], errors: int) -> dict:
    def rounded(value: float | None) -> float | None:
        return None if value is None else round(value, 1)

    return {
        "count": len(latencies) + errors,
        "answered": len(latencies),
        "errors": errors,
        "p50_ms": rounded(percentile(latencies, 50)),
        "p95_ms": rounded(percentile(latencies, 95)),
        "p99_ms": rounded(percentile(latencies, 99)),
        "max_ms": rounded(max(latencies, default=None)),
    }


def targets(pace: Pace) -> dict[str, float | None]:
    """Each kind's p95 target (None: reported, not judged). A held sheet poll's own time is
    its wait: judged instead is how soon its phone has the news, no later than a plain poll
    brings it (its period and the target): the phones a server has no room to hold poll
    plainly. A plain poll's news waits for the phone's next tick by design: not judged."""
    if pace.sheet_wait:
        return {SHEET: None, NEWS: pace.sheet_every * 1000 + TARGET_P95_MS}
    return {NEWS: None}


def verdict(
    kinds: dict[str, dict],
    generator_core_share: float,
    lost: int = 0,
    generator_errors: int = 0,
    goals: dict[str, float | None] | None = None,
) -> dict:
    """Whether a phase passes: every kind's p95 under its target (TARGET_P95_MS unless `goals`
    says another, or None for none), no error, no deal lost or doubled; and whether it
    counts at all (the generator kept up, and never ran out of files or ports of its own)."""
    goals = goals or {}
    slow = [
        kind
        for kind, f in kinds.items()
        if goals.get(kind, TARGET_P95_MS) is not None
        and (f["p95_ms"] is None or f["p95_ms"] >= goals.get(kind, TARGET_P95_MS))
    ]
    errors = sum(f["errors"] for f in kinds.values())
    valid = generator_core_share < GENERATOR_MAX_CORE_SHARE and not generator_errors
    return {
        "passed": valid and not slow and errors == 0 and lost == 0,
        "valid": valid,
        "slow": slow,
        "errors": errors,
    }


def largest_passing(stages: list[tuple[int, dict]]) -> dict:
    """The largest T of the staircase passing, climbing from the smallest T: the last
    passing stage before the first failing one. `censored` when no stage failed (the real
    capacity is higher than the staircase went), `invalid` when the stage that stopped it
    did not count (the generator saturated: measure with a faster generator)."""
    largest, stopped_by = None, None
    for tables, result in sorted(stages, key=lambda stage: stage[0]):
        if not result["passed"]:
            stopped_by = result
            break
        largest = tables
    return {
        "tables": largest,
        "censored": stopped_by is None,
        "invalid": stopped_by is not None and not stopped_by["valid"],
    }


def ratio(product: dict, floor: dict) -> float | None:
    """Product's largest passing T over the floor's (None when either has none)."""
    if not product["tables"] or not floor["tables"]:
        return None
    return round(product["tables"] / floor["tables"], 2)


def cpu_ms_per_table_second(costs_ms: dict[str, float], pace: Pace) -> float:
    """Server CPU milliseconds one table costs each second: each kind's rate times its
    measured CPU per request."""
    rates = pace.rates()
    return sum(rates[kind] * costs_ms[kind] for kind in rates)


def tables_on(cores: float, utilisation: float, ms_per_table_second: float) -> int:
    """Tables the server's CPU carries on `cores` held at `utilisation` (0..1): each core
    gives 1000 ms of CPU a second."""
    if ms_per_table_second <= 0:
        raise ValueError("a table costs some CPU")
    return math.floor(cores * utilisation * 1000 / ms_per_table_second)


def one_kind(kind: str, tables: int, rate: float, seconds: float,
             period: float | None = None) -> list[Arrival]:  # fmt: skip
    """For the cost pass: `rate` requests a second of one kind, evenly spaced, round the
    tables in turn, one phone of each. With `period`, round only as many tables as make each
    phone ask once a `period` (as phones at that pace do, so that a connection kept between
    a phone's requests is kept here too); else round all (a table's requests come `tables /
    rate` seconds apart)."""
    count = int(rate * seconds)
    phones = tables if period is None else max(1, min(tables, round(rate * period)))
    return [Arrival(n / rate, kind, n % phones, 0) for n in range(count)]


def measured_ms_per_table_second(server_cpu_s: float, tables: int, seconds: float) -> float:
    """What a stage's server CPU says one table costs each second, whatever the mix."""
    return server_cpu_s * 1000 / (tables * seconds)


def ratio_reading(product: dict, floor: dict) -> str:
    """How to read the ratio: "exact" when both stopped at a failing stage; "at least" when
    only the product never failed (its capacity is higher), "at most" when only the floor
    never failed, "unknown" when neither did (the staircase was too short)."""
    if product["censored"] and floor["censored"]:
        return "unknown"
    if product["censored"]:
        return "at least"
    if floor["censored"]:
        return "at most"
    return "exact"
