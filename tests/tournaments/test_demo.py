"""`manage.py demo` loads a club with a played round and one under way, and a login."""

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from scoring.models import Game
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(username, password):
    """Authenticate as the login page does (the lockout backend needs the request)."""
    request = RequestFactory().post("/accounts/login/")
    return authenticate(request, username=username, password=password)


def demo(*args) -> str:
    out = io.StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


def test_the_demo_has_a_finished_round_one_in_play_and_an_organiser_login():
    printed = demo("--password", "first-pass")
    assert "organiser / first-pass" in printed and "/events/demo-evening/" in printed
    event = Event.objects.get(slug="demo-evening")
    first, second = event.rounds.order_by("number")
    assert first.status == Round.Status.CLOSED
    assert {t.game.result for t in first.tables.all()} == {Game.Result.CONFIRMED}
    assert second.status == Round.Status.PUBLISHED
    results = sorted(t.game.result for t in second.tables.order_by("number"))
    assert results == ["finished", "in_play", "in_play", "in_play"]
    assert event.standings.first().rows[0]["rank"] == 1
    user = log_in("organiser", "first-pass")
    assert user is not None and user.has_perm("tournaments.change_event", event)
    # the organiser runs the club too, and the evening is the first night of its season
    assert user.has_perm("tournaments.change_club", event.club)
    assert f"/organise/clubs/{event.club.slug}/" in printed
    assert event.season is not None and event.season.club == event.club
    assert list(event.season.events.all()) == [event]


def test_running_the_demo_again_keeps_the_data_and_renews_the_password():
    demo("--password", "one")
    demo("--password", "two")
    assert Event.objects.filter(slug__startswith="demo-evening").count() == 1
    assert Event.objects.get(slug="demo-evening").club.seasons.count() == 1
    assert log_in("organiser", "one") is None
    assert log_in("organiser", "two") is not None
