"""Seats and first deals even out over whole (simulated) events."""

from collections import Counter

import pytest

from tournaments.pairing import Entrant
from tournaments.pairing.seating import seat
from tournaments.pairing.simulation import Event


@pytest.mark.parametrize("mode", ["swiss", "random", "no-repeat"])
@pytest.mark.parametrize("players", [4, 9, 14, 31])
def test_seat_and_dealer_counts_stay_even_over_an_event(mode, players):
    """Twelve rounds, byes included. Random seating would drift to 5 or more apart."""
    for seed in range(3):
        event = Event(players, mode, seed=seed)
        for _ in range(12):
            event.run(1)
            for p in event.players.values():
                assert max(p.seat_counts) - min(p.seat_counts) <= 3
                games = sum(p.seat_counts)
                assert abs(3 * p.dealer_count - games) <= 5  # within 2 of a third of games
        spreads = Counter(max(p.seat_counts) - min(p.seat_counts) for p in event.players.values())
        assert spreads[3] <= len(event.players) // 10


def test_each_gets_their_least_used_seat_when_they_differ():
    entrants = {
        1: Entrant(1, seat_counts=(0, 2, 2)),
        2: Entrant(2, seat_counts=(2, 0, 2)),
        3: Entrant(3, seat_counts=(2, 2, 0)),
    }
    lot = {1: 2, 2: 0, 3: 1}
    seats, _ = seat([3, 1, 2], entrants, lot)
    assert seats == (1, 2, 3)


def test_the_first_dealer_is_who_is_furthest_behind_a_third_of_their_games():
    entrants = {
        1: Entrant(1, seat_counts=(2, 2, 2), dealer_count=2),  # 6 games, 2 deals: on par
        2: Entrant(2, seat_counts=(1, 1, 1), dealer_count=0),  # 3 games, no deal: behind
        3: Entrant(3, seat_counts=(0, 0, 0), dealer_count=0),  # new: on par
    }
    seats, dealer = seat([1, 2, 3], entrants, {1: 0, 2: 1, 3: 2})
    assert seats[dealer] == 2
