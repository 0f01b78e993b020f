"""The journeys' automatic checks (tests/e2e/every_screen.py) fail on a broken screen a test
passes through without naming it, and check each state once."""

from __future__ import annotations

import pytest

from . import checks, every_screen
from .test_checkers import DUPLICATED_LANDMARK, GOOD, INVALID_ARIA_ATTRIBUTE, serve

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_broken_screen_passed_through_fails_the_journey(live_server, phone):
    # A state of its own (an id no other screen has): not one the run has already checked.
    broken = GOOD + DUPLICATED_LANDMARK + INVALID_ARIA_ATTRIBUTE + '<p id="broken">Broken</p>'
    serve(phone, live_server, broken)
    with pytest.raises(AssertionError) as failure:
        phone.get_by_role("link", name="New game").click()  # the journey moves on
    said = str(failure.value)
    assert "a screen the journey passed through" in said
    assert "landmark-unique" in said and "aria-valid-attr" in said
    # Broken on purpose: its HTML is not for the session's Nu run (its state stays seen, so
    # putting the phone away does not check it again).
    for key, (url, _html) in list(checks.SEEN_HTML.items()):
        if "/checkers-test/" in url:
            del checks.SEEN_HTML[key]


def test_each_state_is_checked_once_and_an_unbroken_one_passes(live_server, phone):
    serve(phone, live_server, GOOD + '<p id="a-state-of-its-own">Fine</p>')
    before = every_screen.COUNTS["states"]
    phone.get_by_role("link", name="Events").hover()  # not an action that changes the screen
    phone.reload()  # checks the page before reloading it
    phone.reload()  # the same state: not again
    assert every_screen.COUNTS["states"] == before + 1


def test_paused_leaves_a_broken_screen_alone(live_server, phone):
    with every_screen.paused():
        serve(phone, live_server, GOOD + DUPLICATED_LANDMARK)
        phone.reload()
        # Off the broken page before the pause ends: putting the phone away checks the screen
        # it was left on (in a whole run an earlier test has seen this one; alone, none has).
        phone.goto("about:blank")
