"""A new game (from the form, or again with the same players after a casual game ends), the
games this phone keeps, and the keeper's link that hands keeping a score to another phone."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import services, throttle
from scoring.errors import ScoringError
from scoring.forms import GameNewForm
from scoring.names import near_pairs
from scoring.presenters.place import again_dealer, kept_game, place_of
from scoring.presenters.rulesets import ruleset_choices
from scoring.rule_words import refusal
from scoring.web.keeper import actor, is_keeper, keep_grant, kept_games
from scoring.web.pages import game_or_404, no_store, not_keeper, submit

#: The fields of the new game form under "More options", opened when one of them is wrong.
OPTIONS = ("hands", "goal", "pass_turns", "exchange_order")


@require_http_methods(["GET", "POST"])
def game_new(request):
    form = GameNewForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid() and not throttle.game_creation_allowed(request):
            status = 429
            form.add_error(None, _("Too many new games from here just now. Wait ten minutes."))
        else:
            submitted = submit(
                form,
                lambda data: services.game_create(
                    ruleset=data["ruleset"],
                    players=data["players"],
                    options=data["options"],
                    first_dealer=data["dealer"],
                    actor=actor(request),
                ),
            )
            if submitted.ok:
                game = submitted.result
                keep_grant(request, game)
                for name, other in near_pairs(game.players, []):
                    messages.warning(
                        request,
                        _("“%(name)s” and “%(other)s” look alike: are they two different players?")
                        % {"name": name, "other": other},
                    )
                return redirect("scoring:table", game_id=game.id)
            status = submitted.status
    context = {
        "form": form,
        "rulesets": list(zip(form["ruleset"], ruleset_choices(), strict=True)),
        "player_fields": [form[f"player_{seat}"] for seat in range(3)],
        "options_open": any(form[name].errors for name in OPTIONS),
        "my_games": [kept_game(game) for game in kept_games(request) if place_of(game) is None],
    }
    return render(request, "scoring/game_new.html", context, status=status)


@require_POST
def game_again(request, game_id: int):
    """A new game of the same players, ruleset and options, the first deal passed on to the
    next seat: one tap for the keeper of a casual game that has ended."""
    game = game_or_404(game_id)
    if not is_keeper(request, game) or place_of(game) is not None:
        return not_keeper(request, game)
    if not throttle.game_creation_allowed(request):
        messages.error(request, _("Too many new games from here just now. Wait ten minutes."))
        return redirect("scoring:table", game_id=game.id)
    try:
        again = services.game_create(
            ruleset=game.ruleset,
            players=list(game.players),
            options=game.options,
            first_dealer=again_dealer(game),
            actor=actor(request),
        )
    except ScoringError as error:
        messages.error(request, refusal(error, list(game.players)))
        return redirect("scoring:table", game_id=game.id)
    keep_grant(request, again)
    return redirect("scoring:table", game_id=again.id)


@require_GET
def keep(request, game_id: int, secret: str):
    """The keeper's link: grants the right to this session, then leaves the secret behind."""
    game = game_or_404(game_id)
    right = services.secret_matches(game, secret)
    verdict = throttle.judge_secret(request, game.pk, right=right, via="keeper link")
    if verdict is throttle.Verdict.RIGHT:
        keep_grant(request, game)
        response = redirect("scoring:table", game_id=game.id)
    else:
        blocked = verdict is throttle.Verdict.BLOCKED
        context = {"game": game, "blocked": blocked}
        status = 429 if blocked else 403
        response = render(request, "scoring/keep_denied.html", context, status=status)
    response["Referrer-Policy"] = "no-referrer"
    return no_store(response)
