"""Writes to a club's members (its `Player` rows): renaming one, merging two records of one
person, entering members into an event by record, and members' casual games.

A club's player list *is* its members: one `Player` row a person, across the club's events.
When one person was entered twice ("Ivan Petrov" one week, "Иван Петров" the next), a merge
moves every trace of the second record onto the first, in one transaction, and writes the
club's audit trail (ClubLog). The JSON fields that hold player ids are those the backup
names (tournaments.backup.fields.NAMING_PLAYERS): one list of them, used both ways.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Q

from scoring import services as scoring
from scoring.names import name_key
from tournaments.backup.fields import NAMING_PLAYERS
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.common.permissions import require_club, require_event
from tournaments.common.queue import enqueue_on_commit
from tournaments.common.selectors import active_user_named
from tournaments.common.services import log_action, log_club_action, standings_changed
from tournaments.events.services.registration import clean_name, enter_players
from tournaments.models import (
    Bye,
    Club,
    ClubGame,
    Entry,
    Event,
    Player,
    Rating,
    RatingStep,
    Table,
)

SEATS = ("seat_0", "seat_1", "seat_2")
#: The ratings helper's task that re-rates a club from its first game (tournaments.ratings).
RERATE_TASK = "rerate_club"


def _member(club: Club, player: Player) -> None:
    if player.club_id != club.pk:
        raise TournamentError("member_other_club", name=player.name)


def _name_taken(club: Club, name: str, *, besides: Player | None = None) -> Player | None:
    key = name_key(name)
    others = Player.objects.filter(club=club)
    if besides is not None:
        others = others.exclude(pk=besides.pk)
    return next((p for p in others.only("pk", "name") if name_key(p.name) == key), None)


@transaction.atomic
def member_rename(*, player: Player, name: str, actor: str = "", by=None) -> Player:
    """A member's name as the club writes it from now on (games already played keep the
    names their score sheets were kept under). A name another member already has, whatever
    its case or accents, is refused: that is one person, to be merged."""
    require_club(by, player.club)
    new = clean_name(name)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if _name_taken(player.club, new, besides=player) is not None:
        raise TournamentError("member_name_taken", name=new)
    old = player.name
    if new != old:
        player.name = new
        player.save(update_fields=["name"])
        log_club_action(player.club, actor, "member_renamed", player=player.pk, old=old, new=new)
    return player


# --- merging two records of one person -----------------------------------------------------


@dataclass
class Merged:
    """What a merge touched: the record kept, the events and casual games re-pointed."""

    kept: Player
    gone_id: int
    gone_name: str
    events: list[Event] = field(default_factory=list)
    casual_games: int = 0


def _played(event: Event, player_id: int) -> bool:
    """Whether the player sat at a table or had a bye in the event (not only entered)."""
    return event.pk in _events_played(player_id)


def _events_played(player_id: int) -> set[int]:
    """The events where the player sat at a table (a substitute's seat included) or had a
    bye: not only entered."""
    seated = Q(seat_0_id=player_id) | Q(seat_1_id=player_id) | Q(seat_2_id=player_id)
    tables = Table.objects.filter(seated).values_list("round__event_id", flat=True)
    byes = Bye.objects.filter(player_id=player_id).values_list("round__event_id", flat=True)
    return set(tables) | set(byes)


def _not_two_people(keep: Player, gone: Player) -> None:
    """Refuse when both records played in one event: one person has one seat a round."""
    both = _events_played(keep.pk) & _events_played(gone.pk)
    if both:
        event = Event.objects.filter(pk__in=both).order_by("created_at", "pk").first()
        raise NotAllowed("merge_both_played", kept=keep.name, gone=gone.name, event=event.name)


def _entries(keep: Player, gone: Player) -> None:
    """Re-point the second record's entries. Where both were entered in one event (and at
    most one played: see _not_two_people), the entry that played stays, merged with the
    other's check-in."""
    for entry in Entry.objects.filter(player=gone).select_related("event"):
        other = Entry.objects.filter(event=entry.event, player=keep).first()
        if other is None:
            entry.player = keep
            entry.save(update_fields=["player"])
            continue
        stays, drops = (entry, other) if _played(entry.event, gone.pk) else (other, entry)
        stays.checked_in = stays.checked_in or drops.checked_in
        stays.withdrawn = stays.withdrawn and drops.withdrawn
        stays.joined_round = min(stays.joined_round, drops.joined_round)
        drops.delete()
        stays.player = keep
        stays.save(update_fields=["player", "checked_in", "withdrawn", "joined_round"])


def _repoint_json(rows, name: str, convert) -> set[int]:
    """Rewrite one JSON field of `rows` through its NAMING_PLAYERS converter; the ids of the
    events whose rows changed."""
    model = rows.model
    rewrite = NAMING_PLAYERS[(model, name)]
    changed, events = [], set()
    for row in rows:
        value = getattr(row, name)
        new = rewrite(value, convert, name)
        if new != value:
            setattr(row, name, new)
            changed.append(row)
            events.add(row.event_of_merge)
    if changed:
        model.objects.bulk_update(changed, [name])
    return events


#: How each model holding players in JSON reaches its event.
EVENT_OF = {"Round": "event", "Standings": "event", "EventLog": "event"}


def _json_fields(club: Club, convert) -> set[int]:
    """Every JSON value of the club's events that names players, re-pointed."""
    touched: set[int] = set()
    for model, name in NAMING_PLAYERS:
        to_event = EVENT_OF.get(model.__name__, "round__event")
        rows = model.objects.filter(**{f"{to_event}__club": club}).annotate(
            event_of_merge=F(to_event)
        )
        touched |= _repoint_json(rows, name, convert)
    return touched


def _seats(keep: Player, gone: Player) -> set[int]:
    """Event tables and byes: the second record's seats become the first's."""
    touched: set[int] = set()
    for seat in SEATS:
        tables = Table.objects.filter(**{seat: gone})
        touched |= set(tables.values_list("round__event_id", flat=True))
        tables.update(**{seat: keep})
    byes = Bye.objects.filter(player=gone)
    touched |= set(byes.values_list("round__event_id", flat=True))
    byes.update(player=keep)
    return touched


def _casual_games(keep: Player, gone: Player) -> int:
    both = ClubGame.objects.filter(Q(seat_0=gone) | Q(seat_1=gone) | Q(seat_2=gone))
    games = list(both)
    for game in games:
        if keep.pk in game.seat_ids:
            raise NotAllowed("merge_same_table", kept=keep.name, gone=gone.name)
    for seat in SEATS:
        ClubGame.objects.filter(**{seat: gone}).update(**{seat: keep})
    return len(games)


@transaction.atomic
def members_merge(*, club: Club, keep: Player, gone: Player, actor: str = "", by=None) -> Merged:
    """Merge `gone` into `keep` (two records of one person): entries, event tables, byes,
    substitutions, void tables, pairing flags, standings rows and the event logs' player
    ids, casual games. Both records' ratings are dropped and the club is re-rated (the
    ratings helper's task, by name: a merged history rates differently from either half).
    The standings of every event touched are marked stale. Refused, changing nothing, when
    the two are one record, of another club, or both played in one event or one game."""
    require_club(by, club)
    _member(club, keep)
    _member(club, gone)
    if keep.pk == gone.pk:
        raise TournamentError("merge_same_member")
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, gone.pk])}
    keep, gone = locked[keep.pk], locked[gone.pk]
    merged = Merged(kept=keep, gone_id=gone.pk, gone_name=gone.name)
    _not_two_people(keep, gone)
    _entries(keep, gone)
    touched = _seats(keep, gone)
    touched |= _json_fields(club, lambda pid: keep.pk if pid == gone.pk else pid)
    merged.casual_games = _casual_games(keep, gone)
    RatingStep.objects.filter(player__in=[keep, gone]).delete()
    Rating.objects.filter(player__in=[keep, gone]).delete()
    gone.delete()
    merged.events = list(Event.objects.filter(pk__in=touched).order_by("created_at", "pk"))
    for event in merged.events:
        log_action(event, actor, "members_merged", player=keep.pk, gone=merged.gone_id)
        standings_changed(event)
    log_club_action(
        club,
        actor,
        "members_merged",
        kept={"id": keep.pk, "name": keep.name},
        gone={"id": merged.gone_id, "name": merged.gone_name},
        events=[{"id": e.pk, "slug": e.slug, "name": e.name} for e in merged.events],
        casual_games=merged.casual_games,
    )
    enqueue_on_commit(RERATE_TASK, club.pk)
    return merged


# --- members into an event, members at a casual table ----------------------------------------


@transaction.atomic
def members_enter(
    *, event: Event, players: list[Player], checked_in: bool = False, actor: str = "", by=None
) -> list[Entry]:
    """Enter members picked from the club's list: each is that very record (never a new one
    of the same name); entering someone already entered changes nothing."""
    require_event(by, event)
    for player in players:
        _member(event.club, player)
    return enter_players(event=event, players=players, checked_in=checked_in, actor=actor)


def member_by_name(club: Club, name: str) -> Player:
    """The member of that name (whatever its case or accents), or a new member."""
    name = clean_name(name)
    return _name_taken(club, name) or Player.objects.create(club=club, name=name)


@transaction.atomic
def casual_game_start(
    *, club: Club, seats: list[Player | str], actor: str = "", by=None
) -> ClubGame:
    """A casual game of three of the club's members (a typed name the club does not know
    becomes a member). The game is scoring's like any other; the ClubGame row is all the
    club knows of it (scoring knows nothing of clubs)."""
    require_club(by, club)
    players = [seat if isinstance(seat, Player) else member_by_name(club, seat) for seat in seats]
    for player in players:
        _member(club, player)
    if len(players) != 3 or len({p.pk for p in players}) != 3:
        raise TournamentError("casual_seats")
    game = scoring.game_create(ruleset="blato", players=[p.name for p in players], actor=actor)
    club_game = ClubGame.objects.create(
        game=game, club=club, seat_0=players[0], seat_1=players[1], seat_2=players[2]
    )
    seated = [p.pk for p in players]
    log_club_action(club, actor, "casual_game_started", game=game.pk, players=seated)
    return club_game


@transaction.atomic
def club_settings_update(
    *, club: Club, ratings_public: bool, rate_casual_games: bool, actor: str = "", by=None
) -> Club:
    """Who may see the leaderboard, and whether casual games count in the ratings (a change
    of what counts re-rates the club)."""
    require_club(by, club)
    club = Club.objects.select_for_update().get(pk=club.pk)
    wanted = {"ratings_public": ratings_public, "rate_casual_games": rate_casual_games}
    changed = {key: value for key, value in wanted.items() if getattr(club, key) != value}
    if not changed:
        return club
    for key, value in changed.items():
        setattr(club, key, value)
    club.save(update_fields=list(changed))
    log_club_action(club, actor, "club_settings", **changed)
    if "rate_casual_games" in changed:
        enqueue_on_commit(RERATE_TASK, club.pk)
    return club


@transaction.atomic
def club_organiser_add(*, club: Club, username: str, actor: str = "", by=None):
    """Let another user run the club (its members, settings and seasons)."""
    require_club(by, club)
    user = active_user_named(username)
    if club.organisers.filter(pk=user.pk).exists():
        raise TournamentError("club_organiser_already", name=user.get_username())
    club.organisers.add(user)
    log_club_action(club, actor, "organiser_added", username=user.get_username())
    return user


@transaction.atomic
def club_organiser_remove(*, club: Club, username: str, actor: str = "", by=None):
    """Stop a user running the club. The last organiser stays: a club nobody runs could only
    be reached by an administrator again."""
    require_club(by, club)
    club = Club.objects.select_for_update().get(pk=club.pk)
    username = str(username).strip()
    user = club.organisers.filter(**{get_user_model().USERNAME_FIELD: username}).first()
    if user is None:
        raise TournamentError("club_organiser_unknown", name=username)
    if club.organisers.count() == 1:
        raise TournamentError("club_organiser_last", name=username)
    club.organisers.remove(user)
    log_club_action(club, actor, "organiser_removed", username=user.get_username())
    return user
