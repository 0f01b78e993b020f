"""Games, their deals, their history, the seats players claimed and what they said of the
result, in the admin, read-only (config.readonly_admin).

A game's secret is never shown: it is not editable, so the admin leaves it out of every page,
and it is neither listed nor searchable here; nor is a claim's holder (a phone's digest).
"""

from django.contrib import admin

from config.readonly_admin import ReadOnlyAdmin, ReadOnlyInline
from scoring.models import DealEntry, Game, GameChange, SeatClaim, Verdict


class DealInline(ReadOnlyInline):
    model = DealEntry
    fields = ("number", "calls", "tricks", "last_tricks", "entered_by", "undone_at")


class ChangeInline(ReadOnlyInline):
    model = GameChange
    fields = ("at", "action", "deal_number", "actor", "reason")


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "ruleset", "players", "result", "version", "created_at", "confirmed_at")
    list_filter = ("result", "ruleset", "created_at")
    search_fields = ("=id", "players", "confirmed_by")
    date_hierarchy = "created_at"
    inlines = (DealInline, ChangeInline)


@admin.register(DealEntry)
class DealEntryAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "calls", "tricks", "entered_at", "entered_by", "undone_at")
    list_filter = ("entered_at", "undone_at")
    search_fields = ("=game__id", "entered_by", "undone_by")
    list_select_related = ("game",)


@admin.register(GameChange)
class GameChangeAdmin(ReadOnlyAdmin):
    list_display = ("game", "at", "action", "deal_number", "actor")
    list_filter = ("action", "at")
    search_fields = ("=game__id", "actor", "reason")
    list_select_related = ("game",)


@admin.register(SeatClaim)
class SeatClaimAdmin(ReadOnlyAdmin):
    list_display = ("game", "seat", "claimed_at")
    list_filter = ("claimed_at",)
    search_fields = ("=game__id",)
    fields = ("game", "seat", "claimed_at")
    readonly_fields = fields
    list_select_related = ("game",)


@admin.register(Verdict)
class VerdictAdmin(ReadOnlyAdmin):
    list_display = ("game", "seat", "agrees", "version", "at")
    list_filter = ("agrees", "at")
    search_fields = ("=game__id", "reason")
    list_select_related = ("game",)
