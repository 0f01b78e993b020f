"""The players of an event: add one, paste a list, check in and out, withdraw, filter by name.

A registration after round 1 is a late entry (the service notes the round the player joins).
Check-in is one tap per player: with htmx the answer is the player's row (and the counts,
swapped out of band); without JavaScript the form posts and redirects back to the list,
keeping its filter.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from scoring.names import near_pairs
from tournaments.common.web.access import actor, error_status, organiser_required
from tournaments.common.web.clubs import PERMISSION as CLUB_PERMISSION
from tournaments.common.web.forms_flow import submit
from tournaments.events.csv_import import names_from_text
from tournaments.events.forms import CheckInForm, OptionalReasonForm, PasteForm, PlayerForm
from tournaments.events.presenters import arrivals, counts_context, names_alike
from tournaments.events.selectors.entries import (
    entry_of,
    event_entries,
    seated_ids,
)
from tournaments.events.services.registration import (
    entries_check_in_all,
    entry_check_in,
    entry_delete,
    entry_reinstate,
    entry_withdraw,
    players_register,
)
from tournaments.models import Entry, Event
from tournaments.rounds.services import walkouts

PLAYERS = "tournaments/organise/players.html"
MAX_FILTER = 80


def _filter(request) -> str:
    source = request.POST if request.method == "POST" else request.GET
    return " ".join(source.get("q", "").split())[:MAX_FILTER]


def _back(event: Event, query: str):
    url = reverse("tournaments:organise_players", args=[event.slug])
    return redirect(f"{url}?{urlencode({'q': query})}" if query else url)


def _entry(event: Event, entry_id: int) -> Entry:
    try:
        return entry_of(event, entry_id)
    except Entry.DoesNotExist:
        raise Http404 from None


def _players(
    request,
    event: Event,
    *,
    player_form=None,
    paste_form=None,
    error: str = "",
    status: int = 200,
):
    query = _filter(request)
    seated = seated_ids(event)
    entries = event_entries(event, query)
    counts = counts_context(event)
    context = {
        **counts,
        "event": event,
        "entries": entries,
        # one person entered twice? delete the mistake, or merge the two (a club's organiser)
        "alike": names_alike(event_entries(event) if query else entries, seated),
        "seated": seated,
        "runs_club": request.user.has_perm(CLUB_PERMISSION, event.club),
        "q": query,
        "player_form": player_form or PlayerForm(),
        "paste_form": paste_form or PasteForm(),
        "error": error,
        "open": event.status != Event.Status.CLOSED,
        "late": event.rounds.exists(),
        # who is arriving (self check-in); the whole list is read already when unfiltered
        "arrivals": arrivals(event, counts["counts"], None if query else entries),
    }
    return render(request, PLAYERS, context, status=status)


@organiser_required
@require_GET
def players(request, event: Event):
    return _players(request, event)


@dataclass(frozen=True)
class _Registered:
    entries: list[Entry]  # one per name given, in order
    added: int  # entered now; the others were entered before

    @property
    def already(self) -> int:
        return len(self.entries) - self.added


def _register(request, event: Event, names: list[str]) -> _Registered:
    """Enter the names, then warn (without refusing) of each new name that is near one
    already in the event ("Ivan Petrof" beside "Ivan Petrov", or "Иван Петров"): the
    organiser may have typed one person twice (scoring.names.near)."""
    before = dict(event.entries.values_list("pk", "player__name"))
    entries = players_register(event=event, names=names, actor=actor(request), by=request.user)
    new = list(dict.fromkeys(e.player.name for e in entries if e.pk not in before))
    for name, other in near_pairs(new, list(before.values())):
        messages.warning(
            request,
            _(
                "“%(name)s” looks like “%(other)s”: if they are one person, delete the one "
                "entered by mistake, or merge the two (see “Names that look alike”)."
            )
            % {"name": name, "other": other},
        )
    return _Registered(entries, len(new))


@organiser_required
@require_POST
def player_add(request, event: Event):
    form = PlayerForm(request.POST)
    if not form.is_valid():
        return _players(request, event, player_form=form, status=400)
    name = form.cleaned_data["name"]
    outcome = submit(None, _register, request=request, event=event, names=[name])
    if not outcome.ok:
        form.add_error("name", outcome.error)
        return _players(request, event, player_form=form, status=outcome.status)
    registered = outcome.result
    known = registered.entries[0].player.name
    if registered.added and known != name:
        messages.success(
            request,
            _("%(name)s entered as %(known)s, the name the club already knows.")
            % {"name": name, "known": known},
        )
    elif registered.added:
        messages.success(request, _("%(name)s entered.") % {"name": name})
    elif known != name:
        messages.info(
            request,
            _("%(name)s is %(known)s, who was already entered.") % {"name": name, "known": known},
        )
    else:
        messages.info(request, _("%(name)s was already entered.") % {"name": name})
    return _back(event, _filter(request))


@organiser_required
@require_POST
def players_paste(request, event: Event):
    """A pasted list: every line is checked first; one bad line enters nobody."""
    form = PasteForm(request.POST)
    if not form.is_valid():
        return _players(request, event, paste_form=form, status=400)
    parsed = names_from_text(form.cleaned_data["names"])
    for message in parsed.errors:
        form.add_error("names", message)
    if not parsed.errors and not parsed.names:
        form.add_error("names", _("No names found: put one name on each line."))
    if form.errors:
        return _players(request, event, paste_form=form, status=400)
    outcome = submit(None, _register, request=request, event=event, names=parsed.names)
    if not outcome.ok:
        form.add_error("names", outcome.error)
        return _players(request, event, paste_form=form, status=outcome.status)
    registered = outcome.result
    added, already = registered.added, registered.already
    parts = [ngettext("%(n)s player entered.", "%(n)s players entered.", added) % {"n": added}]
    if already:
        parts.append(
            ngettext("%(n)s was already entered.", "%(n)s were already entered.", already)
            % {"n": already}
        )
    if parsed.duplicates:
        lines = ", ".join(str(line) for line, _name in parsed.duplicates)
        parts.append(
            ngettext(
                "Repeated name skipped (line %(lines)s).",
                "Repeated names skipped (lines %(lines)s).",
                len(parsed.duplicates),
            )
            % {"lines": lines}
        )
    messages.success(request, " ".join(parts))
    return _back(event, _filter(request))


def _row(request, event: Event, entry: Entry, *, error: str = "", status: int = 200):
    """The player's row for htmx, with the counts swapped out of band."""
    context = {
        "event": event,
        "entry": entry,
        "q": _filter(request),
        "row_error": error,
        "seated": seated_ids(event),
    }
    counts = {**counts_context(event), "event": event, "oob": True}
    html = render_to_string(f"{PLAYERS}#entry", context, request=request)
    html += render_to_string(f"{PLAYERS}#counts", counts, request=request)
    return HttpResponse(html, status=error_status(request, status))


def _entry_changed(request, event: Event, entry: Entry, *, error: str = "", status: int = 200):
    if request.htmx:
        return _row(request, event, entry, error=error, status=status)
    if error:
        return _players(request, event, error=error, status=status)
    return _back(event, _filter(request))


def _change_entry(request, event: Event, entry_id: int, form, invalid: str, service):
    """One player's check-in, withdrawal or reinstatement: `form` must hold (else `invalid`
    is said), then `service` with the form's data (it refuses what the player's state does
    not allow), and the row (or the list) is shown again."""
    entry = _entry(event, entry_id)
    outcome = submit(form, service, entry=entry, actor=actor(request))
    if outcome.invalid:
        return _entry_changed(request, event, entry, error=invalid, status=400)
    return _entry_changed(request, event, entry, error=outcome.error, status=outcome.status)


def _change_with_reason(request, event: Event, entry_id: int, service):
    """A withdrawal or a reinstatement: `service` with the reason typed (or none) for the log."""
    invalid = _("Keep the reason under 500 characters.")
    form = OptionalReasonForm(request.POST)
    return _change_entry(request, event, entry_id, form, invalid, service)


@organiser_required
@require_POST
def check_in(request, event: Event, entry_id: int):
    """One tap: check the player in (or out)."""
    form, invalid = CheckInForm(request.POST), _("Check in or out?")
    return _change_entry(request, event, entry_id, form, invalid, entry_check_in)


@organiser_required
@require_POST
def check_in_all(request, event: Event):
    outcome = submit(None, entries_check_in_all, event=event, actor=actor(request))
    if not outcome.ok:
        return _players(request, event, error=outcome.error, status=outcome.status)
    count = outcome.result
    messages.success(
        request,
        ngettext("%(n)s player checked in.", "%(n)s players checked in.", count) % {"n": count},
    )
    return _back(event, _filter(request))


@organiser_required
@require_POST
def withdraw(request, event: Event, entry_id: int):
    """The player leaves the event: later rounds go without them; results so far stand.
    A player still seated at an unsettled table of a published round: the organiser is
    warned and taken to that table's choices (tournaments.rounds.services.walkouts)."""
    response = _change_with_reason(request, event, entry_id, entry_withdraw)
    entry = _entry(event, entry_id)
    table = walkouts.open_table_of(event, entry.player_id) if entry.withdrawn else None
    if table is None:
        return response
    messages.warning(
        request,
        _(
            "%(name)s has withdrawn but still sits at table %(t)s of round %(n)s: choose what "
            "happens to that table (substitute, finish, void or adjust)."
        )
        % {"name": entry.player.name, "t": table.number, "n": table.round.number},
    )
    url = reverse("tournaments:organise_table", args=[event.slug, table.round.number, table.number])
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": url})
    return redirect(url)


@organiser_required
@require_POST
def reinstate(request, event: Event, entry_id: int):
    """Take back a withdrawal: the player is paired again from the next round built."""
    return _change_with_reason(request, event, entry_id, entry_reinstate)


@organiser_required
@require_POST
def entry_remove(request, event: Event, entry_id: int):
    """Delete an entry made by mistake: only one that never played (the service refuses
    anyone with a seat or a bye, who is withdrawn instead); back to the list."""
    entry = _entry(event, entry_id)
    form = OptionalReasonForm(request.POST)
    outcome = submit(form, entry_delete, entry=entry, actor=actor(request))
    if outcome.invalid:
        messages.error(request, _("Keep the reason under 500 characters."))
    elif not outcome.ok:
        messages.error(request, outcome.error)
    else:
        messages.success(request, _("%(name)s deleted.") % {"name": outcome.result})
    return _back(event, _filter(request))
