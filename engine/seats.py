"""Seats and positions.

Seats 0, 1, 2 are numbered in the direction of play. A position is where a seat sits
relative to a deal's dealer: position 0 deals, position 1 plays next, position 2 last.
"""

SEATS = (0, 1, 2)


def next_seat(seat: int, steps: int = 1) -> int:
    """The seat `steps` places on in the direction of play."""
    return (seat + steps) % 3


def seat_at(position: int, dealer: int) -> int:
    return next_seat(dealer, position)


def position_of(seat: int, dealer: int) -> int:
    return (seat - dealer) % 3


def in_play_order(start: int) -> tuple[int, int, int]:
    """The three seats in the direction of play, beginning with `start`."""
    return tuple(next_seat(start, step) for step in range(3))
