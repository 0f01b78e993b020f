"""Undoing the last deal, after one confirmation step (this page)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring import selectors, services
from scoring.forms import UndoForm
from scoring.messages import render as render_message
from scoring.presenters.numbering import deal_name, deal_title
from scoring.presenters.table import undo_summary
from scoring.web.keeper import actor, is_keeper
from scoring.web.pages import game_or_404, no_store, not_keeper, submit


def _int(value: object) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@require_http_methods(["GET", "POST"])
def undo(request, game_id: int):
    """Undo the last deal, after one confirmation step (this page).

    The confirmation is bound to the deal it names and the game's version when the table
    page offered it (?deal=&v=, then hidden fields): Back after an undo, a second tap, or a
    page left open while another phone changed that deal finds it out of date (the one rule
    of services.base.not_stale) and undoes nothing. The page is never stored (no-store), and a
    successful undo redirects to the table (POST/redirect/GET)."""
    game = game_or_404(game_id)
    if not is_keeper(request, game):
        return not_keeper(request, game)
    entries = selectors.live_entries(game)
    last = len(entries)
    error, status, stale = "", 200, False
    if request.method == "POST":
        form = UndoForm(request.POST)
        submitted = submit(
            form,
            lambda asked: services.deal_undo(
                game_id=game.id,
                number=asked["deal"],
                version=asked["version"],
                actor=actor(request),
            ),
            on_form=False,
        )
        if submitted.ok:
            title = deal_title(entries, form.cleaned_data["deal"])
            messages.success(request, _("%(deal)s is undone.") % {"deal": title})
            return redirect("scoring:table", game_id=game.id)
        error = submitted.message or _("Nothing to undo.")
        status, stale = submitted.status, True
    else:
        asked_deal, asked_version = _int(request.GET.get("deal")), _int(request.GET.get("v"))
        if (asked_deal, asked_version) != (None, None) and (
            asked_deal != last
            or asked_version is None
            or selectors.deal_changed_since(game, asked_deal, asked_version)
        ):
            stale, status = True, 409
            named = selectors.hand_params(entries, asked_deal if asked_deal is not None else last)
            params = {**named, "yours": asked_version, "current": game.version}
            error = render_message("undo_stale", params)
    context = {
        "game": game,
        "form": UndoForm(initial={"deal": last, "version": game.version}),
        "summary": undo_summary(game, entries),
        "number": last,
        "deal_name": deal_name(entries, last),
        "locked": game.confirmed,
        "stale": stale,
        "error": error,
    }
    return no_store(render(request, "scoring/undo.html", context, status=status))
