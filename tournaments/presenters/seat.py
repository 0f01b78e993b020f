"""Where a player sits ("where do I sit?", the event's phones), and a player's own page."""

from __future__ import annotations

from dataclasses import dataclass

from .. import selectors, walkouts
from ..models import Event, Player, Round
from .tables import SeatLine, TableLine, round_over, table_line


@dataclass(frozen=True)
class SeatAnswer:
    """Where a player sits in the newest published round ("table"), or why not."""

    kind: str  # "table", "bye", "left" (substituted), "not_in_round" or "no_round"
    round: Round | None = None
    table: TableLine | None = None
    seat: SeatLine | None = None
    others: tuple[SeatLine, ...] = ()

    @property
    def round_over(self) -> bool:
        return round_over(self.round)


def seat_answer(event: Event, player_id: int) -> SeatAnswer:
    round_ = selectors.newest_published_round(event)
    if round_ is None:
        return SeatAnswer("no_round")
    table = next(
        (t for t in selectors.player_tables(event, player_id) if t.round_id == round_.pk), None
    )
    if table is not None:
        line = table_line(table)
        return SeatAnswer(
            "table", round_, line, line.seat_of(player_id), tuple(line.others(player_id))
        )
    if any(bye.round_id == round_.pk for bye in selectors.player_byes(event, player_id)):
        return SeatAnswer("bye", round_)
    if walkouts.left_table_of(round_, player_id) is not None:
        return SeatAnswer("left", round_)  # another player took the seat (a substitution)
    return SeatAnswer("not_in_round", round_)


@dataclass(frozen=True)
class PlayerGame:
    round: int
    table: TableLine | None
    seat: SeatLine | None
    others: list[SeatLine]


def player_games(event: Event, person: Player) -> list[PlayerGame]:
    """A player's event round by round: each published round's table, or their bye."""
    games = []
    for table in selectors.player_tables(event, person.pk):
        line = table_line(table)
        games.append(
            PlayerGame(table.round.number, line, line.seat_of(person.pk), line.others(person.pk))
        )
    games += [
        PlayerGame(bye.round.number, None, None, [])
        for bye in selectors.player_byes(event, person.pk)
    ]
    games.sort(key=lambda game: game.round)
    return games
