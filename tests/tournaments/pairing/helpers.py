"""Brute force and hypothesis strategies for the pairing tests."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from hypothesis import strategies as st

from tournaments.pairing import Entrant, Pairing, Request


def partitions(players: Sequence[int]) -> Iterator[list[tuple[int, int, int]]]:
    """Every partition of `players` into triples (280 for 9 players, 15 400 for 12)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for q, r in combinations(rest, 2):
        left = [p for p in rest if p not in (q, r)]
        for tail in partitions(left):
            yield [(first, q, r), *tail]


def weight(request: Request, a: int, b: int) -> int:
    rounds = request.met.get((min(a, b), max(a, b)))
    return 0 if rounds is None else max(1, len(rounds))


def cost(request: Request, tables: Sequence[Sequence[int]]) -> tuple[int, int]:
    """(repeats, spread) of a partition, as swiss ranks them."""
    rank = {e.id: e.rank for e in request.entrants}
    repeats = sum(weight(request, a, b) for t in tables for a, b in combinations(t, 2))
    spread = sum(max(rank[p] for p in t) - min(rank[p] for p in t) for t in tables)
    return repeats, spread


def seated(pairing: Pairing) -> list[int]:
    return sorted(p for table in pairing.tables for p in table.seats)


@st.composite
def requests(
    draw, min_players: int = 3, max_players: int = 14, modes=None, rules: bool = False
) -> Request:
    """A valid request: any field, history, standings, bye and seat counts; with `rules`,
    keep-apart pairs (a few pairs, a group) and teams too."""
    n = draw(st.integers(min_players, max_players))
    ids = draw(st.lists(st.integers(1, 10_000), min_size=n, max_size=n, unique=True))
    entrants = tuple(
        Entrant(
            player,
            rank=draw(st.integers(1, n)),
            byes=draw(st.integers(0, 2)),
            seat_counts=tuple(draw(st.lists(st.integers(0, 4), min_size=3, max_size=3))),
            dealer_count=draw(st.integers(0, 4)),
        )
        for player in ids
    )
    pairs = list(combinations(sorted(ids), 2))
    met = draw(
        st.dictionaries(
            st.sampled_from(pairs),
            st.lists(st.integers(1, 9), min_size=1, max_size=2, unique=True).map(
                lambda rounds: tuple(sorted(rounds))
            ),
            max_size=len(pairs) // 2,
        )
    )
    mode = draw(st.sampled_from(modes or ["random", "swiss", "no-repeat"]))
    planned = draw(st.none() | st.just(tuple(sorted(ids))))
    apart, teams = frozenset(), {}
    if rules:
        apart = frozenset(draw(st.lists(st.sampled_from(pairs), max_size=n)))
        group = draw(st.lists(st.sampled_from(sorted(ids)), max_size=n // 2, unique=True))
        apart |= frozenset(combinations(sorted(group), 2))
        count = draw(st.integers(1, 5))
        teams = {p: draw(st.integers(1, count)) for p in ids if draw(st.booleans())}
    return Request(
        entrants=entrants,
        mode=mode,
        round_number=draw(st.integers(1, 9)),
        seed=draw(st.integers(0, 2**32)),
        met=met,
        planned_field=planned,
        apart=apart,
        teams=teams,
    )
