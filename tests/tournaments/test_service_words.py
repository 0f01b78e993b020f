"""Every refusal of the services is in the page's language, never an English sentence on a
Bulgarian page. Each is raised under Bulgarian and must not come back in English; the
English wording is checked once too, so the test knows which it got."""

import pytest
from django.utils import translation

from scoring import services as scoring
from scoring.errors import ScoringError
from tournaments.common.errors import TournamentError
from tournaments.events.services.event import club_create, event_create, event_update
from tournaments.events.services.registration import players_register
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def club():
    return club_create(name="Sofia Blato Club")


def closed_event():
    event = event_create(club=club(), name="Over")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)
    event.refresh_from_db()
    return event


def open_event():
    return event_create(club=club(), name="Friday")


REFUSALS = {
    "no name": (
        lambda: players_register(event=open_event(), names=[" "]),
        "a player needs a name",
    ),
    "a long name": (
        lambda: players_register(event=open_event(), names=["x" * 81]),
        "a name has at most 80 characters",
    ),
    "a name twice": (
        lambda: players_register(event=open_event(), names=["Ana", "ana"]),
        "is in the list twice",
    ),
    "a closed event": (
        lambda: players_register(event=closed_event(), names=["Ana"]),
        "the event is closed",
    ),
    "a pairing mode": (
        lambda: event_create(club=club(), name="X", pairing_modes=["x"]),
        "unknown pairing mode",
    ),
    "placing points": (
        lambda: event_create(club=club(), name="X", placing_points=[0, 2, 1]),
        "A lower place cannot get more placing points",
    ),
    "a tie-break twice": (
        lambda: event_create(club=club(), name="X", precedence=["score", "score"]),
        "A tie-break is chosen twice",
    ),
    "the lot first": (
        lambda: event_create(club=club(), name="X", precedence=["lot", "score"]),
        "The drawing of lots must be the last tie-break",
    ),
    "no event name": (
        lambda: event_update(
            event=open_event(),
            name=" ",
            rounds_planned=4,
            pairing_modes=["swiss"],
            precedence=[],
            placing_points=[],
            bye_policy="second",
        ),
        "an event needs a name",
    ),
    "a game's names": (
        lambda: scoring.game_create(ruleset="blato", players=["Ana", "ANA", "Bo"]),
        "are the same name",
    ),
    "a game's name twice": (
        lambda: scoring.game_create(ruleset="blato", players=["Ana", "Ana", "Bo"]),
        "is written twice",
    ),
    "a game's empty name": (
        lambda: scoring.game_create(ruleset="blato", players=["Ana", "", "B"]),
        "each player needs a name",
    ),
    "a game's long name": (
        lambda: scoring.game_create(ruleset="blato", players=["Ana", "B" * 81, "C"]),
        "a name has at most 80 characters",
    ),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_a_refusal_is_worded_in_the_pages_language(case):
    make, english = REFUSALS[case]
    with translation.override("en"), pytest.raises((TournamentError, ScoringError)) as error:
        make()
    with translation.override("en"):  # worded when read, in the language active then
        assert english in error.value.message
    with translation.override("bg"), pytest.raises((TournamentError, ScoringError)) as error:
        make()
    with translation.override("bg"):
        bulgarian = error.value.message
    assert english not in bulgarian
    assert any("а" <= char <= "я" for char in bulgarian.lower()), bulgarian


def test_an_organiser_page_words_the_engines_refusal_by_its_code():
    """The organiser pages' one form flow: a refusal the rules engine is behind is worded from
    its code in the page's language, not with the engine's English sentence inside."""
    from tournaments.common.web.forms_flow import submit

    with translation.override("bg"):
        outcome = submit(None, event_create, club=club(), name="Friday", ruleset="belot")
    assert outcome.status == 400
    assert outcome.error == 'Сайтът не познава игра "belot".'
