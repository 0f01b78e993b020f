"""Who may keep a table's score: the keeper's session, and the organisers.

The holder of a table's secret (its keeper link) keeps the score in a session; the session
stores a digest of the secret it was given, never the secret, so replacing the secret ends
every phone's keeping at once. Keeping is granted in a new session key (a session id planted
before, session fixation, must not gain the table). An organiser allowed to change the game
(Django's ``has_perm("scoring.change_game", game)``) may keep it too. Every change is written
down as done by the organiser's username, or by "table" for the keeper.
"""

from __future__ import annotations

import hashlib
import secrets

from scoring.models import Game

#: Who a keeper's change is written down as, in the game's history.
ACTOR = "table"


def keeper_key(game_id: int) -> str:
    """The session key that holds a keeper's mark for this game."""
    return f"keeper:{game_id}"


def _secret_mark(game: Game) -> str:
    """What a keeper's session holds: a digest of the secret it was given, never the secret.
    Replacing the secret changes the mark, so every phone holding the old one stops keeping."""
    return hashlib.sha256(f"keeper|{game.pk}|{game.secret}".encode()).hexdigest()[:32]


def keep_grant(request, game: Game) -> None:
    """Grant keeping in a new session key: a session id planted before (session fixation)
    must not gain the table. The session's data moves to the new key."""
    request.session.cycle_key()
    request.session[keeper_key(game.pk)] = _secret_mark(game)


def keep_release(request, game: Game) -> None:
    """This phone stops keeping the score: the session forgets the table."""
    request.session.pop(keeper_key(game.pk), None)


def keeps_here(request, game: Game) -> bool:
    """Whether this session was ever granted the table (its mark may be out of date)."""
    return keeper_key(game.pk) in request.session


def kept_games(request, limit: int = 20) -> list[Game]:
    """The games this session keeps now (its mark still the game's), the latest first."""
    prefix = keeper_key(0)[:-1]
    ids = [int(key[len(prefix) :]) for key in request.session.keys() if key.startswith(prefix)]
    games = Game.objects.filter(pk__in=ids).order_by("-updated_at")
    return [game for game in games if is_keeper_mark(request, game)][:limit]


def is_keeper_mark(request, game: Game) -> bool:
    """This session holds the table's current secret (organisers aside)."""
    held = request.session.get(keeper_key(game.pk))
    return isinstance(held, str) and secrets.compare_digest(held, _secret_mark(game))


def is_keeper(request, game: Game) -> bool:
    """The holder of the table's current secret, or an organiser allowed to change the game."""
    return is_keeper_mark(request, game) or can_manage(request.user, game)


def can_manage(user, game: Game) -> bool:
    """An organiser of the game's event (or a superuser): may reopen, replace the secret."""
    return user.is_authenticated and user.has_perm("scoring.change_game", game)


def actor(request) -> str:
    """Who a change is written down as: the organiser's username, or "table" for the keeper."""
    return request.user.get_username() if request.user.is_authenticated else ACTOR
