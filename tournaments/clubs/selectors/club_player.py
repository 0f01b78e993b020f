"""Reads for a club player's page: their games across the club's events and casual games,
each replayed by the engine, their rating steps, and the club's seasons, in a fixed number
of queries whatever the number of games (one for the event tables, one for the casual games,
one for all their deals)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

import engine
from scoring.models import DealEntry, Game
from scoring.selectors import game_state
from tournaments.clubs.player_figures import Played, Stint, stints
from tournaments.models import (
    PUBLIC_ROUND_STATUSES,
    Club,
    ClubGame,
    Event,
    Player,
    Rating,
    RatingStep,
    Season,
    Table,
)


def club_player(club: Club, player_id: int) -> Player:
    return Player.objects.get(pk=player_id, club=club)


def club_seasons(club: Club) -> list[Season]:
    return list(club.seasons.order_by("starts_on", "created_at", "pk"))


def rating_of(player: Player) -> Rating | None:
    return Rating.objects.filter(player=player).first()


def rating_steps(club: Club, player: Player) -> list[RatingStep]:
    """The player's rating after each rated game, oldest first."""
    return list(RatingStep.objects.filter(club=club, player=player).order_by("batch_at", "batch"))


@dataclass
class PlayerGame:
    """One game the player sat in (for some of its deals at least)."""

    game: Game
    when: datetime
    state: engine.GameState
    stints: tuple[Stint, ...]
    #: The seat whose result is the player's (a substitute takes the seat's whole result; a
    #: player who left the table has none).
    seat: int | None
    event: Event | None = None
    round: int | None = None
    table: int | None = None

    @property
    def season_id(self) -> int | None:
        return self.event.season_id if self.event else None

    @property
    def played(self) -> Played:
        return Played(self.state, self.stints)

    @property
    def place(self) -> int | None:
        """1 for first ... of a confirmed game, None otherwise."""
        placings = self.game.placings
        if self.seat is None or not self.game.confirmed or not placings:
            return None
        return list(placings).index(self.seat) + 1 if self.seat in placings else None


def _sits(player_id: int) -> Q:
    return Q(seat_0_id=player_id) | Q(seat_1_id=player_id) | Q(seat_2_id=player_id)


def _event_tables(club: Club, player_id: int) -> list[Table]:
    """The club's public tables with a game where the player sits, or might have sat before
    a substitution (those are few: they are sifted here rather than by a JSON lookup, which
    SQLite cannot index)."""
    tables = (
        Table.objects.filter(
            _sits(player_id) | ~Q(substitutions=[]),
            round__event__club=club,
            round__status__in=PUBLIC_ROUND_STATUSES,
            game__isnull=False,
        )
        .select_related("round__event", "game")
        .order_by("game__created_at", "pk")
    )
    found = []
    for table in tables:
        if player_id in table.seat_ids or any(
            move["left"] == player_id for move in table.substitutions
        ):
            found.append(table)
    return found


def _casual_games(club: Club, player_id: int) -> list[ClubGame]:
    return list(ClubGame.objects.filter(_sits(player_id), club=club).select_related("game"))


def _live_deals(game_ids: list[int]) -> dict[int, list[DealEntry]]:
    by_game: dict[int, list[DealEntry]] = {game_id: [] for game_id in game_ids}
    entries = DealEntry.objects.filter(game_id__in=game_ids, undone_at__isnull=True)
    for entry in entries.order_by("game_id", "number"):
        by_game[entry.game_id].append(entry)
    return by_game


def _seat_of(player_id: int, seat_ids) -> int | None:
    return next((seat for seat in range(3) if seat_ids[seat] == player_id), None)


def player_games(club: Club, player: Player) -> list[PlayerGame]:
    """Every game of the club the player sat in, oldest first, each with the engine's replay:
    the tables of the club's published and closed rounds, and its casual games."""
    tables = _event_tables(club, player.pk)
    casual = _casual_games(club, player.pk)
    deals = _live_deals([t.game_id for t in tables] + [c.game_id for c in casual])
    games = []
    for table in tables:
        game = table.game
        games.append(
            PlayerGame(
                game=game,
                when=game.confirmed_at or game.created_at,
                state=game_state(game, deals[game.pk]),
                stints=tuple(stints(player.pk, table.seat_ids, table.substitutions)),
                seat=_seat_of(player.pk, table.seat_ids),
                event=table.round.event,
                round=table.round.number,
                table=table.number,
            )
        )
    for club_game in casual:
        game = club_game.game
        seat = _seat_of(player.pk, club_game.seat_ids)
        games.append(
            PlayerGame(
                game=game,
                when=game.confirmed_at or game.created_at,
                state=game_state(game, deals[game.pk]),
                stints=(Stint(seat),),
                seat=seat,
            )
        )
    games.sort(key=lambda played: (played.game.created_at, played.game.pk))
    return games
