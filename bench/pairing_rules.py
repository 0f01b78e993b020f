"""Benchmark: keep-apart rules and teams in the draw (`python -m bench.pairing --rules`).

Three parts, each measured against what no draw can beat:

- **Swiss with keep-apart groups.** A simulated swiss event in which clubs of three (the
  first half of the field, by id, which the made-up skills scatter over the standings) must
  never share a table. Each round is drawn with the rules and, on the same request, without
  them; with `--optimum`, both are also solved exactly (`bench.pairing_optimum`, the rules
  as a constraint). Reported: keep-apart pairs seated (0 while avoidable), the spread with
  the rules against the optimum with them, what the rules cost (spread with ÷ without, ours
  and the optimum's), and the seconds of each.
- **Three equal teams.** For team sizes m, a no-repeat event of m rounds and a swiss event
  of min(m, 9): rounds without a repeat against the bound m, tables that are not
  triangular (0), and opponent diversity: each player's distinct opponents against the most
  possible (2 a round, at most the 2m players of the other teams).
- **No-repeat with keep-apart pairs.** For each N, disjoint keep-apart pairs (N // 10 of
  them) in a no-repeat event: the rounds played before the first repeat or broken rule,
  against the plan's rounds without rules and the bound ⌊(N−1)/2⌋; and what the first
  draft promised (`Pairing.rounds_without_repeat`), which must not exceed what was played.
"""

from __future__ import annotations

import statistics
import time
from itertools import combinations

from tournaments.pairing import FlagCode, Mode, pair
from tournaments.pairing.designs import best_rounds
from tournaments.pairing.lots import lots
from tournaments.pairing.search import Context
from tournaments.pairing.simulation import Event

from .pairing_optimum import optimum

OPTIMUM_MARGIN = 6


def clubs(players: list[int], size: int = 3) -> frozenset[tuple[int, int]]:
    """Keep-apart pairs: the first half of `players` in clubs of `size`."""
    half = sorted(players)[: len(players) // 2]
    groups = [half[i : i + size] for i in range(0, len(half) - size + 1, size)]
    return frozenset(pair for group in groups for pair in combinations(group, 2))


def _seated(request, pairing):
    rank = {e.id: e.rank for e in request.entrants}
    lot = lots(rank, request.seed, "round", request.round_number)
    benched = set(pairing.byes)
    seated = sorted((p for p in rank if p not in benched), key=lambda p: (rank[p], lot[p]))
    return Context({p: rank[p] for p in seated}, request.met), seated


def swiss_apart_event(players: int, rounds: int, seed: int, with_optimum: bool) -> dict:
    event = Event(players, Mode.SWISS, seed=seed)
    apart = clubs(list(event.players))
    rows = []
    for _ in range(rounds):
        request = event.request(apart=apart)
        started = time.perf_counter()
        ours = pair(request)
        seconds = time.perf_counter() - started
        started = time.perf_counter()
        free = pair(event.request())
        free_seconds = time.perf_counter() - started
        ctx, seated = _seated(request, ours)
        tables = [t.seats for t in ours.tables]
        count = len(tables)
        row = {
            "round": request.round_number,
            "seconds": seconds,
            "seconds_without_rules": free_seconds,
            "apart_seated": sum(f.code is FlagCode.APART for f in ours.all_flags),
            "repeats": ctx.total(tables)[0],
            "spread": ctx.total(tables)[1] / count,
        }
        free_ctx, free_seated = _seated(request, free)
        row["spread_without_rules"] = free_ctx.total(t.seats for t in free.tables)[1] / count
        if with_optimum and request.round_number > 1:
            span = max(ctx.spread(t) for t in tables) + OPTIMUM_MARGIN
            best = optimum(ctx, seated, max_span=span, apart=apart)
            loose = optimum(free_ctx, free_seated, max_span=span)
            row.update(
                optimum_spread=best.spread / count,
                optimum_repeats=best.repeats,
                optimum_seconds=best.seconds,
                optimum_proven=best.proven,
                optimum_spread_without_rules=loose.spread / count,
                optimum_seconds_without_rules=loose.seconds,
            )
        rows.append(row)
        event.play(ours)
    scored = [r for r in rows if r["round"] > 1]

    def total(key: str) -> float:
        return sum(r[key] for r in scored)

    out = {
        "players": players,
        "rounds": rounds,
        "apart_pairs": len(apart),
        "apart_seated": sum(r["apart_seated"] for r in rows),
        "repeats": sum(r["repeats"] for r in rows),
        "max_seconds": max(r["seconds"] for r in rows),
        "max_seconds_without_rules": max(r["seconds_without_rules"] for r in rows),
        "rules_cost": total("spread") / total("spread_without_rules"),
        "by_round": rows,
    }
    if with_optimum:
        out.update(
            spread_vs_optimum=total("spread") / total("optimum_spread"),
            optimum_rules_cost=total("optimum_spread") / total("optimum_spread_without_rules"),
            optimum_repeats=sum(r["optimum_repeats"] for r in scored),
            optimum_proven=all(r["optimum_proven"] for r in scored),
            max_optimum_seconds=max(r["optimum_seconds"] for r in scored),
        )
    return out


def team_event(m: int, mode: Mode, seed: int) -> dict:
    event = Event(3 * m, mode, seed=seed)
    teams = {p: p % 3 for p in event.players}
    rounds = m if mode is Mode.NO_REPEAT else min(m, 9)
    clean, not_triangular, seconds = None, 0, []
    for number in range(1, rounds + 1):
        request = event.request(teams=teams)
        started = time.perf_counter()
        pairing = pair(request)
        seconds.append(time.perf_counter() - started)
        not_triangular += sum(len({teams[p] for p in t.seats}) < 3 for t in pairing.tables)
        if pairing.repeats() and clean is None:
            clean = number - 1
        event.play(pairing)
    opponents = {p: set() for p in teams}
    for a, b in event.met:
        opponents[a].add(b)
        opponents[b].add(a)
    most = min(2 * rounds, 2 * m)
    distinct = [len(o) for o in opponents.values()]
    return {
        "m": m,
        "mode": mode.value,
        "rounds": rounds,
        "rounds_without_repeat": rounds if clean is None else clean,
        "bound": m,
        "not_triangular": not_triangular,
        "distinct_opponents_min": min(distinct),
        "distinct_opponents_mean": statistics.fmean(distinct),
        "distinct_opponents_most": most,
        "max_seconds": max(seconds),
    }


def no_repeat_apart_event(players: int, seed: int) -> dict:
    event = Event(players, Mode.NO_REPEAT, seed=seed)
    ids = sorted(event.players)
    count = players // 10
    apart = frozenset(zip(ids[:count], ids[count : 2 * count], strict=True))
    promise, clean, seconds = None, 0, 0.0
    while clean <= players:
        started = time.perf_counter()
        pairing = pair(event.request(apart=apart))
        seconds += time.perf_counter() - started
        if promise is None:
            promise = pairing.rounds_without_repeat
        broken = any(f.code is FlagCode.APART for f in pairing.all_flags)
        if pairing.repeats() or broken:
            break
        clean += 1
        event.play(pairing)
    without = best_rounds(players - players % 3) if players % 3 != 2 else best_rounds(players + 1)
    return {
        "players": players,
        "apart_pairs": len(apart),
        "promised_in_round_1": promise,
        "rounds_without_repeat_or_broken_rule": clean,
        "plan_without_rules": without,
        "bound": (players - 1) // 2,
        "seconds": seconds,
    }


def run(quick: bool, seed: int, with_optimum: bool) -> dict:
    swiss_sizes = (15, 30) if quick else (15, 30, 60, 99)
    team_sizes = (3, 4, 6, 10, 12) if quick else tuple(range(1, 34))
    apart_sizes = (9, 15, 20, 30) if quick else tuple(range(3, 100))
    return {
        "swiss_apart": [
            swiss_apart_event(n, 5 if quick else 9, seed, with_optimum) for n in swiss_sizes
        ],
        "teams": [
            team_event(m, mode, seed) for m in team_sizes for mode in (Mode.NO_REPEAT, Mode.SWISS)
        ],
        "no_repeat_apart": [no_repeat_apart_event(n, seed) for n in apart_sizes],
    }


def print_rules(results: dict) -> None:
    print("\nswiss with keep-apart clubs of three (first half of the field)")
    print(
        f"{'N':>4} {'pairs':>5} {'seated':>6} {'rep':>4} {'max s':>6} {'s free':>6} {'cost':>5}"
        f" {'x opt':>6} {'opt cost':>8} {'opt s':>6}"
    )
    for r in results["swiss_apart"]:
        opt = "spread_vs_optimum" in r
        print(
            f"{r['players']:>4} {r['apart_pairs']:>5} {r['apart_seated']:>6} {r['repeats']:>4}"
            f" {r['max_seconds']:>6.3f} {r['max_seconds_without_rules']:>6.3f}"
            f" {r['rules_cost']:>5.2f}"
            + (
                f" {r['spread_vs_optimum']:>6.2f} {r['optimum_rules_cost']:>8.2f}"
                f" {r['max_optimum_seconds']:>6.2f}"
                + ("" if r["optimum_proven"] else " (not proven)")
                if opt
                else ""
            )
        )
    print(
        "  seated: keep-apart pairs at a table; cost: our spread with the rules ÷ without;"
        " x opt: ours ÷ the optimum with the rules;\n  opt cost: the optimum's with ÷ without"
    )
    print("\nthree equal teams of m: rounds without a repeat (bound m), distinct opponents")
    print(
        f"{'m':>3} {'mode':>9} {'rounds':>6} {'clean':>5} {'bound':>5} {'not tri':>7}"
        f" {'opp min':>7} {'mean':>6} {'most':>4} {'max s':>6}"
    )
    for r in results["teams"]:
        print(
            f"{r['m']:>3} {r['mode']:>9} {r['rounds']:>6} {r['rounds_without_repeat']:>5}"
            f" {r['bound']:>5} {r['not_triangular']:>7} {r['distinct_opponents_min']:>7}"
            f" {r['distinct_opponents_mean']:>6.1f} {r['distinct_opponents_most']:>4}"
            f" {r['max_seconds']:>6.3f}"
        )
    print("\nno-repeat with N // 10 keep-apart pairs: rounds before a repeat or a broken rule")
    print(
        f"{'N':>4} {'pairs':>5} {'promised':>8} {'reached':>7} {'no rules':>8} {'bound':>5}"
        f" {'s':>6}"
    )
    for r in results["no_repeat_apart"]:
        promise = r["promised_in_round_1"]
        print(
            f"{r['players']:>4} {r['apart_pairs']:>5} {'-' if promise is None else promise:>8}"
            f" {r['rounds_without_repeat_or_broken_rule']:>7} {r['plan_without_rules']:>8}"
            f" {r['bound']:>5} {r['seconds']:>6.2f}"
        )
    print(
        "  promised: the first draft's rounds_without_repeat; no rules: the plan's rounds"
        " without keep-apart pairs"
    )
