"""The referee's help: which card must I return? Which cards may I play, and who takes the
trick? The engine answers; bad card text gets a clear message."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

import engine
from scoring.forms import LegalCardsForm, ReturnCardForm
from scoring.presenters import referee as answers
from scoring.presenters.card_picker import picker
from scoring.presenters.rulesets import ruleset_choices
from scoring.rule_words import rule_text
from scoring.web.pages import game_or_404
from scoring.words import ruleset_label


@require_GET
def referee(request, game_id: int | None = None):
    """Which card must I return? Which cards may I play, and who takes the trick? The engine
    answers; bad card text gets a clear message."""
    game = game_or_404(game_id) if game_id is not None else None
    ruleset_id = game.ruleset if game else request.GET.get("ruleset", "blato")
    ruleset = engine.RULESETS.get(ruleset_id) or engine.RULESETS["blato"]
    ask = request.GET.get("ask")
    return_form = ReturnCardForm(request.GET if ask == "return" else None, prefix="return")
    play_form = LegalCardsForm(
        request.GET if ask == "play" else None, prefix="play", ruleset=ruleset
    )
    return_answer = play_answer = None
    if return_form.is_bound and return_form.is_valid():
        return_answer = answers.return_answer(
            return_form.cleaned_data["hand"], return_form.cleaned_data["given"]
        )
    if play_form.is_bound and play_form.is_valid():
        data = play_form.cleaned_data
        try:
            play_answer = answers.play_answer(
                ruleset, data["contract"], data["hand"], data["trick"]
            )
        except engine.RuleError as error:
            play_form.add_error(None, rule_text(error))
    context = {
        "game": game,
        "ruleset": ruleset,
        "ruleset_name": ruleset_label(ruleset.id),
        "rulesets": ruleset_choices(),
        "return_form": return_form,
        "play_form": play_form,
        "return_answer": return_answer,
        "play_answer": play_answer,
        "pickers": {
            "return_hand": picker(return_form["hand"]),
            "return_given": picker(return_form["given"], single=True),
            "play_hand": picker(play_form["hand"]),
        },
    }
    bad = (return_form.is_bound and return_form.errors) or (play_form.is_bound and play_form.errors)
    return render(request, "scoring/referee.html", context, status=400 if bad else 200)
