"""The teams page, linked from the players page: teams (make, rename, members in and out,
delete, a pasted list) and the keep-apart rules (pick two or more players, a reason; delete).

Every form posts and comes back to the page (no JavaScript needed); a refusal shows the page
again with the form and its words (tournaments.common.web.forms_flow.submit), nothing lost.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tournaments.common.web.access import actor, organiser_required
from tournaments.common.web.forms_flow import submit
from tournaments.models import Entry, Event, KeepApart, Team
from tournaments.teams.forms import KeepApartForm, MemberForm, TeamForm, TeamPasteForm
from tournaments.teams.presenters import reason_suggestions, teams_page
from tournaments.teams.selectors import entries_by_id, rule_of, team_of
from tournaments.teams.services import (
    keep_apart_create,
    keep_apart_delete,
    team_create,
    team_delete,
    team_member_remove,
    team_members_add,
    team_rename,
    teams_paste,
)

TEAMS = "tournaments/organise/teams.html"


def _back(event: Event, anchor: str = ""):
    url = reverse("tournaments:organise_teams", args=[event.slug])
    return redirect(url + (f"#{anchor}" if anchor else ""))


def _team(event: Event, team_id: int) -> Team:
    try:
        return team_of(event, team_id)
    except Team.DoesNotExist:
        raise Http404 from None


def _page(request, event: Event, *, status: int = 200, error: str = "", **forms):
    page = teams_page(event)
    context = {
        "event": event,
        "page": page,
        "open": event.status != Event.Status.CLOSED,
        "error": error,
        "team_form": forms.get("team_form") or TeamForm(),
        "paste_form": forms.get("paste_form") or TeamPasteForm(),
        "apart_form": forms.get("apart_form") or KeepApartForm(choices=page.everyone),
        "reasons": reason_suggestions(),
    }
    return render(request, TEAMS, context, status=status)


@organiser_required
@require_GET
def teams(request, event: Event):
    return _page(request, event)


@organiser_required
@require_POST
def team_new(request, event: Event):
    form = TeamForm(request.POST)
    outcome = submit(
        form, team_create, error_field="name", event=event, actor=actor(request), by=request.user
    )
    if not outcome.ok:
        return _page(request, event, team_form=form, status=outcome.status)
    messages.success(request, _("Team %(team)s made.") % {"team": outcome.result.name})
    return _back(event, f"team-{outcome.result.pk}")


@organiser_required
@require_POST
def teams_paste_view(request, event: Event):
    """A pasted list: every line is checked first; one bad line makes no team."""
    form = TeamPasteForm(request.POST)
    outcome = submit(
        form,
        teams_paste,
        data=lambda: {"teams": form.cleaned_data["text"]},
        error_field="text",
        event=event,
        actor=actor(request),
        by=request.user,
    )
    if not outcome.ok:
        return _page(request, event, paste_form=form, status=outcome.status)
    count = len(outcome.result)
    messages.success(
        request, ngettext("%(n)s team entered.", "%(n)s teams entered.", count) % {"n": count}
    )
    return _back(event)


@organiser_required
@require_POST
def team_rename_view(request, event: Event, team_id: int):
    team = _team(event, team_id)
    old = team.name
    name = request.POST.get("name", "")
    outcome = submit(None, team_rename, team=team, name=name, actor=actor(request), by=request.user)
    if not outcome.ok:
        return _page(request, event, error=outcome.error, status=outcome.status)
    messages.success(request, _("Team %(old)s renamed %(team)s.") % {"old": old, "team": team.name})
    return _back(event, f"team-{team.pk}")


@organiser_required
@require_POST
def team_delete_view(request, event: Event, team_id: int):
    team = _team(event, team_id)
    outcome = submit(None, team_delete, team=team, actor=actor(request), by=request.user)
    if not outcome.ok:
        return _page(request, event, error=outcome.error, status=outcome.status)
    messages.success(request, _("Team %(team)s deleted.") % {"team": outcome.result})
    return _back(event)


@organiser_required
@require_POST
def team_member_add(request, event: Event, team_id: int):
    team = _team(event, team_id)
    form = MemberForm(request.POST, choices=[(e.pk, e.pk) for e in event.entries.all()])
    if not form.is_valid():
        return _page(request, event, error=_("Choose a player to add."), status=400)
    entries = entries_by_id(event, [form.cleaned_data["entry"]])
    outcome = submit(
        None, team_members_add, team=team, entries=entries, actor=actor(request), by=request.user
    )
    if not outcome.ok:
        return _page(request, event, error=outcome.error, status=outcome.status)
    for entry in outcome.result:
        messages.success(
            request,
            _("%(name)s joined the team %(team)s.")
            % {"name": entry.player.name, "team": team.name},
        )
    return _back(event, f"team-{team.pk}")


@organiser_required
@require_POST
def team_member_remove_view(request, event: Event, team_id: int, entry_id: int):
    team = _team(event, team_id)
    entry = next(iter(entries_by_id(event, [entry_id])), None)
    if entry is None:
        raise Http404
    outcome = submit(
        None, team_member_remove, team=team, entry=entry, actor=actor(request), by=request.user
    )
    if not outcome.ok:
        return _page(request, event, error=outcome.error, status=outcome.status)
    messages.success(
        request,
        _("%(name)s taken out of the team %(team)s.")
        % {"name": entry.player.name, "team": team.name},
    )
    return _back(event, f"team-{team.pk}")


@organiser_required
@require_POST
def apart_new(request, event: Event):
    entries = Entry.objects.filter(event=event, withdrawn=False).select_related("player")
    choices = [(e.pk, e.player.name) for e in entries.order_by("player__name")]
    form = KeepApartForm(request.POST, choices=choices)
    outcome = submit(
        form,
        keep_apart_create,
        data=lambda: {
            "entries": entries_by_id(event, form.cleaned_data["entries"]),
            "label": form.cleaned_data["label"],
        },
        error_field="entries",
        event=event,
        actor=actor(request),
        by=request.user,
    )
    if not outcome.ok:
        return _page(request, event, apart_form=form, status=outcome.status)
    names = ", ".join(
        sorted(e.player.name for e in outcome.result.entries.select_related("player"))
    )
    messages.success(request, _("Kept apart at the tables: %(names)s.") % {"names": names})
    return _back(event, "apart")


@organiser_required
@require_POST
def apart_delete(request, event: Event, rule_id: int):
    try:
        rule = rule_of(event, rule_id)
    except KeepApart.DoesNotExist:
        raise Http404 from None
    outcome = submit(None, keep_apart_delete, rule=rule, actor=actor(request), by=request.user)
    if not outcome.ok:
        return _page(request, event, error=outcome.error, status=outcome.status)
    messages.success(request, _("Keep-apart rule deleted."))
    return _back(event, "apart")
