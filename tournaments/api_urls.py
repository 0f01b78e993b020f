"""The events part of the JSON API, mounted at /api/: public reads, and the organisers'
token API (tournaments.api_organise; ../shared/spec/http-api.md, "Organisers")."""

from django.urls import path

from . import api, api_organise

app_name = "tournaments_api"

EVENT = "events/<slug:slug>/"
ROUND = EVENT + "rounds/<str:number>/"
TABLE = ROUND + "tables/<str:table_number>/"
PLAYER = EVENT + "players/<str:player_id>/"

urlpatterns = [
    path("events/<slug:slug>/standings", api.standings, name="standings"),
    path("events/<slug:slug>/rounds/<str:number>", api.round_detail, name="round"),
    # organisers (token)
    path("clubs", api_organise.clubs, name="clubs"),
    path("events", api_organise.events, name="events"),
    path(EVENT + "players", api_organise.players, name="players"),
    *[
        path(PLAYER + change, api_organise.player_change, {"change": change})
        for change in ("check-in", "check-out", "withdraw", "reinstate")
    ],
    path(EVENT + "rounds", api_organise.rounds, name="rounds"),
    *[
        path(ROUND + step, api_organise.round_step, {"step": step})
        for step in api_organise.ROUND_STEPS
    ],
    path(TABLE + "substitute", api_organise.table_substitute, name="table_substitute"),
    path(TABLE + "void", api_organise.table_void, name="table_void"),
    path("games/<str:game_id>/confirm", api_organise.game_confirm, name="game_confirm"),
]
