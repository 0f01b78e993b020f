"""The night in the organisers' token API (beyond the spec's table, docs/api.md): closing the
last planned round leaves the event running; a script adds a round, ends the event, or
reopens one that is over; it opens or closes self check-in and answers the newcomers who
asked to be entered."""

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from pydantic import Field

from config.api import ApiError, Body, json_response, read_body
from config.api_ninja import ApiRouter, body_doc
from config.api_schema import TOKEN, Out, answers
from tournaments.club_models import NewcomerRequest
from tournaments.common.web.api_auth import organised_event, organiser_token
from tournaments.common.web.api_input import actor, number
from tournaments.events.api.organise import ERRORS, _entry_answer, _event_answer
from tournaments.events.api.shapes import EntryOut, EventOut
from tournaments.events.selectors.check_in import newcomer_of, newcomers_waiting
from tournaments.events.services import check_in
from tournaments.events.services.check_in import self_check_in_set
from tournaments.events.services.event import (
    event_end,
    event_reopen,
    event_round_add,
)

#: The operations' ids as published (config.api_ninja.Api.get_openapi_operation_id).
OPERATION_IDS = "tournaments_api_organise"

router = ApiRouter(auth=organiser_token, tags=["organisers"])


class NothingIn(Body):
    """``{}`` (or no body at all)."""


#: Beyond the spec's table (docs/api.md): closing the last planned round leaves the event
#: running; a script adds a round, ends the event, or reopens one that is over.
EVENT_STEPS = {"add-round": event_round_add, "end": event_end, "reopen": event_reopen}


def _event_step_view(name: str, step):
    def view(request: HttpRequest, slug: str) -> HttpResponse:
        user = request.auth
        event = organised_event(user, slug)
        read_body(request, NothingIn, empty_ok=True)
        event = step(event=event, actor=actor(user))
        return json_response(_event_answer(event))

    view.__name__ = "event_" + name.replace("-", "_")
    view.__doc__ = f"POST /events/{{slug}}/{name}: the event as the dashboard's {name} leaves it."
    return view


for _name, _step in EVENT_STEPS.items():
    router.post(
        "/events/{slug:slug}/" + _name,
        response={200: EventOut, **ERRORS},
        openapi_extra=body_doc(NothingIn),
    )(_event_step_view(_name, _step))


# --- self check-in (tournaments.events.services.check_in; docs/self-check-in.md) ------------


class SelfCheckInOut(Out):
    event: str = Field(description="the event's slug")
    self_check_in: bool = Field(description="whether players check themselves in from phones")


class NewcomerOut(Out):
    id: int = Field(description="the request's id")
    name: str = Field(description="the name the newcomer asked to be entered under")
    asked_at: str = Field(description="when they asked (ISO 8601)")


class NewcomersOut(Out):
    newcomers: list[NewcomerOut] = Field(description="the requests waiting, oldest first")


def _self_check_in_view(name: str, is_open: bool):
    def view(request: HttpRequest, slug: str) -> HttpResponse:
        user = request.auth
        event = organised_event(user, slug)
        read_body(request, NothingIn, empty_ok=True)
        event = self_check_in_set(event=event, open=is_open, actor=actor(user))
        return json_response({"event": event.slug, "self_check_in": event.self_check_in})

    view.__name__ = f"self_check_in_{name}"
    view.__doc__ = (
        f"POST /events/{{slug}}/self-check-in/{name}: players check themselves in from their "
        "phones (open), or no longer (close); as the players page's switch."
    )
    return view


for _name, _open in (("open", True), ("close", False)):
    router.post(
        "/events/{slug:slug}/self-check-in/" + _name,
        response={200: SelfCheckInOut, **ERRORS},
        openapi_extra=body_doc(NothingIn),
    )(_self_check_in_view(_name, _open))


def _newcomers_answer(event) -> dict:
    waiting = newcomers_waiting(event)
    rows = [{"id": r.pk, "name": r.name, "asked_at": r.asked_at.isoformat()} for r in waiting]
    return {"newcomers": rows}


@router.get("/events/{slug:slug}/newcomers", response=answers({200: NewcomersOut}, TOKEN, 404))
def newcomers(request: HttpRequest, slug: str) -> HttpResponse:
    """The newcomers who asked from their phones to be entered, waiting for an answer."""
    event = organised_event(request.auth, slug)
    return json_response(_newcomers_answer(event))


def _waiting(event, request_id: str):
    rid = number(request_id, _("no such request waiting in this event"))
    try:
        return newcomer_of(event, rid)
    except NewcomerRequest.DoesNotExist:
        raise ApiError(404, _("no such request waiting in this event")) from None


NEWCOMER = "/events/{slug:slug}/newcomers/{request_id}/"


@router.post(
    NEWCOMER + "accept", response={200: EntryOut, **ERRORS}, openapi_extra=body_doc(NothingIn)
)
def newcomer_accept(request: HttpRequest, slug: str, request_id: str) -> HttpResponse:
    """Accept a newcomer's request: entered (a name the club knows is that member) and
    checked in; the request is gone. The answer is the player, as players' changes answer."""
    user = request.auth
    event = organised_event(user, slug)
    asked = _waiting(event, request_id)
    read_body(request, NothingIn, empty_ok=True)
    entry = check_in.newcomer_accept(request=asked, actor=actor(user), by=user)
    return json_response(_entry_answer(entry))


@router.post(
    NEWCOMER + "decline", response={200: NewcomersOut, **ERRORS}, openapi_extra=body_doc(NothingIn)
)
def newcomer_decline(request: HttpRequest, slug: str, request_id: str) -> HttpResponse:
    """Decline a newcomer's request: it is gone. The answer is the requests still waiting."""
    user = request.auth
    event = organised_event(user, slug)
    asked = _waiting(event, request_id)
    read_body(request, NothingIn, empty_ok=True)
    check_in.newcomer_decline(request=asked, actor=actor(user))
    return json_response(_newcomers_answer(event))
