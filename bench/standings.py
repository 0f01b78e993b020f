"""Benchmark: building the standings of a large open, 3000 players over 9 rounds.

    .venv/bin/python -m bench.standings            # 3000 x 9, best and median of 5 builds
    .venv/bin/python -m bench.standings --quick    # 300 x 9, for a smoke run

The event is random but fixed by --seed: each round three players sit out with a bye (so
the byes are exercised too) and the rest play at random tables of three, with totals that
sum to zero and placings that follow the totals, equal totals in random order. Only the
build is timed, not making the event. Prints one line per bye policy and writes them as JSON
to bench/results/standings.json (standings-quick.json with --quick, so a smoke run never
overwrites the real figures).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from bench import output
from tournaments.standings import BYE_POLICIES, Bye, Config, GameResult, build_standings


def random_event(
    players: int, rounds: int, seed: int, byes_per_round: int = 3
) -> tuple[list[int], list[GameResult], list[Bye]]:
    """A deterministic random event: (player ids, results, byes).

    byes_per_round is raised as needed so that the players left fill whole tables.
    """
    rng = random.Random(seed)
    ids = [1000 + 7 * n for n in range(players)]  # not 0..N-1, as real ids are not
    results: list[GameResult] = []
    byes: list[Bye] = []
    sitting_out = min(players, byes_per_round + (players - byes_per_round) % 3)
    for number in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        byes.extend(Bye(number, p) for p in order[:sitting_out])
        seated = order[sitting_out:]
        for table, start in enumerate(range(0, len(seated), 3), start=1):
            trio = tuple(seated[start : start + 3])
            a, b = rng.randint(-12, 12), rng.randint(-12, 12)
            totals = (a, b, -a - b)
            by_place = sorted(range(3), key=lambda seat: (-totals[seat], rng.random()))
            results.append(
                GameResult(number, table, trio, totals, tuple(trio[s] for s in by_place))
            )
    return ids, results, byes


def time_build(players, results, byes, config, repeats: int) -> list[float]:
    """Wall time of each of `repeats` builds, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        build_standings(players, results, byes, config)
        times.append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.standings", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="300 players: a smoke run")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=358)
    args = parser.parse_args(argv)
    players = args.players or (300 if args.quick else 3000)

    ids, results, byes = random_event(players, args.rounds, args.seed)
    runs = []
    for policy in ("second", *(p for p in BYE_POLICIES if p != "second")):
        config = Config(bye_policy=policy, seed=args.seed)
        times = time_build(ids, results, byes, config, args.repeats)
        run = {
            "bye_policy": policy,
            "best_s": round(min(times), 4),
            "median_s": round(statistics.median(times), 4),
            "times_s": [round(t, 4) for t in times],
        }
        runs.append(run)
        print(
            f"standings {players} players x {args.rounds} rounds ({len(results)} games, "
            f"{len(byes)} byes), bye policy {policy}: best {run['best_s'] * 1000:.1f} ms, "
            f"median {run['median_s'] * 1000:.1f} ms of {args.repeats}"
        )

    report = {
        "benchmark": "standings",
        "players": players,
        "rounds": args.rounds,
        "games": len(results),
        "byes": len(byes),
        "seed": args.seed,
        "repeats": args.repeats,
        "python": platform.python_version(),
        "machine": output.machine(),
        "runs": runs,
    }
    output.write(report, "standings-quick.json" if args.quick else "standings.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
