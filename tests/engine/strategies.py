"""Hypothesis strategies: valid game records of every ruleset, and arbitrary JSON."""

from hypothesis import strategies as st

from engine import RULESETS, Game, Rules

TARGET_SETS = [(3, 8, 5), (8, 5, 3), (9, 5, 2), (6, 5, 5), (9, 5, 3), (0, 8, 8), (17, 0, 0)]


@st.composite
def option_overrides(draw, ruleset_id: str) -> dict:
    optional = {
        "targets": st.sampled_from(TARGET_SETS).flatmap(st.permutations).map(list),
        "hands": st.none() | st.integers(1, 12),
        "goal": st.none() | st.integers(1, 15),
        "instant_win_tricks": st.none() | st.integers(9, 17),
        "exchange_order": st.sampled_from(["target", "points"]),
    }
    if RULESETS[ruleset_id].passes_per_game:
        optional["pass_turns"] = st.booleans()
    return draw(st.fixed_dictionaries({}, optional=optional))


@st.composite
def tricks_for(draw, per_hand: int) -> list[int]:
    first = draw(st.integers(0, per_hand))
    second = draw(st.integers(0, per_hand - first))
    return draw(st.permutations([first, second, per_hand - first - second]))


@st.composite
def last_tricks_for(draw, tricks: list[int]) -> list[int]:
    winners = [seat for seat in range(3) for _ in range(tricks[seat])]
    order = draw(st.permutations(winners))
    return order[: draw(st.integers(0, len(order)))]


@st.composite
def game_records(draw, max_deals: int = 24) -> dict:
    """A record the rules allow: calls drawn from what the engine says is open."""
    ruleset_id = draw(st.sampled_from(sorted(RULESETS)))
    options = draw(option_overrides(ruleset_id))
    first_dealer = draw(st.integers(0, 2))
    game = Game(Rules.build(ruleset_id, options), first_dealer)
    deals = []
    for _ in range(draw(st.integers(0, max_deals))):
        if game.end:
            break
        auction = game.auction()
        while not auction.finished:
            auction = auction.call(draw(st.sampled_from(auction.allowed_calls())).name)
        deal = {"calls": [made.call.name for made in auction.calls]}
        if auction.contract:
            deal["tricks"] = draw(tricks_for(game.rules.tricks_per_hand))
            if draw(st.booleans()):
                deal["last_tricks"] = draw(last_tricks_for(deal["tricks"]))
        game.play(deal["calls"], deal.get("tricks"), deal.get("last_tricks"))
        deals.append(deal)
    return {"ruleset": ruleset_id, "options": options, "first_dealer": first_dealer, "deals": deals}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
