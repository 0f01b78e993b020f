"""Self check-in, the organiser's side (docs/self-check-in.md): open or close it, print the
door poster whose QR code leads phones to "I'm here", answer the newcomers who asked to be
entered (accept: entered and checked in; decline), and the players page's arrivals (counts,
who is missing, the requests), which htmx polls while check-in is open; without JavaScript a
reload shows the same. Who checked in how, and undoing it: the players page's rows
(tournaments.events.views.organise_players)."""

from __future__ import annotations

import math
from datetime import UTC, datetime

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.club_models import NewcomerRequest
from tournaments.common.web.access import actor, organiser_required
from tournaments.common.web.forms_flow import submit
from tournaments.events.presenters import arrivals, counts_context
from tournaments.events.selectors.check_in import checked_in_from_phones_since, newcomer_of
from tournaments.events.selectors.entries import seated_ids
from tournaments.events.services import check_in
from tournaments.models import Event
from tournaments.rounds.presenters.paper import qr_svg

PLAYERS = "tournaments/organise/players.html"
ARRIVALS = "tournaments/organise/_arrivals.html"
POSTER_QR_SCALE = 10


def _back(event: Event):
    return redirect(reverse("tournaments:organise_players", args=[event.slug]) + "#arrivals")


def _since(request) -> datetime | None:
    """The time the page asking was shown at (the poll's `since`), or None."""
    try:
        moment = float(request.GET.get("since", ""))
    except ValueError:
        return None
    if not math.isfinite(moment) or not 0 <= moment < 1e11:
        return None
    # a second's margin for the clocks of two processes: a row sent twice changes nothing
    return datetime.fromtimestamp(moment - 1, tz=UTC)


def _arrivals(request, event: Event) -> HttpResponse:
    """The arrivals section, with the players page's counts and the rows of those who
    checked in from their phones since the page was shown swapped out of band (the list
    shows them checked in without a reload; a row is only re-drawn when its player came)."""
    counted = counts_context(event)
    context = {"event": event, "arrivals": arrivals(event, counted["counts"])}
    html = render_to_string(ARRIVALS, context, request=request)
    counts = {**counted, "event": event, "oob": True}
    html += render_to_string(f"{PLAYERS}#counts", counts, request=request)
    since = _since(request)
    came = checked_in_from_phones_since(event, since) if since is not None else []
    seated = seated_ids(event) if came else set()
    for entry in came:
        row = {"event": event, "entry": entry, "seated": seated, "oob_row": True}
        html += render_to_string(f"{PLAYERS}#entry", row, request=request)
    response = HttpResponse(html)
    response["Cache-Control"] = "no-store"
    return response


@organiser_required
@require_GET
def arrivals_part(request, event: Event):
    """What the players page polls while phones check in: who is arriving."""
    if not request.htmx:
        return _back(event)
    return _arrivals(request, event)


@organiser_required
@require_POST
def self_check_in_set(request, event: Event):
    """Open self check-in (the posted "open" is 1) or close it."""
    is_open = request.POST.get("open") == "1"
    outcome = submit(
        None, check_in.self_check_in_set, event=event, open=is_open, actor=actor(request)
    )
    if not outcome.ok:
        messages.error(request, outcome.error)
    elif is_open:
        messages.success(request, _("Self check-in is open: players check in from their phones."))
    else:
        messages.success(request, _("Self check-in is closed."))
    return _back(event)


def _answer(request, event: Event, request_id: int, service, **fixed):
    try:
        asked = newcomer_of(event, request_id)
    except NewcomerRequest.DoesNotExist:
        raise Http404 from None
    outcome = submit(None, service, request=asked, actor=actor(request), **fixed)
    if request.htmx:
        return _arrivals(request, event)
    if not outcome.ok:
        messages.error(request, outcome.error)
    return outcome, asked


@organiser_required
@require_POST
def newcomer_accept(request, event: Event, request_id: int):
    """One tap: the newcomer is entered and checked in."""
    answered = _answer(request, event, request_id, check_in.newcomer_accept, by=request.user)
    if isinstance(answered, HttpResponse):
        return answered
    outcome, asked = answered
    if outcome.ok:
        name = outcome.result.player.name
        messages.success(request, _("%(name)s entered and checked in.") % {"name": name})
    return _back(event)


@organiser_required
@require_POST
def newcomer_decline(request, event: Event, request_id: int):
    """One tap: the request is declined and gone."""
    answered = _answer(request, event, request_id, check_in.newcomer_decline)
    if isinstance(answered, HttpResponse):
        return answered
    outcome, asked = answered
    if outcome.ok:
        messages.success(request, _("The request of %(name)s declined.") % {"name": asked.name})
    return _back(event)


@organiser_required
@require_GET
def poster(request, event: Event):
    """The door poster: one big QR code of the "I'm here" page, to print and put up at the
    door (the QR is made as the table cards' are)."""
    url = request.build_absolute_uri(reverse("tournaments:check_in_here", args=[event.slug]))
    qr = qr_svg(url, _("I'm here: %(name)s") % {"name": event.name}, POSTER_QR_SCALE)
    context = {"event": event, "url": url, "qr": qr, "open": event.self_check_in}
    return render(request, "tournaments/organise/check_in_poster.html", context)
