"""One round, from the pairing task to its close: review the draft (seats, first dealers, the
pairing's flags, byes), swap two players, publish; then follow each table's result, confirm
or reopen it, and close the round when every result is confirmed.

While the pairing task runs the page polls itself (htmx; a <noscript> refresh without JS). A
refused action re-renders the page with the service's message and its status (400/409);
confirming or reopening one table answers htmx with the results section only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring.errors import ScoringError
from scoring.models import Game
from scoring.presenters import PlacingView, signed

from .. import organise_presenters as words
from .. import selectors, services
from ..errors import TournamentError
from ..forms import ReasonForm, SwapForm
from ..models import Event, Round, Table
from .organise_access import actor, error_status, organiser_required

ROUND = "tournaments/organise/round.html"


@dataclass(frozen=True)
class SeatView:
    number: int  # 1, 2, 3 in the direction of play
    player_id: int
    name: str
    deals_first: bool
    total: str = ""  # the running total, signed, once the table plays


@dataclass
class TableView:
    table: Table
    seats: list[SeatView]
    flags: list[str]
    result: str
    placings: list[PlacingView]
    can_confirm: bool
    can_reopen: bool
    reopen_form: ReasonForm | None = None


@dataclass
class RoundPage:
    round: Round
    tables: list[TableView]
    byes: list[tuple[str, list[str]]]  # name, flag sentences
    flags: list[str]
    progress: selectors.RoundProgress
    swap_choices: list[tuple[int, str]] = field(default_factory=list)


def round_or_404(event: Event, number: int) -> Round:
    """The event's round by the URL's number (for these pages and the printed ones)."""
    try:
        return selectors.round_by_number(event, number)
    except Round.DoesNotExist:
        raise Http404 from None


def _table_view(table: Table, names: dict[int, str], reopen_forms: dict) -> TableView:
    game = table.game
    finished = game is not None and game.result == Game.Result.FINISHED
    return TableView(
        table=table,
        seats=[
            SeatView(
                seat + 1,
                player.pk,
                player.name,
                seat == table.first_dealer,
                signed(game.totals[seat]) if game and game.totals else "",
            )
            for seat, player in enumerate(table.seats)
        ],
        flags=words.flag_sentences(table.flags, names),
        result=words.result_label(game),
        placings=words.placings(game),
        can_confirm=finished and game.placings is not None,
        can_reopen=game is not None and game.confirmed,
        reopen_form=reopen_forms.get(table.number) or ReasonForm(prefix=f"t{table.number}"),
    )


def round_page(round_: Round, reopen_forms: dict | None = None) -> RoundPage:
    """Everything the round page shows, in a fixed number of queries."""
    names = selectors.player_names(round_.event)
    tables = selectors.round_tables(round_)
    byes = selectors.round_byes(round_)
    views = [_table_view(table, names, reopen_forms or {}) for table in tables]
    choices = [
        (seat.player_id, _("Table %(t)s · %(name)s") % {"t": view.table.number, "name": seat.name})
        for view in views
        for seat in view.seats
    ]
    choices += [(bye.player_id, _("Bye · %(name)s") % {"name": bye.player.name}) for bye in byes]
    return RoundPage(
        round=round_,
        tables=views,
        byes=[(bye.player.name, words.flag_sentences(bye.flags, names)) for bye in byes],
        flags=words.flag_sentences(
            [flag for flag in round_.flags if flag.get("code") != "second_bye"], names
        ),
        progress=selectors.round_progress(round_, tables),
        swap_choices=choices,
    )


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
        "building": round_.status == Round.Status.PENDING,
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


def _refused(request, event, round_, error: TournamentError | ScoringError, **kwargs):
    round_.refresh_from_db()
    return _render(request, event, round_, error=error.message, status=error.status, **kwargs)


def _round_step(request, event: Event, number: int, service, message: str, then=None):
    """One step of a round's life (`service`); a refusal shows the round page with the reason,
    success says `message` (with the round's number) and goes `then` (the round page)."""
    round_ = round_or_404(event, number)
    try:
        service(round_=round_, actor=actor(request))
    except TournamentError as error:
        return _refused(request, event, round_, error)
    if then is None:
        return _after(request, event, round_, message % {"n": number})
    messages.success(request, message % {"n": number})
    return then()


@organiser_required
@require_POST
def round_retry(request, event: Event, number: int):
    """Build a failed (or draft) round again, e.g. after check-ins changed."""
    return _round_step(
        request, event, number, services.round_retry, _("Round %(n)s is being built again.")
    )


@organiser_required
@require_POST
def round_swap(request, event: Event, number: int):
    """Swap two players of the draft; the pairing's flags are worked out again."""
    round_ = round_or_404(event, number)
    form = SwapForm(request.POST, players=round_page(round_).swap_choices)
    if not form.is_valid():
        return _render(request, event, round_, swap_form=form, status=400)
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    try:
        services.round_swap(round_=round_, first=first, second=second, actor=actor(request))
    except TournamentError as error:
        form.add_error(None, error.message)
        return _refused(request, event, round_, error, swap_form=form)
    names = selectors.player_names(event)
    message = _("%(a)s and %(b)s swapped.") % {"a": names[first], "b": names[second]}
    return _after(request, event, round_, message)


@organiser_required
@require_POST
def round_publish(request, event: Event, number: int):
    """Publish the draft: every table gets its game and its keeper link."""
    return _round_step(request, event, number, services.round_publish, _("Round %(n)s published."))


@organiser_required
@require_POST
def round_close(request, event: Event, number: int):
    """Close the round; the service refuses while a result is unconfirmed."""
    return _round_step(
        request,
        event,
        number,
        services.round_close,
        _("Round %(n)s closed."),
        then=lambda: redirect("tournaments:organise_event", slug=event.slug),
    )


def _table(round_: Round, number: int) -> Table:
    try:
        return selectors.table_of(round_, number)
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
    """Confirm a finished table's result for the players (it is then locked)."""
    round_ = round_or_404(event, number)
    table = _table(round_, table_number)
    try:
        if table.game_id is None:
            raise TournamentError(_("The round is not published yet."))
        services.result_confirm(table=table, actor=actor(request))
    except (TournamentError, ScoringError) as error:
        partial = "results" if request.htmx else None
        return _render(
            request, event, round_, error=error.message, status=error.status, partial=partial
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
    if not form.is_valid():
        forms = {table.number: form}
        return _render(request, event, round_, reopen_forms=forms, status=400, partial=partial)
    try:
        services.result_reopen(
            table=table, actor=actor(request), reason=form.cleaned_data["reason"]
        )
    except ScoringError as error:
        # Said at the top of the results: the table's form may not be shown any more.
        forms = {table.number: form}
        return _render(
            request,
            event,
            round_,
            reopen_forms=forms,
            error=error.message,
            status=error.status,
            partial=partial,
        )
    message = _("Table %(t)s: result reopened.") % {"t": table.number}
    return _table_done(request, event, round_, table, message)
