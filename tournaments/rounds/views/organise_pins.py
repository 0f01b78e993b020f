"""The organiser renews a table's PIN (a PIN seen by someone who should not keep the table,
or asked for again): the old one stops working at once (tournaments.rounds.services.pins). The PIN
itself is shown on the round page, the table page and the printed table cards."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.common.errors import TournamentError
from tournaments.common.selectors import round_by_number
from tournaments.common.web.access import actor, organiser_required
from tournaments.models import Event, Round, Table
from tournaments.rounds.selectors import table_of
from tournaments.rounds.services import pins


@organiser_required
@require_POST
def pin_renew(request, event: Event, number: int, table_number: int):
    """POST/redirect/GET back to the page the button was on (the round's, or the table's)."""
    try:
        table = table_of(round_by_number(event, number), table_number)
    except (Round.DoesNotExist, Table.DoesNotExist):
        raise Http404 from None
    try:
        table = pins.pin_renew(table=table, actor=actor(request))
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("Table %(t)s has a new PIN: %(pin)s. The old one no longer works.")
            % {"t": table.number, "pin": table.pin},
        )
    if request.POST.get("back") == "table":
        return redirect(
            "tournaments:organise_table", slug=event.slug, number=number, table_number=table_number
        )
    response = redirect("tournaments:organise_round", slug=event.slug, number=number)
    response["Location"] += f"#table-{table_number}"
    return response
