"""An event played with made-up results, for the tests and the benchmark.

It keeps what the tournaments services keep (standings, byes, seat and dealer counts, who
met whom in which round) and turns it into each round's `Request` the way they should, so
properties over whole events can be checked without a database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .draw import pair
from .lots import rng_for
from .values import Entrant, Mode, Pairing, Request


@dataclass
class Player:
    id: int
    skill: float
    points: int = 0
    total: int = 0
    byes: int = 0
    seat_counts: list[int] = field(default_factory=lambda: [0, 0, 0])
    dealer_count: int = 0
    active: bool = True


#: Placing points for first, second and third at a table.
PLACE_POINTS = (2, 1, 0)


class Event:
    """Players with a hidden skill; at each table skill plus luck decides the placings, and
    the game totals (which sum to zero, as 3-5-8's do) follow the same form."""

    def __init__(self, players: int, mode: Mode | str, seed: int = 0, first_id: int = 1):
        rng = rng_for(seed, "simulation", "skills")
        self.mode = Mode(mode)
        self.seed = seed
        self.players = {first_id + i: Player(first_id + i, rng.gauss(0, 1)) for i in range(players)}
        self.met: dict[tuple[int, int], list[int]] = {}
        self.rounds: list[Pairing] = []
        self.planned_field = tuple(sorted(self.players))

    @property
    def round_number(self) -> int:
        return len(self.rounds) + 1

    def ranks(self) -> dict[int, int]:
        """Competition ranking of the active players by placing points, then game totals;
        players equal on both share a rank."""
        active = sorted(
            (p for p in self.players.values() if p.active), key=lambda p: (-p.points, -p.total)
        )
        ranks, previous = {}, None
        for position, player in enumerate(active, 1):
            if previous is None or (player.points, player.total) != (
                previous.points,
                previous.total,
            ):
                rank = position
            ranks[player.id] = rank
            previous = player
        return ranks

    def request(self, **overrides: object) -> Request:
        ranks = self.ranks()
        entrants = tuple(
            Entrant(
                p.id,
                rank=ranks[p.id],
                byes=p.byes,
                seat_counts=tuple(p.seat_counts),
                dealer_count=p.dealer_count,
            )
            for p in self.players.values()
            if p.active
        )
        values: dict = {
            "entrants": entrants,
            "mode": self.mode,
            "round_number": self.round_number,
            "seed": self.seed,
            "met": {pair_: tuple(rounds) for pair_, rounds in self.met.items()},
            "planned_field": self.planned_field,
        }
        values.update(overrides)
        return Request(**values)

    def play(self, pairing: Pairing) -> None:
        """Record a round: meetings, seats, dealers, byes, and made-up scores."""
        number = self.round_number
        rng = rng_for(self.seed, "simulation", "results", number)
        for table in pairing.tables:
            ids = table.seats
            for seat_number, player in enumerate(ids):
                self.players[player].seat_counts[seat_number] += 1
            self.players[table.dealer].dealer_count += 1
            for i in range(3):
                for j in range(i + 1, 3):
                    key = (min(ids[i], ids[j]), max(ids[i], ids[j]))
                    self.met.setdefault(key, []).append(number)
            form = {p: self.players[p].skill + rng.gauss(0, 1.5) for p in ids}
            mean = sum(form.values()) / 3
            for place, player in enumerate(sorted(ids, key=lambda p: -form[p])):
                self.players[player].points += PLACE_POINTS[place]
                self.players[player].total += round(4 * (form[player] - mean))
        for player in pairing.byes:
            self.players[player].byes += 1
        self.rounds.append(pairing)

    def run(
        self, rounds: int, before_round: Callable[[Event], None] | None = None
    ) -> list[Pairing]:
        for _ in range(rounds):
            if before_round is not None:
                before_round(self)
            self.play(pair(self.request()))
        return self.rounds

    def join(self, player_id: int) -> None:
        """A late entry: no points, no byes, no history."""
        self.players[player_id] = Player(player_id, 0.0)

    def withdraw(self, player_id: int) -> None:
        self.players[player_id].active = False
