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
from django.utils.translation import gettext_lazy, ngettext
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
from tournaments.events.services.registration import players_register
from tournaments.models import VOID_POLICIES, Event, Player, Round, Table
from tournaments.rounds.selectors import table_of
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

    def clean(self):
        data = super().clean()
        data["new_name"] = " ".join(data.get("new_name", "").split())
        if bool(data.get("player")) == bool(data["new_name"]):
            raise forms.ValidationError(_("Choose a player or type a new name (one of them)."))
        return data


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


def _status_sentence(table: Table, status: str, deals: int) -> str:
    """The table's state (walkouts.table_status) in a sentence, and whether it ended early."""
    if status == TableStatus.PLAYING:
        sentence = ngettext(
            "Playing: %(n)s deal entered.", "Playing: %(n)s deals entered.", deals
        ) % {"n": deals}
    else:
        sentence = {
            TableStatus.FINISHED: _("Finished, waiting for confirmation."),
            TableStatus.CONFIRMED: _("Confirmed."),
            TableStatus.ADJUSTED: _("Adjusted result, confirmed."),
            TableStatus.VOID: _("Void: the game is set aside."),
        }.get(status, "")
    if table.outcome == Table.Outcome.ENDED_EARLY:
        sentence += " " + _("Ended as it stood.")
    return sentence


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
    status_code = walkouts.table_status(table)
    deals = len(live_entries(game)) if game is not None else 0
    preview, preview_error = _finish_preview(table)
    context = {
        "event": event,
        "round": table.round,
        "table": table,
        "status": status_code,
        "seats": seats,
        "deals": deals,
        "status_sentence": _status_sentence(table, status_code, deals),
        "confirmed": status_code == TableStatus.CONFIRMED,
        "open": table.round.is_published
        and game is not None
        and status_code in (TableStatus.PLAYING, TableStatus.FINISHED),
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


def _substitute(*, table: Table, seat: int, player, new_name: str, reason: str, actor: str, by):
    """The substitute form's writes: a new name is entered (checked in) first, then takes
    the seat (walkouts.table_substitute). Returns the player who sits down."""
    if new_name:
        entry = players_register(
            event=table.round.event, names=[new_name], checked_in=True, actor=actor, by=by
        )[0]
        sitting = entry.player
    else:
        sitting = Player.objects.get(pk=player)
    walkouts.table_substitute(table=table, seat=seat, player=sitting, reason=reason, actor=actor)
    return sitting


@organiser_required
@require_POST
def table_substitute(request, event: Event, number: int, table_number: int):
    """Another player takes a seat from the next deal on (a new name is entered first)."""
    table = _table(event, number, table_number)
    form = SubstituteForm(
        request.POST, table=table, candidates=walkouts.substitute_candidates(table)
    )
    outcome = submit(form, _substitute, table=table, actor=actor(request), by=request.user)
    if not outcome.ok:
        return _render(request, event, table, status=outcome.status, substitute_form=form)
    message = _("%(name)s takes seat %(seat)s from the next deal on.") % {
        "name": outcome.result.name,
        "seat": form.cleaned_data["seat"] + 1,
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
