"""The outside checkers of checks.py fail when they should: a deliberately broken
template, served at a URL of the live site, makes axe and the Nu HTML checker fail, and the
same template unbroken passes both. And the screen axe found too wide: the projector on a
phone."""

from __future__ import annotations

import random

import pytest
from django.template import Context, Template
from playwright.sync_api import expect

from scoring import autoplay
from scoring import services as scoring
from tournaments.models import Round

from . import checks, every_screen
from .checks import axe_problems, check_screen, nu_errors
from .test_public import event  # noqa: F401  (the fixture: 9 players, round 1 published)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _broken_on_purpose():
    """These screens are broken on purpose: the journeys' automatic checks leave them be."""
    with every_screen.paused():
        yield


# A page in the site's layout (its own <head> and landmarks, as base.html has them), with
# a body that the tests break.
PAGE = Template(
    """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>A test page · 3-5-8</title>
  <meta name="description" content="A page for the tests of the checkers.">
  <link rel="stylesheet" href="/static/css/site.css">
</head>
<body>
  <header class="site-header">
    <a class="site-name" href="/">3-5-8</a>
    <nav class="site-nav" aria-label="Main"><a href="/events/">Events</a></nav>
  </header>
  <main id="content">
    <h1>A test page</h1>
    {{ body|safe }}
  </main>
</body>
</html>"""
)
GOOD = '<p><time datetime="2026-05-01T18:30:12+00:00">a minute ago</time></p>'
DUPLICATED_LANDMARK = '<nav aria-label="Main"><a href="/games/new/">New game</a></nav>'
INVALID_ARIA_ATTRIBUTE = '<p aria-colour="red">Red</p>'
INVALID_ATTRIBUTE = '<div hx-get="/events/" hx-trigger="every 2s"><p>Polled</p></div>'
MICROSECONDS = '<p><time datetime="2026-05-01T18:30:12.345678+00:00">a minute ago</time></p>'


def render(body: str) -> str:
    return PAGE.render(Context({"body": body}))


def serve(page, live_server, body: str) -> None:
    """Open the page with `body` at a URL of the live site (its CSS loads as usual)."""
    url = f"{live_server.url}/checkers-test/"
    page.route(url, lambda route: route.fulfill(content_type="text/html", body=render(body)))
    page.goto(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("A test page")


def test_the_unbroken_page_passes_axe(live_server, phone):
    serve(phone, live_server, GOOD)
    assert axe_problems(phone) == []


def test_axe_fails_on_a_duplicated_landmark_unless_its_rule_is_allowed(live_server, phone):
    serve(phone, live_server, GOOD + DUPLICATED_LANDMARK)
    problems = axe_problems(phone)
    assert [p.split(" ")[0] for p in problems] == ["landmark-unique"], problems
    assert "(moderate)" in problems[0]
    # A moderate rule in the allow-list (with its reason) no longer fails.
    assert axe_problems(phone, allowed={"landmark-unique": "a reason"}) == []


def test_axe_runs_on_a_page_opened_without_javascript(live_server, new_phone):
    """axe needs timers, which never fire without JavaScript: it runs on a twin page."""
    page = new_phone(javascript=False)
    serve(page, live_server, GOOD + DUPLICATED_LANDMARK)
    problems = axe_problems(page)
    assert [p.split(" ")[0] for p in problems] == ["landmark-unique"], problems


def test_axe_fails_on_an_invalid_attribute_whatever_the_allow_list(live_server, phone):
    serve(phone, live_server, GOOD + INVALID_ARIA_ATTRIBUTE)
    problems = axe_problems(phone, allowed={"aria-valid-attr": "not for critical ones"})
    assert [p.split(" ")[0] for p in problems] == ["aria-valid-attr"], problems
    assert "(critical)" in problems[0]


def test_the_nu_checker_fails_on_invalid_attributes_and_times_in_one_run():
    errors = nu_errors(
        {
            "good": render(GOOD),
            "hx": render(INVALID_ATTRIBUTE),
            "time": render(MICROSECONDS),
            "landmark": render(DUPLICATED_LANDMARK),
        }
    )
    hx = [e for e in errors if e.startswith("hx ")]
    time = [e for e in errors if e.startswith("time ")]
    assert len(hx) == 2 and all("not allowed on element" in e for e in hx), errors
    assert len(time) == 1 and "datetime" in time[0], errors
    # Only what is invalid HTML: the unbroken page passes, and a duplicated landmark is
    # axe's to find, not Nu's. (One java run for all four: it takes seconds to start.)
    assert len(errors) == 3, errors


def test_check_screen_fails_on_the_broken_page(live_server, phone, monkeypatch):
    # The broken page must not be kept for the session's Nu run, nor reopened.
    monkeypatch.setattr(checks, "SEEN_HTML", {})
    serve(phone, live_server, GOOD + DUPLICATED_LANDMARK + INVALID_ARIA_ATTRIBUTE)
    with pytest.raises(AssertionError) as failure:
        check_screen(phone, "broken")
    assert "landmark-unique" in str(failure.value)
    assert "aria-valid-attr" in str(failure.value)
    assert list(checks.SEEN_HTML) == [("/checkers-test/", "broken", "en")]


def test_the_projector_fits_a_phone(live_server, event, new_phone):  # noqa: F811
    """axe found the projector's standings 556-602 px wide on a 390 px phone."""
    table = Round.objects.get(event=event, number=1).tables.get(number=1)
    autoplay.play(table.game, random.Random(1), actor="table")
    table.game.refresh_from_db()
    scoring.game_confirm(game_id=table.game_id, actor=table.game.players[1])
    phone = new_phone()
    phone.goto(f"{live_server.url}/events/{event.slug}/projector/")
    expect(phone.locator("table.standings tbody tr:not(.unranked-head)")).to_have_count(9)
    check_screen(phone, "public-projector-phone")
