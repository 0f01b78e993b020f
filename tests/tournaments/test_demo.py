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


def test_without_a_password_the_demo_keeps_the_one_it_made(tmp_path):
    """A club that goes on using the demo site is not locked out at each restart: the password
    made once is kept (the owner's only), printed each run, and its sessions stay valid."""
    from django.contrib.auth import get_user_model

    kept = tmp_path / "password"
    first = demo("--password-file", str(kept))
    password = kept.read_text().strip()
    assert f"organiser / {password}" in first and oct(kept.stat().st_mode & 0o777) == "0o600"
    stored = get_user_model().objects.get(username="organiser").password
    again = demo("--password-file", str(kept))
    assert f"organiser / {password}" in again and log_in("organiser", password) is not None
    # the same hash: a new one would end every session the organiser has open
    assert get_user_model().objects.get(username="organiser").password == stored


def test_a_password_the_organiser_chose_is_left_alone(tmp_path):
    from django.contrib.auth import get_user_model

    kept = tmp_path / "password"
    demo("--password-file", str(kept))
    organiser = get_user_model().objects.get(username="organiser")
    organiser.set_password("chosen by me")
    organiser.save()
    printed = demo("--password-file", str(kept))
    assert log_in("organiser", "chosen by me") is not None
    assert kept.read_text().strip() not in printed and "the password you chose" in printed


def test_the_demo_players_are_written_in_cyrillic_and_in_latin(tmp_path):
    """A Bulgarian club sees its own case: some names in Cyrillic, some in Latin letters."""
    demo("--password", "x")
    names = list(
        Event.objects.get(slug="demo-evening").entries.values_list("player__name", flat=True)
    )
    cyrillic = [n for n in names if all("\u0400" <= c <= "\u04ff" or c == " " for c in n)]
    latin = [n for n in names if n.isascii()]
    assert len(cyrillic) >= 4 and len(latin) >= 4 and len(names) == 12
