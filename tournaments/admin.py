"""Clubs, players, events, teams, rounds, tables, byes, standings, the logs, seasons, casual
club games, ratings, organiser invitations and API tokens in the admin.

Read-only (config.readonly_admin): every change goes through the organiser pages or the API,
whose services keep the audit trail and the standings in step. The one exception is an API
token, which an operator may delete to end it at once (a leaked token); a token's digest is
never shown and a token is never made here (the account page or ``manage.py api_token`` show a
new one once).
"""

from django.contrib import admin

from config.readonly_admin import ReadOnlyAdmin, ReadOnlyInline
from tournaments.club_models import ClubInvitation, NewcomerRequest
from tournaments.models import (
    ApiToken,
    Bye,
    Club,
    ClubGame,
    ClubLog,
    Entry,
    Event,
    EventLog,
    Player,
    Rating,
    RatingStep,
    Round,
    Season,
    Standings,
    StandingsText,
    Table,
)
from tournaments.team_models import KeepApart, Team, TeamMember


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    list_display = ("name", "slug", "created_at")
    list_filter = ("created_at",)
    search_fields = ("name", "slug")


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "created_at")
    list_filter = ("club",)
    search_fields = ("name",)
    list_select_related = ("club",)


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ("number", "pairing_mode", "status", "published_at", "closed_at")


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "status", "ruleset", "rounds_planned", "created_at")
    list_filter = ("status", "ruleset", "club", "created_at")
    search_fields = ("name", "slug", "organisers__username")
    list_select_related = ("club",)
    date_hierarchy = "created_at"
    inlines = (RoundInline,)


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("player", "event", "checked_in", "checked_in_by", "withdrawn", "joined_round")
    list_filter = ("checked_in", "checked_in_by", "withdrawn", "event")
    search_fields = ("player__name", "event__name")
    list_select_related = ("player", "event")


class TableInline(ReadOnlyInline):
    model = Table
    fields = ("number", "seat_0", "seat_1", "seat_2", "outcome", "game")


class ByeInline(ReadOnlyInline):
    model = Bye
    fields = ("player",)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("event", "number", "pairing_mode", "status", "built_at", "published_at")
    list_filter = ("status", "pairing_mode", "event")
    search_fields = ("event__name",)
    list_select_related = ("event",)
    inlines = (TableInline, ByeInline)


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("round", "number", "seat_0", "seat_1", "seat_2", "outcome", "game")
    list_filter = ("outcome", "round__event")
    search_fields = ("round__event__name", "seat_0__name", "seat_1__name", "seat_2__name")
    list_select_related = ("round__event", "seat_0", "seat_1", "seat_2", "game")


@admin.register(Bye)
class ByeAdmin(ReadOnlyAdmin):
    list_display = ("round", "player")
    list_filter = ("round__event",)
    search_fields = ("player__name", "round__event__name")
    list_select_related = ("round__event", "player")


@admin.register(Standings)
class StandingsAdmin(ReadOnlyAdmin):
    list_display = ("event", "built_at", "rounds_complete", "build_seconds")
    list_filter = ("event", "built_at")
    search_fields = ("event__name",)
    list_select_related = ("event",)


@admin.register(StandingsText)
class StandingsTextAdmin(ReadOnlyAdmin):
    list_display = ("snapshot", "language", "mark")
    list_filter = ("language",)
    search_fields = ("snapshot__event__name",)
    list_select_related = ("snapshot__event",)


@admin.register(EventLog)
class EventLogAdmin(ReadOnlyAdmin):
    list_display = ("event", "at", "action", "actor")
    list_filter = ("action", "event", "at")
    search_fields = ("event__name", "actor", "reason")
    list_select_related = ("event",)


@admin.register(ClubLog)
class ClubLogAdmin(ReadOnlyAdmin):
    list_display = ("club", "at", "action", "actor")
    list_filter = ("action", "club", "at")
    search_fields = ("club__name", "actor", "reason")
    list_select_related = ("club",)


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "starts_on", "ends_on", "best_nights", "min_nights")
    list_filter = ("club",)
    search_fields = ("name", "club__name")
    list_select_related = ("club",)


@admin.register(ClubGame)
class ClubGameAdmin(ReadOnlyAdmin):
    list_display = ("game", "club", "seat_0", "seat_1", "seat_2")
    list_filter = ("club",)
    search_fields = ("=game__id", "seat_0__name", "seat_1__name", "seat_2__name")
    list_select_related = ("game", "club", "seat_0", "seat_1", "seat_2")


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("player", "ordinal", "mu", "sigma", "games", "updated_at")
    list_filter = ("player__club",)
    search_fields = ("player__name",)
    list_select_related = ("player",)


@admin.register(RatingStep)
class RatingStepAdmin(ReadOnlyAdmin):
    list_display = ("player", "game", "batch", "batch_at", "place", "ordinal")
    list_filter = ("club", "batch_at")
    search_fields = ("player__name", "batch")
    list_select_related = ("player", "game")


@admin.register(ClubInvitation)
class ClubInvitationAdmin(ReadOnlyAdmin):
    """Its digest is left out: it opens nothing, but it is nobody's business either."""

    list_display = ("club", "note", "made_by", "created_at", "expires_at", "used_by", "revoked_at")
    list_filter = ("club", "created_at")
    search_fields = ("club__name", "note", "made_by", "used_by__username")
    fields = list_display + ("used_at",)
    readonly_fields = fields
    list_select_related = ("club", "used_by")


@admin.register(NewcomerRequest)
class NewcomerRequestAdmin(ReadOnlyAdmin):
    """Who asked from their phone to be entered (self check-in), waiting for an answer."""

    list_display = ("name", "event", "asked_at")
    list_filter = ("event", "asked_at")
    search_fields = ("name", "event__name")
    list_select_related = ("event",)


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdmin):
    list_display = ("user", "created_at", "last_used_at")
    search_fields = ("user__username",)
    fields = ("user", "created_at", "last_used_at")
    readonly_fields = fields
    list_select_related = ("user",)

    def has_delete_permission(self, request, obj=None):
        """Deleting a token ends it: the way to stop a leaked one without its owner."""
        return True


@admin.register(Team)
class TeamAdmin(ReadOnlyAdmin):
    list_display = ("name", "event", "created_at")
    list_filter = ("event__club",)
    search_fields = ("name", "event__name")
    list_select_related = ("event",)


@admin.register(TeamMember)
class TeamMemberAdmin(ReadOnlyAdmin):
    list_display = ("entry", "team")
    search_fields = ("team__name", "entry__player__name")
    list_select_related = ("team", "entry__player")


@admin.register(KeepApart)
class KeepApartAdmin(ReadOnlyAdmin):
    list_display = ("label", "event", "created_at")
    search_fields = ("label", "event__name")
    list_select_related = ("event",)
