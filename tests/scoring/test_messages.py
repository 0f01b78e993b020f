"""The scoring app's errors: a code and params, by kind, worded from one catalogue
(scoring/messages.py) in the language active when read; no HTTP status on them."""

import re
from pathlib import Path

import pytest
from django.utils import translation

import engine
from config.api import domain_status
from scoring import services
from scoring.errors import (
    Conflict,
    DealRejected,
    InvalidInput,
    ScoringError,
    names_alike,
    rules_refuse,
)
from scoring.messages import MESSAGES

SCORING = Path(__file__).resolve().parents[2] / "scoring"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
RAISED = re.compile(r"\b(?:InvalidInput|Conflict|DealRejected|ScoringError)\(\s*\"(\w+)\"")


def sample_params(code: str) -> dict:
    with translation.override("en"):
        names = PLACEHOLDER.findall(str(MESSAGES[code]))
    return {name: f"«{name}»" for name in names}


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_code_reads_in_bulgarian(code):
    error = InvalidInput(code, **sample_params(code))
    with translation.override("en"):
        english = error.message
    with translation.override("bg"):
        bulgarian = error.message
    assert bulgarian != english, code
    assert "%(" not in bulgarian and "%(" not in english
    for value in sample_params(code).values():
        assert value in bulgarian  # every param is shown


def test_the_message_is_worded_when_read_not_when_raised():
    with translation.override("bg"):
        error = Conflict("deal_taken", n=4, hand=3, redeal=False)
    assert (error.code, error.params) == ("deal_taken", {"n": 4, "hand": 3, "redeal": False})
    with translation.override("en"):
        assert error.message == "hand 3 is already recorded with other values"
        assert str(error) == error.message
    with translation.override("bg"):
        assert error.message == "раздаване 3 вече е записано с други стойности"


def test_errors_carry_a_kind_and_no_status():
    kinds = {InvalidInput: "invalid", DealRejected: "rejected", Conflict: "conflict"}
    for cls, kind in kinds.items():
        error = cls("confirmed")
        assert error.kind == kind
        assert not hasattr(error, "status")
    assert [domain_status(cls("confirmed")) for cls in kinds] == [400, 400, 409]


def test_an_unknown_code_is_a_bug_found_at_once():
    with pytest.raises(ValueError):
        Conflict("no_such_code")
    with pytest.raises(ValueError):
        DealRejected("rules_refuse")  # only with the engine's refusal behind it


def test_every_code_raised_in_scoring_is_in_the_catalogue():
    raised = set()
    for path in SCORING.rglob("*.py"):
        raised.update(RAISED.findall(path.read_text()))
    assert raised, "the pattern finds the raise sites"
    assert raised <= set(MESSAGES), raised - set(MESSAGES)


def test_no_service_words_its_own_refusals():
    """Services know neither gettext nor HTTP: the catalogue words their codes."""
    for path in (SCORING / "services").glob("*.py"):
        text = path.read_text()
        assert "gettext" not in text and "status" not in text, path.name


def test_an_engine_refusal_keeps_the_engines_error_and_sentence():
    with pytest.raises(engine.RuleError) as caught:
        engine.replay({"ruleset": "blato", "deals": [{"calls": ["nothing"]}]})
    error = rules_refuse(caught.value)
    assert isinstance(error, DealRejected) and error.code == "rules_refuse"
    assert error.rule is caught.value
    with translation.override("bg"):
        assert error.message == caught.value.message  # the API's contract: the engine's words


@pytest.mark.django_db
def test_a_service_refusal_is_a_code_with_params():
    game = services.game_create(ruleset="blato", players=["Ana", "Boris", "Vera"], first_dealer=0)
    with pytest.raises(Conflict) as caught:
        services.deal_record(game_id=game.pk, number=3, calls=["pass"])
    assert (caught.value.code, caught.value.params) == (
        "deal_not_next",
        {"n": 3, "next": 1, "next_hand": 1},
    )
    with pytest.raises(InvalidInput) as caught:
        services.game_create(ruleset="blato", players=["Ana", "ana", "Vera"])
    assert caught.value.code == "names_same"
    assert caught.value.params == {"first": "Ana", "second": "ana"}


def test_two_names_alike_are_worded_by_how_they_differ():
    assert names_alike("Ana", "Ana").code == "name_twice"
    assert names_alike("Ana", "ANA").params == {"first": "Ana", "second": "ANA"}
    assert isinstance(names_alike("Ana", "ANA"), ScoringError)
