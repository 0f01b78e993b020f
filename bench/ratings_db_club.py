"""bench.ratings_db's stored club: Django set up on a fresh database of one backend, and a
club of confirmed casual games stored as the rating service reads them (not timed)."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.ratings import history

PG = "postgres://postgres@127.0.0.1:5432"
PG_DATABASE = "bench358_ratings"
#: Rows a bulk_create when storing the club.
CHUNK = 5000


def setup_django(backend: str, folder: Path) -> None:
    if backend == "pg":
        import psycopg

        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{PG_DATABASE}"')
        os.environ["DATABASE_URL"] = f"{PG}/{PG_DATABASE}"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench-ratings.sqlite3'}"
    os.environ.setdefault("DJANGO_DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    # The worker that runs a rebuild has DEBUG off. DJANGO_DEBUG=1 only spares the bench a
    # production configuration; left on, Django would log every query's SQL with its values
    # (on SQLite, one more query quoting them) and the log would cost more than the write.
    settings.DEBUG = False
    call_command("migrate", verbosity=0)


def drop_database(backend: str) -> None:
    if backend != "pg":
        return
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)')


def store_club(games: int, players: int, seed: int):
    """The club, and its games as the service will read them: one batch a casual game."""
    from scoring.models import Game
    from tournaments.clubs.selectors.ratings import casual_batch
    from tournaments.models import Club, ClubGame, Player
    from tournaments.ratings import Batch, RatedGame

    club = Club.objects.create(name="Bench club", slug="bench", rate_casual_games=True)
    members = Player.objects.bulk_create(
        Player(club=club, name=f"Member {n:03d}") for n in range(players)
    )
    ids = {n: p.pk for n, p in enumerate(members, start=1)}  # history numbers them from 1
    names = {p.pk: p.name for p in members}
    played = [g for batch in history(games, players, 10, 4, seed) for g in batch.games]
    start = datetime(2020, 1, 1, tzinfo=UTC)
    batches = []
    for first in range(0, len(played), CHUNK):
        chunk = played[first : first + CHUNK]
        rows = []
        for n, game in enumerate(chunk, start=first):
            seats = [ids[p] for p in game.players]
            rows.append(
                Game(
                    ruleset="blato",
                    players=[names[p] for p in seats],
                    first_dealer=0,
                    result=Game.Result.CONFIRMED,
                    totals=[0, 0, 0],
                    placings=sorted(range(3), key=lambda seat, g=game: g.ranks[seat]),
                    confirmed_at=start + timedelta(seconds=n),
                )
            )
        made = Game.objects.bulk_create(rows)
        ClubGame.objects.bulk_create(
            ClubGame(
                club=club,
                game=row,
                seat_0_id=ids[game.players[0]],
                seat_1_id=ids[game.players[1]],
                seat_2_id=ids[game.players[2]],
            )
            for row, game in zip(made, chunk, strict=True)
        )
        for row, game in zip(made, chunk, strict=True):
            seats = tuple(ids[p] for p in game.players)
            key = (row.confirmed_at, casual_batch(row.pk))
            batches.append(Batch(key, (RatedGame(row.pk, seats, game.ranks),)))
    return club, batches
