"""The players' personal codes, for the organiser: a printable slip per player (their code
and the QR of the link that proves it on their phone), and a new code for a player whose
code was seen by someone else, or whose phone changed hands (tournaments.events.services.identity,
docs/confirmations.md). The codes are shown on the players page too."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.common.web.access import actor, organiser_required, private
from tournaments.events.selectors.entries import entry_of, event_entries
from tournaments.events.selectors.identity import slip_token
from tournaments.events.services import identity
from tournaments.models import Entry, Event
from tournaments.rounds.presenters import paper


@organiser_required
@require_GET
def slips(request, event: Event):
    """One slip a player, to cut out and hand over at check-in (withdrawn players left out).
    The slips prove who is who: this page is for the organisers only and never stored."""
    entries = [e for e in event_entries(event, "") if not e.withdrawn]

    def slip_url(entry: Entry) -> str:
        path = reverse("tournaments:seat_slip", args=[event.slug, entry.pk, slip_token(entry)])
        return request.build_absolute_uri(path)

    context = {"event": event, "slips": paper.slips(entries, slip_url)}
    response = private(render(request, "tournaments/organise/print_slips.html", context))
    response["Referrer-Policy"] = "no-referrer"
    return response


@organiser_required
@require_POST
def code_renew(request, event: Event, entry_id: int):
    """A new personal code: the old one, its slip and every phone proven with it stop at
    once. Back to the players page, at the player's row."""
    try:
        entry = entry_of(event, entry_id)
    except Entry.DoesNotExist:
        raise Http404 from None
    entry = identity.code_renew(entry=entry, actor=actor(request))
    messages.success(
        request,
        _("%(name)s has a new personal code: %(code)s. Give them a new slip.")
        % {"name": entry.player.name, "code": entry.code},
    )
    response = redirect("tournaments:organise_players", slug=event.slug)
    response["Location"] += f"#entry-{entry.pk}"
    return response
