"""The API's operation ids are published: clients and the schema's own links name them, so
moving a module (tournaments/ sorted by feature) must not rename one."""

from __future__ import annotations

from django.test import Client

PUBLISHED = [
    "scoring_api_deal_correct",
    "scoring_api_deal_patch",
    "scoring_api_deal_undo",
    "scoring_api_deals",
    "scoring_api_game",
    "scoring_api_game_head",
    "scoring_api_games",
    "tournaments_api_organise_clubs",
    "tournaments_api_organise_event_add_round",
    "tournaments_api_organise_event_end",
    "tournaments_api_organise_event_reopen",
    "tournaments_api_organise_events",
    "tournaments_api_organise_newcomer_accept",
    "tournaments_api_organise_newcomer_decline",
    "tournaments_api_organise_newcomers",
    "tournaments_api_organise_newcomers_head",
    "tournaments_api_organise_player_check_in",
    "tournaments_api_organise_player_check_out",
    "tournaments_api_organise_player_reinstate",
    "tournaments_api_organise_player_withdraw",
    "tournaments_api_organise_players",
    "tournaments_api_organise_self_check_in_close",
    "tournaments_api_organise_self_check_in_open",
    "tournaments_api_ratings_club_ratings",
    "tournaments_api_ratings_club_ratings_head",
    "tournaments_api_round_detail",
    "tournaments_api_round_detail_head",
    "tournaments_api_round_remove",
    "tournaments_api_rounds_game_confirm",
    "tournaments_api_rounds_round_clock_extend",
    "tournaments_api_rounds_round_clock_pause",
    "tournaments_api_rounds_round_clock_resume",
    "tournaments_api_rounds_round_clock_start",
    "tournaments_api_rounds_round_clock_stop",
    "tournaments_api_rounds_round_close",
    "tournaments_api_rounds_round_publish",
    "tournaments_api_rounds_round_rebuild",
    "tournaments_api_rounds_rounds",
    "tournaments_api_rounds_table_clock_extend",
    "tournaments_api_rounds_table_substitute",
    "tournaments_api_rounds_table_void",
    "tournaments_api_seasons_season_standings",
    "tournaments_api_seasons_season_standings_head",
    "tournaments_api_standings",
    "tournaments_api_standings_head",
    "tournaments_api_team_standings",
    "tournaments_api_team_standings_head",
    "tournaments_api_teams_keep_apart",
    "tournaments_api_teams_keep_apart_create",
    "tournaments_api_teams_keep_apart_delete",
    "tournaments_api_teams_keep_apart_head",
    "tournaments_api_teams_team_create",
    "tournaments_api_teams_team_delete",
    "tournaments_api_teams_team_member_remove",
    "tournaments_api_teams_team_members_add",
    "tournaments_api_teams_team_update",
    "tournaments_api_teams_teams",
    "tournaments_api_teams_teams_head",
]


def test_the_operation_ids_are_the_published_ones():
    schema = Client().get("/api/openapi.json").json()
    ids = sorted(
        operation["operationId"]
        for path in schema["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict) and "operationId" in operation
    )
    assert ids == PUBLISHED
