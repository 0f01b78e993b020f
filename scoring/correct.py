"""Correcting a recorded deal from the pages (issue 12, item 3): the keeper's table page
links each row of the score sheet here, the organiser's page each live deal; two phones that
recorded the same deal differently keep "mine" through here too.

Without JavaScript: the form is prefilled with the deal as recorded; a refusal comes back on
the page naming the deal that no longer fits (scoring.rule_words); a correction redirects to
where it came from (POST/redirect/GET). Every change goes through services.deal_correct.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from . import presenters, services
from .errors import ScoringError
from .forms import CorrectForm
from .rule_words import correction_refusal
from .views import _game, _no_store, actor, can_manage, is_keeper

TEMPLATE = "scoring/correct.html"


def _back(request, game) -> tuple[str, str]:
    """Where the page returns to: the organiser's page if it came from there, else the table."""
    source = request.POST.get("back") or request.GET.get("back")
    if source == "manage" and can_manage(request.user, game):
        return "manage", reverse("scoring:manage", args=[game.pk])
    return "table", reverse("scoring:table", args=[game.pk]) + "#sheet-heading"


def _initial(entry) -> dict:
    initial = {"calls": ",".join(entry.calls)}
    for seat, count in enumerate(entry.tricks or []):
        initial[f"tricks_{seat}"] = count
    return initial


@require_http_methods(["GET", "POST"])
def correct(request, game_id: int, number: int):
    game = _game(game_id)
    if not is_keeper(request, game):
        return _no_store(render(request, "scoring/not_keeper.html", {"game": game}, status=403))
    correction = presenters.correction_view(game, number)
    if correction is None:
        raise Http404
    names = list(game.players)
    per_hand = presenters.rules_of(game).tricks_per_hand
    back, back_url = _back(request, game)
    kwargs = {"names": names, "per_hand": per_hand, "choices": correction.choices}
    error, status = "", 200
    if request.method == "POST" and not game.confirmed:
        form = CorrectForm(request.POST, **kwargs)
        if form.is_valid():
            data = form.cleaned_data
            entry = correction.entry
            # Trick winners given for a tie-break stay while the tricks stay as they were.
            kept = entry.last_tricks if data["tricks"] == entry.tricks else None
            try:
                recorded = services.deal_correct(
                    game_id=game.pk,
                    number=number,
                    calls=data["call_list"],
                    tricks=data["tricks"],
                    last_tricks=kept,
                    actor=actor(request),
                )
            except ScoringError as failure:
                error, status = correction_refusal(failure, number, names), failure.status
            else:
                if recorded.created:
                    messages.success(request, _("Deal %(n)s is corrected.") % {"n": number})
                else:
                    messages.info(
                        request, _("Deal %(n)s already had these values.") % {"n": number}
                    )
                return redirect(back_url)
        else:
            status = 400
    else:
        form = CorrectForm(initial=_initial(correction.entry), **kwargs)
    shorts = presenters.short_names(names)
    seats = [{"name": name, "short": short} for name, short in zip(names, shorts, strict=True)]
    context = {
        "game": game,
        "correction": correction,
        "form": form,
        "seat_fields": list(zip(form.seat_fields(), seats, strict=True)),
        "error": error,
        "locked": game.confirmed,
        "can_manage": can_manage(request.user, game),
        "back": back,
        "back_url": back_url,
    }
    if game.confirmed and request.method == "POST":
        status = 409
    return _no_store(render(request, TEMPLATE, context, status=status))
