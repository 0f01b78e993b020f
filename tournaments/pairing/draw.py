"""`pair`: one round's draw, from a `Request` to a `Pairing`.

The steps are the same in every mode: byes (or a no-repeat plan's round, `plans`), then the
tables (the one step that differs by mode; keep-apart pairs and teammates weighted above
repeats in its searches, then made sure of: `rules`), then flags, numbering and seating,
and how many rounds a plan still gives. Each step is a function of plain values, so the
order of the input never matters (entrants are read in id order) and the same request
always gives the same draw.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from .byes import bye_flags, choose_byes
from .lots import lots, rng_for
from .norepeat import fewer_repeats, searched_tables
from .plans import follow_plan
from .rules import Rules, honour, review_reasons, rule_flags
from .search import Budget, Context, Group, met_pairs, ruled_cut
from .seating import seat
from .swiss import improved, swiss_tables, top_down
from .values import Flag, FlagCode, Mode, Pairing, Request, RuleReason, Table
from .why import Why, explain


def pair(request: Request) -> Pairing:
    """The draw for one round. Raises `PairingError` only for a malformed request (caught
    when the `Request` is built): any field of three or more players can be drawn."""
    entrants = sorted(request.entrants, key=lambda e: e.id)
    by_id = {e.id: e for e in entrants}
    lot = lots(by_id, request.seed, "round", request.round_number)
    followed = None
    if request.mode is Mode.NO_REPEAT:
        followed = follow_plan(
            entrants, request.met, request.apart, request.teams, request.planned_field,
            request.seed, lot,
        )  # fmt: skip
    byes = followed.byes if followed is not None else choose_byes(entrants, lot)
    benched = set(byes)
    active = [e for e in entrants if e.id not in benched]
    rank = {e.id: e.rank for e in active}
    rules = Rules(request.apart, request.teams, rank)
    # With rules, a quarter of the budget is kept for making sure of them (`honour`).
    budget = Budget(request.budget - request.budget // 4 if rules else request.budget)
    spare = Budget(request.budget // 4 if rules else 0)
    met_ctx = Context(rank, request.met)
    # A rule no seating keeps (counted): no search for a draw without any weighted pair.
    no_cover = bool(rules) and rules.impossible(FlagCode.TEAMMATES, sorted(rank))

    proven = True
    reasons: dict[FlagCode, RuleReason] = {}
    if request.mode is Mode.SWISS:
        ctx, floor = _weighted(rank, request.met, rules)
        players = sorted(rank, key=lambda p: (rank[p], lot[p]))
        rng = rng_for(request.seed, "swiss", request.round_number)
        groups, proven = swiss_tables(ctx, players, rng, budget, no_cover)
        drawn = groups
        if rules:
            groups, reasons = honour(
                ctx, rules, groups, players, rng, spare,
                lambda t: improved(ctx, t, spare), by_standing=True,
            )  # fmt: skip
            if groups is not drawn:
                top_down(ctx, groups, {p: place for place, p in enumerate(players)})
    elif request.mode is Mode.NO_REPEAT:
        ctx, floor = _weighted(dict.fromkeys(rank, 1), request.met, rules)
        players = sorted(rank, key=lambda p: lot[p])
        if followed is not None:
            groups = followed.tables
        else:
            rng = rng_for(request.seed, "no-repeat", request.round_number)
            groups, proven = searched_tables(ctx, players, rng, budget, no_cover, floor)
            if rules:
                groups, reasons = honour(
                    ctx, rules, groups, players, rng, spare,
                    lambda t: fewer_repeats(ctx, t, rng, spare, floor),
                )  # fmt: skip
    else:
        # Random ignores the history, not the rules: the shuffled field cut into tables
        # passing over rule pairs (`ruled_cut`), then swaps that take the rest apart
        # (`fewer_repeats` on the rules' weights alone; an eighth of the budget, as the
        # cover search of `honour` follows when they fall short).
        ctx, floor = _weighted(dict.fromkeys(rank, 1), {}, rules)
        players = sorted(rank)
        rng = rng_for(request.seed, "random", request.round_number)
        rng.shuffle(players)
        groups = ruled_cut(ctx, players)
        if rules:
            fewer_repeats(ctx, groups, rng, Budget(budget.left // 8), floor)
            groups, reasons = honour(
                ctx, rules, groups, players, rng, spare,
                lambda t: fewer_repeats(ctx, t, rng, spare, floor),
            )  # fmt: skip

    groups.sort(key=lambda g: (min(rank[p] for p in g), sum(rank[p] for p in g), min(g)))
    whys = _whys(request, met_ctx, groups, byes, lot, rules=rules)
    standing_ranks = sorted(rank.values())
    tables = []
    repeats = 0
    for number, (group, why) in enumerate(zip(groups, whys, strict=True), 1):
        flags = _table_flags(request, met_ctx, group, rank, lot, standing_ranks, rules, reasons)
        repeats += sum(1 for flag in flags if flag.code is FlagCode.REPEAT)
        seats, dealer = seat(group, by_id, lot)
        tables.append(Table(number, seats, dealer, flags, why))

    flags = list(bye_flags(entrants, byes))
    if repeats and not proven and request.mode is not Mode.RANDOM:
        flags.append(Flag.search_limit(repeats))
    clean = followed.clean_rounds if followed is not None else None
    return Pairing(tuple(tables), byes, tuple(flags), rounds_without_repeat=clean)


def _weighted(rank, met, rules: Rules) -> tuple[Context, int]:
    """The search context (who has met whom, and the rule pairs weighted above repeats) and
    the least weight any seating has (`Rules.floor`)."""
    if not rules:
        return Context(rank, met), 0
    weights = rules.weights(met)
    return Context(rank, met, weights), rules.floor(sorted(rank), weights)


def review(
    request: Request, tables: Sequence[Sequence[int]], byes: Sequence[int]
) -> tuple[tuple[tuple[Flag, ...], ...], tuple[Flag, ...], tuple[Why | None, ...]]:
    """The flags of a draft an organiser has edited by hand, by the same rules as `pair`:
    for each table (repeats, keep-apart and teammate pairs, and spread in swiss), then for
    the round (second byes); and
    each table's explanation (swiss), as `pair` gives it."""
    entrants = sorted(request.entrants, key=lambda e: e.id)
    lot = lots((e.id for e in entrants), request.seed, "round", request.round_number)
    benched = set(byes)
    rank = {e.id: e.rank for e in entrants if e.id not in benched}
    ctx = Context(rank, request.met)
    standing_ranks = sorted(rank.values())
    rules = Rules(request.apart, request.teams, rank)
    reasons = review_reasons(rules, tables, sorted(rank), Budget(request.budget // 4))
    per_table = tuple(
        _table_flags(request, ctx, tuple(table), rank, lot, standing_ranks, rules, reasons)
        for table in tables
    )
    whys = _whys(request, ctx, tables, tuple(byes), lot, by_hand=True, rules=rules)
    return per_table, tuple(bye_flags(entrants, tuple(byes))), whys


def _whys(request, ctx, tables, byes, lot, by_hand=False, rules=None) -> tuple[Why | None, ...]:
    """Each table's explanation: swiss only (the other modes do not follow the standings)."""
    if request.mode is not Mode.SWISS:
        return (None,) * len(tables)
    points = {e.id: e.points for e in request.entrants}
    order = sorted(ctx.rank, key=lambda p: (ctx.rank[p], lot[p]))
    ruled = (lambda p, q: rules.code(p, q) is not None) if rules else None
    return explain(ctx, tables, order, points, byes, by_hand, ruled)


def _table_flags(
    request, ctx, group, rank, lot, standing_ranks, rules, reasons
) -> tuple[Flag, ...]:
    flags = [Flag.repeat(a, b, request.met[(a, b)]) for a, b in met_pairs(ctx, group)]
    flags += rule_flags(rules, group, reasons)
    if request.mode is Mode.SWISS:
        spread = _places_apart(standing_ranks, group, rank)
        if spread > request.spread_limit:
            standing = sorted(group, key=lambda p: (rank[p], lot[p]))
            flags.append(Flag.spread(standing, spread, request.spread_limit))
    return tuple(flags)


def _places_apart(standing_ranks: list[int], group: Group, rank: dict[int, int]) -> int:
    """How many places apart the best and the worst at a table stand among the players
    seated this round, ties counted in their favour: 0 when all three are level, the rank
    difference when the ranks are 1..N. A table of neighbours in the standings is at most 2
    apart, however large the groups of equal ranks around it (a rank difference is not)."""
    low = min(rank[p] for p in group)
    high = max(rank[p] for p in group)
    if low == high:
        return 0
    return bisect_left(standing_ranks, high) - bisect_right(standing_ranks, low) + 1
