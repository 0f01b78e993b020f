"""The events part of the JSON API, mounted at /api/."""

from django.urls import path

from . import api

app_name = "tournaments_api"

urlpatterns = [
    path("events/<slug:slug>/standings", api.standings, name="standings"),
    path("events/<slug:slug>/rounds/<str:number>", api.round_detail, name="round"),
]
