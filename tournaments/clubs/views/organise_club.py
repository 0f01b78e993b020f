"""A club organiser's pages: the club's home (members found by name, renamed, merged;
settings; the club's log; links to seasons and the leaderboard), a casual game started
under the club, and picking members when entering an event's players. Plain forms that
htmx only enhances; every change goes through tournaments.clubs.services.members."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.errors import ScoringError
from scoring.names import MAX_NAME
from tournaments.clubs.selectors import members as reads
from tournaments.clubs.services import members as writes
from tournaments.common.errors import TournamentError
from tournaments.common.web.access import PERMISSION as EVENT_PERMISSION
from tournaments.common.web.access import actor, organiser_required
from tournaments.common.web.clubs import PERMISSION, club_organiser_required
from tournaments.common.web.public import not_found, query_id
from tournaments.models import Club, Event

PAGES = "tournaments/club/"


class SettingsForm(forms.Form):
    ratings_public = forms.BooleanField(
        label=gettext_lazy("Anyone may see the leaderboard and ratings"), required=False
    )
    rate_casual_games = forms.BooleanField(
        label=gettext_lazy("Casual games started under the club count in the ratings"),
        required=False,
    )


def _query(request) -> str:
    return " ".join(str(request.GET.get("q", "")).split())[:MAX_NAME]


def _home(request, club: Club, *, error: str = "", status: int = 200, form=None):
    query = _query(request)
    context = {
        "club": club,
        "q": query,
        "members": reads.members(club, query),
        "settings_form": form
        or SettingsForm(
            initial={
                "ratings_public": club.ratings_public,
                "rate_casual_games": club.rate_casual_games,
            }
        ),
        "log": reads.club_log(club),
        "organisers": reads.club_organisers(club),
        "error": error,
    }
    return render(request, PAGES + "organise.html", context, status=status)


@club_organiser_required
@require_GET
def club_home(request, club: Club):
    return _home(request, club)


@club_organiser_required
@require_POST
def club_settings(request, club: Club):
    form = SettingsForm(request.POST)
    form.is_valid()  # two check boxes: any post is valid
    writes.club_settings_update(
        club=club, actor=actor(request), by=request.user, **form.cleaned_data
    )
    messages.success(request, _("Club settings saved."))
    return redirect("tournaments:organise_club", club.slug)


@club_organiser_required
@require_POST
def organiser_add(request, club: Club):
    username = request.POST.get("username", "")
    try:
        user = writes.club_organiser_add(
            club=club, username=username, actor=actor(request), by=request.user
        )
    except TournamentError as error:
        return _home(request, club, error=error.message, status=400)
    done = _("%(name)s now runs the club too.")
    messages.success(request, done % {"name": user.get_username()})
    return redirect("tournaments:organise_club", club.slug)


@club_organiser_required
@require_POST
def organiser_remove(request, club: Club):
    username = request.POST.get("username", "")
    try:
        user = writes.club_organiser_remove(
            club=club, username=username, actor=actor(request), by=request.user
        )
    except TournamentError as error:
        return _home(request, club, error=error.message, status=400)
    done = _("%(name)s no longer runs the club.")
    messages.success(request, done % {"name": user.get_username()})
    if not request.user.has_perm(PERMISSION, club):  # they removed themselves
        return redirect("tournaments:organise_home")
    return redirect("tournaments:organise_club", club.slug)


@club_organiser_required
@require_POST
def member_rename(request, club: Club, player_id: int):
    player = reads.member(club, player_id)
    if player is None:
        return not_found(request, _("There is no such member."))
    try:
        writes.member_rename(
            player=player, name=request.POST.get("name", ""), actor=actor(request), by=request.user
        )
    except TournamentError as error:
        return _home(request, club, error=error.message, status=400)
    messages.success(request, _("Renamed to %(name)s.") % {"name": player.name})
    return redirect("tournaments:organise_club", club.slug)


def _came_from(request, club: Club) -> Event | None:
    """The event whose players page led here (``event``: its slug, from the near-name
    warning), if it is this club's and the organiser runs it: the merge returns there. Only
    a slug is taken, never an address, so the page can lead nowhere else."""
    slug = str(request.POST.get("event") or request.GET.get("event") or "")[:100]
    event = Event.objects.filter(club=club, slug=slug).first() if slug else None
    if event is None or not request.user.has_perm(EVENT_PERMISSION, event):
        return None
    return event


@club_organiser_required
@require_http_methods(["GET", "POST"])
def member_merge(request, club: Club, player_id: int):
    """Merge another record into this member's: find it by name, check both side by side
    (their events and games; the one with more history is offered to stay), then confirm.
    Reached from an event's players page (``?event=``), it returns there, else to the club."""
    first = reads.member(club, player_id)
    if first is None:
        return not_found(request, _("There is no such member."))
    event = _came_from(request, club)
    other = reads.member(club, query_id(request.POST.get("other") or request.GET.get("other")))
    if other is not None and other.pk == first.pk:
        other = None
    error, status = "", 200
    if request.method == "POST" and other is not None:
        keep, gone = (other, first) if request.POST.get("keep") == str(other.pk) else (first, other)
        try:
            merged = writes.members_merge(
                club=club, keep=keep, gone=gone, actor=actor(request), by=request.user
            )
        except TournamentError as refused:
            error, status = refused.message, 400
        else:
            done = _("%(gone)s merged into %(kept)s.")
            messages.success(request, done % {"gone": merged.gone_name, "kept": keep.name})
            if event is not None:
                return redirect("tournaments:organise_players", event.slug)
            return redirect("tournaments:organise_club", club.slug)
    query = _query(request)
    found = [m for m in reads.members(club, query) if m.id != first.pk] if query else []
    records = [reads.member_history(first)]
    if other is not None:
        records.append(reads.member_history(other))
    context = {
        "club": club,
        "event": event,
        "first": first,
        "other": other,
        "q": query,
        "found": found,
        "error": error,
        # side by side; the one with more history stays unless the organiser says otherwise
        # (coming from a typo, the record you came from is usually the one to go)
        "records": records,
        "keep": max(records, key=lambda r: r.weight).player.pk,
    }
    return render(request, PAGES + "merge.html", context, status=status)


@club_organiser_required
@require_http_methods(["GET", "POST"])
def casual_game(request, club: Club):
    """Three seats, each a member picked by name or a new name (who becomes a member)."""
    typed = [" ".join(request.POST.get(f"seat_{n}", "").split()) for n in range(3)]
    error, status = "", 200
    if request.method == "POST":
        try:
            casual = writes.casual_game_start(
                club=club, seats=typed, actor=actor(request), by=request.user
            )
        except (TournamentError, ScoringError) as refused:  # a name either app refuses
            error, status = refused.message, 400
        else:
            game = casual.game
            return redirect(reverse("scoring:keep", args=[game.pk, game.secret]))
    context = {
        "club": club,
        "seats": typed,
        "members": reads.members(club),
        "error": error,
    }
    return render(request, PAGES + "casual.html", context, status=status)


# --- an event's players: picking members -----------------------------------------------------


@organiser_required
@require_http_methods(["GET", "POST"])
def members_pick(request, event: Event):
    """Members of the event's club a typed name may mean (Latin or Cyrillic), each entered
    with one tap as that very record. htmx asks for the suggestions alone as one types."""
    query = _query(request)
    error, status = "", 200
    if request.method == "POST":
        player = reads.member(event.club, query_id(request.POST.get("player")))
        if player is None:
            error, status = _("Pick a member from the list."), 400
        else:
            try:
                writes.members_enter(
                    event=event, players=[player], actor=actor(request), by=request.user
                )
            except TournamentError as refused:
                error, status = refused.message, 400
            else:
                messages.success(request, _("%(name)s entered.") % {"name": player.name})
                return redirect("tournaments:organise_players", event.slug)
    found = reads.members(event.club, query, limit=reads.SUGGESTED) if query else []
    context = {
        "event": event,
        "q": query,
        "found": found,
        "entered": reads.entered_ids(event),
        "error": error,
    }
    template = "_pick_results.html" if request.htmx else "pick.html"
    return render(request, PAGES + template, context, status=200 if request.htmx else status)
