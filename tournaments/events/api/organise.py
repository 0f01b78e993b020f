"""The organisers' token API (../shared/spec/http-api.md, "Organisers"): clubs, events and
players. Rounds, tables and confirming a game: tournaments.rounds.api.

Every write goes through the same services as the organiser pages, with the token's account
as the actor, so the API can do exactly what the pages can and refuses what they refuse.
Checks run in this order: the token (ninja's auth, api_auth.organiser_token: 401 without one
or with an unknown one, 429 for an address that keeps guessing), the event (404), the
account's rights (403), the request body (400), then the service, whose refusals carry a
kind that config.api_ninja's one handler answers (400 or 409). What is decided beyond the
spec: docs/api.md.
"""

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from config.api import ApiError, json_body, json_response, read_body
from config.api_ninja import ApiRouter, body_doc
from config.api_schema import BODY, TOKEN, answers, extra, link, links
from tournaments.common.event_settings import (
    MAX_CLOCK_MINUTES,
    MAX_EVENT_NAME,
    MAX_ROUNDS,
)
from tournaments.common.event_settings import (
    MAX_CLOCK_MORE_DEALS as MAX_MORE_DEALS,
)
from tournaments.common.permissions import require_club
from tournaments.common.vocabulary import DEFAULT_TEAM_PRECEDENCE
from tournaments.common.web.api_auth import organised_event, organiser_token
from tournaments.common.web.api_input import ReasonIn, actor, number, reason, text, whole
from tournaments.events.api.shapes import (
    MAX_CLUB_NAME,
    MAX_NAMES,
    MAX_SLUG,
    ClubIn,
    ClubOut,
    EntryOut,
    EventIn,
    EventOut,
    PlayersIn,
    PlayersOut,
)
from tournaments.events.services.event import (
    club_create,
    event_create,
)
from tournaments.events.services.registration import (
    entry_check_in,
    entry_reinstate,
    entry_withdraw,
    players_register,
)
from tournaments.models import Club, Entry, Event

#: The operations' ids as published (config.api_ninja.Api.get_openapi_operation_id).
OPERATION_IDS = "tournaments_api_organise"

router = ApiRouter(auth=organiser_token, tags=["organisers"])
#: An event's write: the token, the event (404), the body, the event's state (409).
ERRORS = answers({}, TOKEN, 404, BODY, 409)


# --- clubs and events --------------------------------------------------------------------------


#: A new club leads to an event in it (the rest of the body as an example).
NEW_CLUB = links(
    201,
    event=link(
        "tournaments_api_organise_events",
        "An event in the new club.",
        body={
            "club": "$response.body#/club",
            "name": "Friday night",
            "ruleset": "blato",
            "rounds": 3,
            "pairing": "swiss",
        },
    ),
)
EVENT = "$response.body#/event"
#: A new event leads to its players, its first round and its standings.
NEW_EVENT = links(
    201,
    players=link(
        "tournaments_api_organise_players",
        "Players entered into the new event.",
        path__slug=EVENT,
        body={"names": ["Ana", "Boris", "Vera"], "checked_in": True},
    ),
    round=link("tournaments_api_rounds_rounds", "Its next round built.", path__slug=EVENT),
    standings=link("tournaments_api_standings", "Its standings.", path__slug=EVENT),
)
SLUG = "$request.path.slug"
PLAYER_ID = "$response.body#/players/0/id"
#: Players entered lead to the first one's changes and to the next round.
ENTERED = links(
    201,
    round=link("tournaments_api_rounds_rounds", "The event's next round built.", path__slug=SLUG),
    **{
        change.replace("-", "_"): link(
            f"tournaments_api_organise_player_{change.replace('-', '_')}",
            f"The first player entered: {change}.",
            path__slug=SLUG,
            path__player_id=PLAYER_ID,
        )
        for change in ("check-in", "check-out", "withdraw", "reinstate")
    },
)


@router.post(
    "/clubs",
    response=answers({201: ClubOut}, TOKEN, BODY),
    url_name="clubs",
    openapi_extra=extra(body_doc(ClubIn), NEW_CLUB),
)
def clubs(request: HttpRequest) -> HttpResponse:
    """A new club. Any account may make one, as on the pages; that account runs it."""
    data = read_body(request, ClubIn)
    club = club_create(name=text(data.name, "name", MAX_CLUB_NAME), creator=request.auth)
    return json_response({"club": club.slug, "name": club.name}, 201)


def _pairing(value: object) -> list[str]:
    """``pairing``: one mode for every round, or a list of modes, one a round (the services
    say whether each mode exists)."""
    modes = [value] if isinstance(value, str) else value
    if (
        not isinstance(modes, list)
        or not 1 <= len(modes) <= MAX_ROUNDS
        or not all(isinstance(mode, str) for mode in modes)
    ):
        raise ApiError(
            400,
            _("pairing must be a pairing mode, or a list of 1 to %(n)s modes, one a round")
            % {"n": MAX_ROUNDS},
        )
    return [mode.strip().lower() for mode in modes]


def _event_answer(event: Event) -> dict:
    return {
        "event": event.slug,
        "name": event.name,
        "club": event.club.slug,
        "ruleset": event.ruleset,
        "options": event.options,
        "rounds": event.rounds_planned,
        "pairing": event.pairing_modes,
        "status": event.status,
        "team_scoring": event.team_scoring,
        "team_precedence": list(event.team_precedence or DEFAULT_TEAM_PRECEDENCE),
        "url": reverse("tournaments:organise_event", args=[event.slug]),
    }


def _settings(data: EventIn) -> dict:
    """The event's optional settings sent (the services check their values, as the settings
    page's: event_settings.apply)."""
    settings = {}
    for key in ("precedence", "placing_points", "team_precedence"):
        value = getattr(data, key)
        if value is not None:
            if not isinstance(value, list):
                raise ApiError(400, _("%(key)s must be a list") % {"key": key})
            settings[key] = value
    for key in ("bye_policy", "void_policy", "clock_at_time", "team_scoring"):
        if key in data.model_fields_set:
            settings[key] = text(getattr(data, key), key, 20)
    counts = (("clock_minutes", MAX_CLOCK_MINUTES), ("clock_more_deals", MAX_MORE_DEALS))
    for key, high in counts:
        if key in data.model_fields_set:
            settings[key] = whole(getattr(data, key), key, 0, high)
    if "clock_autostart" in data.model_fields_set:
        if not isinstance(data.clock_autostart, bool):
            raise ApiError(400, _("%(key)s must be true or false") % {"key": "clock_autostart"})
        settings["clock_autostart"] = data.clock_autostart
    return settings


def _club_run_by(user, slug: object) -> Club:
    """The club the body names (400 for none), if this account runs it (403): read before the
    rest of the body, so the rights are answered first, as for an event in the path."""
    club_slug = text(slug, "club", MAX_SLUG)
    club = Club.objects.filter(slug=club_slug).first()
    if club is None:
        raise ApiError(400, _("there is no club %(slug)s") % {"slug": club_slug})
    require_club(user, club)
    return club


@router.post(
    "/events",
    response=answers({201: EventOut}, TOKEN, BODY, 409),
    url_name="events",
    openapi_extra=extra(body_doc(EventIn), NEW_EVENT),
)
def events(request: HttpRequest) -> HttpResponse:
    """A new event in a club the token's account runs (tournaments.common.permissions: 403 for
    another's club); the account is listed as its organiser."""
    user = request.auth
    club = _club_run_by(user, json_body(request, optional=EventIn.model_fields).get("club"))
    data = read_body(request, EventIn)
    if not isinstance(data.ruleset, str):
        raise ApiError(400, _("ruleset must be the name of a ruleset, e.g. blato"))
    options = {} if data.options is None else data.options
    if not isinstance(options, dict):
        raise ApiError(400, _("options must be a JSON object"))
    settings = _settings(data)
    event = event_create(
        club=club,
        name=text(data.name, "name", MAX_EVENT_NAME),
        ruleset=data.ruleset,
        options=options,
        rounds_planned=whole(data.rounds, "rounds", 1, MAX_ROUNDS),
        pairing_modes=_pairing(data.pairing),
        organisers=[user],
        actor=actor(user),
        by=user,
        **settings,
    )
    event.club = club
    location = reverse("api:standings", args=[event.slug])
    return json_response(_event_answer(event), 201, headers={"Location": location})


# --- players -----------------------------------------------------------------------------------


def entry_status(entry: Entry) -> str:
    """The words the API uses for where a player stands in the event."""
    if entry.withdrawn:
        return "withdrawn"
    return "checked_in" if entry.checked_in else "entered"


def _entry_answer(entry: Entry) -> dict:
    return {
        "id": entry.player_id,
        "name": entry.player.name,
        "status": entry_status(entry),
        "checked_in_by": entry.checked_in_by if entry.checked_in else "",
    }


@router.post(
    "/events/{slug:slug}/players",
    response={201: PlayersOut, **ERRORS},
    openapi_extra=extra(body_doc(PlayersIn), ENTERED),
)
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """Enter players by name (a name already entered is the same player, answered again)."""
    user = request.auth
    event = organised_event(user, slug)
    data = read_body(request, PlayersIn)
    names = data.names
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_NAMES:
        raise ApiError(400, _("names must be a list of 1 to %(n)s names") % {"n": MAX_NAMES})
    if not isinstance(data.checked_in, bool):
        raise ApiError(400, _("checked_in must be true or false"))
    entries = players_register(
        event=event, names=names, checked_in=data.checked_in, actor=actor(user), by=user
    )
    return json_response({"players": [_entry_answer(entry) for entry in entries]}, 201)


def _entry(event: Event, player_id: str) -> Entry:
    pid = number(player_id, _("no such player in this event"))
    entry = event.entries.select_related("player", "event").filter(player_id=pid).first()
    if entry is None:
        raise ApiError(404, _("no such player in this event"))
    return entry


def _change(request: HttpRequest, slug: str, player_id: str, change) -> HttpResponse:
    """Check a player in or out, withdraw or reinstate them, with an optional reason (kept
    in the event's log for a withdrawal or a reinstatement)."""
    user = request.auth
    event = organised_event(user, slug)
    entry = _entry(event, player_id)
    why = reason(read_body(request, ReasonIn, empty_ok=True).reason)
    change(entry=entry, reason=why, actor=actor(user))
    entry.refresh_from_db()
    return json_response(_entry_answer(entry))


PLAYER = "/events/{slug:slug}/players/{player_id}/"


def _check_in(*, entry: Entry, reason: str, actor: str) -> None:
    entry_check_in(entry=entry, checked_in=True, actor=actor)


def _check_out(*, entry: Entry, reason: str, actor: str) -> None:
    entry_check_in(entry=entry, checked_in=False, actor=actor)


CHANGES = {
    "check-in": _check_in,
    "check-out": _check_out,
    "withdraw": entry_withdraw,
    "reinstate": entry_reinstate,
}


def _change_view(name: str, change):
    def view(request: HttpRequest, slug: str, player_id: str) -> HttpResponse:
        return _change(request, slug, player_id, change)

    view.__name__ = "player_" + name.replace("-", "_")
    view.__doc__ = f"POST {PLAYER}{name}: {_change.__doc__.splitlines()[0]}"
    return view


for _name, _call in CHANGES.items():
    router.post(
        PLAYER + _name, response={200: EntryOut, **ERRORS}, openapi_extra=body_doc(ReasonIn)
    )(_change_view(_name, _call))
