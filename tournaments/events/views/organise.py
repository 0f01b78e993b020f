"""The organiser's pages for events: my events, a new club and event, the event's dashboard
(counts, rounds and their next step, building the next round, links to the public pages,
the audit trail), the players' QR poster, its settings and its organisers.

Thin on purpose: reads through tournaments.selectors (worded by organise_presenters), every
change through tournaments.services with the user's name as the actor. Without JavaScript
each form posts and redirects; a refused change re-renders the page with the form as typed
and the service's message (400 for bad input, 409 when the event's state does not allow it).
"""

from __future__ import annotations

from functools import partial

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments.common.web.access import actor, error_status, organiser_required, private
from tournaments.common.web.clubs import PERMISSION as CLUB_PERMISSION
from tournaments.common.web.forms_flow import submit
from tournaments.events.forms import ClubForm, EventCreateForm, EventSettingsForm, OrganiserForm
from tournaments.events.selectors.entries import (
    clubs_run_by,
    entry_counts,
    event_log,
    events_organised_by,
    player_names,
)
from tournaments.events.services import event as event_service
from tournaments.models import Event, Round
from tournaments.results.exports import EXPORTS, FORMATS
from tournaments.results.presenters import standings_context
from tournaments.results.selectors import standings_latest
from tournaments.rounds.presenters import organise as words
from tournaments.rounds.selectors import (
    round_field_size,
    round_stuck,
    round_to_build,
    rounds_progress,
)
from tournaments.rounds.services import rounds as rounds_service

DASHBOARD = "tournaments/organise/event.html"
POSTER_QR_SCALE = 10  # modules of 10 px: the SVG is scaled to the page by CSS anyway
LOG_ON_DASHBOARD = 8
LOG_PAGE = 500


# --- my events, a new club, a new event -------------------------------------------------------


def _home(request, *, club_form: ClubForm, status: int = 200):
    context = {
        "events": events_organised_by(request.user),
        "club_form": club_form,
        "has_clubs": clubs_run_by(request.user).exists(),
    }
    return private(render(request, "tournaments/organise/home.html", context, status=status))


@login_required
@require_GET
def home(request):
    """The events this user runs (a superuser: all), and where to start a new one."""
    return _home(request, club_form=ClubForm())


@login_required
@require_POST
def club_create(request):
    form = ClubForm(request.POST)
    if not form.is_valid():
        return _home(request, club_form=form, status=400)
    club = event_service.club_create(name=form.cleaned_data["name"], creator=request.user)
    messages.success(request, _("Club %(name)s created.") % {"name": club.name})
    return redirect(f"{reverse('tournaments:organise_event_new')}?club={club.pk}")


def _creation(form: EventCreateForm) -> dict:
    """What services.event_create takes from the new event's form."""
    data = form.cleaned_data
    rules = {key: data[key] for key in ("club", "ruleset", "options")}
    return {**rules, **form.settings()}


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request):
    """A new event in a club this user runs (only those are offered; the service refuses any
    other); the rules and standings settings are checked by the services."""
    clubs = clubs_run_by(request.user)
    initial = {"club": request.GET.get("club")} if request.GET.get("club", "").isdigit() else {}
    form = EventCreateForm(request.POST or None, clubs=clubs, initial=initial)
    status = 200
    if request.method == "POST":
        outcome = submit(
            form,
            event_service.event_create,
            data=partial(_creation, form),
            organisers=[request.user],
            actor=actor(request),
            by=request.user,
        )
        if outcome.ok:
            event = outcome.result
            messages.success(request, _("Event %(name)s created.") % {"name": event.name})
            return redirect("tournaments:organise_event", slug=event.slug)
        status = outcome.status
    context = {"form": form, "has_clubs": clubs.exists()}
    return private(render(request, "tournaments/organise/event_new.html", context, status=status))


# --- the dashboard ----------------------------------------------------------------------------


def _dashboard(request, event: Event, *, error: str = "", status: int = 200):
    progress = rounds_progress(event)
    last = progress[-1].round if progress else None
    next_number = round_to_build(event, last)
    field_size = round_field_size(event, next_number) if next_number else 0
    between = not event.is_closed and last is not None and last.is_closed
    context = {
        "event": event,
        "counts": entry_counts(event),
        "rounds": [(row, words.next_step(row)) for row in progress],
        "can_build": next_number is not None,
        "next_number": next_number,
        "field_size": field_size,
        # said before the tap, by the service's own rule (services.round_refusal)
        "too_few": refusal.message
        if next_number and (refusal := rounds_service.round_refusal(event))
        else "",
        # polled while a round is built; a stuck build waits for the organiser instead
        "building": any(
            row.round.status == Round.Status.PENDING and not round_stuck(row.round)
            for row in progress
        ),
        "log": words.log_lines(event_log(event, LOG_ON_DASHBOARD), player_names(event)),
        "error": error,
        "exports": [
            (what, words.EXPORT_LABELS[what], FORMATS)
            for what in EXPORTS
            if what != "team-standings" or event.teams.exists()  # docs/team-standings.md
        ],
        # after a closed round the night goes on or ends as the organiser decides
        "can_end": between,
        "all_played": between and next_number is None,
        # an event that is over: its final standings, to announce and print
        "final": standings_context(event, standings_latest(event)) if event.is_closed else None,
    }
    template = f"{DASHBOARD}#rounds" if request.htmx else DASHBOARD
    return render(request, template, context, status=error_status(request, status))


@organiser_required
@require_GET
def event(request, event: Event):
    """Where the event stands and what to do next; polled by htmx while a round is built."""
    return _dashboard(request, event)


@organiser_required
@require_POST
def round_create(request, event: Event):
    """Build the next round: the pairing runs as a task; the round page waits for it. A
    refusal (too few players, a round still open) goes back to the dashboard with the reason:
    a reload then shows the dashboard, it does not post again."""
    outcome = submit(None, rounds_service.round_create, event=event, actor=actor(request))
    if not outcome.ok:
        messages.error(request, outcome.error)
        return redirect("tournaments:organise_event", slug=event.slug)
    return redirect("tournaments:organise_round", slug=event.slug, number=outcome.result.number)


@organiser_required
@require_GET
def poster(request, event: Event):
    """A poster for the room: one big QR code of the event's public page, with its name and
    what players find there (their seat, the standings), to print and put on the wall."""
    url = request.build_absolute_uri(reverse("tournaments:event", args=[event.slug]))
    qr = segno.make(url, error="m").svg_inline(
        scale=POSTER_QR_SCALE, border=2, omitsize=True, title=event.name
    )
    context = {"event": event, "url": url, "qr": qr}
    return render(request, "tournaments/organise/poster.html", context)


@organiser_required
@require_GET
def log(request, event: Event):
    """The whole audit trail: who did what, when, and why."""
    lines = words.log_lines(event_log(event, LOG_PAGE), player_names(event))
    return render(request, "tournaments/organise/log.html", {"event": event, "log": lines})


# --- settings and organisers ------------------------------------------------------------------


def _settings(request, event: Event, *, form=None, organiser_form=None, status: int = 200):
    context = {
        "event": event,
        "form": form or EventSettingsForm(initial=EventSettingsForm.initial_from(event)),
        "organiser_form": organiser_form or OrganiserForm(),
        "organisers": event.organisers.order_by("username"),
        "editable": event.status != Event.Status.CLOSED,
        "season": event.season,
        "runs_club": request.user.has_perm(CLUB_PERMISSION, event.club),
    }
    return render(request, "tournaments/organise/settings.html", context, status=status)


@organiser_required
@require_http_methods(["GET", "POST"])
def settings(request, event: Event):
    """Change the event's settings while it is not closed (the rules of play stay)."""
    if request.method == "GET":
        return _settings(request, event)
    form = EventSettingsForm(request.POST)
    outcome = submit(
        form, event_service.event_update, data=form.settings, event=event, actor=actor(request)
    )
    if not outcome.ok:
        return _settings(request, event, form=form, status=outcome.status)
    messages.success(request, _("Settings saved."))
    return redirect("tournaments:organise_event", slug=event.slug)


@organiser_required
@require_POST
def organiser_add(request, event: Event):
    form = OrganiserForm(request.POST)
    outcome = submit(
        form,
        event_service.organiser_add,
        error_field="username",
        event=event,
        actor=actor(request),
        by=request.user,
    )
    if not outcome.ok:
        return _settings(request, event, organiser_form=form, status=outcome.status)
    user = outcome.result
    messages.success(
        request, _("%(username)s now organises this event.") % {"username": user.get_username()}
    )
    return redirect("tournaments:organise_settings", slug=event.slug)
