"""The end of the night in the organisers' token API (beyond the spec's table, docs/api.md):
closing the last planned round leaves the event running; a script adds a round, ends the
event, or reopens one that is over."""

from django.http import HttpRequest, HttpResponse

from config.api import Body, json_response, read_body
from config.api_ninja import ApiRouter, body_doc
from tournaments.common.web.api_auth import organised_event, organiser_token
from tournaments.common.web.api_input import actor
from tournaments.events.api.organise import ERRORS, EventOut, _event_answer
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
