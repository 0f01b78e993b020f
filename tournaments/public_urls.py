"""Public event pages, for phones and the projector: no login, nothing secret."""

from django.urls import path

from .views import public

urlpatterns = [
    path("events/", public.events, name="events"),
    path("events/<slug:slug>/", public.event, name="event"),
    path("events/<slug:slug>/seat/", public.seat, name="seat"),
    path("events/<slug:slug>/seat/me/", public.seat_me, name="seat_me"),
    path("events/<slug:slug>/rounds/<int:number>/", public.round_detail, name="round"),
    path("events/<slug:slug>/standings/", public.standings, name="standings"),
    path("events/<slug:slug>/standings/live/", public.standings_live, name="standings_live"),
    path("events/<slug:slug>/players/<int:player_id>/", public.player, name="player"),
    path("events/<slug:slug>/projector/", public.projector, name="projector"),
    path("events/<slug:slug>/projector/live/", public.projector_live, name="projector_live"),
]
