"""A club organiser's season pages: the club's seasons and a new one, and one season's
counting and nights (the club's events it groups). Plain forms; every change goes through
tournaments.clubs.services.seasons, which checks it and writes it into the club's log."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from scoring.names import MAX_TITLE
from tournaments.clubs.selectors import seasons as reads
from tournaments.clubs.services import seasons as writes
from tournaments.common.errors import TournamentError
from tournaments.common.web.access import actor
from tournaments.common.web.clubs import club_organiser_required
from tournaments.common.web.public import MAX_ID, not_found
from tournaments.models import Club, Season

LIST = "tournaments/organise/seasons.html"
EDIT = "tournaments/organise/season.html"


class PlacePointsField(forms.CharField):
    """Season points per place typed as "10 8 6 5 4 3 2 1" (spaces, commas or dashes)."""

    def to_python(self, value):
        text = super().to_python(value).replace(",", " ").replace("-", " ").replace("–", " ")
        parts = text.split()
        if not all(part.isascii() and part.isdigit() and len(part) <= 6 for part in parts):
            raise forms.ValidationError(
                _("Type whole numbers, best place first, e.g. 10 8 6 5 4 3 2 1.")
            )
        return [int(part) for part in parts]


class SeasonForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=MAX_TITLE)
    starts_on = forms.DateField(
        label=gettext_lazy("Starts"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=gettext_lazy("Ends"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    place_points = PlacePointsField(
        label=gettext_lazy("Season points per place"),
        required=False,
        help_text=gettext_lazy("Best place first; empty: 10 8 6 5 4 3 2 1. Lower places score 0."),
    )
    best_nights = forms.IntegerField(
        label=gettext_lazy("Count only the best nights"),
        required=False,
        min_value=1,
        max_value=366,
        help_text=gettext_lazy("How many of a player's nights count; empty: all of them."),
    )
    min_nights = forms.IntegerField(
        label=gettext_lazy("Nights needed to be ranked"), min_value=0, max_value=366, initial=1
    )

    def __init__(self, *args, events=(), **kwargs):
        super().__init__(*args, **kwargs)
        if events:
            self.fields["events"] = forms.ModelMultipleChoiceField(
                label=gettext_lazy("Nights of this season"),
                queryset=events,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )

    def values(self) -> dict:
        return {key: self.cleaned_data[key] for key in writes.SEASON_FIELDS}


def _refused(form: SeasonForm, error: TournamentError) -> None:
    form.add_error(None, error.message)


@club_organiser_required
@require_http_methods(["GET", "POST"])
def seasons(request, club: Club):
    form = SeasonForm(request.POST or None, initial={"min_nights": 1})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                season = writes.season_create(
                    club=club, actor=actor(request), by=request.user, **form.values()
                )
            except TournamentError as error:
                _refused(form, error)
            else:
                messages.success(request, _("Season %(name)s created.") % {"name": season.name})
                return redirect("tournaments:organise_season", club.slug, season.pk)
        status = 400
    context = {"club": club, "seasons": reads.club_seasons(club), "form": form}
    return render(request, LIST, context, status=status)


def _season(club: Club, season_id: int) -> Season | None:
    return club.seasons.filter(pk=season_id).first() if season_id <= MAX_ID else None


@club_organiser_required
@require_http_methods(["GET", "POST"])
def season(request, club: Club, season_id: int):
    found = _season(club, season_id)
    if found is None:
        return not_found(request, _("There is no such season."))
    events = club.events.order_by("created_at", "pk")
    initial = {
        "name": found.name,
        "starts_on": found.starts_on,
        "ends_on": found.ends_on,
        "place_points": " ".join(str(p) for p in found.place_points or []),
        "best_nights": found.best_nights,
        "min_nights": found.min_nights,
        "events": list(found.events.values_list("pk", flat=True)),
    }
    form = SeasonForm(request.POST or None, initial=initial, events=events)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                _save(request, found, form)
            except TournamentError as error:
                _refused(form, error)
            else:
                messages.success(request, _("Season saved."))
                return redirect(reverse("tournaments:organise_season", args=[club.slug, found.pk]))
        status = 400
    context = {"club": club, "season": found, "form": form, "has_events": events.exists()}
    return render(request, EDIT, context, status=status)


@club_organiser_required
@require_POST
def season_delete(request, club: Club, season_id: int):
    """The season goes, its nights stay as the club's events (the form on the season's page
    says so before the tap)."""
    found = _season(club, season_id)
    if found is None:
        return not_found(request, _("There is no such season."))
    writes.season_delete(found, actor=actor(request), by=request.user)
    messages.success(request, _("Season %(name)s deleted.") % {"name": found.name})
    return redirect("tournaments:organise_seasons", club.slug)


def _save(request, found: Season, form: SeasonForm) -> None:
    events = form.cleaned_data.get("events")
    writes.season_save(found, events=events, actor=actor(request), by=request.user, **form.values())
