"""Benchmark: the pairing of swiss and no-repeat events.

    .venv/bin/python -m bench.pairing            # swiss 15, 99, 300, 999, 3000 x 9 rounds
    .venv/bin/python -m bench.pairing --quick    # swiss 15, 99, 300, for a smoke run
    .venv/bin/python -m bench.pairing --reference  # + a slow, thorough search up to 99
    .venv/bin/python -m bench.pairing --no-repeat-only  # no-repeat, every N from 3 to 99
    .venv/bin/python -m bench.pairing --rules-only [--quick] [--optimum]  # keep-apart, teams

Swiss: an event is played round by round with made-up results
(`tournaments.pairing.simulation`: placings from skill plus luck, 2-1-0 points, zero-sum game
totals as the tie-break). For every round it records the time `pair` took, the repeats, and
the mean within-table spread of standing (highest rank − lowest, in places) against two
others on the same request: the ideal (the standings cut into consecutive triples, ignoring
repeats: no draw can do better) and a plain greedy baseline (top player down, each with the
next two who have not met them). Ratios are totals over rounds 2..R (in round 1 everyone is
level, so every draw has spread 0). With --reference, a much slower search started from our
draw (`reference`) shows how much better a draw could do in the smaller fields, where the
ideal is out of reach: late in a small event most neighbours in the standings have met.
With --optimum, each round of up to 99 players is also solved exactly by integer programming
(`bench.pairing_optimum`): the fewest repeats and least spread that any draw could have had.

No-repeat: events of every size from 3 to 99 players follow their plan (a Kirkman or nearly
Kirkman design, with byes for N not divisible by 3: `tournaments.pairing.norepeat`); the
benchmark counts the rounds played before the first repeat against the rounds promised and
the bound ⌊(N−1)/2⌋, and times them. Some events without a plan (each round searched from
the history alone) show what the plan buys and how far round-by-round search gets.

Keep-apart rules and teams (`--rules`, `--rules-only`; `bench.pairing_rules`): swiss with
keep-apart clubs against the exact optimum with the rules, three equal teams (rounds without
a repeat against the bound, opponent diversity), no-repeat with keep-apart pairs.

Prints tables and writes everything as JSON to bench/results/pairing.json (pairing-quick.json
with --quick, so a smoke run never overwrites the real figures).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench import output
from tournaments.pairing import Mode, pair
from tournaments.pairing.designs import best_rounds
from tournaments.pairing.lots import lots
from tournaments.pairing.norepeat import base_plan
from tournaments.pairing.search import Budget, Context, consecutive, polish, refine_windows
from tournaments.pairing.simulation import Event

from .pairing_optimum import optimum
from .pairing_rules import print_rules
from .pairing_rules import run as run_rules

SWISS_SIZES = (15, 99, 300, 999, 3000)
SWISS_SIZES_QUICK = (15, 99, 300)
#: --optimum considers tables up to this many places wider than our draw's widest.
OPTIMUM_MARGIN = 6
#: Every field from 3 to 99 players follows its plan (byes included).
NO_REPEAT_PLANNED = tuple(range(3, 100))
NO_REPEAT_PLANNED_QUICK = (9, 10, 11, 12, 30, 45, 99)
NO_REPEAT_SEARCHED = (9, 15, 21, 30, 45, 99)
NO_REPEAT_SEARCHED_QUICK = (9, 15, 21, 30)


def greedy(ctx: Context, players: list[int]) -> list[list[int]]:
    """The plain baseline: the best-standing player left, with the next two in standing
    who have met neither them nor each other (the next two at all if there are none)."""
    left = list(players)
    tables = []
    while left:
        p = left.pop(0)
        partners: list[int] = []
        for q in left:
            if all(ctx.opp[q].get(x, 0) == 0 for x in (p, *partners)):
                partners.append(q)
                if len(partners) == 2:
                    break
        for q in left:
            if len(partners) == 2:
                break
            if q not in partners:
                partners.append(q)
        for q in partners:
            left.remove(q)
        tables.append([p, *partners])
    return tables


def reference(ctx: Context, tables: list[list[int]]) -> list[list[int]]:
    """A much slower search from our draw: every window of seven consecutive tables
    re-solved exactly (up to 200 000 steps each), twice over. Not a proof of the optimum,
    but when it changes nothing, no re-seating of players within seven tables of each
    other beats our draw."""
    tables = sorted((list(t) for t in tables), key=lambda t: (min(ctx.rank[p] for p in t), sum(t)))
    for _ in range(2):
        refine_windows(ctx, tables, Budget(10**12), width=7, step=1, window_cap=200_000)
        polish(ctx, tables)
    return tables


def swiss_event(
    players: int, rounds: int, seed: int, with_reference: bool = False, with_optimum: bool = False
) -> dict:
    event = Event(players, Mode.SWISS, seed=seed)
    rows = []
    for _ in range(rounds):
        request = event.request()
        started = time.perf_counter()
        pairing = pair(request)
        seconds = time.perf_counter() - started

        rank = {e.id: e.rank for e in request.entrants}
        lot = lots(rank, request.seed, "round", request.round_number)
        benched = set(pairing.byes)
        seated = sorted((p for p in rank if p not in benched), key=lambda p: (rank[p], lot[p]))
        ctx = Context({p: rank[p] for p in seated}, request.met)
        ours = [list(table.seats) for table in pairing.tables]
        started = time.perf_counter()
        baseline = greedy(ctx, seated)
        greedy_seconds = time.perf_counter() - started
        count = len(ours)
        extra = {}
        if with_reference:
            best = reference(ctx, ours)
            extra["reference_spread"] = ctx.total(best)[1] / count
        if with_optimum and request.round_number > 1:
            widest = max(ctx.spread(table) for table in ours)
            best = optimum(ctx, seated, max_span=widest + OPTIMUM_MARGIN)
            extra.update(
                optimum_spread=best.spread / count,
                optimum_repeats=best.repeats,
                optimum_proven=best.proven,
                optimum_max_span=widest + OPTIMUM_MARGIN,
            )
        rows.append(
            {
                "round": request.round_number,
                "seconds": seconds,
                "repeats": ctx.total(ours)[0],
                "spread": ctx.total(ours)[1] / count,
                "ideal_spread": ctx.total(consecutive(seated))[1] / count,
                "ideal_repeats": ctx.total(consecutive(seated))[0],
                "greedy_spread": ctx.total(baseline)[1] / count,
                "greedy_repeats": ctx.total(baseline)[0],
                "greedy_seconds": greedy_seconds,
                "flags": sorted({flag.code.value for flag in pairing.all_flags}),
                **extra,
            }
        )
        event.play(pairing)
    scored = [row for row in rows if row["round"] > 1]

    def total(key: str) -> float:
        return sum(row[key] for row in scored)

    extra = {}
    if with_reference:
        extra["reference_spread_vs_ideal"] = total("reference_spread") / total("ideal_spread")
    if with_optimum:
        extra["optimum_spread_vs_ideal"] = total("optimum_spread") / total("ideal_spread")
        extra["optimum_repeats"] = sum(row["optimum_repeats"] for row in scored)
        extra["optimum_proven"] = all(row["optimum_proven"] for row in scored)
    return {
        **extra,
        "players": players,
        "rounds": rounds,
        "max_seconds": max(row["seconds"] for row in rows),
        "mean_seconds": statistics.fmean(row["seconds"] for row in rows),
        "repeats": sum(row["repeats"] for row in rows),
        "greedy_repeats": sum(row["greedy_repeats"] for row in rows),
        "spread": total("spread") / (len(scored) or 1),
        "ideal_spread": total("ideal_spread") / (len(scored) or 1),
        "spread_vs_ideal": total("spread") / total("ideal_spread"),
        "worst_round_vs_ideal": max(row["spread"] / row["ideal_spread"] for row in scored),
        "greedy_spread_vs_ideal": total("greedy_spread") / total("ideal_spread"),
        "spread_vs_greedy": total("spread") / total("greedy_spread"),
        "by_round": rows,
    }


def no_repeat_event(players: int, seed: int, planned: bool, limit_seconds: float) -> dict:
    """Play until the first repeat (or one round past the bound): rounds without one."""
    event = Event(players, Mode.NO_REPEAT, seed=seed)
    bound = best_rounds(players) if players % 3 == 0 else (players - 1) // 2
    promised = best_rounds(players - players % 3) if players % 3 != 2 else best_rounds(players + 1)
    clean = 0
    seconds = []
    while clean <= bound and sum(seconds) < limit_seconds:
        request = event.request(planned_field=event.planned_field if planned else None)
        started = time.perf_counter()
        pairing = pair(request)
        seconds.append(time.perf_counter() - started)
        if pairing.repeats():
            break
        clean += 1
        event.play(pairing)
    plan = base_plan(players) if planned else None
    return {
        "players": players,
        "planned": planned,
        "design_rounds": len(plan) if plan else None,
        "promised": promised,
        "upper_bound": bound,
        "rounds_without_repeat": clean,
        "seconds_clean_rounds": sum(seconds[:clean]),
        "max_seconds_clean_round": max(seconds[:clean], default=0.0),
        "seconds_next_round": seconds[clean] if len(seconds) > clean else None,
    }


def print_swiss(results: list[dict]) -> None:
    print("swiss, 9 rounds: seconds per round, repeats, mean spread (places) vs ideal and greedy")
    head = (
        f"{'N':>5} {'max s/rnd':>9} {'mean s':>7} {'repeats':>7} {'spread':>7} {'ideal':>6}"
        f" {'x ideal':>7} {'worst':>6} {'greedy':>7} {'g rep':>6} {'x greedy':>8}"
    )
    print(head)
    for r in results:
        reference = r.get("reference_spread_vs_ideal")
        best = r.get("optimum_spread_vs_ideal")
        print(
            f"{r['players']:>5} {r['max_seconds']:>9.3f} {r['mean_seconds']:>7.3f}"
            f" {r['repeats']:>7} {r['spread']:>7.2f} {r['ideal_spread']:>6.2f}"
            f" {r['spread_vs_ideal']:>7.2f} {r['worst_round_vs_ideal']:>6.2f}"
            f" {r['greedy_spread_vs_ideal']:>7.2f} {r['greedy_repeats']:>6}"
            f" {r['spread_vs_greedy']:>8.2f}"
            + ("" if reference is None else f"  reference x ideal {reference:.2f}")
            + (
                ""
                if best is None
                else f"  optimum x ideal {best:.2f} ({r['optimum_repeats']} repeats"
                f"{'' if r['optimum_proven'] else ', not proven: time limit'})"
            )
        )
    print(
        "  x ideal: our spread / ideal (rounds 2-9); worst: worst single round; greedy: its"
        " spread / ideal; g rep: greedy's repeats; x greedy: our spread / greedy's"
    )


def print_no_repeat(results: list[dict]) -> None:
    print("\nno-repeat: rounds before the first repeat")
    print(
        f"{'N':>4} {'plan':>5} {'design':>6} {'promised':>8} {'bound':>5} {'reached':>7}"
        f" {'s, those':>9} {'s, next':>8}"
    )
    for r in results:
        design = r["design_rounds"] if r["design_rounds"] is not None else "-"
        following = r["seconds_next_round"]
        print(
            f"{r['players']:>4} {'yes' if r['planned'] else 'no':>5} {design:>6}"
            f" {r['promised']:>8} {r['upper_bound']:>5} {r['rounds_without_repeat']:>7}"
            f" {r['seconds_clean_rounds']:>9.2f}"
            f" {'-' if following is None else f'{following:.2f}':>8}"
        )
    planned = [r for r in results if r["planned"]]
    short = [r["players"] for r in planned if r["rounds_without_repeat"] < r["promised"]]
    print(
        f"  {len(planned)} planned fields; below the promised rounds: {short or 'none'}\n"
        "  promised: the known optimum for N divisible by 3 (⌊(N−1)/2⌋; 1 for 6, 4 for 12),"
        " otherwise that of the multiple\n  of 3 below N (of N + 1 for N ≡ 2 mod 3);"
        " bound: ⌊(N−1)/2⌋ (a player who never sits out meets two new\n  people a round);"
        " s, those: seconds for all the rounds without a repeat; s, next: the round after,"
        " which\n  searches until its budget is spent"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pairing", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller fields, for a smoke run")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument(
        "--reference",
        action="store_true",
        help="also run a slow, thorough search on each swiss round of up to 99 players, to see"
        " how far from the best possible our draws are (adds a minute or so)",
    )
    parser.add_argument(
        "--optimum",
        action="store_true",
        help="also solve each swiss round of up to 99 players exactly (integer programming"
        " with SciPy's HiGHS; a few minutes): the best spread any draw could have had",
    )
    parser.add_argument(
        "--no-repeat-only",
        action="store_true",
        help="only the no-repeat events (every N from 3 to 99), written to"
        " bench/results/pairing-norepeat.json",
    )
    parser.add_argument(
        "--rules",
        action="store_true",
        help="also the keep-apart and team figures (bench.pairing_rules)",
    )
    parser.add_argument(
        "--rules-only",
        action="store_true",
        help="only the keep-apart and team figures, written to bench/results/pairing-rules.json",
    )
    args = parser.parse_args(argv)
    if args.rules_only:
        return _rules_only(args)

    sizes = SWISS_SIZES_QUICK if args.quick else SWISS_SIZES
    searched = NO_REPEAT_SEARCHED_QUICK if args.quick else NO_REPEAT_SEARCHED
    swiss = [
        swiss_event(n, args.rounds, args.seed, args.reference and n <= 99, args.optimum and n <= 99)
        for n in (() if args.no_repeat_only else sizes)
    ]
    if swiss:
        print_swiss(swiss)
    planned = NO_REPEAT_PLANNED_QUICK if args.quick else NO_REPEAT_PLANNED
    no_repeat = [no_repeat_event(n, args.seed, True, 60.0) for n in planned]
    no_repeat += [no_repeat_event(n, args.seed, False, 60.0) for n in searched]
    print_no_repeat(no_repeat)

    name = "pairing-quick" if args.quick else "pairing"
    report = {
        "command": "python -m bench.pairing"
        + "".join(
            f" --{flag.replace('_', '-')}"
            for flag in ("quick", "reference", "optimum", "no_repeat_only")
            if getattr(args, flag)
        ),
        "seed": args.seed,
        "machine": output.machine(),
        "load_average": output.load_average(),
        "swiss": swiss,
        "no_repeat": no_repeat,
    }
    if args.rules:
        report["rules"] = run_rules(args.quick, args.seed, args.optimum)
        print_rules(report["rules"])
    output.write(report, f"{name}-norepeat.json" if args.no_repeat_only else f"{name}.json")
    return 0


def _rules_only(args: argparse.Namespace) -> int:
    results = run_rules(args.quick, args.seed, args.optimum)
    print_rules(results)
    report = {
        "command": "python -m bench.pairing --rules-only"
        + (" --quick" if args.quick else "")
        + (" --optimum" if args.optimum else ""),
        "seed": args.seed,
        "machine": output.machine(),
        "load_average": output.load_average(),
        **results,
    }
    output.write(report, "pairing-rules-quick.json" if args.quick else "pairing-rules.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
