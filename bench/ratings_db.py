"""Benchmark: a club's full re-rating through the database, 100,000 stored games.

    .venv/bin/python -m bench.ratings_db                   # SQLite, then PostgreSQL
    .venv/bin/python -m bench.ratings_db --backend pg      # one backend only
    .venv/bin/python -m bench.ratings_db --quick           # 10,000 games, for a smoke run

bench.ratings times the pure rating; this times what `manage.py rerate_club` and the
`rerate_club` task run: tournaments.clubs.services.ratings.rebuild, which reads the club's games,
rates them and writes a RatingStep a player a game and a Rating a player, in one transaction.

Each backend runs in a process of its own (Django's settings are made once a process): SQLite
a file in a temporary folder, PostgreSQL a database of its own (`bench358_ratings` on
127.0.0.1, dropped after). Not timed: migrating, and storing a club that rates casual games,
--players members and --games confirmed casual games (ClubGame rows, their seats and
placings from bench.ratings.history, confirmed one second apart, so each is a batch of its
own as the service reads them). Then, --repeats times, alternately so that a busy machine
slows both alike (medians reported):

- rebuild: the service's whole rebuild, and its parts as it runs them (the read of the
  batches, the rating, the writing of steps and ratings; "other" is the rest: the lock and
  deleting the old steps);
- baseline: the least any rebuild must do, each part alone: the bare read (one values_list
  query of the same columns), the pure rating (rate_batches on the same batches), the bare
  write (bulk_create of as many step rows, after the old ones are deleted untimed).

Ratio = rebuild / baseline. The run checks that the stored ratings and steps equal the pure
result. Prints per backend and writes bench/results/ratings-db.json (ratings-db-quick.json
with --quick).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from bench import output
from bench.ratings_db_club import drop_database, setup_django, store_club

BACKENDS = ("sqlite", "pg")
#: The targets (docs/performance.md): the whole rebuild of 100,000 games within this many
#: seconds on either backend ...
TARGET_SECONDS = 120.0
#: ... and at most this many times the bare read + pure rating + bare write.
TARGET_RATIO = 1.3


# --- the parent: one child process a backend, their figures merged -----------------------


def run_backends(args) -> int:
    backends = BACKENDS if args.backend == "both" else (args.backend,)
    started = os.getloadavg()
    runs = {}
    for backend in backends:
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            command = [sys.executable, "-m", "bench.ratings_db", "--backend", backend]
            command += ["--games", str(args.games), "--players", str(args.players)]
            command += ["--repeats", str(args.repeats), "--seed", str(args.seed)]
            command += ["--child-out", out.name]
            code = subprocess.run(command, check=False).returncode
            if code != 0:
                print(f"{backend}: the run failed (exit {code})", file=sys.stderr)
                return code
            runs[backend] = json.loads(Path(out.name).read_text())
    report = {
        "benchmark": "ratings-db",
        "games": args.games,
        "players": args.players,
        "repeats": args.repeats,
        "seed": args.seed,
        "target_seconds": TARGET_SECONDS * args.games / 100_000,
        "target_ratio": TARGET_RATIO,
        "met": all(run["met"] for run in runs.values()),
        "loadavg_start": [round(x, 2) for x in started],
        "loadavg_end": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "machine": output.machine(),
        "backends": runs,
    }
    output.write(report, "ratings-db-quick.json" if args.quick else "ratings-db.json")
    return 0 if report["met"] else 1


# --- a child: one backend ------------------------------------------------------------------


#: The service's parts, as (name, module, function) it calls them by: timed by wrapping.
PARTS = (
    ("read", "tournaments.clubs.selectors.ratings", "club_batches"),
    ("rate", "tournaments.ratings", "rate_batches"),
    ("write steps", "tournaments.clubs.services.ratings", "_store_steps"),
    ("write ratings", "tournaments.clubs.services.ratings", "_store_ratings"),
    ("write ratings", "tournaments.clubs.services.ratings", "_store_rebuilt_ratings"),
)


@contextmanager
def parts_timed(seconds: dict[str, float]):
    """The service's parts wrapped to add their wall time to `seconds` (a part the service
    no longer has is left out); unwrapped after."""
    import importlib

    saved = []
    for name, module_name, function in PARTS:
        module = importlib.import_module(module_name)
        original = getattr(module, function, None)
        if original is None:
            continue

        def timed_call(*args, _original=original, _name=name, **kwargs):
            started = time.perf_counter()
            try:
                return _original(*args, **kwargs)
            finally:
                seconds[_name] = seconds.get(_name, 0.0) + time.perf_counter() - started

        saved.append((module, function, original))
        setattr(module, function, timed_call)
    try:
        yield
    finally:
        for module, function, original in saved:
            setattr(module, function, original)


def service_rebuild(club) -> tuple[float, dict[str, float]]:
    """The whole rebuild as `rerate_club` runs it, and its parts."""
    from tournaments.clubs.services import ratings as service

    parts: dict[str, float] = {}
    with parts_timed(parts):
        started = time.perf_counter()
        service.rebuild(club.pk)
        whole = time.perf_counter() - started
    parts["other"] = whole - sum(parts.values())
    return whole, parts


def bare_read(club) -> float:
    from scoring.models import Game
    from tournaments.models import ClubGame

    started = time.perf_counter()
    rows = list(
        ClubGame.objects.filter(club_id=club.pk, game__result=Game.Result.CONFIRMED).values_list(
            "game_id", "seat_0_id", "seat_1_id", "seat_2_id", "game__placings", "game__confirmed_at"
        )
    )
    took = time.perf_counter() - started
    assert rows
    return took


def pure_rate(batches) -> tuple[float, list]:
    from tournaments.ratings import rate_batches

    started = time.perf_counter()
    steps, _ = rate_batches(batches)
    return time.perf_counter() - started, steps


def bare_write(club, steps) -> tuple[float, float]:
    """(seconds to delete the club's steps, seconds to bulk_create as many again): the delete
    is reported but not in the baseline."""
    from django.db import transaction

    from tournaments.models import RatingStep

    rows = [
        (s.player, s.game, s.key[0], s.key[1], s.rank, s.skill.mu, s.skill.sigma) for s in steps
    ]
    started = time.perf_counter()
    RatingStep.objects.filter(club_id=club.pk).delete()
    deleted = time.perf_counter() - started
    started = time.perf_counter()
    with transaction.atomic():
        RatingStep.objects.bulk_create(
            [
                RatingStep(
                    club_id=club.pk,
                    player_id=player,
                    game_id=game,
                    batch_at=at,
                    batch=batch,
                    place=place,
                    mu=mu,
                    sigma=sigma,
                    ordinal=mu - 3 * sigma,
                )
                for player, game, at, batch, place, mu, sigma in rows
            ],
            batch_size=2000,
        )
    return deleted, time.perf_counter() - started


def same_as_pure(club, steps) -> bool:
    """The stored steps and ratings equal the pure rating's, to 1e-9."""
    from tournaments.models import Rating, RatingStep

    want = {(s.game, s.player): (s.rank, s.skill.mu, s.skill.sigma) for s in steps}
    got = {
        (game, player): (place, mu, sigma)
        for game, player, place, mu, sigma in RatingStep.objects.filter(
            club_id=club.pk
        ).values_list("game_id", "player_id", "place", "mu", "sigma")
    }
    if got.keys() != want.keys():
        return False
    close = all(
        got[k][0] == w[0] and abs(got[k][1] - w[1]) < 1e-9 and abs(got[k][2] - w[2]) < 1e-9
        for k, w in want.items()
    )
    last: dict[int, tuple[float, float]] = {}
    games: dict[int, int] = {}
    for s in steps:
        last[s.player] = (s.skill.mu, s.skill.sigma)
        games[s.player] = games.get(s.player, 0) + 1
    ratings = {
        r.player_id: (r.mu, r.sigma, r.ordinal, r.games)
        for r in Rating.objects.filter(player__club=club)
    }
    return (
        close
        and ratings.keys() == last.keys()
        and all(
            abs(ratings[p][0] - mu) < 1e-9
            and abs(ratings[p][1] - sigma) < 1e-9
            and abs(ratings[p][2] - (mu - 3 * sigma)) < 1e-9
            and ratings[p][3] == games[p]
            for p, (mu, sigma) in last.items()
        )
    )


def median(values: list[float]) -> float:
    return round(statistics.median(values), 3)


def run_backend(backend: str, games: int, players: int, repeats: int, seed: int) -> dict:
    load_start = os.getloadavg()
    started = time.perf_counter()
    club, batches = store_club(games, players, seed)
    stored_in = time.perf_counter() - started
    gc.collect()
    first, _ = service_rebuild(club)  # the club's first rating: no old steps to delete
    rebuilds, baselines = [], []
    for _ in range(repeats):
        # Each timed part starts from a collected heap, and the service runs without the
        # pure steps held (as a worker would): else it would pay for the bench's garbage.
        gc.collect()
        read = bare_read(club)
        gc.collect()
        rate, steps = pure_rate(batches)
        gc.collect()
        deleted, write = bare_write(club, steps)
        baselines.append({"read": read, "rate": rate, "write": write, "delete": deleted})
        del steps
        gc.collect()
        whole, parts = service_rebuild(club)  # last, so its ratings are the ones checked
        rebuilds.append({"whole": whole, **parts})
    same = same_as_pure(club, pure_rate(batches)[1])
    rebuild = {k: median([r[k] for r in rebuilds]) for k in rebuilds[0]}
    baseline = {k: median([b[k] for b in baselines]) for k in baselines[0]}
    baseline["total"] = median([b["read"] + b["rate"] + b["write"] for b in baselines])
    ratio = rebuild["whole"] / baseline["total"]
    target = TARGET_SECONDS * games / 100_000
    return {
        "backend": backend,
        "games": games,
        "steps": 3 * games,
        "store_club_seconds": round(stored_in, 1),
        "first_rebuild_seconds": round(first, 3),
        "rebuild_seconds": rebuild,
        "baseline_seconds": baseline,
        "ratio": round(ratio, 3),
        "target_seconds": target,
        "target_ratio": TARGET_RATIO,
        "same_as_pure": same,
        "rebuild_runs": [{k: round(v, 3) for k, v in r.items()} for r in rebuilds],
        "baseline_runs": [{k: round(v, 3) for k, v in b.items()} for b in baselines],
        "met": same and rebuild["whole"] <= target and ratio <= TARGET_RATIO,
        "loadavg_start": [round(x, 2) for x in load_start],
        "loadavg_end": [round(x, 2) for x in os.getloadavg()],
    }


def report_lines(run: dict) -> list[str]:
    r, b = run["rebuild_seconds"], run["baseline_seconds"]
    parts = ", ".join(f"{k} {v:.2f}" for k, v in r.items() if k != "whole")
    return [
        f"{run['backend']}: {run['games']} games, {run['steps']} steps "
        f"(club stored in {run['store_club_seconds']} s, untimed)",
        f"  rebuild  {r['whole']:8.2f} s  ({parts})",
        f"  baseline {b['total']:8.2f} s  (read {b['read']:.2f}, rate {b['rate']:.2f}, "
        f"write {b['write']:.2f}; delete {b['delete']:.2f} not counted)",
        f"  ratio {run['ratio']:.2f} (target <= {run['target_ratio']}x and "
        f"<= {run['target_seconds']:.0f} s: {'met' if run['met'] else 'MISSED'}); "
        f"first rebuild {run['first_rebuild_seconds']:.2f} s; same as pure: "
        f"{run['same_as_pure']}; load {run['loadavg_start']} -> {run['loadavg_end']}",
    ]


def run_child(args) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-ratings-") as folder:
        setup_django(args.backend, Path(folder))
        try:
            run = run_backend(args.backend, args.games, args.players, args.repeats, args.seed)
        finally:
            drop_database(args.backend)
    print("\n".join(report_lines(run)), flush=True)
    Path(args.child_out).write_text(json.dumps(run), encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.ratings_db",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--backend", choices=(*BACKENDS, "both"), default="both")
    parser.add_argument("--quick", action="store_true", help="10,000 games, for a smoke run")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child-out", help=argparse.SUPPRESS)  # one backend's run, as JSON
    args = parser.parse_args(argv)
    if args.quick:
        args.games = 10_000
    if args.child_out:
        return run_child(args)
    return run_backends(args)


if __name__ == "__main__":
    sys.exit(main())
