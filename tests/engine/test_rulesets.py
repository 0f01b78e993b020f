"""Rulesets are data; options are checked; a new ruleset needs no new code."""

from dataclasses import replace

import pytest

from engine import RULESETS, Game, RuleError, Rules, replay, state_as_json
from engine import calls as C
from engine.rulesets import BLATO, ExchangeTiming, Options


def test_the_five_built_in_rulesets():
    assert list(RULESETS) == [
        "blato",
        "three-five-eight",
        "sergeant-major",
        "sergeant-major-alternate",
        "nine-five-two",
    ]
    expected = {
        "blato": ((3, 8, 5), 1, 9, None, None),
        "three-five-eight": ((8, 5, 3), 0, None, 10, None),
        "sergeant-major": ((8, 5, 3), 0, None, None, 12),
        "sergeant-major-alternate": ((8, 5, 3), 0, None, None, None),
        "nine-five-two": ((9, 5, 2), 0, None, None, 12),
    }
    for ruleset_id, (targets, caller, hands, goal, instant) in expected.items():
        ruleset = RULESETS[ruleset_id]
        options = ruleset.defaults
        assert (
            options.targets,
            ruleset.caller_position,
            options.hands,
            options.goal,
            options.instant_win_tricks,
        ) == (targets, caller, hands, goal, instant)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "unknown option"),
        ({"targets": [3, 8, 4]}, "summing to 16 or 17"),
        ({"targets": [3, 8]}, "three whole numbers"),
        ({"targets": [-1, 9, 8]}, "≥ 0"),
        ({"targets": [3.0, 8, 5]}, "whole numbers"),
        ({"hands": 0}, "positive"),
        ({"hands": True}, "positive"),
        ({"goal": -3}, "positive"),
        ({"instant_win_tricks": "12"}, "positive"),
        ({"pass_turns": "yes"}, "true or false"),
        ({"exchange_order": "x"}, "exchange_order"),
        ([], "must be an object"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(RuleError, match=message):
        Rules.build("blato", options)


def test_pass_turns_only_where_players_may_pass():
    with pytest.raises(RuleError, match="has none"):
        Rules.build("three-five-eight", {"pass_turns": True})
    assert Rules.build("three-five-eight", {"pass_turns": False}).options.pass_turns is False


def test_seventeen_tricks_when_the_targets_sum_to_seventeen():
    rules = Rules.build("sergeant-major", {"targets": [9, 5, 3]})
    assert rules.tricks_per_hand == 17
    game = Game(rules)
    with pytest.raises(RuleError, match="add up to 17"):
        game.play(["spades"], [8, 5, 3])
    assert game.play(["spades"], [9, 5, 3]).points == (0, 0, 0)


def test_a_new_ruleset_is_only_data():
    """6-3-8 as 003 sketches it: a ruleset value, no engine change."""
    six_three_eight = replace(
        BLATO,
        id="six-three-eight",
        calls=C.SUITS,
        passes_per_game=0,
        caller_position=0,
        exchange=ExchangeTiming.BEFORE_CALL,
        exchange_skipped_after=(),
        defaults=Options(targets=(8, 3, 6), hands=3),
    )
    game = Game(Rules(six_three_eight, six_three_eight.defaults))
    game.play(["clubs"], [10, 2, 5])
    game.play(["hearts"], [5, 8, 4])
    state = game.state()
    # hand 1: targets (8, 3, 6), points (2, -1, -1): one card to each, in the direction of play
    assert [t.as_json() for t in state.deals[1].exchange] == [
        {"from": 0, "to": 1, "cards": 1},
        {"from": 0, "to": 2, "cards": 1},
    ]
    assert [call.name for call in state.next.allowed_calls] == [
        "spades",
        "hearts",
        "diamonds",
        "clubs",
    ]


def test_each_call_once_ends_the_alternate_game_after_eighteen_hands():
    calls = ["spades", "hearts", "diamonds", "clubs", "no-trump", "miz"]
    deals = [{"calls": [calls[hand // 3]], "tricks": [8, 5, 3]} for hand in range(18)]
    state = state_as_json(replay({"ruleset": "sergeant-major-alternate", "deals": deals}))
    assert state["finished"] and state["deals"][-1]["hand"] == 18
    assert state["next"] is None
    with pytest.raises(RuleError) as error:
        replay({"ruleset": "sergeant-major-alternate", "deals": deals + deals[:1]})
    assert error.value.deal == 19
