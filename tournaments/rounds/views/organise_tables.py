"""One table of a published round, for the organiser: what to do when a player leaves.

Four plain forms, each asking a reason (rounds.services.walkouts does the work): substitute a
player from the next deal on, finish the game as it stands, void the table, or enter an
adjusted result. A refused action shows the page again with the service's message and its
status (400/409); a done one goes back to this page with a message.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

import engine
from config.forms import Form
from scoring import services as scoring
from scoring.errors import ScoringError
from scoring.models import Game, GameChange
from scoring.names import MAX_NAME
from scoring.presenters import signed
from scoring.presenters.confirmations import board as confirmations_board
from scoring.selectors import game_state, live_entries
from tournaments.common.selectors import round_by_number
from tournaments.common.vocabulary import TableStatus
from tournaments.common.web.access import actor, organiser_required
from tournaments.common.web.forms_flow import submit
from tournaments.models import VOID_POLICIES, Event, Player, Round, Table
from tournaments.rounds.presenters.tables import state_words
from tournaments.rounds.selectors import table_at_time, table_clock, table_of, table_state
from tournaments.rounds.services import walkouts

PAGE = "tournaments/organise/table.html"
MAX_REASON = 500
PLACES = (gettext_lazy("First"), gettext_lazy("Second"), gettext_lazy("Third"))


def _reason_field() -> forms.CharField:
    return forms.CharField(label=_("Why?"), max_length=MAX_REASON)


def _seat_choices(table: Table) -> list[tuple[int, str]]:
    return [
        (seat, _("Seat %(n)s · %(name)s") % {"n": seat + 1, "name": player.name})
        for seat, player in enumerate(table.seats)
    ]


class SubstituteForm(Form):
    """A seat, and who takes it: a player of the event, or a new name entered on the spot."""

    seat = forms.TypedChoiceField(label=gettext_lazy("Seat of the player who left"), coerce=int)
    player = forms.TypedChoiceField(
        label=gettext_lazy("Who takes the seat"), coerce=int, required=False, empty_value=None
    )
    new_name = forms.CharField(
        label=gettext_lazy("Or a new player's name"),
        max_length=MAX_NAME,
        required=False,
        help_text=gettext_lazy("Entered in the event and checked in."),
    )

    def __init__(self, *args, table: Table, candidates: list[Player], **kwargs):
        super().__init__(*args, prefix="sub", **kwargs)
        self.fields["seat"].choices = _seat_choices(table)
        self.fields["player"].choices = [
            ("", _("Choose a player")),
            *((player.pk, player.name) for player in candidates),
        ]
        self.fields["reason"] = _reason_field()

    def substitution(self) -> dict:
        """What walkouts.table_substitute takes from the form (one of a player or a name:
        the service's rule)."""
        data = self.cleaned_data
        chosen = data.get("player")
        return {
            "seat": data["seat"],
            "player": Player.objects.get(pk=chosen) if chosen else None,
            "name": data.get("new_name") or None,
            "reason": data["reason"],
        }


class ReasonOnlyForm(Form):
    def __init__(self, *args, prefix: str, **kwargs):
        super().__init__(*args, prefix=prefix, **kwargs)
        self.fields["reason"] = _reason_field()


class AdjustForm(Form):
    """The placings (seats from first to last) and, optionally, the totals by seat."""

    def __init__(self, *args, table: Table, **kwargs):
        super().__init__(*args, prefix="adj", **kwargs)
        seats = [("", _("Choose a player")), *_seat_choices(table)]
        for index, label in enumerate(PLACES):
            self.fields[f"place_{index}"] = forms.TypedChoiceField(
                label=label, choices=seats, coerce=int
            )
        for seat, player in enumerate(table.seats):
            self.fields[f"total_{seat}"] = forms.IntegerField(
                label=_("Points of %(name)s") % {"name": player.name},
                required=False,
                min_value=-9999,
                max_value=9999,
            )
        self.fields["reason"] = _reason_field()

    @property
    def place_fields(self):
        return [self[f"place_{index}"] for index in range(3)]

    @property
    def total_fields(self):
        return [self[f"total_{seat}"] for seat in range(3)]

    def clean(self):
        data = super().clean()
        placings = [data.get(f"place_{index}") for index in range(3)]
        if None not in placings and len(set(placings)) != 3:
            raise forms.ValidationError(_("Each player takes one place."))
        data["placings"] = placings
        totals = [data.get(f"total_{seat}") for seat in range(3)]
        if any(total is not None for total in totals) and None in totals:
            raise forms.ValidationError(_("Give all three totals, or none."))
        data["totals"] = None if None in totals else totals
        return data

    def adjustment(self) -> dict:
        """What walkouts.table_adjust takes from the form."""
        return {key: self.cleaned_data[key] for key in ("placings", "totals", "reason")}


@dataclass(frozen=True)
class SeatLine:
    seat: int  # 1, 2, 3
    name: str
    withdrawn: bool
    total: str


def _table(event: Event, number: int, table_number: int) -> Table:
    try:
        round_ = round_by_number(event, number)
        return table_of(round_, table_number)
    except (Round.DoesNotExist, Table.DoesNotExist):
        raise Http404 from None


def _finish_preview(table: Table) -> tuple[list[str], str]:
    """The placings "finish as it stands" would give, by name, or why it cannot."""
    game = table.game
    if game is None or game.result != Game.Result.IN_PLAY:
        return [], ""
    try:
        placings = scoring.early_placings(game_state(game))
    except (ScoringError, engine.RuleError) as error:
        return [], getattr(error, "message", str(error))
    names = [player.name for player in table.seats]
    return [names[seat] for seat in placings], ""


def _history(table: Table) -> list[GameChange]:
    walkout = [
        GameChange.Action.SEAT_SUBSTITUTED,
        GameChange.Action.ENDED_EARLY,
        GameChange.Action.VOIDED,
        GameChange.Action.RESULT_ADJUSTED,
    ]
    if table.game_id is None:
        return []
    changes = list(table.game.changes.filter(action__in=walkout).order_by("at", "pk"))
    for change in changes:  # the template says who took whose seat from which deal
        change.substitution = change.action == GameChange.Action.SEAT_SUBSTITUTED
    return changes


def _render(request, event: Event, table: Table, *, error: str = "", status: int = 200, **forms_):
    table = Table.objects.select_related("round__event", "game", "seat_0", "seat_1", "seat_2").get(
        pk=table.pk
    )
    game = table.game
    withdrawn = set(
        event.entries.filter(withdrawn=True, player_id__in=table.seat_ids).values_list(
            "player_id", flat=True
        )
    )
    seats = [
        SeatLine(
            seat + 1,
            player.name,
            player.pk in withdrawn,
            signed(game.totals[seat]) if game is not None and len(game.totals) == 3 else "",
        )
        for seat, player in enumerate(table.seats)
    ]
    candidates = walkouts.substitute_candidates(table)
    deals = len(live_entries(game)) if game is not None else 0
    state = table_state(table, deals)
    preview, preview_error = _finish_preview(table)
    context = {
        "event": event,
        "round": table.round,
        "table": table,
        "status": state.status.value,
        "seats": seats,
        "deals": deals,
        "status_sentence": state_words(state),
        "confirmed": state.status == TableStatus.CONFIRMED,
        "open": table.round.is_published and state.open,
        # the round's time is up and this game still plays: "end as it stands" (clock)
        "at_time": game is not None and game.result == Game.Result.IN_PLAY and table_at_time(table),
        # one slow table's "+5 minutes": while its game plays and the round's clock shows
        "table_clock": game is not None
        and game.result == Game.Result.IN_PLAY
        and table.round.is_published
        and table_clock(table).shown,
        "void_policy": dict(VOID_POLICIES)[event.void_policy],
        "preview": preview,
        "preview_error": preview_error,
        "history": _history(table),
        "board": confirmations_board(game) if game is not None else None,
        "error": error,
        "substitute_form": forms_.get("substitute_form")
        or SubstituteForm(
            table=table,
            candidates=candidates,
            initial={"seat": next((s.seat - 1 for s in seats if s.withdrawn), 0)},
        ),
        "finish_form": forms_.get("finish_form") or ReasonOnlyForm(prefix="fin"),
        "void_form": forms_.get("void_form") or ReasonOnlyForm(prefix="void"),
        "adjust_form": forms_.get("adjust_form") or AdjustForm(table=table),
    }
    return render(request, PAGE, context, status=status)


def _done(request, event: Event, table: Table, message: str):
    messages.success(request, message)
    return redirect(
        "tournaments:organise_table",
        slug=event.slug,
        number=table.round.number,
        table_number=table.number,
    )


@organiser_required
@require_GET
def table_detail(request, event: Event, number: int, table_number: int):
    return _render(request, event, _table(event, number, table_number))


@organiser_required
@require_POST
def table_substitute(request, event: Event, number: int, table_number: int):
    """Another player takes a seat from the next deal on (a new name is entered first)."""
    table = _table(event, number, table_number)
    form = SubstituteForm(
        request.POST, table=table, candidates=walkouts.substitute_candidates(table)
    )
    outcome = submit(
        form,
        walkouts.table_substitute,
        data=form.substitution,
        table=table,
        actor=actor(request),
        by=request.user,
    )
    if not outcome.ok:
        return _render(request, event, table, status=outcome.status, substitute_form=form)
    seat = form.cleaned_data["seat"]
    message = _("%(name)s takes seat %(seat)s from the next deal on.") % {
        "name": outcome.result.seats[seat].name,
        "seat": seat + 1,
    }
    return _done(request, event, table, message)


def _reason_step(request, event, number, table_number, prefix: str, key: str, service, message):
    table = _table(event, number, table_number)
    form = ReasonOnlyForm(request.POST, prefix=prefix)
    outcome = submit(form, service, table=table, actor=actor(request))
    if not outcome.ok:
        return _render(request, event, table, status=outcome.status, **{key: form})
    return _done(request, event, table, message % {"t": table.number})


@organiser_required
@require_POST
def table_finish(request, event: Event, number: int, table_number: int):
    """End the game as it stands and confirm its result."""
    message = _("Table %(t)s: finished as it stood, result confirmed.")
    return _reason_step(
        request, event, number, table_number, "fin", "finish_form", walkouts.table_finish, message
    )


@organiser_required
@require_POST
def table_void(request, event: Event, number: int, table_number: int):
    """Set the table's game aside; its players get the event's void policy."""
    message = _("Table %(t)s is void.")
    return _reason_step(
        request, event, number, table_number, "void", "void_form", walkouts.table_void, message
    )


@organiser_required
@require_POST
def table_adjust(request, event: Event, number: int, table_number: int):
    """The organisers' own result, confirmed and marked adjusted."""
    table = _table(event, number, table_number)
    form = AdjustForm(request.POST, table=table)
    outcome = submit(
        form, walkouts.table_adjust, data=form.adjustment, table=table, actor=actor(request)
    )
    if not outcome.ok:
        return _render(request, event, table, status=outcome.status, adjust_form=form)
    return _done(
        request, event, table, _("Table %(t)s: adjusted result confirmed.") % {"t": table.number}
    )
