"""What the scoring app tells the rest of the site, without knowing who listens.

`game_confirmed` and `game_reopened` are sent inside the transaction that changes the result,
so what a listener writes (the tournaments app marking the event's standings stale) commits
or rolls back with it; a listener that starts work elsewhere (a Celery task) does so on
commit.
"""

from dataclasses import dataclass

from django.dispatch import Signal

game_confirmed = Signal()  # kwargs: game
game_reopened = Signal()  # kwargs: game
# A new deal was recorded once the game's time was up (Game.time_up_at; inside the deal's
# transaction, the game locked): the game's owner may end the game by its own rule (the
# tournaments app's round clock) and answers whether it did. Listeners must not fail the
# deal: they refuse quietly.
deal_recorded = Signal()  # kwargs: game, number
# Asked, not told: where a game is played, for the heading of its table page. A listener that
# owns the game answers {"event": name, "round": number, "table": number}; else None. Where
# the game plays against a round clock, the answer has its "clock" too: what the page shows
# (status, shown, running, paused, at_time, now, deadline, remaining, left_text, mark).
game_place = Signal()  # kwargs: game
# Asked, not told, by the sheet's poll: the marks of the clocks these games play against (a
# change since the page showed it is news to the page). A listener that owns games answers
# {game id: mark} for those that play against a round clock, in one query; else None.
game_clock_marks = Signal()  # kwargs: game_ids


@dataclass(frozen=True)
class Person:
    """Who a phone has proven to be, as the game's owner knows them: `key` names one person
    for the owner ("entry:17") and is what one identity speaks for; `seat` is their seat at
    this game now (a substitute's seat is the substitute's), None when they do not sit here."""

    key: str
    name: str
    seat: int | None


@dataclass(frozen=True)
class Identity:
    """A game owner's answer about one phone: the person it has proven to be (None: not
    proven), and where a phone proves it (the owner's page, for the words "prove it first")."""

    person: Person | None
    prove_url: str


# Asked, not told: who this phone has proven to be at this game. A listener that owns the
# game reads its own signed cookie among `cookies` and answers an Identity; else None.
seat_identity = Signal()  # kwargs: game, cookies


def identity_at(game, cookies) -> Identity | None:
    """The owner's Identity of the phone whose cookies these are, or None (a casual game)."""
    for _receiver, answer in seat_identity.send(sender=type(game), game=game, cookies=cookies):
        if answer is not None:
            return answer
    return None
