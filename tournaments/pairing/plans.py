"""Following a whole-event plan, round by round: which of its rounds this round plays.

A no-repeat event follows a plan (`norepeat.plan_for`, or the triangular plan of three
equal teams, `teams.triangular_design`) while its field is the one that started it. The plan
is fixed by the event's seed, its players and its rules (keep-apart pairs, teams), so the
same every round. Its rounds need not be played in the plan's order: a round is *unplayed*
while none of its pairs has met, and each draw takes an unplayed one, so that

- no round of the plan that seats a keep-apart or teammate pair is ever played while the
  plan has others: the search (which honours the rules first) draws that round instead, and
  the plan goes on after it as long as its remaining rounds stay unplayed;
- with byes (N mod 3 ≠ 0), of the rounds whose byes fall on players with the fewest byes
  so far, the one whose byes are ranked lowest: the usual bye rule, as far as the plan
  allows (each player sits out once in a plan, in a round the plan fixes, so the plan
  cannot always give the bye to the lowest ranked: it gives it to the lowest-ranked
  player whose bye round is still to come);
- the draw can say how many rounds the plan still gives without a repeat or a broken
  rule (`Pairing.rounds_without_repeat`): the unplayed rounds that break no rule.

The players are put on the plan's points in a seeded order, improved, when there are rules,
by a short seeded search that puts the rule pairs into as few rounds as it can (pairs the
plan never seats together are best): those rounds are left to the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from .lots import rng_for
from .norepeat import Plan, plan_for
from .rules import Rules
from .search import Group
from .teams import three_teams, triangular_design
from .values import Entrant, Pair


@dataclass(frozen=True)
class Followed:
    """This round's part of the plan: its tables and byes, and the plan's unplayed rounds
    that break no rule, this one included."""

    tables: list[Group]
    byes: tuple[int, ...]
    clean_rounds: int


def follow_plan(
    entrants: Sequence[Entrant],
    met: Mapping[Pair, Sequence[int]],
    apart: frozenset[Pair],
    teams: Mapping[int, int],
    planned_field: Sequence[int] | None,
    seed: int,
    lot: Mapping[int, int],
) -> Followed | None:
    """The round of the plan this round plays; None when the plan does not apply (the field
    changed, the plan is used up or left, or its byes would not be fair)."""
    players = tuple(sorted(e.id for e in entrants))
    if planned_field is None or tuple(sorted(planned_field)) != players:
        return None
    rules = Rules(apart, teams, players)
    found = _plan_and_labels(players, seed, rules.apart, frozenset(rules.team.items()))
    if found is None:
        return None
    plan, labels = found
    byes_so_far = {e.id: e.byes for e in entrants}
    rank = {e.id: e.rank for e in entrants}
    fewest = min(byes_so_far.values())
    clean = []
    for points, sitting in plan:
        tables = [[labels[p] for p in triple] for triple in points]
        if any(pair in met for t in tables for pair in combinations(sorted(t), 2)):
            continue  # played (or the event left the plan here)
        if rules and any(rules.broken(t) for t in tables):
            continue
        clean.append((tables, tuple(labels[p] for p in sitting)))
    fair = [(t, b) for t, b in clean if all(byes_so_far[p] == fewest for p in b)]
    if not fair:
        return None
    # The lowest ranked sitting out first (highest rank number, then the round's lot).
    tables, byes = min(
        fair, key=lambda tb: sorted((-rank[p], lot[p]) for p in tb[1]) if tb[1] else []
    )
    return Followed(tables, byes, len(clean))


@cache
def _plan_and_labels(
    players: tuple[int, ...],
    seed: int,
    apart: frozenset[Pair],
    team_of: frozenset[tuple[int, int]],
) -> tuple[Plan, list[int]] | None:
    """The event's plan and the player on each of its points (cached: the same for every
    round of the event)."""
    teams = dict(team_of)
    trio = three_teams(teams, players)
    if trio is not None:
        m = len(trio[0])
        design = triangular_design(m)
        if design is None:
            return None
        order = list(range(len(design)))
        rng_for(seed, "teams plan order", m).shuffle(order)
        plan: Plan = tuple((design[i], ()) for i in order)
        labels = []
        for number, team in enumerate(trio):
            members = list(team)
            rng_for(seed, "teams plan", m, number).shuffle(members)
            labels.extend(members)
        return plan, labels
    found = plan_for(len(players), seed)
    if found is None:
        return None
    labels = sorted(players)
    rng_for(seed, "plan", len(players)).shuffle(labels)
    rules = Rules(apart, teams, players)
    if rules:
        labels = _spread_rules(found, labels, rules, seed)
    return found, labels


def _spread_rules(plan: Plan, labels: list[int], rules: Rules, seed: int) -> list[int]:
    """Labels that put the plan's rule pairs into as few rounds as a short seeded search
    finds (swaps of two players' points, kept when no worse): fewest rounds with a
    keep-apart pair, then fewest with teammates."""
    meets: dict[Pair, int] = {}
    for k, (points, _) in enumerate(plan):
        for triple in points:
            for a, b in combinations(sorted(triple), 2):
                meets[(a, b)] = k
    point = {player: p for p, player in enumerate(labels)}
    kinds = dict.fromkeys(rules.teammates, 1)
    kinds.update(dict.fromkeys(rules.apart, 0))
    touching: dict[int, list[Pair]] = {}
    for pair in kinds:
        for player in pair:
            touching.setdefault(player, []).append(pair)
    counts = [[0] * len(plan), [0] * len(plan)]  # rule pairs meeting in each round, by kind

    def meet(pair: Pair) -> int | None:
        x, y = point[pair[0]], point[pair[1]]
        return meets.get((min(x, y), max(x, y)))

    def count(pairs: set[Pair], step: int) -> None:
        for pair in pairs:
            k = meet(pair)
            if k is not None:
                counts[kinds[pair]][k] += step

    def cost() -> tuple[int, int]:
        return sum(map(bool, counts[0])), sum(map(bool, counts[1]))

    count(set(kinds), 1)
    rng = rng_for(seed, "plan labels", len(labels))
    involved = sorted(touching)
    everyone = sorted(point)
    best = cost()
    for _ in range(3000):
        if best == (0, 0):
            break
        a, b = rng.choice(involved), rng.choice(everyone)
        if a == b:
            continue
        affected = {*touching.get(a, ()), *touching.get(b, ())}
        count(affected, -1)
        point[a], point[b] = point[b], point[a]
        count(affected, 1)
        now = cost()
        if now <= best:
            best = now
        else:
            count(affected, -1)
            point[a], point[b] = point[b], point[a]
            count(affected, 1)
    out = [0] * len(labels)
    for player, p in point.items():
        out[p] = player
    return out
