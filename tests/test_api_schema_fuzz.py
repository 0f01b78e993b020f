"""Schemathesis against the JSON API's own OpenAPI schema (/api/openapi.json), in process.

Every operation is fuzzed three times, anonymous, with an organiser's token and with a table's
token, its path pinned to a live event (a published round, a game under way, a season): the
answers must never be a 5xx, and each status, content type and body must be what the schema
declares for it. Then a bounded stateful run follows the schema's links from that event (its
round → a table → its game). The examples are bounded for CI, about 35 s on SQLite and 45 s on
PostgreSQL on two cores (API_FUZZ_EXAMPLES, API_FUZZ_WALKS and API_FUZZ_STEPS raise them:
docs/api.md has the long run's command).
"""

import os
import random

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from scoring import autoplay
from tournaments.clubs.services import seasons
from tournaments.common import tokens
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.rounds.services.rounds import round_create, round_publish

EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "25"))
STEPS = int(os.environ.get("API_FUZZ_STEPS", "15"))
WALKS = int(os.environ.get("API_FUZZ_WALKS", "30"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(autouse=True)
def _connection_kept():
    """As Django's test client does: the WSGI handler's end of request would otherwise close
    the test's database connection (and its transaction)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def evening(db, django_user_model, django_capture_on_commit_callbacks):
    """A club night under way: round 1 published, its first table's game three deals in, a
    season; the ids every path is pinned to (the club and the event share the slug "friday"),
    the organiser's and that table's tokens."""
    organiser = django_user_model.objects.create_user(username="olga")
    club = club_create(name="Friday", creator=organiser)
    event = event_create(
        club=club, name="Friday", rounds_planned=3, seed=7, organisers=[organiser], actor="olga"
    )
    entries = players_register(
        event=event, names=[f"Player {n}" for n in range(1, 8)], checked_in=True
    )
    with django_capture_on_commit_callbacks(execute=True):
        round_ = round_create(event=event, actor="olga")
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round_=round_, actor="olga")
    table = round_.tables.order_by("number").first()
    autoplay.play(table.game, random.Random(3), deals=3, actor="test")
    season = seasons.season_create(club=club, name="Autumn", actor="olga")
    assert club.slug == event.slug == "friday"
    return {
        "token": tokens.token_issue(user=organiser),
        "table_token": table.game.secret,
        "pins": {
            "slug": event.slug,
            "number": 1,
            "table_number": table.number,
            "game_id": table.game_id,
            "player_id": entries[0].player_id,
            "season_id": season.pk,
        },
    }


application = get_wsgi_application()
SETTINGS = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))


def _load(**config):
    return schemathesis.openapi.from_wsgi(
        "/api/openapi.json", application, config=schemathesis.Config.from_dict(config)
    )


schema = _load(generation={"max-examples": EXAMPLES})


def _pin(case, pins: dict) -> None:
    for name in case.path_parameters or {}:
        if name in pins:
            case.path_parameters[name] = pins[name]


def _call(case, evening, token=None) -> None:
    _pin(case, evening["pins"])
    headers = {"Authorization": f"Bearer {token}"} if token else None
    case.call_and_validate(headers=headers, checks=CHECKS)


@SETTINGS
@schema.parametrize()
def test_anonymous(case, evening):
    _call(case, evening)


@SETTINGS
@schema.parametrize()
def test_with_an_organisers_token(case, evening):
    _call(case, evening, evening["token"])


@SETTINGS
@schema.parametrize()
def test_with_a_tables_token(case, evening):
    _call(case, evening, evening["table_token"])


def test_a_stateful_walk_from_the_live_event(evening):
    """Walks start at an operation pinned to the live event and go on by the links; the
    organiser's token throughout, but for the deals, whose link carries the table's."""
    steps, followed = [], []
    Machine = _load(generation={"mode": "positive"}).as_state_machine()

    class Walk(Machine):
        """Each walk starts from the same evening: what one walk changed (a team made, a deal
        recorded) is rolled back after it, so that Hypothesis replays a walk against the
        state it first ran on (otherwise the links a response enables differ between a run
        and its replay, and Hypothesis calls the walk's definition flaky)."""

        def setup(self):
            self.savepoint = transaction.savepoint()
            cache.clear()

        def teardown(self):
            transaction.savepoint_rollback(self.savepoint)
            cache.clear()

        def step(self, input):
            followed.append(input.transition is not None)
            if input.transition is None:
                _pin(input.case, evening["pins"])
                if "/deals" in input.case.operation.path:
                    input.case.headers = {"Authorization": f"Bearer {evening['table_token']}"}
            return super().step(input)

        def get_call_kwargs(self, case):
            if "/deals" in case.operation.path:
                return {}
            return {"headers": {"Authorization": f"Bearer {evening['token']}"}}

        def after_call(self, response, case):
            steps.append(response.status_code)

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS, transport_kwargs=kwargs)

    Walk.run(settings=settings(SETTINGS, max_examples=WALKS, stateful_step_count=STEPS))
    assert steps and all(status < 500 for status in steps)
    assert any(followed)  # the walks went on by the links
