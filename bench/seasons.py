"""Benchmark: a club season's standings, 200 members over 50 nights, built on read.

    .venv/bin/python -m bench.seasons            # 200 members x 50 nights, 30 reads
    .venv/bin/python -m bench.seasons --quick    # 60 x 10, for a smoke run

Makes a throwaway SQLite database (migrated), a club of --members players and a season of
--nights events, each with one stored standings snapshot in which a random 45-75 % of the
members played (the stored form the season page reads). Then times, --repeats times each:

- baseline: reading the nights' snapshots alone (tournaments.clubs.selectors.seasons.season_nights:
  the one read every season page must make, whatever it does with it);
- season: what the season page, its downloads and the API do on every request: that read,
  the counting (tournaments.seasons), the names, and the rows as people read them
  (tournaments.clubs.presenters.season);
- counting: the pure counting alone.

Prints the medians, the ratio season / baseline and whether the targets hold
(docs/performance.md); writes them to bench/results/seasons.json (seasons-quick.json with
--quick).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench import output

#: The targets (docs/performance.md): a season built on read within this many ms (median) ...
TARGET_MS = 50.0
#: ... and costing at most this many times the bare read of its nights.
TARGET_RATIO = 3.0


def setup_django(path: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_season(members: int, nights: int, seed: int):
    from tournaments.models import Club, Event, Player, Season, Standings

    rng = random.Random(seed)
    club = Club.objects.create(name="Bench club", slug="bench")
    players = Player.objects.bulk_create(
        Player(club=club, name=f"Member {n:03d}") for n in range(members)
    )
    ids = [p.pk for p in players]
    season = Season.objects.create(club=club, name="Bench season", best_nights=nights // 2)
    events = Event.objects.bulk_create(
        Event(club=club, name=f"Night {n}", slug=f"night-{n}", season=season, status="closed")
        for n in range(nights)
    )
    snapshots = []
    for event in events:
        came = rng.sample(ids, int(members * rng.uniform(0.45, 0.75)))
        rows = [
            {
                "rank": rank,
                "player": player,
                "score": rng.randint(-40, 40),
                "metrics": {"placing_points": 0, "score": 0, "games": 4},
                "decided_by": None,
            }
            for rank, player in enumerate(came, start=1)
        ]
        snapshots.append(Standings(event=event, rows=rows, results_version=0))
    Standings.objects.bulk_create(snapshots)
    return season


def timed(work, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return times


def run(members: int, nights: int, repeats: int, seed: int) -> dict:
    from tournaments.clubs.presenters import season as words
    from tournaments.clubs.selectors import seasons as reads
    from tournaments.seasons import Night, season_standings

    season = make_season(members, nights, seed)
    counting = reads.counting_of(season)
    stored = reads.season_nights(season)
    inputs = [Night(n.event.pk, n.places) for n in stored]

    def whole():
        table = reads.season_table(season)
        return words.season_lines(table)

    assert len(whole()) == members
    baseline = timed(lambda: reads.season_nights(season), repeats)
    full = timed(whole, repeats)
    pure = timed(lambda: season_standings(inputs, counting), repeats)
    ms = {
        name: 1000 * statistics.median(t)
        for name, t in [("baseline", baseline), ("season", full), ("counting", pure)]
    }
    ratio = ms["season"] / ms["baseline"]
    return {
        "members": members,
        "nights": nights,
        "repeats": repeats,
        "median_ms": {k: round(v, 2) for k, v in ms.items()},
        "best_ms": {
            "baseline": round(1000 * min(baseline), 2),
            "season": round(1000 * min(full), 2),
            "counting": round(1000 * min(pure), 2),
        },
        "ratio": round(ratio, 2),
        "target_ms": TARGET_MS,
        "target_ratio": TARGET_RATIO,
        "met": ms["season"] <= TARGET_MS and ratio <= TARGET_RATIO,
        "python": platform.python_version(),
        "machine": output.machine(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.seasons",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="60 members x 10 nights")
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--nights", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args(argv)
    if args.quick:
        args.members, args.nights, args.repeats = 60, 10, 10
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench-seasons.sqlite3")
        result = run(args.members, args.nights, args.repeats, args.seed)
    ms = result["median_ms"]
    print(
        f"season standings, {result['members']} members x {result['nights']} nights "
        f"(median of {result['repeats']}): season {ms['season']:.1f} ms, "
        f"baseline read {ms['baseline']:.1f} ms, ratio {result['ratio']:.2f} "
        f"(target <= {TARGET_MS:.0f} ms and <= {TARGET_RATIO:.1f}x: "
        f"{'met' if result['met'] else 'MISSED'}); counting alone {ms['counting']:.1f} ms"
    )
    output.write(result, "seasons-quick.json" if args.quick else "seasons.json")
    return 0 if result["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
