"""Who gets in where: every page and API route that takes a club, an event, a member, a season,
a rating or a game, for GET and for each write method, × every role.

The routes are read from the URL resolver (the API's too: django-ninja's routes live there
under api/), and every route must be in `MATRIX` or in `NO_OBJECT`: a new route fails
`test_every_route_is_in_the_matrix` until someone says who may use it. Roles: anonymous; the
holder of one table's secret (its keeper session on the pages, its token on the API); an
organiser of this club; an organiser listed on this event only (not the club's); an organiser
of another club; an organiser listed on an event of another club; a superuser. On the pages
each acts with a logged-in session, on the API with their own token (tournaments.common.tokens).

One world for the module (tests/access_world.py), built once; each request runs in a
savepoint rolled back afterwards, so an allowed write never changes what the next request
sees, and a refused one is checked to have changed nothing while it could still be seen.
The rule asked is tournaments.common.permissions (docs/architecture.md, "Who may do what").
"""

from __future__ import annotations

import copy
import json

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client

from tests.access_world import (
    ROLES,
    build_url,
    built_world,
    fingerprint,
    routes,
    write_body,
)

#: Marked so that pytest-django sets the test database up; the world itself is the module's.
pytestmark = pytest.mark.django_db

ANON, TABLE, CLUB, EVENT, OTHER_CLUB, OTHER_EVENT, SUPER = ROLES

EVERYONE = frozenset(ROLES)
LOGGED_IN = frozenset({CLUB, EVENT, OTHER_CLUB, OTHER_EVENT, SUPER})
RUNS_CLUB = frozenset({CLUB, SUPER})
RUNS_EVENT = frozenset({CLUB, EVENT, SUPER})
KEEPS_GAME = frozenset({TABLE, CLUB, EVENT, SUPER})
TABLE_ONLY = frozenset({TABLE})
NOBODY = frozenset()
#: A public read that also reads an organiser's token: a table's token is not one (401).
NOT_TABLE = EVERYONE - {TABLE}

#: route name → (who gets a GET, who gets a write). A GET-only route's write level is its GET
#: level: whoever is refused the page is refused before the 405 too.
MATRIX: dict[str, tuple[frozenset, frozenset]] = {
    # --- a table's game (scoring) ---
    "scoring:table": (EVERYONE, EVERYONE),
    "scoring:keep": (EVERYONE, EVERYONE),  # the secret in the address is the key
    "scoring:game_again": (NOBODY, NOBODY),  # a casual game's keeper's only: not a table's
    "scoring:sheet": (EVERYONE, EVERYONE),
    "scoring:qr": (EVERYONE, EVERYONE),
    "scoring:manifest": (EVERYONE, EVERYONE),
    "scoring:call": (KEEPS_GAME, KEEPS_GAME),
    "scoring:deal": (KEEPS_GAME, KEEPS_GAME),
    "scoring:last_tricks": (KEEPS_GAME, KEEPS_GAME),
    "scoring:confirm": (KEEPS_GAME, KEEPS_GAME),
    "scoring:undo": (KEEPS_GAME, KEEPS_GAME),
    "scoring:correct": (KEEPS_GAME, KEEPS_GAME),
    "scoring:release": (EVERYONE, EVERYONE),  # a phone lets go of its own keeping
    "scoring:me": (EVERYONE, EVERYONE),  # a player's phone at the table
    "scoring:claim": (EVERYONE, EVERYONE),
    "scoring:verdict": (EVERYONE, EVERYONE),
    "scoring:claim_reset": (RUNS_EVENT, RUNS_EVENT),
    "scoring:seat_vouch": (RUNS_EVENT, RUNS_EVENT),  # the organiser's say-so for a seat
    "scoring:manage": (RUNS_EVENT, RUNS_EVENT),
    "scoring:manage_reopen": (RUNS_EVENT, RUNS_EVENT),
    "scoring:manage_confirm": (RUNS_EVENT, RUNS_EVENT),
    "scoring:manage_secret": (RUNS_EVENT, RUNS_EVENT),
    "scoring:referee_game": (EVERYONE, EVERYONE),
    # --- an event's public pages ---
    "tournaments:event": (EVERYONE, EVERYONE),
    "tournaments:seat": (EVERYONE, EVERYONE),
    "tournaments:seat_me": (EVERYONE, EVERYONE),
    "tournaments:seat_slip": (EVERYONE, EVERYONE),  # the printed slip's link proves its holder
    "tournaments:next_seat": (EVERYONE, EVERYONE),  # a phone that proved nobody is asked who
    "tournaments:next_seat_live": (EVERYONE, EVERYONE),  # only this phone's player's seat
    "tournaments:next_seat_version": (EVERYONE, EVERYONE),  # the same few bytes for everyone
    "tournaments:table_pin": (EVERYONE, EVERYONE),
    # "I'm here": any phone asks; the check-in needs the player's own proof (tested apart)
    "tournaments:check_in_here": (EVERYONE, EVERYONE),
    "tournaments:check_in_here_post": (EVERYONE, EVERYONE),
    "tournaments:check_in_ask": (EVERYONE, EVERYONE),
    "tournaments:round": (EVERYONE, EVERYONE),
    "tournaments:standings": (EVERYONE, EVERYONE),
    "tournaments:standings_live": (EVERYONE, EVERYONE),
    "tournaments:player": (EVERYONE, EVERYONE),
    "tournaments:projector": (EVERYONE, EVERYONE),
    "tournaments:projector_live": (EVERYONE, EVERYONE),
    # --- a club's public pages (its ratings are not public in this world) ---
    "tournaments:club": (EVERYONE, EVERYONE),
    "tournaments:club_player": (EVERYONE, EVERYONE),
    "tournaments:club_ratings": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:club_season": (EVERYONE, EVERYONE),
    "tournaments:club_season_projector": (EVERYONE, EVERYONE),
    "tournaments:club_season_export": (EVERYONE, EVERYONE),
    # --- running a club ---
    "tournaments:organise_club": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:organise_club_settings": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:organise_club_organiser_add": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:organise_club_organiser_remove": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:organise_member_rename": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:organise_member_merge": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:organise_casual_game": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:organise_seasons": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:organise_season": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:organise_season_delete": (RUNS_CLUB, RUNS_CLUB),
    # invitations to run the club, password links for its organisers (only its organisers)
    "tournaments:organise_club_invitations": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:organise_club_invitation_revoke": (RUNS_CLUB, RUNS_CLUB),
    "tournaments:organise_club_reset_link": (RUNS_CLUB, RUNS_CLUB),
    # the invitation's link is the key: whoever holds it (a new account, or the one logged in)
    "tournaments:invitation_accept": (EVERYONE, EVERYONE),
    # the form names its club in the body: any account opens it, only the club's organisers
    # make an event in the club named
    "tournaments:organise_event_new": (LOGGED_IN, RUNS_CLUB),
    # --- running an event ---
    "tournaments:organise_event": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_settings": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_organiser_add": (RUNS_EVENT, RUNS_CLUB),
    "tournaments:organise_log": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_poster": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_event_add_round": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_event_end": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_event_reopen": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_event_final": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_players": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_player_add": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_members_pick": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_players_paste": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_player_slips": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_code_renew": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_check_in_all": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_check_in": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_self_check_in": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_arrivals": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_door_poster": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_newcomer_accept": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_newcomer_decline": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_withdraw": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_entry_delete": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_reinstate": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_round_create": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_round": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_round_retry": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_round_delete": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_round_swap": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_round_publish": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_round_close": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_result_confirm": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_result_reopen": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_table": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_table_substitute": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_table_finish": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_clock_start": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_clock_pause": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_clock_resume": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_clock_extend": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_clock_stop": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_table_end_at_time": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_table_clock_extend": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_pin_renew": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_table_void": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_table_adjust": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_print_cards": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_print_sheets": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_print_pairings": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_export": (RUNS_EVENT, RUNS_EVENT),
    # teams and keep-apart rules (tournaments.teams.views.organise_teams)
    "tournaments:organise_teams": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_team_create": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_teams_paste": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_team_rename": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_team_delete": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_team_member_add": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_team_member_remove": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_apart_create": (RUNS_EVENT, RUNS_EVENT),
    "tournaments:organise_apart_delete": (RUNS_EVENT, RUNS_EVENT),
    # --- the API (tokens) ---
    "api:game": (EVERYONE, EVERYONE),
    "api:deals": (TABLE_ONLY, TABLE_ONLY),
    "api:deal": (TABLE_ONLY, TABLE_ONLY),
    "api:deal_undo": (TABLE_ONLY, TABLE_ONLY),
    "api:deal_correct": (TABLE_ONLY, TABLE_ONLY),
    "api:standings": (EVERYONE, EVERYONE),
    "api:team_standings": (EVERYONE, EVERYONE),  # docs/team-standings.md
    "api:round": (NOT_TABLE, RUNS_EVENT),  # GET: the tables' tokens only for RUNS_EVENT
    "api:round_remove": (NOT_TABLE, RUNS_EVENT),
    "api:events": (LOGGED_IN, RUNS_CLUB),  # the body names the club
    "api:players": (RUNS_EVENT, RUNS_EVENT),
    "api:player_check_in": (RUNS_EVENT, RUNS_EVENT),
    "api:player_check_out": (RUNS_EVENT, RUNS_EVENT),
    "api:player_withdraw": (RUNS_EVENT, RUNS_EVENT),
    "api:player_reinstate": (RUNS_EVENT, RUNS_EVENT),
    "api:event_add_round": (RUNS_EVENT, RUNS_EVENT),
    "api:event_end": (RUNS_EVENT, RUNS_EVENT),
    "api:event_reopen": (RUNS_EVENT, RUNS_EVENT),
    "api:self_check_in_open": (RUNS_EVENT, RUNS_EVENT),
    "api:self_check_in_close": (RUNS_EVENT, RUNS_EVENT),
    "api:newcomers": (RUNS_EVENT, RUNS_EVENT),
    "api:newcomer_accept": (RUNS_EVENT, RUNS_EVENT),
    "api:newcomer_decline": (RUNS_EVENT, RUNS_EVENT),
    "api:rounds": (RUNS_EVENT, RUNS_EVENT),
    "api:round_rebuild": (RUNS_EVENT, RUNS_EVENT),
    "api:round_publish": (RUNS_EVENT, RUNS_EVENT),
    "api:round_close": (RUNS_EVENT, RUNS_EVENT),
    "api:round_clock_start": (RUNS_EVENT, RUNS_EVENT),
    "api:round_clock_pause": (RUNS_EVENT, RUNS_EVENT),
    "api:round_clock_resume": (RUNS_EVENT, RUNS_EVENT),
    "api:round_clock_extend": (RUNS_EVENT, RUNS_EVENT),
    "api:round_clock_stop": (RUNS_EVENT, RUNS_EVENT),
    "api:table_substitute": (RUNS_EVENT, RUNS_EVENT),
    "api:table_void": (RUNS_EVENT, RUNS_EVENT),
    "api:table_clock_extend": (RUNS_EVENT, RUNS_EVENT),
    "api:game_confirm": (KEEPS_GAME, KEEPS_GAME),
    "api:club_season_standings": (EVERYONE, EVERYONE),
    "api:club_ratings": (RUNS_CLUB, RUNS_CLUB),
    # teams and keep-apart rules (tournaments.teams.api)
    "api:teams": (RUNS_EVENT, RUNS_EVENT),
    "api:team_create": (RUNS_EVENT, RUNS_EVENT),
    "api:team_update": (RUNS_EVENT, RUNS_EVENT),
    "api:team_delete": (RUNS_EVENT, RUNS_EVENT),
    "api:team_members_add": (RUNS_EVENT, RUNS_EVENT),
    "api:team_member_remove": (RUNS_EVENT, RUNS_EVENT),
    "api:keep_apart": (RUNS_EVENT, RUNS_EVENT),
    "api:keep_apart_create": (RUNS_EVENT, RUNS_EVENT),
    "api:keep_apart_delete": (RUNS_EVENT, RUNS_EVENT),
}

#: Routes that take none of a club, event, member, season, rating or game, and why.
NO_OBJECT = {
    "home": "the front page",
    "healthz": "the site's health",
    "favicon": "a redirect to a static file",
    "set_language": "the reader's language",
    "scoring:game_new": "a casual game of nobody's club",
    "scoring:service_worker": "a static script",
    "scoring:referee": "the referee's card picker, no game",
    "tournaments:robots": "robots.txt",
    "tournaments:events": "the list of public events",
    "tournaments:organise_home": "the account's own events",
    "tournaments:organise_account": "the account's own token",
    "tournaments:organise_club_create": "a new club, run by whoever makes it",
    "api:games": "a casual game of nobody's club",
    "api:clubs": "a new club, run by whoever makes it",
    "api:openapi-json": "the schema",
    "api:openapi-view": "the schema's page",
    "api:api-root": "the API's 404",
}

#: Left out whole: the admin (read-only, staff only, tests/test_admin.py) and Django's own
#: login and password pages.
OUTSIDE = ("admin/", "accounts/")


def base_name(name: str) -> str:
    return name.removesuffix("-slash")


def test_every_route_is_in_the_matrix():
    found = {base_name(name) for name, _ in routes(OUTSIDE)}
    unlisted = sorted(found - MATRIX.keys() - NO_OBJECT.keys())
    assert not unlisted, f"routes nobody has said who may use (add them to MATRIX): {unlisted}"
    gone = sorted((MATRIX.keys() | NO_OBJECT.keys()) - found)
    assert not gone, f"the matrix names routes that no longer exist: {gone}"
    assert not MATRIX.keys() & NO_OBJECT.keys()


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        world = built_world()
        world.before = fingerprint()
        yield world
        transaction.set_rollback(True)


#: Routes whose refusal is a form's: the new event's club is a choice among the clubs the
#: user runs, so another club is an invalid choice (400, nothing written).
REFUSED_AS_INVALID = {"tournaments:organise_event_new"}


def outcome(response, api: bool, name: str = "") -> str:
    status = response.status_code
    if status in (401, 403, 404) or (status == 400 and name in REFUSED_AS_INVALID):
        return "refused"
    if not api and status == 302 and "/accounts/login/" in response.get("Location", ""):
        return "refused"
    return "allowed"


def methods_of(client: Client, url: str, api: bool) -> list[str]:
    """The write methods a route serves: the API's 405 lists them (config.api_ninja); a page
    takes POST or nothing."""
    if not api:
        return ["POST"]
    allow = client.generic("TRACE", url)["Allow"]
    return [m.strip() for m in allow.split(",") if m.strip() not in ("GET", "HEAD", "")]


def send(client: Client, method: str, url: str, body, api: bool, token: str | None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if api and token else {}
    if not api:
        return client.get(url) if method == "GET" else client.post(url, body or {})
    data = "" if method == "GET" else json.dumps(body or {})
    return client.generic(method, url, data, content_type="application/json", **headers)


def tried(world, name: str, client: Client, method: str, url: str, body, api: bool, token):
    """The answer, and whether the database differs from the world's; the request's writes
    are undone, and so is what it did to the client's cookies (a session it ended or began
    is rolled back with the database)."""
    cache.clear()  # no throttle counts or kept renders from one request to the next
    cookies = copy.deepcopy(client.cookies)
    with transaction.atomic():
        response = send(client, method, url, body, api, token)
        changed = outcome(response, api, name) == "refused" and fingerprint() != world.before
        transaction.set_rollback(True)
    client.cookies = cookies
    return response, changed


@pytest.mark.parametrize("role", ROLES)
def test_who_gets_in_and_a_refused_write_changes_nothing(world, role):
    """On the API a role is its token; its logged-in session alone (no token) is anonymous
    there, so a write sent with the session's cookies is refused too (no CSRF by cookie)."""
    client, token = world.client(role), world.token(role)
    problems = []

    def check(key, method, url, api, allowed, token, who) -> None:
        body = write_body(key, world) if method != "GET" else None
        response, changed = tried(world, key, client, method, url, body, api, token)
        if response.status_code == 405:
            return  # the route does not serve this method, for anyone
        got = outcome(response, api, key)
        where = f"{method} {url} as {who}: {response.status_code}"
        if response.status_code >= 500 or response.status_code == 429:
            problems.append(where)
        elif got != ("allowed" if allowed else "refused"):
            problems.append(f"{where}, expected {'in' if allowed else 'refused'}")
        elif got == "refused" and changed:
            problems.append(f"{where}: refused, but the database changed")
        if key == "api:round" and method == "GET" and got == "allowed":
            sees_tokens = world.game.secret in response.content.decode()
            if sees_tokens != (token is not None and role in RUNS_EVENT):
                problems.append(f"{where}: the tables' tokens shown: {sees_tokens}")

    for name, route in routes(OUTSIDE):
        key = base_name(name)
        if key in NO_OBJECT or key != name:  # an API path's twin with a slash: the same view
            continue
        api = name.startswith("api:")
        url = build_url(name, route, world)
        read, write = MATRIX[key]
        for method in ["GET", *methods_of(client, url, api)]:
            level = read if method == "GET" else write
            check(key, method, url, api, role in level, token, role)
            if api and method != "GET" and role != ANON:
                check(key, method, url, api, ANON in level, None, f"{role}'s session, no token")
    assert not problems, "\n".join(problems)
