"""The JSON API's one NinjaAPI, mounted at /api/ by config/urls.py.

Each app's router is added by its dotted path (config imports no app). /api/ itself is
config.api.not_found's JSON 404 like any unknown API path, not ninja's root page (whose name
the OpenAPI schema still reverses for the API's prefix).
"""

from django.urls import path

from config.api import not_found
from config.api_ninja import make_api

ROUTERS = (
    "scoring.api.router",
    "tournaments.results.api.router",
    "tournaments.events.api.organise.router",
    "tournaments.events.api.night.router",
    "tournaments.rounds.api.rounds.router",
    "tournaments.clubs.api.seasons.router",
    "tournaments.clubs.api.ratings.router",
    "tournaments.teams.api.router",
)

api = make_api(
    title="3-5-8",
    version="1",
    description="Games, events and the organisers' token API: ../shared/spec/http-api.md, "
    'docs/api.md. Every error is a 4xx with the body {"error": {"message": "..."}}.',
    urls_namespace="api",
)
for router in ROUTERS:
    api.add_router("", router)

app_name = api.urls_namespace  # reverse("api:game", ...)
urlpatterns = [
    pattern if pattern.name != "api-root" else path("", not_found, name="api-root")
    for pattern in api.urls[0]
]
