"""Public event pages, for phones and the projector: no login, nothing secret."""

from django.urls import path, re_path
from django.views.generic import TemplateView

from tournaments.clubs.views import public_club, public_player, public_ratings, public_season
from tournaments.events.views import public_check_in, public_pages
from tournaments.results.views import public_standings
from tournaments.rounds.views import public_next, public_pin, public_seat

EVENT = "events/<slug:slug>/"

urlpatterns = [
    # What crawlers may read: not the organisers' pages, keeper links or the API.
    path(
        "robots.txt",
        TemplateView.as_view(template_name="robots.txt", content_type="text/plain; charset=utf-8"),
        name="robots",
    ),
    path("events/", public_pages.events, name="events"),
    path(EVENT, public_pages.event, name="event"),
    path(EVENT + "seat/", public_seat.seat, name="seat"),
    path(EVENT + "seat/me/", public_seat.seat_me, name="seat_me"),
    path(EVENT + "me/<int:entry_id>/<str:secret>/", public_seat.seat_slip, name="seat_slip"),
    path(EVENT + "next/", public_next.next_seat_page, name="next_seat"),
    path(EVENT + "next/live/", public_next.next_seat_live, name="next_seat_live"),
    path(EVENT + "next/version/", public_next.next_seat_version, name="next_seat_version"),
    path(EVENT + "table/", public_pin.table_pin, name="table_pin"),
    # self check-in: "I'm here" (tournaments.events.views.public_check_in)
    path(EVENT + "here/", public_check_in.here, name="check_in_here"),
    path(EVENT + "here/check-in/", public_check_in.here_check_in, name="check_in_here_post"),
    path(EVENT + "here/ask/", public_check_in.here_ask, name="check_in_ask"),
    path(EVENT + "rounds/<int:number>/", public_pages.round_detail, name="round"),
    path(EVENT + "standings/", public_standings.standings, name="standings"),
    path(EVENT + "standings/live/", public_standings.standings_live, name="standings_live"),
    path(EVENT + "players/<int:player_id>/", public_pages.player, name="player"),
    path(EVENT + "projector/", public_standings.projector, name="projector"),
    path(EVENT + "projector/live/", public_standings.projector_live, name="projector_live"),
    # a club's own page (tournaments.clubs.views.public_club)
    path("clubs/<slug:slug>/", public_club.club, name="club"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/",
        public_player.club_player,
        name="club_player",
    ),
    # a club's leaderboard (tournaments.clubs.views.public_ratings)
    path("clubs/<slug:slug>/ratings/", public_ratings.club_ratings, name="club_ratings"),
    # a club's season (tournaments.clubs.views.public_season)
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/",
        public_season.season,
        name="club_season",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/projector/",
        public_season.season_projector,
        name="club_season_projector",
    ),
    re_path(
        r"^clubs/(?P<slug>[-a-zA-Z0-9_]+)/seasons/(?P<season_id>[0-9]+)/"
        r"standings\.(?P<fmt>csv|xlsx|json)$",
        public_season.season_export,
        name="club_season_export",
    ),
]
