"""Public event pages, for phones and the projector: no login, nothing secret."""

from django.urls import path
from django.views.generic import TemplateView

from .views import public_pages, public_seat, public_standings

EVENT = "events/<slug:slug>/"

urlpatterns = [
    # What crawlers may read: not the organisers' pages, keeper links or the API (issue 18).
    path(
        "robots.txt",
        TemplateView.as_view(template_name="robots.txt", content_type="text/plain; charset=utf-8"),
        name="robots",
    ),
    path("events/", public_pages.events, name="events"),
    path(EVENT, public_pages.event, name="event"),
    path(EVENT + "seat/", public_seat.seat, name="seat"),
    path(EVENT + "seat/me/", public_seat.seat_me, name="seat_me"),
    path(EVENT + "rounds/<int:number>/", public_pages.round_detail, name="round"),
    path(EVENT + "standings/", public_standings.standings, name="standings"),
    path(EVENT + "standings/live/", public_standings.standings_live, name="standings_live"),
    path(EVENT + "players/<int:player_id>/", public_pages.player, name="player"),
    path(EVENT + "projector/", public_standings.projector, name="projector"),
    path(EVENT + "projector/live/", public_standings.projector_live, name="projector_live"),
]
