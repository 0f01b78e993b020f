"""Benchmark: a full re-rating of a club's 100,000 games (tournaments.ratings).

    .venv/bin/python -m bench.ratings            # 100,000 games
    .venv/bin/python -m bench.ratings --quick    # 10,000 games, for a smoke run

A generated club history: --players members, nights of --tables tables a round and --rounds
rounds, each table three members drawn at random with random placings, until --games games.
Times, each --repeats times (medians):

- baseline: the raw `openskill` calls alone: one PlackettLuce.rate per game from the
  ratings before its round, the least any re-rating must do;
- rerate: tournaments.ratings.rate_batches on the same batches: what a rebuild of the club
  computes (tournaments.clubs.services.ratings.rerate_from adds one read of the games and one
  bulk write of the steps);

Prints the medians, the ratio rerate / baseline and whether the targets hold
(docs/performance.md); writes them to bench/results/ratings.json (ratings-quick.json with
--quick).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from openskill.models import PlackettLuce

from bench import output
from tournaments.ratings import Batch, RatedGame, rate_batches

#: The targets (docs/performance.md): 100,000 games re-rated within this many seconds ...
TARGET_SECONDS = 60.0
#: ... and at most this many times the raw openskill calls.
TARGET_RATIO = 1.5


def history(games: int, players: int, tables: int, rounds: int, seed: int) -> list[Batch]:
    rng = random.Random(seed)
    batches, made, night = [], 0, 0
    while made < games:
        night += 1
        for number in range(1, rounds + 1):
            seated = rng.sample(range(1, players + 1), 3 * tables)
            round_games = []
            for t in range(tables):
                if made == games:
                    break
                made += 1
                ranks = tuple(rng.sample((1, 2, 3), 3))
                round_games.append(RatedGame(made, tuple(seated[3 * t : 3 * t + 3]), ranks))
            batches.append(Batch((night, number), tuple(round_games)))
    return batches


def raw_openskill(batches: list[Batch]) -> dict:
    model = PlackettLuce()
    now: dict[int, object] = {}
    for batch in batches:
        before = dict(now)
        for game in batch.games:
            teams = [[before.get(p) or model.rating()] for p in game.players]
            for player, (new,) in zip(
                game.players, model.rate(teams, ranks=list(game.ranks)), strict=True
            ):
                now[player] = new
    return now


def timed(call, repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.games = 10_000
    batches = history(args.games, args.players, args.tables, args.rounds, args.seed)
    # Alternated, so that a busy machine slows both alike.
    base_times, rerate_times = [], []
    for _ in range(args.repeats):
        seconds, raw = timed(lambda: raw_openskill(batches), 1)
        base_times.append(seconds)
        seconds, (steps, final) = timed(lambda: rate_batches(batches), 1)
        rerate_times.append(seconds)
    baseline, rerate = statistics.median(base_times), statistics.median(rerate_times)
    same = all(abs(final[p].mu - raw[p].mu) < 1e-9 for p in raw) and final.keys() == raw.keys()
    ratio = rerate / baseline
    target = TARGET_SECONDS * args.games / 100_000
    ok = rerate <= target and ratio <= TARGET_RATIO and same
    result = {
        "games": args.games,
        "batches": len(batches),
        "steps": len(steps),
        "baseline_seconds": round(baseline, 3),
        "rerate_seconds": round(rerate, 3),
        "ratio": round(ratio, 3),
        "target_seconds": target,
        "target_ratio": TARGET_RATIO,
        "same_as_openskill": same,
        "ok": ok,
        "python": platform.python_version(),
        "machine": output.machine(),
    }
    for key, value in result.items():
        print(f"{key:>20}: {value}")
    output.write(result, "ratings-quick.json" if args.quick else "ratings.json")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
