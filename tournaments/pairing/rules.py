"""Keep-apart rules and teams: pairs that should not share a table, in every mode.

Priority, highest first: a keep-apart pair (`Request.apart`, the organiser's rule), then
teammates (`Request.teams`), then players who have met, then (swiss) closeness in the
standings. The rules ride on the searches the modes already have: `weights` gives each
rule pair a weight in the search `Context` larger than everything below it could add up to
in one draw, so every search (swaps, branch and bound, cover, fewest repeats) minimises the
rule pairs first, and `exact_cover` treats them like pairs who have met.

Those searches are local in large fields, so `honour` then makes sure: while a rule pair is
still seated together, it looks for a seating that keeps every such pair apart (a cover of
the rule pairs alone, by the same `exact_cover`, after one that also avoids repeats), lets
the mode's own search improve it, and keeps it if it is better. When there is none, the
pair is flagged with the reason: `UNAVOIDABLE` when that is proven (a group larger than the
number of tables: two of its players must then share one; or the cover search finished
without one), `NOT_FOUND` when the budget ran out first.

Byes are chosen before the tables, by the usual rules (`byes`): a rule never gives anyone a
bye, and its pairs are counted among the players seated this round.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations

from .search import Budget, Context, Group, exact_cover
from .values import Flag, FlagCode, Pair, RuleReason


class Rules:
    """The keep-apart pairs and teams among the players seated this round."""

    def __init__(self, apart: Iterable[Pair], teams: Mapping[int, int], players: Iterable[int]):
        self.players = sorted(players)
        present = set(self.players)
        self.apart = frozenset(p for p in apart if p[0] in present and p[1] in present)
        self.team = {p: teams[p] for p in self.players if p in teams}
        members: dict[int, list[int]] = {}
        for player, team in self.team.items():
            members.setdefault(team, []).append(player)
        self.members = {team: sorted(ps) for team, ps in members.items()}
        self.teammates = frozenset(
            pair for ps in self.members.values() if len(ps) > 1 for pair in combinations(ps, 2)
        )

    def __bool__(self) -> bool:
        return bool(self.apart or self.teammates)

    def code(self, a: int, b: int) -> FlagCode | None:
        """Which rule the pair (a, b) breaks by sharing a table, the higher one first."""
        if (min(a, b), max(a, b)) in self.apart:
            return FlagCode.APART
        team = self.team.get(a)
        if team is not None and team == self.team.get(b):
            return FlagCode.TEAMMATES
        return None

    def broken(self, table: Sequence[int]) -> list[tuple[FlagCode, Pair]]:
        """The rule pairs at `table`, smaller id first, as (rule, pair)."""
        out = []
        for a, b in combinations(sorted(table), 2):
            code = self.code(a, b)
            if code is not None:
                out.append((code, (a, b)))
        return out

    def codes(self, tables: Iterable[Sequence[int]]) -> set[FlagCode]:
        return {code for table in tables for code, _ in self.broken(table)}

    def weights(self, met: Mapping[Pair, Sequence[int]]) -> dict[Pair, int]:
        """Each rule pair's weight for the search `Context`: a teammate pair outweighs every
        repeat a draw of these players could have (3 pairs a table, each met at most as often
        as the most met pair), a keep-apart pair every teammate and repeat together."""
        present = set(self.players)
        heaviest = 1 + max(
            (max(1, len(r)) for (a, b), r in met.items() if a in present and b in present),
            default=0,
        )
        pairs_per_draw = 3 * (len(self.players) // 3)
        teammate = pairs_per_draw * heaviest + 1
        apart = pairs_per_draw * (teammate + heaviest) + 1
        out = dict.fromkeys(self.teammates, teammate)
        out.update(dict.fromkeys(self.apart, apart))
        return out

    def floor(self, players: Sequence[int], weights: Mapping[Pair, int]) -> int:
        """A least weight any seating of `players` has (`weights` as from `weights`): each
        group of players all kept apart from one another, and each team with no one kept
        apart from anyone, spread over the tables as evenly as they can be, a group of g
        over T tables leaving at least the pairs of g players placed round-robin."""
        tables = len(players) // 3
        seated = set(players)
        near: dict[int, set[int]] = {p: set() for p in seated}
        for a, b in self.apart:
            if a in seated and b in seated:
                near[a].add(b)
                near[b].add(a)
        total = 0
        for group in _complete_components(near):
            total += _fewest_pairs(len(group), tables) * weights[(min(group), max(group))]
        touched = {p for p in seated if near[p]}
        for members in self.members.values():
            group = [p for p in members if p in seated]
            if len(group) > 1 and touched.isdisjoint(group):
                total += _fewest_pairs(len(group), tables) * weights[(group[0], group[1])]
        return total

    def graph(self, code: FlagCode) -> frozenset[Pair]:
        """The pairs a seating must keep apart to break no rule of `code` or above."""
        return self.apart if code is FlagCode.APART else self.apart | self.teammates

    def impossible(self, code: FlagCode, players: Sequence[int]) -> bool:
        """Whether no seating of `players` keeps the pairs of `graph(code)` apart, by
        counting: a team, or a group of players all kept apart from one another, larger
        than the number of tables (two of them must share one); or a player kept apart from
        all but one of the others."""
        tables = len(players) // 3
        seated = set(players)
        near: dict[int, set[int]] = {p: set() for p in seated}
        for a, b in self.apart:
            if a in seated and b in seated:
                near[a].add(b)
                near[b].add(a)
        mates = code is FlagCode.TEAMMATES
        teams = [[p for p in ps if p in seated] for ps in self.members.values()] if mates else []
        size = {p: len(team) for team in teams for p in team}
        for p in seated:
            blocked = len(near[p])
            if p in size:
                team = self.team[p]
                blocked += size[p] - 1 - sum(1 for q in near[p] if self.team.get(q) == team)
            if blocked > len(seated) - 3:
                return True
        groups = [*_complete_components(near), *teams]
        return any(len(group) > tables for group in groups)


def _fewest_pairs(group: int, tables: int) -> int:
    """The fewest pairs of a group of `group` players at shared tables of three."""
    if tables == 0 or group > 3 * tables:
        return 0
    each, more = divmod(group, tables)
    return more * (each + 1) * each // 2 + (tables - more) * each * (each - 1) // 2


def _complete_components(near: Mapping[int, set[int]]) -> Iterable[list[int]]:
    """The connected parts of the graph in which everyone is linked with everyone."""
    seen: set[int] = set()
    for start in sorted(near):
        if start in seen or not near[start]:
            continue
        part, todo = [], [start]
        seen.add(start)
        while todo:
            p = todo.pop()
            part.append(p)
            for q in near[p]:
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
        if all(len(near[p]) == len(part) - 1 for p in part):
            yield part


def honour(
    ctx: Context,
    rules: Rules,
    tables: list[Group],
    players: Sequence[int],
    rng: random.Random,
    budget: Budget,
    improve: Callable[[list[Group]], None],
    by_standing: bool = False,
) -> tuple[list[Group], dict[FlagCode, RuleReason]]:
    """`tables`, or a better seating when they break a rule that some seating keeps (see the
    module's docstring); and, for each rule still broken, why. `ctx` is the mode's weighted
    context, `improve` the mode's own search, run on a seating found here."""
    reasons: dict[FlagCode, RuleReason] = {}
    for code in (FlagCode.APART, FlagCode.TEAMMATES):
        if code not in rules.codes(tables):
            continue
        if reasons.get(FlagCode.APART) is RuleReason.UNAVOIDABLE or rules.impossible(code, players):
            # No seating keeps them all apart: the mode's own search once more, from what
            # it has, for the fewest.
            reasons[code] = RuleReason.UNAVOIDABLE
            again = [list(t) for t in tables]
            improve(again)
            if ctx.total(again) < ctx.total(tables):
                tables = again
            continue
        graph = rules.graph(code)
        hard = Context(ctx.rank, dict.fromkeys(graph, ()))
        # First a seating that avoids the repeats too (with half the budget left), then
        # one that keeps the rules alone.
        share = Budget(budget.left // 2)
        found, _ = exact_cover(ctx, players, rng, share, by_standing)
        budget.left -= budget.left // 2 - max(share.left, 0)
        if found is None:
            found, finished = exact_cover(hard, players, rng, budget, by_standing)
        if found is None:
            reasons[code] = RuleReason.UNAVOIDABLE if finished else RuleReason.NOT_FOUND
            continue
        found.sort(key=lambda t: (min(ctx.rank[p] for p in t), sum(ctx.rank[p] for p in t)))
        improve(found)
        if ctx.total(found) < ctx.total(tables):
            tables = found
    return tables, reasons


def rule_flags(
    rules: Rules, table: Sequence[int], reasons: Mapping[FlagCode, RuleReason]
) -> list[Flag]:
    """The APART and TEAMMATES flags of one table, with the reason for each rule."""
    return [
        Flag.rule(code, a, b, reasons.get(code, RuleReason.NOT_FOUND))
        for code, (a, b) in rules.broken(table)
    ]


def review_reasons(
    rules: Rules, tables: Sequence[Sequence[int]], players: Sequence[int], budget: Budget
) -> dict[FlagCode, RuleReason]:
    """For a draft edited by hand: each broken rule is `UNAVOIDABLE` when no seating of the
    players keeps it (proven by counting or by a finished search), `BY_HAND` otherwise."""
    reasons: dict[FlagCode, RuleReason] = {}
    for code in sorted(rules.codes(tables)):
        unavoidable = rules.impossible(code, players)
        if not unavoidable:
            hard = Context(dict.fromkeys(players, 1), dict.fromkeys(rules.graph(code), ()))
            found, finished = exact_cover(hard, players, random.Random(0), budget)
            unavoidable = found is None and finished
        reasons[code] = RuleReason.UNAVOIDABLE if unavoidable else RuleReason.BY_HAND
    return reasons
