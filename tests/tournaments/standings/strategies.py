"""Hypothesis strategies: small events that can happen, and every config the standings accept.

Totals and player counts are kept small so that ties, and so every tie-break, come up often.
Some players sit out a round with no bye, and some never play, as in a real event.
"""

from hypothesis import strategies as st

from tournaments.standings import (
    BYE_POLICIES,
    DEFAULT_PRECEDENCE,
    METRICS,
    Bye,
    Config,
    GameResult,
)


@st.composite
def events(draw, max_players: int = 12, max_rounds: int = 4):
    """(players, results, byes) of one possible event."""
    players = draw(st.lists(st.integers(-20, 10_000), max_size=max_players, unique=True))
    results, byes = [], []
    for number in range(1, draw(st.integers(0, max_rounds)) + 1):
        order = draw(st.permutations(players))
        tables = draw(st.integers(0, len(order) // 3))
        rest = order[3 * tables :]
        byes.extend(Bye(number, p) for p in rest[: draw(st.integers(0, len(rest)))])
        for table in range(tables):
            trio = tuple(order[3 * table : 3 * table + 3])
            totals = draw(st.tuples(*[st.integers(-3, 3)] * 3))
            placings = tuple(draw(st.permutations(trio)))
            results.append(GameResult(number, table + 1, trio, totals, placings))
    return players, results, byes


@st.composite
def configs(draw):
    """Any valid Config: placing points, bye policy, a precedence with or without lot."""
    points = tuple(sorted(draw(st.lists(st.integers(-2, 5), min_size=3, max_size=3)), reverse=True))
    others = [m for m in METRICS if m != "lot"]
    if draw(st.booleans()):
        precedence = list(DEFAULT_PRECEDENCE)
    else:
        precedence = draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others)))
        if draw(st.booleans()):
            precedence.append("lot")
    return Config(
        placing_points=points,
        bye_policy=draw(st.sampled_from(BYE_POLICIES)),
        precedence=tuple(precedence),
        seed=draw(st.integers(-(2**40), 2**40)),
    )
