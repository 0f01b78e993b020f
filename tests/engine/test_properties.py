"""Properties every game must have, on random valid records of every ruleset."""

import copy
import io
import json
from contextlib import redirect_stdout

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import RULESETS, RuleError, replay, state_as_json
from engine.cli import main

from .strategies import game_records, json_values

quick = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def hands(state):
    return [deal for deal in state.deals if not deal.redeal]


@quick
@given(game_records())
def test_points_of_a_hand_sum_to_zero_and_totals_sum_the_points(record):
    state = replay(record)
    running = [0, 0, 0]
    for deal in state.deals:
        if deal.points is not None:
            assert sum(deal.points) == 0
            running = [total + points for total, points in zip(running, deal.points, strict=True)]
        assert list(deal.totals) == running
    assert list(state.totals) == running


@quick
@given(game_records())
def test_cards_given_equal_the_positive_points_of_the_previous_hand(record):
    state = replay(record)
    ruleset = RULESETS[record["ruleset"]]
    previous = None
    for deal in hands(state):
        given = sum(transfer.cards for transfer in deal.exchange)
        if previous is None or ruleset.exchange.value == "never":
            assert deal.exchange == ()
        elif deal.contract in ruleset.exchange_skipped_after:
            assert deal.exchange == ()
        else:
            assert given == sum(points for points in previous.points if points > 0)
            for transfer in deal.exchange:
                assert previous.points[transfer.giver] > 0 > previous.points[transfer.receiver]
            received = {t.receiver: 0 for t in deal.exchange}
            for transfer in deal.exchange:
                received[transfer.receiver] += transfer.cards
            assert all(received[seat] == -previous.points[seat] for seat in received)
        previous = deal


@quick
@given(game_records())
def test_dealer_rotates_only_after_a_played_hand(record):
    state = replay(record)
    dealer = record["first_dealer"]
    for deal in state.deals:
        assert deal.dealer == dealer
        if not deal.redeal:
            dealer = (dealer + 1) % 3
    if state.next:
        assert state.next.dealer == dealer


@quick
@given(game_records())
def test_placings_are_a_permutation_consistent_with_totals(record):
    state = replay(record)
    if not state.finished:
        assert state.placings is None and state.needs_last_tricks is None
        return
    assert state.next is None
    if state.placings is None:
        assert state.needs_last_tricks >= 1
        return
    assert sorted(state.placings) == [0, 1, 2]
    order = list(state.placings)
    instant = state.rules.options.instant_win_tricks
    if instant is not None and max(hands(state)[-1].tricks) >= instant:
        order = order[1:]
    totals = [state.totals[seat] for seat in order]
    assert totals == sorted(totals, reverse=True)


@quick
@given(game_records(), st.data())
def test_replaying_a_prefix_gives_the_prefix_of_the_state(record, data):
    full = state_as_json(replay(record))
    cut = data.draw(st.integers(0, len(record["deals"])))
    prefix = state_as_json(replay({**record, "deals": record["deals"][:cut]}))
    assert prefix["deals"] == full["deals"][:cut]
    if cut:
        assert prefix["totals"] == full["deals"][cut - 1]["totals"]


@quick
@given(game_records())
def test_passes_left_count_the_passes_made(record):
    state = replay(record)
    allowed = RULESETS[record["ruleset"]].passes_per_game
    for seat in range(3):
        made = sum(
            1
            for deal in state.deals
            for call in deal.calls
            if call.seat == seat and call.call.is_pass
        )
        assert state.passes_left[seat] == allowed - made >= 0


@quick
@given(game_records(), st.data())
def test_giving_the_trick_winners_asked_for_settles_or_asks_further_back(record, data):
    state = replay(record)
    if state.needs_last_tricks is None:
        return
    last = hands(state)[-1]
    asked = state.needs_last_tricks
    winners = [seat for seat in range(3) for _ in range(last.tricks[seat])]
    order = list(last.last_tricks) + data.draw(
        st.permutations(_remaining(winners, last.last_tricks))
    )
    more = copy.deepcopy(record)
    more["deals"][-1]["last_tricks"] = order[:asked]
    settled = replay(more)
    assert settled.placings is not None or settled.needs_last_tricks > asked
    everything = copy.deepcopy(record)
    everything["deals"][-1]["last_tricks"] = order
    assert replay(everything).placings is not None  # every winner known: always settled


def _remaining(winners, given):
    rest = list(winners)
    for seat in given:
        rest.remove(seat)
    return rest


def _run(argv, stdin_text):
    out = io.StringIO()
    with redirect_stdout(out), pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin_text.encode())))
        status = main(argv)
    return status, out.getvalue()


def _assert_state_or_clean_error(text):
    status, out = _run(["replay"], text)
    output = json.loads(out)
    if status == 0:
        assert set(output) == {
            "ruleset",
            "deals",
            "totals",
            "passes_left",
            "finished",
            "next",
            "placings",
            "needs",
        }
    else:
        assert status == 2
        assert set(output["error"]) == {"deal", "message"}


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_value_ends_in_a_state_or_a_clean_error(value):
    _assert_state_or_clean_error(json.dumps(value))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_records(max_deals=6), st.data())
def test_a_damaged_record_ends_in_a_state_or_a_clean_error(record, data):
    """Replace one part of a valid record with arbitrary JSON."""
    damaged = copy.deepcopy(record)
    places = [(damaged, key) for key in ("ruleset", "options", "first_dealer", "deals")]
    for deal in damaged["deals"]:
        places += [(deal, key) for key in ("calls", "tricks", "last_tricks")]
        places += [(deal["calls"], index) for index in range(len(deal["calls"]))]
    for key in damaged["options"]:
        places.append((damaged["options"], key))
    container, key = data.draw(st.sampled_from(places))
    container[key] = data.draw(json_values)
    _assert_state_or_clean_error(json.dumps(damaged))
    try:
        replay(damaged)
    except RuleError as error:
        assert error.deal is None or 1 <= error.deal <= len(damaged["deals"])
