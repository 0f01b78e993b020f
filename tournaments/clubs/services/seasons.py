"""Writes to a club's seasons: creating one, changing how it counts, adding and removing its
nights (Event.season). Each is written into the club's audit trail (ClubLog)."""

from __future__ import annotations

from django.db import transaction

from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.common.event_settings import titled
from tournaments.common.permissions import require_club
from tournaments.common.services import log_club_action
from tournaments.models import Club, Event, Season
from tournaments.seasons import Counting, SeasonError

#: The fields of a season an organiser sets.
SEASON_FIELDS = ("name", "starts_on", "ends_on", "place_points", "best_nights", "min_nights")


def _check(values: dict) -> None:
    values["name"] = titled(values.get("name"), "season")
    try:
        Counting(
            place_points=tuple(values.get("place_points") or ()),
            best_nights=values.get("best_nights"),
            min_nights=values.get("min_nights", 1),
        )
    except SeasonError:
        raise TournamentError("season_counting_invalid") from None
    starts, ends = values.get("starts_on"), values.get("ends_on")
    if starts and ends and ends < starts:
        raise TournamentError("season_dates_reversed")


def _logged(season: Season) -> dict:
    return {
        "season": season.pk,
        "name": season.name,
        "place_points": list(season.place_points or []),
        "best_nights": season.best_nights,
        "min_nights": season.min_nights,
        "starts_on": season.starts_on.isoformat() if season.starts_on else None,
        "ends_on": season.ends_on.isoformat() if season.ends_on else None,
    }


@transaction.atomic
def season_create(*, club: Club, actor: str = "", by=None, **values) -> Season:
    """A new season of the club; counting left out takes the defaults (every night counts,
    one night is enough, 10-8-6-5-4-3-2-1 points). Only the club's organisers (`by`)."""
    require_club(by, club)
    values = {"min_nights": 1, **values}
    _check(values)
    season = Season(club=club)
    for name in SEASON_FIELDS:
        if name in values:
            setattr(season, name, values[name])
    season.name = season.name.strip()
    season.place_points = list(season.place_points or [])
    season.save()
    log_club_action(club, actor, "season_created", **_logged(season))
    return season


@transaction.atomic
def season_update(season: Season, *, actor: str = "", by=None, **values) -> Season:
    require_club(by, season.club)
    merged = {name: getattr(season, name) for name in SEASON_FIELDS} | values
    _check(merged)
    for name in SEASON_FIELDS:
        setattr(season, name, merged[name])
    season.name = season.name.strip()
    season.place_points = list(season.place_points or [])
    season.save()
    log_club_action(season.club, actor, "season_changed", **_logged(season))
    return season


@transaction.atomic
def season_add_event(season: Season, event: Event, *, actor: str = "", by=None) -> None:
    """The event becomes a night of this season (leaving any other season it was in): only
    the club's organisers count a night in its season."""
    require_club(by, season.club)
    if event.club_id != season.club_id:
        raise NotAllowed("season_other_club")
    if event.season_id == season.pk:
        return
    Event.objects.filter(pk=event.pk).update(season=season)
    event.season = season
    log_club_action(season.club, actor, "season_event_added", season=season.pk, event=event.slug)


@transaction.atomic
def season_remove_event(season: Season, event: Event, *, actor: str = "", by=None) -> None:
    require_club(by, season.club)
    if event.season_id != season.pk:
        return
    Event.objects.filter(pk=event.pk).update(season=None)
    event.season = None
    log_club_action(season.club, actor, "season_event_removed", season=season.pk, event=event.slug)


@transaction.atomic
def season_delete(season: Season, *, actor: str = "", by=None) -> None:
    """The season goes; its nights stay as events of the club, in no season."""
    require_club(by, season.club)
    nights = list(season.events.order_by("pk").values_list("slug", flat=True))
    club = season.club
    Event.objects.filter(season=season).update(season=None)
    log_club_action(club, actor, "season_deleted", **_logged(season), events=nights)
    season.delete()


@transaction.atomic
def season_set_events(season: Season, events, *, actor: str = "", by=None) -> None:
    """The season's nights are exactly `events` (the organiser's pick list)."""
    require_club(by, season.club)
    wanted = {event.pk: event for event in events}
    for event in list(season.events.all()):
        if event.pk not in wanted:
            season_remove_event(season, event, actor=actor)
    for event in wanted.values():
        season_add_event(season, event, actor=actor)


@transaction.atomic
def season_save(season: Season, *, events=None, actor: str = "", by=None, **values) -> Season:
    """The organiser's season form in one transaction: the counting, then (when given) the
    nights; a refusal of either leaves both as they were."""
    season_update(season, actor=actor, by=by, **values)
    if events is not None:
        season_set_events(season, events, actor=actor, by=by)
    return season
