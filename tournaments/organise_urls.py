"""Organiser pages: login required, and each event's own organisers only."""

from django.urls import path, re_path

from tournaments.clubs.views import organise_club, organise_invitations, organise_seasons
from tournaments.events.views import (
    account,
    organise,
    organise_check_in,
    organise_codes,
    organise_end,
    organise_players,
)
from tournaments.results.views import organise_export
from tournaments.rounds.views import (
    organise_clock,
    organise_pins,
    organise_print,
    organise_rounds,
    organise_tables,
)
from tournaments.teams.views import organise_teams

EVENT = "organise/events/<slug:slug>/"
ROUND = EVENT + "rounds/<int:number>/"
TABLE = ROUND + "tables/<int:table_number>/"

urlpatterns = [
    path("organise/", organise.home, name="organise_home"),
    path("organise/account/", account.account, name="organise_account"),
    path("organise/clubs/new/", organise.club_create, name="organise_club_create"),
    # a club's home: members, settings, log, casual games (tournaments.clubs.views.organise_club)
    path("organise/clubs/<slug:slug>/", organise_club.club_home, name="organise_club"),
    path(
        "organise/clubs/<slug:slug>/settings/",
        organise_club.club_settings,
        name="organise_club_settings",
    ),
    path(
        "organise/clubs/<slug:slug>/organisers/",
        organise_club.organiser_add,
        name="organise_club_organiser_add",
    ),
    path(
        "organise/clubs/<slug:slug>/organisers/remove/",
        organise_club.organiser_remove,
        name="organise_club_organiser_remove",
    ),
    path(
        "organise/clubs/<slug:slug>/members/<int:player_id>/rename/",
        organise_club.member_rename,
        name="organise_member_rename",
    ),
    path(
        "organise/clubs/<slug:slug>/members/<int:player_id>/merge/",
        organise_club.member_merge,
        name="organise_member_merge",
    ),
    path(
        "organise/clubs/<slug:slug>/casual/",
        organise_club.casual_game,
        name="organise_casual_game",
    ),
    # becoming an organiser, a forgotten password (tournaments.clubs.views.organise_invitations)
    path(
        "organise/clubs/<slug:slug>/invitations/",
        organise_invitations.invitations,
        name="organise_club_invitations",
    ),
    path(
        "organise/clubs/<slug:slug>/invitations/<int:invitation_id>/withdraw/",
        organise_invitations.invitation_revoke,
        name="organise_club_invitation_revoke",
    ),
    path(
        "organise/clubs/<slug:slug>/password-link/",
        organise_invitations.reset_link,
        name="organise_club_reset_link",
    ),
    path("join/<str:token>/", organise_invitations.invitation_accept, name="invitation_accept"),
    # a club's seasons (tournaments.clubs.views.organise_seasons)
    path("organise/clubs/<slug:slug>/seasons/", organise_seasons.seasons, name="organise_seasons"),
    path(
        "organise/clubs/<slug:slug>/seasons/<int:season_id>/",
        organise_seasons.season,
        name="organise_season",
    ),
    path(
        "organise/clubs/<slug:slug>/seasons/<int:season_id>/delete/",
        organise_seasons.season_delete,
        name="organise_season_delete",
    ),
    path("organise/new-event/", organise.event_new, name="organise_event_new"),
    path(EVENT, organise.event, name="organise_event"),
    path(EVENT + "settings/", organise.settings, name="organise_settings"),
    path(EVENT + "organisers/", organise.organiser_add, name="organise_organiser_add"),
    path(EVENT + "log/", organise.log, name="organise_log"),
    path(EVENT + "poster/", organise.poster, name="organise_poster"),
    # the end of the night (tournaments.events.views.organise_end)
    path(EVENT + "add-round/", organise_end.round_add, name="organise_event_add_round"),
    path(EVENT + "end/", organise_end.end, name="organise_event_end"),
    path(EVENT + "reopen/", organise_end.reopen, name="organise_event_reopen"),
    path(EVENT + "final/", organise_end.final, name="organise_event_final"),
    # players
    path(EVENT + "players/", organise_players.players, name="organise_players"),
    path(EVENT + "players/add/", organise_players.player_add, name="organise_player_add"),
    path(EVENT + "players/members/", organise_club.members_pick, name="organise_members_pick"),
    path(EVENT + "players/paste/", organise_players.players_paste, name="organise_players_paste"),
    path(
        EVENT + "players/check-in-all/",
        organise_players.check_in_all,
        name="organise_check_in_all",
    ),
    path(
        EVENT + "players/<int:entry_id>/check-in/",
        organise_players.check_in,
        name="organise_check_in",
    ),
    path(
        EVENT + "players/<int:entry_id>/withdraw/",
        organise_players.withdraw,
        name="organise_withdraw",
    ),
    path(
        EVENT + "players/<int:entry_id>/delete/",
        organise_players.entry_remove,
        name="organise_entry_delete",
    ),
    path(
        EVENT + "players/<int:entry_id>/reinstate/",
        organise_players.reinstate,
        name="organise_reinstate",
    ),
    path(EVENT + "players/slips/", organise_codes.slips, name="organise_player_slips"),
    # teams and keep-apart rules (tournaments.teams.views.organise_teams)
    path(EVENT + "teams/", organise_teams.teams, name="organise_teams"),
    path(EVENT + "teams/new/", organise_teams.team_new, name="organise_team_create"),
    path(EVENT + "teams/paste/", organise_teams.teams_paste_view, name="organise_teams_paste"),
    path(
        EVENT + "teams/<int:team_id>/rename/",
        organise_teams.team_rename_view,
        name="organise_team_rename",
    ),
    path(
        EVENT + "teams/<int:team_id>/delete/",
        organise_teams.team_delete_view,
        name="organise_team_delete",
    ),
    path(
        EVENT + "teams/<int:team_id>/members/",
        organise_teams.team_member_add,
        name="organise_team_member_add",
    ),
    path(
        EVENT + "teams/<int:team_id>/members/<int:entry_id>/remove/",
        organise_teams.team_member_remove_view,
        name="organise_team_member_remove",
    ),
    path(EVENT + "teams/apart/", organise_teams.apart_new, name="organise_apart_create"),
    path(
        EVENT + "teams/apart/<int:rule_id>/delete/",
        organise_teams.apart_delete,
        name="organise_apart_delete",
    ),
    # self check-in (tournaments.events.views.organise_check_in)
    path(
        EVENT + "players/self-check-in/",
        organise_check_in.self_check_in_set,
        name="organise_self_check_in",
    ),
    path(EVENT + "players/arrivals/", organise_check_in.arrivals_part, name="organise_arrivals"),
    path(EVENT + "players/door-poster/", organise_check_in.poster, name="organise_door_poster"),
    path(
        EVENT + "players/newcomers/<int:request_id>/accept/",
        organise_check_in.newcomer_accept,
        name="organise_newcomer_accept",
    ),
    path(
        EVENT + "players/newcomers/<int:request_id>/decline/",
        organise_check_in.newcomer_decline,
        name="organise_newcomer_decline",
    ),
    path(
        EVENT + "players/<int:entry_id>/code/",
        organise_codes.code_renew,
        name="organise_code_renew",
    ),
    # rounds
    path(EVENT + "rounds/new/", organise.round_create, name="organise_round_create"),
    path(ROUND, organise_rounds.round_detail, name="organise_round"),
    path(ROUND + "retry/", organise_rounds.round_retry, name="organise_round_retry"),
    path(ROUND + "delete/", organise_rounds.round_delete, name="organise_round_delete"),
    path(ROUND + "swap/", organise_rounds.round_swap, name="organise_round_swap"),
    path(ROUND + "publish/", organise_rounds.round_publish, name="organise_round_publish"),
    path(ROUND + "close/", organise_rounds.round_close, name="organise_round_close"),
    # the round clock (tournaments.rounds.services.clock)
    path(ROUND + "clock/start/", organise_clock.clock_start, name="organise_clock_start"),
    path(ROUND + "clock/pause/", organise_clock.clock_pause, name="organise_clock_pause"),
    path(ROUND + "clock/resume/", organise_clock.clock_resume, name="organise_clock_resume"),
    path(ROUND + "clock/extend/", organise_clock.clock_extend, name="organise_clock_extend"),
    path(ROUND + "clock/stop/", organise_clock.clock_stop, name="organise_clock_stop"),
    path(
        TABLE + "end-at-time/",
        organise_clock.table_end_at_time,
        name="organise_table_end_at_time",
    ),
    path(
        TABLE + "clock/extend/",
        organise_clock.table_clock_extend,
        name="organise_table_clock_extend",
    ),
    path(TABLE + "confirm/", organise_rounds.result_confirm, name="organise_result_confirm"),
    path(TABLE + "reopen/", organise_rounds.result_reopen, name="organise_result_reopen"),
    # a table after a walkout (tournaments.rounds.services.walkouts)
    path(TABLE, organise_tables.table_detail, name="organise_table"),
    path(TABLE + "substitute/", organise_tables.table_substitute, name="organise_table_substitute"),
    path(TABLE + "finish/", organise_tables.table_finish, name="organise_table_finish"),
    path(TABLE + "pin/", organise_pins.pin_renew, name="organise_pin_renew"),
    path(TABLE + "void/", organise_tables.table_void, name="organise_table_void"),
    path(TABLE + "adjust/", organise_tables.table_adjust, name="organise_table_adjust"),
    # paper
    path(ROUND + "print/cards/", organise_print.cards, name="organise_print_cards"),
    path(ROUND + "print/sheets/", organise_print.sheets, name="organise_print_sheets"),
    path(ROUND + "print/pairings/", organise_print.pairings, name="organise_print_pairings"),
    # downloads
    re_path(
        r"^organise/events/(?P<slug>[-a-zA-Z0-9_]+)/export/"
        r"(?P<what>standings|pairings|hands|team-standings|teams|apart)\.(?P<fmt>csv|xlsx|json)$",
        organise_export.export,
        name="organise_export",
    ),
]
