"""The end of the night, as the organiser decides it: a round more than planned, the end of
the event (asked first, on a page of its own: no JavaScript needed), reopening an event that
is over, and its final standings to announce and print.

Closing the last planned round never ends the event by itself (docs/rounds.md): the
dashboard then offers these. A refusal goes back to the dashboard with the service's words
(POST/redirect/GET, so a reload never posts it again).
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments.common.web.access import actor, organiser_required
from tournaments.common.web.forms_flow import submit
from tournaments.events.services import event as event_service
from tournaments.models import Event
from tournaments.results.presenters import standings_context
from tournaments.results.selectors import standings_latest

END = "tournaments/organise/event_end.html"
FINAL = "tournaments/organise/final_standings.html"


def _dashboard(request, event: Event, outcome, done: str):
    if outcome.ok:
        messages.success(request, done)
    else:
        messages.error(request, outcome.error)
    return redirect("tournaments:organise_event", slug=event.slug)


@organiser_required
@require_POST
def round_add(request, event: Event):
    """One round more than planned; the dashboard then offers to build it."""
    outcome = submit(None, event_service.event_round_add, event=event, actor=actor(request))
    number = outcome.result.rounds_planned if outcome.ok else 0
    return _dashboard(request, event, outcome, _("Round %(n)s added.") % {"n": number})


@organiser_required
@require_http_methods(["GET", "POST"])
def end(request, event: Event):
    """GET asks ("End the event?", with what it means); POST ends it."""
    if request.method == "GET":
        context = {"event": event, "played": event.rounds.count()}
        return render(request, END, context)
    outcome = submit(None, event_service.event_end, event=event, actor=actor(request))
    return _dashboard(request, event, outcome, _("The event is over."))


@organiser_required
@require_POST
def reopen(request, event: Event):
    outcome = submit(None, event_service.event_reopen, event=event, actor=actor(request))
    return _dashboard(request, event, outcome, _("The event is open again."))


@organiser_required
@require_GET
def final(request, event: Event):
    """The standings to announce and print: every row with its tie-breaks, on paper's
    terms (no navigation, black on white)."""
    context = {"event": event, **standings_context(event, standings_latest(event))}
    return render(request, FINAL, context)
