"""The round clock, for the organiser: start, pause, resume, extend (+5 min) and stop the
clock of a published round (the controls on the round page), and end a table as it stands at
time (its table page, under "the organiser decides per table"). Plain forms: each posts,
rounds.services.clock does the work, and the answer goes back to the page with a message or
the service's refusal (POST/redirect/GET: a reload never posts again).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.common.web.access import actor, organiser_required, round_or_404
from tournaments.common.web.forms_flow import submit
from tournaments.models import Event, Table
from tournaments.rounds.selectors import table_of
from tournaments.rounds.services import clock as clock_service


def _clock_step(request, event: Event, number: int, service, message: str):
    round_ = round_or_404(event, number)
    outcome = submit(None, service, round_=round_, actor=actor(request))
    if outcome.ok:
        messages.success(request, message)
    else:
        messages.error(request, outcome.error)
    url = reverse("tournaments:organise_round", args=[event.slug, round_.number])
    return redirect(f"{url}#round-clock")


@organiser_required
@require_POST
def clock_start(request, event: Event, number: int):
    return _clock_step(request, event, number, clock_service.clock_start, _("Clock started."))


@organiser_required
@require_POST
def clock_pause(request, event: Event, number: int):
    return _clock_step(request, event, number, clock_service.clock_pause, _("Clock paused."))


@organiser_required
@require_POST
def clock_resume(request, event: Event, number: int):
    return _clock_step(request, event, number, clock_service.clock_resume, _("Clock resumed."))


@organiser_required
@require_POST
def clock_extend(request, event: Event, number: int):
    message = _("Five minutes more.")
    return _clock_step(request, event, number, clock_service.clock_extend, message)


@organiser_required
@require_POST
def clock_stop(request, event: Event, number: int):
    message = _("Clock stopped: the round plays on with no time limit.")
    return _clock_step(request, event, number, clock_service.clock_stop, message)


def _table_step(request, event: Event, number: int, table_number: int, service, message: str):
    """A clock move on one table (its page's form): done or refused, back to its page."""
    round_ = round_or_404(event, number)
    try:
        table = table_of(round_, table_number)
    except Table.DoesNotExist:
        raise Http404 from None
    outcome = submit(None, service, table=table, actor=actor(request))
    if outcome.ok:
        messages.success(request, message % {"t": table_number})
    else:
        messages.error(request, outcome.error)
    return redirect("tournaments:organise_table", event.slug, round_.number, table_number)


@organiser_required
@require_POST
def table_end_at_time(request, event: Event, number: int, table_number: int):
    """End the table's game as it stands, the round's time being up; back to its page."""
    message = _("Table %(t)s: ended at time, confirmed.")
    service = clock_service.table_end_at_time
    return _table_step(request, event, number, table_number, service, message)


@organiser_required
@require_POST
def table_clock_extend(request, event: Event, number: int, table_number: int):
    """Five minutes more for one slow table (the others keep the round's time)."""
    message = _("Table %(t)s: five minutes more.")
    service = clock_service.table_clock_extend
    return _table_step(request, event, number, table_number, service, message)
