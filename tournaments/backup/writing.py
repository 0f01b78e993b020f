"""Restoring a backup: the checked rows saved in one transaction, ids kept where free.

Each row keeps the id it had wherever that id is still free (restoring into an empty
database, or after the event was deleted, gives back every id); only where it is taken does
the row get a new one. The keeper links printed for the tables hold the game's id, the
standings' lot and later draws are drawn from the seed and the player id, and the public
player pages are addressed by player id: when players or games get new ids, the import
says what that changes (`warnings`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.validators import validate_slug
from django.db import IntegrityError, connection, models, transaction

from config.input import unstorable
from scoring.models import Game
from tournaments.backup.fields import players_to_ids
from tournaments.backup.reading import ORDER, Plan, read
from tournaments.common.errors import TournamentError
from tournaments.common.messages import render
from tournaments.models import Club, Event, Player, Standings

#: How many values one `IN (...)` lookup takes: well under every database's limit.
CHUNK = 500


@dataclass(frozen=True)
class Notice:
    """Something the operator should know about a restore: a code of tournaments.common.messages
    and its params, worded when read (like the app's errors)."""

    code: str
    params: dict

    def __str__(self) -> str:
        return render(self.code, self.params)


@dataclass(frozen=True)
class Imported:
    """What an import made, and what the operator should know about it."""

    event: Event
    warnings: list[Notice] = field(default_factory=list)


def event_import(
    *, data: object, club_slug: str | None = None, organisers: list[str] | None = None
) -> Imported:
    """Load a backup made by `event_export`, in one transaction.

    The club is the one with the backup's slug (or `club_slug`), made if there is none;
    players are found by name in that club, or made. Who organises the event is the file's
    say unless `organisers` (usernames, each a user here) names them instead: the file's
    organisers are linked only if a user of that name exists (a backup never creates
    logins), and a warning names those linked, since they may now run the event. Refused
    with TournamentError, and nothing written, when the document is not a backup this
    version reads, does not hold together, names an organiser who is not here, or the event
    (its slug) or one of its table secrets is already here.
    """
    plan = read(data)
    if organisers is not None:
        # Typed by whoever imports: a name no database stores is nobody's (and no query's).
        strange = [repr(name) for name in organisers if not name or unstorable(name)]
        if strange:
            raise TournamentError("backup_organiser_unknown", names=", ".join(strange))
        plan.organisers, plan.organisers_chosen = list(organisers), True
    if club_slug is not None:
        try:
            validate_slug(club_slug)
        except ValidationError:
            raise TournamentError("backup_club_slug", slug=repr(club_slug)) from None
        plan.club.slug = club_slug
    try:
        with transaction.atomic():
            return _write(plan)
    except IntegrityError as error:
        raise TournamentError("backup_database_refused", why=str(error)) from None


def _write(plan: Plan) -> Imported:
    event, warnings = plan.event, []
    if Event.objects.filter(slug=event.slug).exists():
        raise TournamentError("backup_event_here", slug=event.slug)
    users = _users(plan.organisers)
    if plan.organisers_chosen and len(users) < len(set(plan.organisers)):
        missing = sorted(set(plan.organisers) - {user.get_username() for user in users})
        raise TournamentError("backup_organiser_unknown", names=_few(missing))
    secrets = [game.secret for game in plan.rows[Game]]
    if any(Game.objects.filter(secret__in=chunk).exists() for chunk in _chunks(secrets)):
        raise TournamentError("backup_secret_here")

    club = Club.objects.filter(slug=plan.club.slug).first()
    if club is None:
        club = plan.club
        _insert(Club, [club])
    players = list(plan.players.values())
    file_ids = {player.name: player.pk for player in players}
    known = {
        player.name: player
        for chunk in _chunks([player.name for player in players])
        for player in Player.objects.filter(club=club, name__in=chunk)
    }
    for player in players:
        if player.name in known:
            player.pk, player.created_at = known[player.name].pk, known[player.name].created_at
        else:
            player.club = club
    _insert(Player, [player for player in players if player.name not in known])
    moved = [p for p in players if file_ids[p.name] not in (None, p.pk)]
    if moved:
        warnings.append(Notice("backup_players_moved", {"n": len(moved), "name": moved[0].name}))

    event.club = club
    # The staleness counter: the snapshots the file calls current are up to date, the
    # others behind (tournaments.models.Standings.is_current).
    event.results_version = 1
    _insert(Event, [event])
    event.organisers.set(users)
    if not plan.organisers_chosen:
        _organisers_warnings(event, plan.organisers, users, warnings)

    file_game_ids = {id(game): game.pk for game in plan.rows[Game]}
    current = {id(snapshot) for snapshot in plan.current}
    for snapshot in plan.rows[Standings]:
        snapshot.results_version = 1 if id(snapshot) in current else 0
    for model in ORDER:
        rows = plan.rows[model]
        for row, relations in zip(rows, plan.links[model], strict=True):
            for name, target in relations.items():
                setattr(row, name, target)
            players_to_ids(row)
        _insert(model, rows)
    renumbered = [g for g in plan.rows[Game] if file_game_ids[id(g)] not in (None, g.pk)]
    if renumbered:
        warnings.append(Notice("backup_games_moved", {"n": len(renumbered)}))
    return Imported(event=event, warnings=warnings)


def _users(usernames: list[str]) -> list:
    """The users of these names, asked for in chunks (a file may name thousands)."""
    user_model = get_user_model()
    lookup = f"{user_model.USERNAME_FIELD}__in"
    found = [
        user
        for chunk in _chunks(sorted(set(usernames)))
        for user in user_model.objects.filter(**{lookup: chunk})
    ]
    return sorted(found, key=lambda user: user.get_username())


def _few(names: list[str], most: int = 20) -> str:
    """Names for a message: the first `most`, then how many more."""
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown}, … (+{len(names) - most})"


def _organisers_warnings(event: Event, usernames: list[str], users: list, warnings: list) -> None:
    """The file chose the organisers: say who now runs the event, and who was left out."""
    if users:
        names = _few([user.get_username() for user in users])
        warnings.append(Notice("backup_organisers_from_file", {"names": names, "slug": event.slug}))
    missing = sorted(set(usernames) - {user.get_username() for user in users})
    if missing:
        warnings.append(Notice("backup_organisers_missing", {"names": _few(missing)}))


def _chunks(values: list, size: int = CHUNK) -> Iterator[list]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _insert(model: type[models.Model], rows: list) -> None:
    """Save the rows with bulk inserts, keeping each file id that is still free.

    Rows with a kept id go first, then the database's id sequence is moved past them (as
    loaddata does), then the rest take new ids. Timestamps Django sets on insert
    (auto_now_add, auto_now) are put back afterwards, in bulk.
    """
    if not rows:
        return
    stamped = [
        f.name
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    stamps = [[getattr(row, name) for name in stamped] for row in rows]
    wanted = [row.pk for row in rows if row.pk is not None]
    taken = {
        pk
        for chunk in _chunks(wanted)
        for pk in model.objects.filter(pk__in=chunk).order_by().values_list("pk", flat=True)
    }
    for row in rows:
        # an id here already, or one no sequence can follow (0, negative): a fresh one
        if row.pk in taken or (row.pk is not None and row.pk < 1):
            row.pk = None
    kept = [row for row in rows if row.pk is not None]
    fresh = [row for row in rows if row.pk is None]
    if kept:
        model.objects.bulk_create(kept)
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), [model]):
                cursor.execute(sql)
    if fresh:
        model.objects.bulk_create(fresh)  # every supported database gives the ids back
    if stamped:
        for row, values in zip(rows, stamps, strict=True):
            for name, value in zip(stamped, values, strict=True):
                setattr(row, name, value)
        model.objects.bulk_update(rows, stamped)
