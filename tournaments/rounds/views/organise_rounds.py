"""One round, from the pairing task to its close: review the draft (seats, first dealers, the
pairing's flags, byes), swap two players, publish, or build it again or delete it; then
follow each table's progress (deals, last entry, stale tables) and result, confirm or reopen
it, and close the round when every table is settled. docs/rounds.md has the states.

While the pairing task runs the page polls itself (htmx; a <noscript> refresh without JS);
a build still pending after a minute is said to be stuck and offered again. A refused action
goes back to the round page with the service's message (POST/redirect/GET, so a reload never
posts it again); a form with bad input is shown again with its errors (400). Confirming or
reopening one table answers htmx with the results section only.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments.common.web.access import actor, error_status, organiser_required, round_or_404
from tournaments.common.web.forms_flow import Outcome, submit
from tournaments.events.forms import NoteForm, ReasonForm, SwapForm
from tournaments.events.selectors.entries import player_names
from tournaments.models import Event, Round, Table
from tournaments.results import services as results_service
from tournaments.rounds.presenters.organise import disputes
from tournaments.rounds.presenters.round_page import round_page
from tournaments.rounds.selectors import table_of
from tournaments.rounds.services import rounds as rounds_service

ROUND = "tournaments/organise/round.html"
CLOSE = "tournaments/organise/round_close.html"


def _render(
    request,
    event: Event,
    round_: Round,
    *,
    swap_form: SwapForm | None = None,
    reopen_forms: dict | None = None,
    error: str = "",
    status: int = 200,
    partial: str | None = None,
):
    page = round_page(round_, reopen_forms)
    context = {
        "event": event,
        "round": round_,
        "page": page,
        "swap_form": swap_form or SwapForm(players=page.swap_choices),
        "error": error,
        # polled while the worker builds it; once stuck the page waits for the organiser
        "building": round_.status == Round.Status.PENDING and not page.stuck,
        # tables a player disputes, with every side's words
        "disputes": disputes([view.table for view in page.tables]),
    }
    template = f"{ROUND}#{partial}" if partial else ROUND
    return render(request, template, context, status=error_status(request, status))


@organiser_required
@require_GET
def round_detail(request, event: Event, number: int):
    """The round page; htmx polls its body while the pairing task runs, and its results every
    10 s once published, so results arriving from the tables show up by themselves."""
    round_ = round_or_404(event, number)
    partial = None
    if request.htmx:
        partial = "results" if request.GET.get("part") == "results" else "body"
    return _render(request, event, round_, partial=partial)


def _after(request, event: Event, round_: Round, message: str):
    messages.success(request, message)
    return redirect("tournaments:organise_round", slug=event.slug, number=round_.number)


def _refused(request, event, round_, error: str):
    """A refused step goes back to the round page with the reason (POST/redirect/GET: a
    reload shows the page again, it does not post the refused step again)."""
    messages.error(request, error)
    return redirect("tournaments:organise_round", slug=event.slug, number=round_.number)


def _round_step(
    request, event: Event, number: int, service, message: str, *, to_event: bool = False
):
    """One step of a round's life (`service`); a refusal goes back to the round page with the
    reason, success says `message` (with the round's number) and goes back to the round page
    (or with `to_event`, to the event's: the round is gone or over)."""
    round_ = round_or_404(event, number)
    outcome = submit(None, service, round_=round_, actor=actor(request))
    if not outcome.ok:
        return _refused(request, event, round_, outcome.error)
    if not to_event:
        return _after(request, event, round_, message % {"n": number})
    messages.success(request, message % {"n": number})
    return redirect("tournaments:organise_event", slug=event.slug)


@organiser_required
@require_POST
def round_retry(request, event: Event, number: int):
    """Build a failed (or draft) round again, e.g. after check-ins changed."""
    return _round_step(
        request, event, number, rounds_service.round_retry, _("Round %(n)s is being built again.")
    )


@organiser_required
@require_POST
def round_swap(request, event: Event, number: int):
    """Swap two players of the draft; the pairing's flags are worked out again."""
    round_ = round_or_404(event, number)
    form = SwapForm(request.POST, players=round_page(round_).swap_choices)
    outcome = submit(form, rounds_service.round_swap, round_=round_, actor=actor(request))
    if outcome.invalid:
        return _render(request, event, round_, swap_form=form, status=400)
    if not outcome.ok:
        return _refused(request, event, round_, outcome.error)
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    names = player_names(event)
    message = _("%(a)s and %(b)s swapped.") % {"a": names[first], "b": names[second]}
    return _after(request, event, round_, message)


@organiser_required
@require_POST
def round_delete(request, event: Event, number: int):
    """Delete a failed or draft round (or one stuck being built); its number is built again
    with the next "Build round"."""
    return _round_step(
        request,
        event,
        number,
        rounds_service.round_delete,
        _("Round %(n)s deleted."),
        to_event=True,
    )


@organiser_required
@require_POST
def round_publish(request, event: Event, number: int):
    """Publish the draft: every table gets its game and its keeper link."""
    return _round_step(
        request, event, number, rounds_service.round_publish, _("Round %(n)s published.")
    )


@organiser_required
@require_http_methods(["GET", "POST"])
def round_close(request, event: Event, number: int):
    """GET asks "Close round n?" (closing is final), a page of its own so that no script is
    needed; POST closes. The service refuses while a table is not settled, and so does the
    question: back to the round page with the reason."""
    if request.method == "GET":
        round_ = round_or_404(event, number)
        refusal = rounds_service.close_refusal(round_)
        if refusal is not None:
            return _refused(request, event, round_, refusal.message)
        context = {"event": event, "round": round_, "last": number >= event.rounds_planned}
        return render(request, CLOSE, context)
    return _round_step(
        request,
        event,
        number,
        rounds_service.round_close,
        _("Round %(n)s closed."),
        to_event=True,
    )


def _table(round_: Round, number: int) -> Table:
    try:
        return table_of(round_, number)
    except Table.DoesNotExist:
        raise Http404 from None


def _table_done(request, event, round_, table: Table, message: str):
    if request.htmx:
        round_.refresh_from_db()
        return _render(request, event, round_, partial="results")
    messages.success(request, message)
    url = reverse("tournaments:organise_round", args=[event.slug, round_.number])
    return redirect(f"{url}#table-{table.number}")


@organiser_required
@require_POST
def result_confirm(request, event: Event, number: int, table_number: int):
    """Confirm a finished table's result for the players (it is then locked); on a disputed
    table, with the organiser's answer (a note the disputing player reads on their phone)."""
    round_ = round_or_404(event, number)
    table = _table(round_, table_number)
    form = NoteForm(request.POST)
    if table.game_id is None:  # a draft's table has no game to confirm yet
        outcome = Outcome(status=400, error=_("The round is not published yet."))
    elif not form.is_valid():
        outcome = Outcome(status=400, error=" ".join(form.errors.get("note", [])))
    else:
        outcome = submit(
            None,
            results_service.result_confirm,
            table=table,
            actor=actor(request),
            note=form.cleaned_data["note"],
        )
    if not outcome.ok:
        if not request.htmx:
            return _refused(request, event, round_, outcome.error)
        return _render(
            request, event, round_, error=outcome.error, status=outcome.status, partial="results"
        )
    message = _("Table %(t)s: result confirmed.") % {"t": table.number}
    return _table_done(request, event, round_, table, message)


@organiser_required
@require_POST
def result_reopen(request, event: Event, number: int, table_number: int):
    """Unlock a confirmed result for a correction; the reason goes into both audit trails."""
    round_ = round_or_404(event, number)
    table = _table(round_, table_number)
    form = ReasonForm(request.POST, prefix=f"t{table.number}")
    partial = "results" if request.htmx else None
    outcome = submit(form, results_service.result_reopen, table=table, actor=actor(request))
    if outcome.invalid:
        forms = {table.number: form}
        return _render(request, event, round_, reopen_forms=forms, status=400, partial=partial)
    if not outcome.ok:
        if not request.htmx:
            return _refused(request, event, round_, outcome.error)
        # Said at the top of the results: the table's form may not be shown any more.
        forms = {table.number: form}
        return _render(
            request,
            event,
            round_,
            reopen_forms=forms,
            error=outcome.error,
            status=outcome.status,
            partial=partial,
        )
    message = _("Table %(t)s: result reopened.") % {"t": table.number}
    return _table_done(request, event, round_, table, message)
