"""Every refusal of the tournaments app has its words in English and Bulgarian:
the catalogue (tournaments.common.messages) is the one place, and each code raised anywhere in
the app is in it."""

import ast
from pathlib import Path

import pytest
from django.utils import translation

import tournaments
from tournaments import standings
from tournaments.common import errors
from tournaments.common.messages import MESSAGES, STANDINGS_CODES, render, standings_code
from tournaments.standings.errors import MESSAGES as STANDINGS_MESSAGES


class Params(dict):
    """A value for every parameter a message may name: numbers where a plural counts."""

    def __missing__(self, key):
        return f"<{key}>"


PARAMS = Params(n=3, max=80, line=4, t=2, round=2)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_code_reads_in_bulgarian_with_its_values_filled_in(code):
    with translation.override("en"):
        english = render(code, PARAMS)
    with translation.override("bg"):
        bulgarian = render(code, PARAMS)
    assert "%(" not in english and "%(" not in bulgarian, bulgarian
    assert bulgarian != english
    assert any("а" <= char <= "я" for char in bulgarian.lower()), bulgarian


def test_an_error_is_worded_when_read_in_the_language_active_then():
    error = errors.NotAllowed("too_few_players", n=2)
    assert (error.code, error.params, error.kind) == ("too_few_players", {"n": 2}, "not_allowed")
    with translation.override("en"):
        assert error.message == "only 2 players are checked in; a round needs at least 3"
    with translation.override("bg"):
        assert error.message != "only 2 players are checked in; a round needs at least 3"
    assert errors.TournamentError("event_closed").kind == "invalid"


def _raised_codes() -> set[tuple[str, str]]:
    """(module, code) of every error made with a literal code in the app's non-view code."""
    root = Path(tournaments.__file__).parent
    classes = {"TournamentError", "NotAllowed"}
    found = set()
    for path in root.rglob("*.py"):
        if {"views", "migrations", "pairing", "standings"} & set(path.relative_to(root).parts):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) in classes
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add((str(path.relative_to(root)), node.args[0].value))
    return found


def test_every_code_raised_is_in_the_catalogue():
    raised = _raised_codes()
    assert len(raised) > 30  # the services, walkouts, csv_import, event_settings
    assert {code for _module, code in raised} - set(MESSAGES) == set()


def test_the_standings_refusals_an_organiser_can_cause_are_worded_by_code():
    assert STANDINGS_CODES <= set(STANDINGS_MESSAGES)
    assert STANDINGS_CODES <= set(MESSAGES)
    with pytest.raises(standings.StandingsConfigError) as caught:
        standings.Config(precedence=("lot", "score"))
    assert standings_code(caught.value) == ("lot_not_last", {})
    with translation.override("en"):
        assert render(*standings_code(caught.value)) == (
            "The drawing of lots must be the last tie-break: it separates everyone."
        )


def test_a_standings_refusal_no_organiser_causes_keeps_the_standings_words():
    with pytest.raises(standings.StandingsConfigError) as caught:
        standings.Config(seed="x")
    assert standings_code(caught.value) == (
        "standings_refused",
        {"why": "seed must be an int, not 'x'"},
    )
