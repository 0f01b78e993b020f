"""Slowing down whoever guesses table secrets or floods the site with new games.

Wrong secrets. A secret has 256 bits, so guessing cannot succeed; the point is to notice and
stop a client that tries (a script walking the game ids, a leaked half-link), without letting
that client lock anyone else out. So:

- a RIGHT secret is always accepted, whatever came before (``judge_secret``): guessing cannot
  find one, so letting it through teaches a guesser nothing, and a blocked keeper would lose
  the table's results;
- wrong secrets are counted per client address *and game* (20 in 10 minutes) and per client
  address over all games (100 in 10 minutes, a script walking the ids); past either limit the
  wrong guesses of that address (for that game, or for all) answer 429 instead of 403, and only
  the first ones are written to the log, so a flood cannot fill it.

The client's address is config.client_ip's (the one rule django-axes uses too): behind our
nginx, the address nginx saw; never a header the client chose. A club's phones share one
address behind the venue's router, hence the per-game count and the generous limits.

New games (``game_creation_allowed``): anyone may start a game, so a script could fill the
database (the probe made 300 in 0.8 s). Budgets per 10 minutes: 60 per client address (a
club's 30 phones behind one router start a game or two each per round; 60 leaves room for a
restart of every table) and 20 per browser session (one phone or laptop setting up every table
of a club night stays under it; a script that keeps its cookie does not). The JSON API has no
session, so only the address budget applies to it. The machine itself (a loopback address:
the operator's scripts, the test client) is not limited; behind our nginx no visitor has one.
"""

from __future__ import annotations

import enum
import logging
import time

from config.client_ip import client_address
from config.throttle import Throttle, is_loopback

__all__ = [
    "ADDRESS_FAILURES_ALLOWED",
    "FAILURES_ALLOWED",
    "GAMES_PER_ADDRESS",
    "GAMES_PER_SESSION",
    "GAMES_WINDOW_SECONDS",
    "Verdict",
    "WINDOW_SECONDS",
    "client_address",
    "game_creation_allowed",
    "judge_secret",
    "secret_blocked",
    "secret_failed",
]

log = logging.getLogger("scoring.secrets")
games_log = logging.getLogger("scoring.throttle")

#: Wrong secrets for one game from one address within the window.
FAILURES_ALLOWED = 20
#: Wrong secrets for any games from one address within the window.
ADDRESS_FAILURES_ALLOWED = 100
WINDOW_SECONDS = 600
SECRETS = Throttle(
    "secret-failures", WINDOW_SECONDS, address=ADDRESS_FAILURES_ALLOWED, game=FAILURES_ALLOWED
)

GAMES_PER_ADDRESS = 60
GAMES_PER_SESSION = 20
GAMES_WINDOW_SECONDS = 600
NEW_GAMES = Throttle("games-created", GAMES_WINDOW_SECONDS, address=GAMES_PER_ADDRESS)
_SESSION_GAMES = "games-created"


class Verdict(enum.Enum):
    RIGHT = "right"  # grant the rights
    WRONG = "wrong"  # 403: counted and logged
    BLOCKED = "blocked"  # 429: too many wrong ones from this address


def secret_blocked(request, game_id: int | None = None) -> bool:
    """Whether a WRONG secret from this client now answers 429 (for this game, if given).
    Ask it only once the secret is known to be wrong: a right one is never blocked."""
    address = client_address(request)
    game = (address, game_id) if game_id is not None else None
    return SECRETS.blocked(address=address, game=game)


def secret_failed(request, game_id: int, via: str) -> None:
    """Count a wrong secret; log it while under the limits, and once more when one is hit."""
    address = client_address(request)
    counted = SECRETS.count(address=address, game=(address, game_id))
    if counted.within:
        log.warning(
            "wrong table secret for game %s via %s from %s (%s for this game, %s in all in %ss)",
            game_id,
            via,
            address,
            counted["game"],
            counted["address"],
            WINDOW_SECONDS,
        )


def judge_secret(request, game_id: int, *, right: bool, via: str) -> Verdict:
    """The one sequence for every secret check (keeper links, API tokens): a right secret
    passes; a wrong one is refused (403), or blocked (429) once its address is over a limit."""
    if right:
        return Verdict.RIGHT
    if secret_blocked(request, game_id):
        return Verdict.BLOCKED
    secret_failed(request, game_id, via)
    return Verdict.WRONG


def game_creation_allowed(request, *, session: bool = True) -> bool:
    """Count a new game for this client; False once its address or session is over budget
    (the game must then not be created). `session=False` for the JSON API (no cookies)."""
    address = client_address(request)
    if is_loopback(address):
        return True
    now = time.time()
    if session:
        recent = [
            stamp
            for stamp in request.session.get(_SESSION_GAMES, [])
            if isinstance(stamp, int | float) and now - stamp < GAMES_WINDOW_SECONDS
        ]
        if len(recent) >= GAMES_PER_SESSION:
            return False
    created = NEW_GAMES.count(address=address)
    if not created.within:
        if created.just_past:  # once per window, not once per request
            games_log.warning(
                "new games refused from %s: over %s in %ss",
                address,
                GAMES_PER_ADDRESS,
                GAMES_WINDOW_SECONDS,
            )
        return False
    if session:
        request.session[_SESSION_GAMES] = [*recent, now]
    return True
