"""Correcting a recorded deal from the pages: the keeper's table page links each row of the
score sheet here, the organiser's page each live deal; two phones that recorded the same deal
differently keep "mine" through here too. The deal is named as the players count hands
(presenters.numbering), and its tricks are tapped on the same pad as a hand's entry.

Without JavaScript: the form is prefilled with the deal as recorded; a refusal comes back on
the page naming the deal that no longer fits (scoring.rule_words); a correction redirects to
where it came from (POST/redirect/GET). Every change goes through services.deal_correct.

The form carries the game's version it was shown at: when another phone changed the deal
since, nothing is saved and the page shows both, the deal as recorded now and as entered
here, with the form ready to save this one over it (now knowingly: with the new version).
Undone since, the table page shows the two instead, where "keep mine" records it anew.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring import selectors, services
from scoring.forms import COUNTED_SEAT, CorrectForm
from scoring.presenters.corrections import clash_view, correction_view
from scoring.rule_words import correction_refusal
from scoring.web.keeper import actor, can_manage, is_keeper
from scoring.web.pages import game_or_404, no_store, not_keeper, submit
from scoring.web.table_page import render_table
from scoring.words import short_names

TEMPLATE = "scoring/correct.html"


def _back(request, game) -> tuple[str, str]:
    """Where the page returns to: the organiser's page if it came from there, else the table."""
    source = request.POST.get("back") or request.GET.get("back")
    if source == "manage" and can_manage(request.user, game):
        return "manage", reverse("scoring:manage", args=[game.pk])
    return "table", reverse("scoring:table", args=[game.pk]) + "#sheet-heading"


def _initial(entry) -> dict:
    """The deal as recorded: its calls, and its tricks tapped on the pad; the last seat's
    count is left to be worked out as the rest (the page's script fills it in, so another
    chip changes it too)."""
    initial = {"calls": ",".join(entry.calls)}
    for seat, count in enumerate(entry.tricks or []):
        if seat != COUNTED_SEAT:
            initial[f"tricks_{seat}"] = count
    return initial


@require_http_methods(["GET", "POST"])
def correct(request, game_id: int, number: int):
    game = game_or_404(game_id)
    if not is_keeper(request, game):
        return not_keeper(request, game)
    correction = correction_view(game, number)
    if correction is None:
        raise Http404
    names = list(game.players)
    per_hand = selectors.rules_of(game).tricks_per_hand
    back, back_url = _back(request, game)
    kwargs = {"names": names, "per_hand": per_hand, "choices": correction.choices}
    error, status, clash = "", 200, None
    if request.method == "POST" and not game.confirmed:
        form = CorrectForm(request.POST, **kwargs)
        entry = correction.entry
        submitted = submit(
            form,
            lambda data: services.deal_correct(
                game_id=game.pk,
                number=number,
                calls=data["call_list"],
                tricks=data["tricks"],
                # Trick winners given for a tie-break stay while the tricks stay as they were.
                last_tricks=entry.last_tricks if data["tricks"] == entry.tricks else None,
                actor=actor(request),
                version=data["version"],
            ),
            names=names,
            words=lambda failure, names: correction_refusal(
                failure, number, names, correction.entries
            ),
            on_form=False,
        )
        if submitted.ok:
            said = {"deal": correction.title}
            if submitted.result.created:
                messages.success(request, _("%(deal)s is corrected.") % said)
            else:
                messages.info(request, _("%(deal)s already had these values.") % said)
            return redirect(back_url)
        error, status = submitted.message, submitted.status
        if submitted.refused is not None and submitted.refused.code == "deal_stale":
            game.refresh_from_db()
            data = form.cleaned_data
            correction = correction_view(game, number)
            clash = clash_view(
                game, number, data["call_list"], data.get("tricks"), undone=correction is None
            )
            if correction is None:
                return render_table(request, game, keeper=True, clash=clash, status=status)
    else:
        form = CorrectForm(initial=_initial(correction.entry), **kwargs)
    shorts = short_names(names)
    targets = [target for _name, target in correction.targets]
    seats = [
        {"name": name, "short": short, "target": target}
        for name, short, target in zip(names, shorts, targets, strict=True)
    ]
    context = {
        "game": game,
        "clash": clash,
        "correction": correction,
        "form": form,
        "seat_fields": list(zip(form.seat_fields(), seats, strict=True)),
        "error": error,
        "locked": game.confirmed,
        "can_manage": can_manage(request.user, game),
        "back": back,
        "back_url": back_url,
        "per_hand": per_hand,
    }
    if game.confirmed and request.method == "POST":
        status = 409
    return no_store(render(request, TEMPLATE, context, status=status))
