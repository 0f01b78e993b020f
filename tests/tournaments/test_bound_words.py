"""The draft's line of how many rounds can still follow with nobody meeting twice, for a round
that follows no plan (docs/rounds.md; the note common.bridge.ROUNDS_BOUND, pairing.outlook),
in English and Bulgarian."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.common.bridge import PLAN_ROUNDS, ROUNDS_BOUND
from tournaments.rounds.presenters.flags import flag_sentences, plan_line

NAMES = {4: "Ivan Petrov", 9: "Ана"}


def bound(amount: int, player: int | None = 4, left: int = 0) -> dict:
    players = [] if player is None else [player]
    return {"code": ROUNDS_BOUND, "amount": amount, "players": players, "left": left}


@pytest.mark.parametrize(
    "flag, said",
    [
        (
            bound(5, left=8),
            "At most 4 more rounds can follow with nobody meeting twice and every rule kept. "
            "Ivan Petrov has 8 players left to meet.",
        ),
        (
            bound(2, left=3),
            "At most 1 more round can follow with nobody meeting twice and every rule kept. "
            "Ivan Petrov has 3 players left to meet.",
        ),
        (
            bound(1, left=1),
            "No more rounds can follow with nobody meeting twice and every rule kept. "
            "Ivan Petrov has 1 player left to meet.",
        ),
        (
            bound(1, left=0),
            "No more rounds can follow with nobody meeting twice and every rule kept. "
            "Ivan Petrov has nobody left to meet.",
        ),
        (  # byes: more rounds than the player's people allow, by sitting out
            bound(2, left=0),
            "At most 1 more round can follow with nobody meeting twice and every rule kept. "
            "Ivan Petrov has nobody left to meet, and would have to sit out every round.",
        ),
        (
            bound(4, left=2),
            "At most 3 more rounds can follow with nobody meeting twice and every rule kept. "
            "Ivan Petrov has 2 players left to meet, and would have to sit out the other rounds.",
        ),
        (
            bound(0, player=None),
            "No more rounds can pass with nobody meeting twice: this draft already seats "
            "together players who have met or must be kept apart.",
        ),
    ],
)
def test_the_bound_in_words(flag, said):
    with translation.override("en"):
        assert plan_line([flag], NAMES) == said


def test_the_plan_s_exact_figure_comes_first_and_no_note_says_nothing():
    plan = {"code": PLAN_ROUNDS, "amount": 3}
    with translation.override("en"):
        assert plan_line([plan, bound(5, left=8)], NAMES).startswith("The plan gives 3 rounds")
        assert plan_line([], NAMES) == ""
        assert plan_line([{"code": ROUNDS_BOUND, "amount": "x"}], NAMES) == ""


def test_the_note_is_no_flag_to_look_at():
    assert flag_sentences([bound(5, left=8)], NAMES) == []


@pytest.mark.parametrize("flag", [bound(5, 9, 8), bound(2, 9, 1), bound(1, 9, 0), bound(0, None)])
def test_the_bound_in_bulgarian(flag):
    with translation.override("en"):
        english = plan_line([flag], NAMES)
    with translation.override("bg"):
        bulgarian = plan_line([flag], NAMES)
    assert bulgarian and bulgarian != english
    assert "round" not in bulgarian and "meet" not in bulgarian
    if flag["players"]:
        assert "Ана" in bulgarian
