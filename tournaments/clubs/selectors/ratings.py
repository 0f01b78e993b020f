"""What the ratings read: a club's rated games as batches for tournaments.ratings, the
ratings held before a batch, and the leaderboard.

A batch's key is `(batch_at, batch)`, as RatingStep stores it: a round of an event is
rated at the time it was published (then built, then asked for: a round always has one of
them), its `batch` naming the event and the round so two rounds published in the same
instant still have one order; a casual game is its own batch at its confirmation. The key is
taken again from the rows each time, so a re-rating always puts the games where they now
belong.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from scoring.models import Game
from tournaments.models import Club, ClubGame, Rating, RatingStep, Table
from tournaments.ratings import Batch, RatedGame, Skill

Key = tuple[datetime, str]


def round_batch(event_id: int, number: int) -> str:
    return f"e{event_id:010d}r{number:04d}"


def casual_batch(game_id: int) -> str:
    return f"c{game_id:012d}"


def ranks_of(placings: list[int]) -> tuple[int, int, int]:
    """Rank by seat (1 = first) from the game's placings (the seats from first to last)."""
    ranks = [0, 0, 0]
    for place, seat in enumerate(placings):
        ranks[seat] = place + 1
    return tuple(ranks)


def _table_rows(club_id: int):
    return (
        Table.objects.filter(round__event__club_id=club_id, game__result=Game.Result.CONFIRMED)
        .exclude(outcome=Table.Outcome.VOID)
        .values_list(
            "game_id",
            "seat_0_id",
            "seat_1_id",
            "seat_2_id",
            "game__placings",
            "round__event_id",
            "round__number",
            "round__published_at",
            "round__built_at",
            "round__requested_at",
        )
    )


def _casual_rows(club_id: int):
    return ClubGame.objects.filter(club_id=club_id, game__result=Game.Result.CONFIRMED).values_list(
        "game_id", "seat_0_id", "seat_1_id", "seat_2_id", "game__placings", "game__confirmed_at"
    )


def club_batches(club: Club, since: Key | None = None) -> list[Batch]:
    """The club's confirmed games as batches, in order; only those from `since` on if given."""
    games: dict[Key, list[RatedGame]] = {}
    for game, s0, s1, s2, placings, event, number, published, built, asked in _table_rows(club.pk):
        key = (published or built or asked, round_batch(event, number))
        games.setdefault(key, []).append(RatedGame(game, (s0, s1, s2), ranks_of(placings)))
    if club.rate_casual_games:
        for game, s0, s1, s2, placings, confirmed_at in _casual_rows(club.pk):
            key = (confirmed_at, casual_batch(game))
            games.setdefault(key, []).append(RatedGame(game, (s0, s1, s2), ranks_of(placings)))
    return [
        Batch(key, tuple(sorted(found, key=lambda g: g.game)))
        for key, found in sorted(games.items())
        if since is None or key >= since
    ]


def rated_place(game_id: int) -> tuple[int, Key | None, RatedGame | None] | None:
    """The club a game is rated in, its batch key now and the game as rated (both None: it is
    not rated now), or None when the game belongs to no club (a casual game on its own)."""
    table = Table.objects.filter(game_id=game_id).select_related("round__event", "game").first()
    if table is not None:
        round_, game = table.round, table.game
        club_id = round_.event.club_id
        if game.result != Game.Result.CONFIRMED or table.outcome == Table.Outcome.VOID:
            return club_id, None, None
        at = round_.published_at or round_.built_at or round_.requested_at
        key = (at, round_batch(round_.event_id, round_.number))
        return club_id, key, RatedGame(game_id, table.seat_ids, ranks_of(game.placings))
    casual = ClubGame.objects.filter(game_id=game_id).select_related("club", "game").first()
    if casual is None:
        return None
    game = casual.game
    if game.result != Game.Result.CONFIRMED or not casual.club.rate_casual_games:
        return casual.club_id, None, None
    key = (game.confirmed_at, casual_batch(game_id))
    return casual.club_id, key, RatedGame(game_id, casual.seat_ids, ranks_of(game.placings))


def stored_key(game_id: int) -> Key | None:
    """The batch key the game's ratings were stored under, if it has been rated."""
    found = RatingStep.objects.filter(game_id=game_id).values_list("batch_at", "batch").first()
    return None if found is None else (found[0], found[1])


def newest_key(club_id: int) -> Key | None:
    found = (
        RatingStep.objects.filter(club_id=club_id)
        .order_by("-batch_at", "-batch")
        .values_list("batch_at", "batch")
        .first()
    )
    return None if found is None else (found[0], found[1])


def from_key(key: Key) -> Q:
    """The steps of the batch `key` and after."""
    at, batch = key
    return Q(batch_at__gt=at) | Q(batch_at=at, batch__gte=batch)


def skills_before(club_id: int, key: Key | None, players=None) -> dict[int, Skill]:
    """Each player's rating after their last batch before `key` (only `players`, if given)."""
    if key is None:
        return {}
    steps = RatingStep.objects.filter(club_id=club_id).exclude(from_key(key))
    if players is not None:
        steps = steps.filter(player_id__in=players)
    found: dict[int, Skill] = {}
    for player, mu, sigma in steps.order_by("batch_at", "batch").values_list(
        "player_id", "mu", "sigma"
    ):
        found[player] = Skill(mu, sigma)
    return found


def leaderboard(club: Club) -> list[Rating]:
    """The club's rated players, highest ordinal first (then more games, then by name)."""
    return list(
        Rating.objects.filter(player__club=club, games__gt=0)
        .select_related("player")
        .order_by("-ordinal", "-games", "player__name", "player_id")
    )


def may_see_ratings(user, club: Club) -> bool:
    """Everyone when the club's ratings are public; else the club's organisers (and
    superusers), by the permission backend's `tournaments.change_club`."""
    if club.ratings_public:
        return True
    return bool(user.is_authenticated and user.has_perm("tournaments.change_club", club))
