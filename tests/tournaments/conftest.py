"""Shared fixtures for the tournaments tests."""

import random

import pytest
from django.test import Client

from scoring import autoplay
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.results.services import result_confirm
from tournaments.rounds.services.rounds import round_create, round_publish

# --- the organiser pages ----------------------------------------------------------------------

PASSWORD = "a long enough password 358"


def finish_game(game, rng: random.Random) -> None:
    """Play a table's game to its end (and settle any tie-break) with random valid deals, as
    the event simulator does; the result is left for someone to confirm."""
    autoplay.play(game, rng, actor="test")


@pytest.fixture
def make_user(django_user_model):
    """A user; with no password (hashing one is slow) unless the test logs in by the form."""

    def make(username: str, password: str | None = None, **extra):
        return django_user_model.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def organiser(make_user):
    return make_user("olga")


@pytest.fixture
def organiser_client(organiser):
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def outsider_client(make_user):
    """Logged in, but organises nothing."""
    client = Client()
    client.force_login(make_user("otto"))
    return client


@pytest.fixture
def superuser_client(django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_superuser(username="root", password=None))
    return client


@pytest.fixture
def organised_event(organiser):
    """An event run by `organiser` (2 rounds, blato, a fixed seed), in a club they run (only a
    club's organisers make its events: tournaments.common.permissions)."""
    club = club_create(name="Sofia Blato Club", creator=organiser)
    return event_create(
        club=club,
        name="Friday night",
        rounds_planned=2,
        seed=11,
        organisers=[organiser],
        actor=organiser.username,
    )


def register(event, count: int, checked_in: bool = True, start: int = 1):
    names = [f"Player {n:03d}" for n in range(start, start + count)]
    return players_register(event=event, names=names, checked_in=checked_in)


@pytest.fixture
def build_round(django_capture_on_commit_callbacks):
    """Build the event's next round as the page does, the pairing task run at once."""

    def build(event, *, publish: bool = False):
        with django_capture_on_commit_callbacks(execute=True):
            round_ = round_create(event=event, actor="olga")
        if publish:
            with django_capture_on_commit_callbacks(execute=True):
                round_publish(round_=round_, actor="olga")
        round_.refresh_from_db()
        return round_

    return build


@pytest.fixture
def confirmed_round(organised_event, build_round, django_capture_on_commit_callbacks):
    """The organised event with round 1 of six players (one named in Cyrillic) published,
    both tables played and confirmed."""
    players_register(event=organised_event, names=["Анна Иванова"], checked_in=True)
    register(organised_event, 5)
    round_ = build_round(organised_event, publish=True)
    rng = random.Random(3)
    for table in round_.tables.all():
        finish_game(table.game, rng)
        with django_capture_on_commit_callbacks(execute=True):
            result_confirm(table=table, actor="olga")
    return organised_event
