"""A new game, and its table's secret."""

from __future__ import annotations

import secrets

from django.db import transaction

import engine
from scoring.errors import InvalidInput, rules_refuse
from scoring.models import Game, GameChange
from scoring.services.base import apply, clean_players, locked, log


def game_create(
    *,
    ruleset: object,
    players: object,
    options: object = None,
    first_dealer: object = None,
    actor: str = "",
) -> Game:
    """A new game; the first dealer is drawn at random when not chosen."""
    names = clean_players(players)
    if options is None:
        options = {}
    if first_dealer is None:
        first_dealer = secrets.randbelow(3)
    record = {"ruleset": ruleset, "options": options, "first_dealer": first_dealer, "deals": []}
    try:
        state = engine.replay(record)
    except engine.RuleError as error:
        raise rules_refuse(error, InvalidInput) from None
    with transaction.atomic():
        game = Game(ruleset=ruleset, options=options, players=names, first_dealer=first_dealer)
        apply(game, state)
        game.save()
        log(game, GameChange.Action.CREATED, actor, data={"players": names})
    return game


@transaction.atomic
def secret_replace(*, game_id: int, actor: str, reason: str = "") -> Game:
    """A new table secret; the old one stops working at once. The secret is never logged."""
    game = locked(game_id)
    game.secret = secrets.token_urlsafe(32)
    game.save(update_fields=["secret", "updated_at"])
    log(game, GameChange.Action.SECRET_REPLACED, actor, reason=reason)
    return game


def secret_matches(game: Game, offered: object) -> bool:
    """Constant-time comparison, so timing reveals nothing about the secret."""
    return isinstance(offered, str) and secrets.compare_digest(
        offered.encode("utf-8", "surrogatepass"), game.secret.encode()
    )
