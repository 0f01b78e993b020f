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

from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
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
#: A table still in play with nothing entered for this long is highlighted: a phone may have
#: died, or the keeper stopped entering (a deal takes a few minutes).
STALE_AFTER = timedelta(minutes=15)


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
    activity: str = ""  # "5 deals · last entry 3 minutes ago", once published
    stale: bool = False  # unfinished, and nothing entered for STALE_AFTER


@dataclass
class RoundPage:
    round: Round
    tables: list[TableView]
    byes: list[tuple[str, list[str]]]  # name, flag sentences
    flags: list[str]
    progress: selectors.RoundProgress
    swap_choices: list[tuple[int, str]] = field(default_factory=list)
    actions: frozenset[str] = frozenset()  # selectors.round_actions: what to offer
    stuck: bool = False  # still being built a minute after it was asked for
    build_error: str = ""  # why a failed build failed, in the reader's language
    settled: str = ""  # "2 of 4 tables confirmed", beside the close button


def round_or_404(event: Event, number: int) -> Round:
    """The event's round by the URL's number (for these pages and the printed ones)."""
    try:
        return selectors.round_by_number(event, number)
    except Round.DoesNotExist:
        raise Http404 from None


def _activity(table: Table, now) -> tuple[str, bool]:
    """A published table's deals so far and when the last came in, and whether it is stale:
    still in play with nothing entered for STALE_AFTER (since publishing, before the first)."""
    game = table.game
    if game is None:
        return "", False
    deals = ngettext("%(n)s deal", "%(n)s deals", table.deals) % {"n": table.deals}
    if table.last_entry is None:
        text = _("%(deals)s · nothing entered yet") % {"deals": deals}
    else:
        ago = timesince(table.last_entry, now, depth=1)
        text = _("%(deals)s · last entry %(ago)s ago") % {"deals": deals, "ago": ago}
    quiet_since = table.last_entry or table.round.published_at or game.created_at
    stale = game.result == Game.Result.IN_PLAY and now - quiet_since > STALE_AFTER
    return text, stale


def _table_view(table: Table, names: dict[int, str], reopen_forms: dict, now) -> TableView:
    game = table.game
    finished = game is not None and game.result == Game.Result.FINISHED
    activity, stale = _activity(table, now)
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
        activity=activity,
        stale=stale,
    )


def round_page(round_: Round, reopen_forms: dict | None = None) -> RoundPage:
    """Everything the round page shows, in a fixed number of queries."""
    names = selectors.player_names(round_.event)
    tables = selectors.round_tables_activity(round_)
    byes = selectors.round_byes(round_)
    now = timezone.now()
    views = [_table_view(table, names, reopen_forms or {}, now) for table in tables]
    progress = selectors.round_progress(round_, tables)
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
        progress=progress,
        swap_choices=choices,
        actions=selectors.round_actions(round_, now),
        stuck=selectors.round_stuck(round_, now),
        build_error=words.build_error(round_) if round_.status == Round.Status.FAILED else "",
        settled=words.settled_label(progress),
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
        # polled while the worker builds it; once stuck the page waits for the organiser
        "building": round_.status == Round.Status.PENDING and not page.stuck,
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


def _refused(request, event, round_, error: TournamentError | ScoringError):
    """A refused step goes back to the round page with the reason (POST/redirect/GET: a
    reload shows the page again, it does not post the refused step again)."""
    messages.error(request, error.message)
    return redirect("tournaments:organise_round", slug=event.slug, number=round_.number)


def _round_step(request, event: Event, number: int, service, message: str, then=None):
    """One step of a round's life (`service`); a refusal goes back to the round page with the
    reason, success says `message` (with the round's number) and goes `then` (the round
    page)."""
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
        return _refused(request, event, round_, error)
    names = selectors.player_names(event)
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
        services.round_delete,
        _("Round %(n)s deleted."),
        then=lambda: redirect("tournaments:organise_event", slug=event.slug),
    )


@organiser_required
@require_POST
def round_publish(request, event: Event, number: int):
    """Publish the draft: every table gets its game and its keeper link."""
    return _round_step(request, event, number, services.round_publish, _("Round %(n)s published."))


@organiser_required
@require_POST
def round_close(request, event: Event, number: int):
    """Close the round; the service refuses while a table is not settled (the page offers
    the button as the next step only once every table is)."""
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
        if not request.htmx:
            return _refused(request, event, round_, error)
        return _render(
            request, event, round_, error=error.message, status=error.status, partial="results"
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
        if not request.htmx:
            return _refused(request, event, round_, error)
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
