"""The games part of the JSON API (../shared/spec/http-api.md), mounted at /api/.

Paths are as the spec writes them (no trailing slash); one is accepted too. Anything else
under /api/ gets the JSON 404 of config.api.not_found (see config/urls.py).
"""

from django.urls import path

from . import api

app_name = "scoring_api"

urlpatterns = [
    path("games", api.games, name="games"),
    path("games/<int:game_id>", api.game, name="game"),
    path("games/<int:game_id>/deals", api.deals, name="deals"),
    path("games/<int:game_id>/deals/<int:number>", api.deal, name="deal"),
    # The same with a trailing slash, unnamed (reverse() gives the spec's form).
    path("games/", api.games),
    path("games/<int:game_id>/", api.game),
    path("games/<int:game_id>/deals/", api.deals),
    path("games/<int:game_id>/deals/<int:number>/", api.deal),
]
