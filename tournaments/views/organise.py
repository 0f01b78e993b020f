"""The organiser's pages for events: my events, a new club and event, the event's dashboard
(counts, rounds and their next step, building the next round, links to the public pages,
the audit trail), the players' QR poster, its settings and its organisers.

Thin on purpose: reads through tournaments.selectors (worded by organise_presenters), every
change through tournaments.services with the user's name as the actor. Without JavaScript
each form posts and redirects; a refused change re-renders the page with the form as typed
and the service's message (400 for bad input, 409 when the event's state does not allow it).
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import organise_presenters as words
from .. import selectors, services
from ..errors import TournamentError
from ..forms import ClubForm, EventCreateForm, EventSettingsForm, OrganiserForm
from ..models import Event, Round
from ..tables import EXPORTS, FORMATS
from .organise_access import actor, error_status, organiser_required, private

DASHBOARD = "tournaments/organise/event.html"
POSTER_QR_SCALE = 10  # modules of 10 px: the SVG is scaled to the page by CSS anyway
LOG_ON_DASHBOARD = 8
LOG_PAGE = 500


# --- my events, a new club, a new event -------------------------------------------------------


def _home(request, *, club_form: ClubForm, status: int = 200):
    context = {
        "events": selectors.events_organised_by(request.user),
        "club_form": club_form,
        "has_clubs": selectors.clubs_by_name().exists(),
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
    club = services.club_create(name=form.cleaned_data["name"])
    messages.success(request, _("Club %(name)s created.") % {"name": club.name})
    return redirect(f"{reverse('tournaments:organise_event_new')}?club={club.pk}")


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request):
    """A new event; the rules and standings settings are checked by the services."""
    clubs = selectors.clubs_by_name()
    initial = {"club": request.GET.get("club")} if request.GET.get("club", "").isdigit() else {}
    form = EventCreateForm(request.POST or None, clubs=clubs, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                event = services.event_create(
                    club=data["club"],
                    ruleset=data["ruleset"],
                    options=data["options"],
                    organisers=[request.user],
                    actor=actor(request),
                    **form.settings(),
                )
            except TournamentError as error:
                form.add_error(None, error.message)
                status = error.status
            else:
                messages.success(request, _("Event %(name)s created.") % {"name": event.name})
                return redirect("tournaments:organise_event", slug=event.slug)
    context = {"form": form, "has_clubs": clubs.exists()}
    return private(render(request, "tournaments/organise/event_new.html", context, status=status))


# --- the dashboard ----------------------------------------------------------------------------


def _dashboard(request, event: Event, *, error: str = "", status: int = 200):
    progress = selectors.rounds_progress(event)
    next_number = selectors.round_to_build(event, progress[-1].round if progress else None)
    field_size = selectors.round_field_size(event, next_number) if next_number else 0
    context = {
        "event": event,
        "counts": selectors.entry_counts(event),
        "rounds": [(row, words.next_step(row)) for row in progress],
        "can_build": next_number is not None,
        "next_number": next_number,
        "field_size": field_size,
        # said before the tap: the service refuses such a round at once anyway
        "too_few": services.too_few_players(field_size)
        if next_number and field_size < services.ROUND_MIN_PLAYERS
        else "",
        # polled while a round is built; a stuck build waits for the organiser instead
        "building": any(
            row.round.status == Round.Status.PENDING and not selectors.round_stuck(row.round)
            for row in progress
        ),
        "log": words.log_lines(
            selectors.event_log(event, LOG_ON_DASHBOARD), selectors.player_names(event)
        ),
        "error": error,
        "exports": [(what, words.EXPORT_LABELS[what], FORMATS) for what in EXPORTS],
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
    try:
        round_ = services.round_create(event=event, actor=actor(request))
    except TournamentError as error:
        messages.error(request, error.message)
        return redirect("tournaments:organise_event", slug=event.slug)
    return redirect("tournaments:organise_round", slug=event.slug, number=round_.number)


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
    lines = words.log_lines(selectors.event_log(event, LOG_PAGE), selectors.player_names(event))
    return render(request, "tournaments/organise/log.html", {"event": event, "log": lines})


# --- settings and organisers ------------------------------------------------------------------


def _settings(request, event: Event, *, form=None, organiser_form=None, status: int = 200):
    context = {
        "event": event,
        "form": form or EventSettingsForm(initial=EventSettingsForm.initial_from(event)),
        "organiser_form": organiser_form or OrganiserForm(),
        "organisers": event.organisers.order_by("username"),
        "editable": event.status != Event.Status.CLOSED,
    }
    return render(request, "tournaments/organise/settings.html", context, status=status)


@organiser_required
@require_http_methods(["GET", "POST"])
def settings(request, event: Event):
    """Change the event's settings while it is not closed (the rules of play stay)."""
    if request.method == "GET":
        return _settings(request, event)
    form = EventSettingsForm(request.POST)
    if not form.is_valid():
        return _settings(request, event, form=form, status=400)
    try:
        services.event_update(event=event, actor=actor(request), **form.settings())
    except TournamentError as error:
        form.add_error(None, error.message)
        return _settings(request, event, form=form, status=error.status)
    messages.success(request, _("Settings saved."))
    return redirect("tournaments:organise_event", slug=event.slug)


@organiser_required
@require_POST
def organiser_add(request, event: Event):
    form = OrganiserForm(request.POST)
    if not form.is_valid():
        return _settings(request, event, organiser_form=form, status=400)
    try:
        user = services.organiser_add(
            event=event, username=form.cleaned_data["username"], actor=actor(request)
        )
    except TournamentError as error:
        form.add_error("username", error.message)
        return _settings(request, event, organiser_form=form, status=error.status)
    messages.success(
        request, _("%(username)s now organises this event.") % {"username": user.get_username()}
    )
    return redirect("tournaments:organise_settings", slug=event.slug)
