"""An event's team settings through the token API (docs/api.md, "An event's team settings";
docs/team-standings.md): `POST /api/events` takes them, checks them where the settings page
does, answers them, and the OpenAPI schema says so."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from tournaments.common import messages, tokens
from tournaments.common.vocabulary import DEFAULT_TEAM_PRECEDENCE, TEAM_TIE_BREAK_LABELS
from tournaments.models import Event

from .test_api_organise import Api, error

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def api(organiser):
    return Api(tokens.token_issue(user=organiser))


def body(event: Event, **changes) -> dict:
    return {
        "club": event.club.slug,
        "name": "Team night",
        "ruleset": "blato",
        "rounds": 3,
        "pairing": "swiss",
        **changes,
    }


@pytest.mark.parametrize("scoring", ["placing", "game_points"])
def test_an_event_is_made_with_each_team_scoring(api, organised_event, scoring):
    response = api.post("/api/events", body(organised_event, team_scoring=scoring))
    assert response.status_code == 201, response.content
    answer = response.json()
    event = Event.objects.get(slug=answer["event"])
    assert event.team_scoring == scoring == answer["team_scoring"]
    # none set: the answer shows the tie-breaks the event ranks its teams by
    assert event.team_precedence == []
    assert answer["team_precedence"] == list(DEFAULT_TEAM_PRECEDENCE)


@pytest.mark.parametrize(
    "precedence",
    [["firsts", "lot"], ["score"], list(TEAM_TIE_BREAK_LABELS)],
)
def test_an_event_is_made_with_its_team_tie_breaks(api, organised_event, precedence):
    sent = body(organised_event, team_scoring="game_points", team_precedence=precedence)
    response = api.post("/api/events", sent)
    assert response.status_code == 201, response.content
    event = Event.objects.get(slug=response.json()["event"])
    assert event.team_precedence == precedence == response.json()["team_precedence"]
    assert event.team_scoring == "game_points"


def test_left_out_the_team_settings_are_the_defaults(api, organised_event):
    response = api.post("/api/events", body(organised_event))
    assert response.status_code == 201
    answer = response.json()
    assert answer["team_scoring"] == "placing"
    assert answer["team_precedence"] == list(DEFAULT_TEAM_PRECEDENCE)


@pytest.mark.parametrize(
    "changes, code",
    [
        ({"team_scoring": "firsts"}, "team_scoring_invalid"),
        ({"team_scoring": "PLACING"}, "team_scoring_invalid"),
        ({"team_precedence": ["lot", "firsts"]}, "lot_not_last"),
        ({"team_precedence": ["firsts", "firsts"]}, "metric_twice"),
        ({"team_precedence": ["points"]}, "metric_unknown"),  # the total always ranks first
        ({"team_precedence": ["wins"]}, "metric_unknown"),
        ({"team_precedence": [7]}, "metric_unknown"),
    ],
)
def test_bad_team_settings_are_refused_in_the_settings_page_s_words(
    api, organised_event, changes, code
):
    response = api.post("/api/events", body(organised_event, **changes))
    assert response.status_code == 400, response.content
    assert error(response) == messages.render(code, {})
    assert Event.objects.count() == 1  # nothing made


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"team_scoring": 5}, "team_scoring must be a string"),
        ({"team_scoring": None}, "team_scoring must be a string"),
        ({"team_precedence": "firsts"}, "team_precedence must be a list"),
        ({"team_precedence": {"firsts": 1}}, "team_precedence must be a list"),
    ],
)
def test_team_settings_of_the_wrong_kind_are_refused(api, organised_event, changes, words):
    response = api.post("/api/events", body(organised_event, **changes))
    assert response.status_code == 400, response.content
    assert error(response) == words
    assert Event.objects.count() == 1


def test_a_bad_team_setting_is_refused_in_bulgarian(api, organised_event):
    response = api.client.post(
        "/api/events",
        json.dumps(body(organised_event, team_scoring="firsts")),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="bg",
        **api.headers(),
    )
    assert response.status_code == 400
    with translation.override("bg"):
        bulgarian = messages.render("team_scoring_invalid", {})
    with translation.override("en"):
        english = messages.render("team_scoring_invalid", {})
    assert error(response) == bulgarian != english
    assert Event.objects.count() == 1


def test_the_schema_lists_the_team_settings(client):
    schema = client.get("/api/openapi.json").json()
    operation = schema["paths"]["/api/events"]["post"]
    (sent,) = operation["requestBody"]["content"].values()
    fields = sent["schema"]
    if "$ref" in fields:
        fields = schema["components"]["schemas"][fields["$ref"].rsplit("/", 1)[-1]]
    assert fields["properties"]["team_scoring"]["enum"] == ["placing", "game_points"]
    items = fields["properties"]["team_precedence"]["items"]
    assert items["enum"] == list(TEAM_TIE_BREAK_LABELS)
    assert "team_scoring" not in fields.get("required", [])
    answer = operation["responses"]["201"]["content"]["application/json"]["schema"]
    if "$ref" in answer:
        answer = schema["components"]["schemas"][answer["$ref"].rsplit("/", 1)[-1]]
    assert {"team_scoring", "team_precedence"} <= set(answer["required"])
    assert answer["properties"]["team_scoring"]["enum"] == ["placing", "game_points"]
    assert answer["properties"]["team_precedence"]["items"]["enum"] == list(TEAM_TIE_BREAK_LABELS)
