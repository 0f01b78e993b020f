"""The token API for an event's teams and keep-apart rules (tournaments.teams.api)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tournaments.common import tokens
from tournaments.events.services.event import event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Event, EventLog, KeepApart, Team

pytestmark = pytest.mark.django_db

NAMES = ["Ana Petrova", "Boris Ivanov", "Вера Колева", "Georgi Dimov"]


class Api:
    def __init__(self, token):
        self.client, self.token = Client(), token

    def __call__(self, method, path, body=None, token="mine"):
        token = self.token if token == "mine" else token
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        data = "" if body is None else json.dumps(body)
        response = self.client.generic(
            method, f"/api{path}", data, content_type="application/json", **headers
        )
        return response.status_code, response.json()


@pytest.fixture
def event(organised_event):
    players_register(event=organised_event, names=NAMES, checked_in=True)
    return organised_event


@pytest.fixture
def api(organiser):
    return Api(tokens.token_issue(user=organiser))


def ids(event, *names):
    return [event.entries.get(player__name=name).player_id for name in names]


def test_a_team_made_renamed_filled_emptied_and_deleted(event, api):
    base = f"/events/{event.slug}/teams"
    ana, boris = ids(event, "Ana Petrova", "Boris Ivanov")
    status, team = api("POST", base, {"name": "Aces", "players": [ana]})
    assert status == 201
    assert team == {
        "id": team["id"],
        "name": "Aces",
        "players": [{"id": ana, "name": "Ana Petrova"}],
    }
    status, answer = api("POST", f"{base}/{team['id']}/members", {"players": [boris]})
    assert status == 200 and [p["id"] for p in answer["players"]] == [ana, boris]
    status, answer = api("PATCH", f"{base}/{team['id']}", {"name": "Kings"})
    assert status == 200 and answer["name"] == "Kings"
    status, answer = api("DELETE", f"{base}/{team['id']}/members/{ana}")
    assert status == 200 and [p["id"] for p in answer["players"]] == [boris]
    status, listed = api("GET", base)
    assert status == 200 and listed["teams"][0]["name"] == "Kings"
    status, answer = api("DELETE", f"{base}/{team['id']}")
    assert (status, answer) == (200, {"id": team["id"], "deleted": True})
    assert not Team.objects.exists()
    assert EventLog.objects.filter(event=event, actor="olga", action="team_deleted").exists()


def test_the_services_refusals_are_the_apis(event, api):
    base = f"/events/{event.slug}/teams"
    (ana,) = ids(event, "Ana Petrova")
    api("POST", base, {"name": "Aces", "players": [ana]})
    status, answer = api("POST", base, {"name": "aces"})
    assert status == 400 and "already has a team called aces" in answer["error"]["message"]
    status, answer = api("POST", base, {"name": "Kings", "players": [ana]})
    assert status == 409 and "already in the team Aces" in answer["error"]["message"]
    assert Team.objects.count() == 1  # nothing half made
    status, answer = api("POST", base, {"name": "Jacks", "players": [999999]})
    assert status == 400 and "no player 999999" in answer["error"]["message"]
    status, _ = api("POST", base, {"name": "Jacks", "players": "Ana"})
    assert status == 400
    status, _ = api("PATCH", f"{base}/999999", {"name": "X"})
    assert status == 404
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)
    status, answer = api("POST", base, {"name": "Late"})
    assert status == 409 and answer["error"]["message"] == "the event is closed"


def test_keep_apart_rules(event, api):
    base = f"/events/{event.slug}/keep-apart"
    a, b, c = ids(event, "Ana Petrova", "Boris Ivanov", "Вера Колева")
    status, rule = api("POST", base, {"players": [a, b, c], "reason": "same club"})
    assert status == 201 and rule["reason"] == "same club"
    assert sorted(p["id"] for p in rule["players"]) == sorted([a, b, c])
    status, _ = api("POST", base, {"players": [a]})
    assert status == 400
    status, listed = api("GET", base)
    assert status == 200 and [r["id"] for r in listed["keep_apart"]] == [rule["id"]]
    status, answer = api("DELETE", f"{base}/{rule['id']}")
    assert status == 200 and answer["deleted"] is True
    assert not KeepApart.objects.exists()
    assert api("DELETE", f"{base}/{rule['id']}")[0] == 404


def test_only_the_events_organisers(event, api, make_user, organiser):
    outsider = Api(tokens.token_issue(user=make_user("otto")))
    base = f"/events/{event.slug}/teams"
    assert outsider("GET", base)[0] == 403
    assert outsider("POST", base, {"name": "Mine"})[0] == 403
    assert api("POST", base, {"name": "Mine"}, token=None)[0] == 401
    other = event_create(club=event.club, name="Saturday", organisers=[organiser])
    status, team = api("POST", f"/events/{other.slug}/teams", {"name": "Theirs"})
    assert status == 201
    # a team of another event is not found through this one
    assert api("DELETE", f"{base}/{team['id']}")[0] == 404
    assert Team.objects.filter(pk=team["id"]).exists()
