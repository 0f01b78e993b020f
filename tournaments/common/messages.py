"""Every refusal of the tournaments app in words: one catalogue, code -> message template.

Services raise tournaments.common.errors with a code and plain params; the words are only looked
up when the error's `message` is read, in the language active then (the page's, or the
site's default for what a worker stores). A test renders each code in Bulgarian.

The standings module (pure, English) refuses settings with its own typed errors (a code and
params, tournaments.standings.errors); `standings_code` gives the code of the organiser's
wording for each of them.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from tournaments.standings import StandingsError

#: code -> message template (params by name; a plural's count is its "n").
MESSAGES = {
    # names and registration
    "name_missing": _("a player needs a name"),
    "name_too_long": _("a name has at most %(max)s characters: %(start)s…"),
    "name_is_a_list": _(
        "“%(name)s” looks like several names: give one name at a time, without commas or semicolons"
    ),
    "name_listed_twice": _(
        "“%(name)s” is in the list twice: if they are two people, add an initial or "
        "a surname to one of them"
    ),
    "event_closed": _("the event is closed"),
    "event_not_closed": _("the event is not over"),
    "player_withdrawn": _("%(name)s has withdrawn."),
    "player_not_withdrawn": _("%(name)s has not withdrawn."),
    "entry_played": _("%(name)s has a seat in this event: withdraw them instead"),
    # teams and keep-apart rules (tournaments.teams.services)
    "team_name_missing": _("a team needs a name"),
    "team_name_too_long": _("a team's name has at most %(max)s characters"),
    "team_name_taken": _("the event already has a team called %(name)s"),
    "entry_not_in_event": _("%(name)s is not entered in this event"),
    "entry_in_team": _("%(name)s is already in the team %(team)s: take them out of it first"),
    "entry_not_in_team": _("%(name)s is not in the team %(team)s"),
    "apart_too_few": _("choose at least two players to keep apart"),
    "apart_reason_too_long": _("a reason has at most %(max)s characters"),
    "team_line_no_name": _("line %(line)s: write the team's name, a colon, then its players"),
    "team_line_unknown": _("line %(line)s: nobody entered is called %(name)s"),
    "team_line_ambiguous": _("line %(line)s: “%(name)s” may be any of %(names)s: write more"),
    "team_line_twice": _("line %(line)s: %(name)s is already on line %(first)s"),
    "team_line_refused": _("line %(line)s: %(why)s"),
    # event settings
    "event_name_missing": _("an event needs a name"),
    "event_name_too_long": _("an event's name has at most %(max)s characters"),
    "rounds_planned_invalid": _("plan at least one round"),
    "clock_minutes_invalid": _("a round lasts from %(low)s to %(high)s minutes (0: no clock)"),
    "clock_at_time_unknown": _("choose what happens at time"),
    "clock_more_deals_invalid": _("at time, a table plays from %(low)s to %(high)s deals more"),
    # the round clock
    "clock_off": _("the event has no round clock: set a round length in its settings"),
    "clock_round_not_open": _("only the clock of a published round, not yet closed, can be set"),
    "clock_running": _("the clock of this round is already running"),
    "clock_not_started": _("the clock of this round has not been started"),
    "clock_not_running": _("the clock of this round is not running"),
    "clock_not_paused": _("the clock of this round is not paused"),
    "clock_not_at_time": _("the round's time is not up yet"),
    "pairing_mode_unknown": _("unknown pairing mode %(mode)r"),
    "void_policy_unknown": _("unknown void policy %(p)r"),
    "confirm_quorum_unknown": _("choose who confirms a table's result"),
    "rounds_fewer_than_built": ngettext_lazy(
        "the event already has %(n)s round: plan at least as many",
        "the event already has %(n)s rounds: plan at least as many",
        "n",
    ),
    "rules_refused": _("The game's rules do not allow this: %(why)s"),
    # the standings' refusals of settings (standings_code)
    "placing_points_order": _("A lower place cannot get more placing points than a higher one."),
    "placing_points_three": _("Give the placing points of the first, second and third place."),
    "metric_twice": _("A tie-break is chosen twice: choose each one once."),
    "lot_not_last": _("The drawing of lots must be the last tie-break: it separates everyone."),
    "metric_unknown": _("An unknown tie-break was chosen."),
    "precedence_invalid": _("Choose the tie-breaks from the list."),
    "bye_policy_invalid": _("Choose what a bye scores from the list."),
    "team_scoring_invalid": _("Choose what a team scores from the list."),
    "standings_refused": _("The standings cannot follow these settings (%(why)s)."),
    # organisers
    "user_unknown": _("there is no active user %(name)r"),
    "organiser_already": _("%(name)s already organises this event"),
    # rounds
    "no_players_checked_in": _("no player is checked in; a round needs at least 3"),
    "too_few_players": ngettext_lazy(
        "only %(n)s player is checked in; a round needs at least 3",
        "only %(n)s players are checked in; a round needs at least 3",
        "n",
    ),
    "round_pending": _("round %(n)s is still being built"),
    "round_failed": _("round %(n)s could not be built: build it again or delete it"),
    "round_draft": _("round %(n)s is a draft: publish it or delete it first"),
    "round_not_closed": _("round %(n)s is not closed yet"),
    "rounds_all_played": ngettext_lazy(
        "the only planned round is played: add a round or end the event",
        "all %(n)s planned rounds are played: add a round or end the event",
        "n",
    ),
    "retry_not_allowed": _(
        "only a draft or failed round, or one stuck being built, can be built again"
    ),
    "delete_not_allowed": _(
        "only a draft or failed round, or one stuck being built, can be deleted"
    ),
    "swap_not_allowed": _("players can only be swapped in a draft"),
    "swap_players_invalid": _("choose two different players of this round"),
    "publish_not_allowed": _("only a draft can be published"),
    "close_not_allowed": _("only a published round can be closed"),
    "tables_unsettled": ngettext_lazy(
        "%(n)s table is neither confirmed nor void yet",
        "%(n)s tables are neither confirmed nor void yet",
        "n",
    ),
    # table PINs (tournaments.rounds.services.pins)
    "pin_no_round": _("no round of this event is being played: there is no table to open"),
    "pin_round_closed": _("round %(n)s is closed: its tables' scores are final"),
    "pin_event_over": _("this event is over: the tables' scores are final"),
    "pin_round_not_open": _("round %(n)s is not being played: its tables have no PIN to renew"),
    "pin_no_table": _("round %(n)s has no table %(t)s: check the number on the table card"),
    "pin_wrong": _("that is not the PIN of table %(t)s: check both numbers on the table card"),
    "pin_blocked": _(
        "too many wrong PINs: try again in %(minutes)s minutes, scan the table card's QR "
        "code, or ask the organiser"
    ),
    # a player's personal code (tournaments.events.services.identity)
    "code_blocked": _(
        "too many wrong codes: try again in %(minutes)s minutes, scan the code on your slip, "
        "or ask the organiser"
    ),
    "code_no_player": _("that player is not entered in this event"),
    "code_missing": _("type your personal code: it is on your slip, or ask the organiser"),
    "code_wrong": _(
        "that is not %(name)s's personal code: check it on your slip, or ask the organiser"
    ),
    # self check-in (tournaments.events.services.check_in)
    "self_check_in_closed": _("self check-in is not open: check in with the organiser"),
    "self_check_in_not_yours": _(
        "this phone has not proven to be %(name)s's: type their personal code, or ask the "
        "organiser (one phone checks in one person)"
    ),
    "newcomer_entered": _("%(name)s is on the list already: find your name and check in"),
    "newcomer_blocked": _(
        "too many requests: try again in %(minutes)s minutes, or ask the organiser"
    ),
    "newcomer_answered": _("the request of %(name)s has been answered already"),
    "newcomer_gone": _(
        "your request to be entered is no longer waiting: find your name above, or ask the "
        "organiser"
    ),
    # tables after a walkout (tournaments.rounds.services.walkouts)
    "table_not_open": _("only a table of a published round, not yet closed, can be changed"),
    "table_no_game": _("the table has no game yet"),
    "table_void": _("the table is void"),
    "reason_missing": _("say why"),
    "seat_invalid": _("seat must be 0, 1 or 2"),
    "result_confirmed_reopen": _("the result is confirmed: reopen it first"),
    "result_confirmed_already": _("the result is confirmed already"),
    "player_not_in_event": _("%(name)s is not in this event"),
    "player_not_checked_in": _("%(name)s is not checked in"),
    "player_seated_elsewhere": _("%(name)s already plays at table %(t)s of this round"),
    "substitute_one_of": _("Choose a player or type a new name (one of them)."),
    # event backups (tournaments.backup; the export_event and import_event commands)
    "backup_not_a_backup": _("not an event backup: the format is %(found)s, not %(expected)s"),
    "backup_version_unknown": _(
        "backup version %(version)s is not known here (this site reads version %(known)s): "
        "use the site version that wrote it"
    ),
    "backup_lacks": _("the backup is not valid: %(where)s lacks %(keys)s"),
    "backup_unknown_keys": _(
        "the backup is not valid: %(where)s has keys this format version does not know: %(keys)s"
    ),
    "backup_not_list": _("the backup is not valid: %(where)s must be a list"),
    "backup_not_object": _("the backup is not valid: %(where)s must be an object"),
    "backup_not_bool": _("the backup is not valid: %(where)s must be true or false"),
    "backup_not_integer": _("the backup is not valid: %(where)s must be an integer"),
    "backup_not_id": _("the backup is not valid: %(where)s must be an integer or null"),
    "backup_not_moment": _(
        "the backup is not valid: %(where)s must be an ISO 8601 date and time with its UTC offset"
    ),
    "backup_bad_value": _("the backup is not valid: %(where)s has a bad value (%(problems)s)"),
    "backup_not_flag": _(
        "the backup is not valid: %(where)s must be a flag (an object with a code)"
    ),
    "backup_not_substitution": _(
        "the backup is not valid: %(where)s must be an object with from_deal, joined, left and seat"
    ),
    "backup_not_seat": _("the backup is not valid: %(where)s must be a seat: 0, 1 or 2"),
    "backup_not_standings_row": _(
        "the backup is not valid: %(where)s must be a standings row (an object with a player)"
    ),
    "backup_not_username": _("the backup is not valid: %(where)s must be a username"),
    "backup_rules_refused": _(
        "the backup is not valid: %(where)s has rules the engine refuses: %(why)s"
    ),
    "backup_setting_refused": _(
        "the backup is not valid: %(where)s holds a setting the site refuses: %(why)s"
    ),
    "backup_stranger": _(
        "the backup is not valid: %(where)s names %(name)s, who is not among the entries"
    ),
    "backup_name_untidy": _("the backup is not valid: %(where)s is not a player's name: %(name)s"),
    "backup_entered_twice": _("the backup is not valid: %(where)s enters %(name)s a second time"),
    "backup_rounds_numbered": _(
        "the backup is not valid: %(where)s must be %(n)s: rounds are numbered 1, 2, … in order"
    ),
    "backup_table_twice": _("the backup is not valid: %(where)s repeats table number %(n)s"),
    "backup_plays_twice": _(
        "the backup is not valid: %(where)s seats %(name)s, who already plays in round %(round)s"
    ),
    "backup_bye_while_playing": _(
        "the backup is not valid: %(where)s gives %(name)s a bye in a round they play or sit out"
    ),
    "backup_seats_three": _("the backup is not valid: %(where)s must name three players"),
    "backup_seated_twice": _("the backup is not valid: %(where)s seats a player twice"),
    "backup_game_missing": _(
        "the backup is not valid: %(where)s has no game, though its round is published"
    ),
    "backup_game_unpublished": _(
        "the backup is not valid: %(where)s has a game, though its round is not published"
    ),
    "backup_game_players": _("the backup is not valid: %(where)s must be three names, by seat"),
    "backup_secret_twice": _(
        "the backup is not valid: %(where)s must be a table secret, different at every table"
    ),
    "backup_live_deals": _(
        "the backup is not valid: %(where)s must have one live deal for each of 1…n, "
        "not %(numbers)s"
    ),
    "backup_deals_refused": _(
        "the backup is not valid: %(where)s has deals the engine refuses: %(why)s"
    ),
    "backup_totals_not_deals": _(
        "the backup is not valid: %(where)s has totals or placings that are not those of its deals"
    ),
    "backup_result_not_deals": _(
        "the backup is not valid: %(where)s has a result (%(result)s) that its deals do not give"
    ),
    "backup_result_not_outcome": _(
        "the backup is not valid: %(where)s has a result (%(result)s) its table's outcome "
        "(%(outcome)s) denies"
    ),
    "backup_totals_not_three": _(
        "the backup is not valid: %(where)s has totals that are not three whole numbers"
    ),
    "backup_placings_not_seats": _(
        "the backup is not valid: %(where)s has placings that are not the three seats"
    ),
    "backup_confirmed_at": _(
        "the backup is not valid: %(where)s has a confirmed_at that does not fit its result "
        "(%(result)s)"
    ),
    "backup_ids_twice": _("the backup is not valid: %(where)s repeat the id(s) %(ids)s"),
    "backup_club_slug": _("%(slug)s is not a club slug"),
    "backup_event_here": _(
        "an event with the slug %(slug)s is already here: delete it first, or restore into "
        "another database"
    ),
    "backup_secret_here": _(
        "a table secret of this backup is already in use here: the event's games are still in "
        "this database (delete them with the event first)"
    ),
    "backup_database_refused": _("the database refused the backup: %(why)s"),
    "backup_player_unknown": _("%(where)s names player %(player)s, who has no entry"),
    "backup_players_moved": ngettext_lazy(
        "%(n)s player has an id other than in the backup (%(name)s): their lot (the last "
        "tie-break, drawn from the seed and the player id) differs, so the next standings "
        "build may order equal players otherwise, later rounds will not be drawn as the "
        "original event would have drawn them, and links to their player page change",
        "%(n)s players have ids other than in the backup (e.g. %(name)s): their lots (the "
        "last tie-break, drawn from the seed and the player id) differ, so the next standings "
        "build may order equal players otherwise, later rounds will not be drawn as the "
        "original event would have drawn them, and links to their player pages change",
        "n",
    ),
    "backup_games_moved": ngettext_lazy(
        "%(n)s game has an id other than in the backup: the keeper links and QR codes printed "
        "for that table no longer work; print them again",
        "%(n)s games have ids other than in the backup: the keeper links and QR codes printed "
        "for those tables no longer work; print them again",
        "n",
    ),
    "backup_organisers_missing": _(
        "no user here is called %(names)s: not made organisers (a backup never creates "
        "logins; add them on the event's page once they have one)"
    ),
    "backup_organisers_from_file": _(
        "the backup makes %(names)s organisers of %(slug)s: they can change its players, "
        "rounds and results. The file decides who organises the event it brings: check these "
        "are the right people, or import again with --organiser USERNAME to choose"
    ),
    "backup_organiser_unknown": _(
        "no user here is called %(names)s: an imported event is given only to existing users"
    ),
    # a hostile backup: refused before anything reads its values (tournaments.backup.document)
    "backup_not_json": _("the file is not JSON: %(why)s"),
    "backup_too_deep": _("the backup is not valid: %(where)s is nested more than %(most)s deep"),
    "backup_number_range": _(
        "the backup is not valid: %(where)s holds %(number)s (%(digits)s digits), a number no "
        "database keeps: whole numbers go from %(least)s to %(most)s"
    ),
    "backup_number_not_finite": _(
        "the backup is not valid: %(where)s holds %(number)s, which is not a finite number"
    ),
    "backup_unstorable": _(
        "the backup is not valid: %(where)s holds a NUL character or a lone surrogate, "
        "which no database stores"
    ),
    "backup_unstorable_key": _(
        "the backup is not valid: %(where)s has a key with a NUL character or a lone "
        "surrogate, which no database stores"
    ),
    "backup_not_plain": _("the backup is not valid: %(where)s holds a %(type)s, not a JSON value"),
    # a pasted list of players (tournaments.events.csv_import)
    "line_name_too_long": _("Line %(line)s: a name has at most %(max)s characters."),
    "line_name_empty": _("Line %(line)s: the name column is empty."),
    "line_name_is_a_list": _(
        "Line %(line)s: “%(name)s” holds a comma or a semicolon; a name cannot (write "
        "“Boris Ivanov”, not “Ivanov, Boris”)."
    ),
    "line_not_csv": _("Line %(line)s: not readable as CSV (%(error)s)."),
    # a club's seasons (tournaments.clubs.services.seasons)
    "season_name_missing": _("a season needs a name"),
    "season_name_too_long": _("a season's name has at most %(max)s characters"),
    "club_name_missing": _("a club needs a name"),
    "club_name_too_long": _("a club's name has at most %(max)s characters"),
    "season_counting_invalid": _(
        "points per place must be whole numbers of at least 0, each place no more than the "
        "one above; best nights at least 1"
    ),
    "season_dates_reversed": _("a season cannot end before it starts"),
    "season_other_club": _("that event belongs to another club"),
    # a club's members (tournaments.clubs.services.members)
    "club_organiser_already": _("%(name)s already runs this club"),
    "club_organiser_unknown": _("%(name)s does not run this club"),
    "club_organiser_last": _(
        "%(name)s is the club's last organiser: add another before removing them"
    ),
    "member_other_club": _("%(name)s is not a member of this club"),
    # who may (tournaments.common.permissions)
    "club_not_yours": _("your account does not run the club %(club)s"),
    "event_not_yours": _("your account does not run the event %(event)s"),
    "merge_same_member": _("choose two different records to merge"),
    "merge_both_played": _(
        "%(kept)s and %(gone)s both played in %(event)s: one person cannot have sat at "
        "two seats of one event, so these are two people"
    ),
    "merge_same_table": _(
        "%(kept)s and %(gone)s sat at one table in a casual game: these are two people"
    ),
    "member_name_taken": _("the club already has a member called %(name)s: merge them instead"),
    "casual_seats": _("a game needs three different players"),
    # becoming an organiser, a forgotten password (tournaments.services.invitations)
    "invitation_unknown": _("this invitation link is not known: ask an organiser for a new one"),
    "invitation_used": _("this invitation has been used already: ask an organiser for a new one"),
    "invitation_expired": _("this invitation has expired: ask an organiser for a new one"),
    "invitation_revoked": _("this invitation was withdrawn: ask an organiser for a new one"),
    "invitation_accepted_already": _("you already run %(club)s: this invitation stays unused"),
    "reset_beyond_you": _(
        "%(name)s also runs clubs or events you do not, or looks after the site: the "
        "site's administrator sets their password (manage.py changepassword %(name)s)"
    ),
}

#: The standings' refusals of settings an organiser chooses: each is worded here under the
#: standings' own code (tournaments.standings.errors).
STANDINGS_CODES = frozenset(
    {
        "placing_points_order",
        "placing_points_three",
        "metric_twice",
        "lot_not_last",
        "metric_unknown",
        "precedence_invalid",
        "bye_policy_invalid",
        "team_scoring_invalid",
    }
)


def render(code: str, params: dict) -> str:
    """The message of `code` with its params, in the active language."""
    template = MESSAGES[code]
    return str(template % params) if params else str(template)


def standings_code(error: StandingsError) -> tuple[str, dict]:
    """The code (and params) of what to tell the organiser about settings the standings
    refused; one no organiser can cause (a bad seed) keeps the standings' own words."""
    if error.code in STANDINGS_CODES:
        return error.code, {}
    return "standings_refused", {"why": error.message}
