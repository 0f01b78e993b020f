"""The events part of the JSON API: standings and a round's tables, as the spec writes them."""

import pytest

from tournaments.events.services.event import club_create, event_create
from tournaments.rounds.services.rounds import round_close, round_create, round_publish

from .test_services import field, play_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played(client):
    club = club_create(name="Club")
    event = event_create(club=club, name="Open", rounds_planned=1, seed=3)
    field(event, 7)
    round_ = round_create(event=event)
    round_publish(round_=round_)
    for table in round_.tables.all():
        play_table(table)
    round_close(round_=round_)
    return event


def test_standings(client, played):
    body = client.get(f"/api/events/{played.slug}/standings").json()
    assert body["event"] == played.slug and body["rounds_complete"] == 1
    assert body["updated"].endswith("Z") and body["stale"] is False
    row = body["rows"][0]
    assert set(row) >= {"rank", "player", "player_id", "score", "metrics"}
    assert [r["rank"] for r in body["rows"]] == list(range(1, 8))
    assert row["player"].startswith("Player ")


def test_a_round(client, played):
    body = client.get(f"/api/events/{played.slug}/rounds/1").json()
    assert (body["event"], body["round"]) == (played.slug, 1)
    assert len(body["tables"]) == 2 and len(body["byes"]) == len(body["bye_ids"]) == 1
    table = body["tables"][0]
    assert set(table) >= {"table", "players", "player_ids", "game", "finished"}
    assert table["finished"] is True and len(table["player_ids"]) == 3


@pytest.mark.parametrize(
    "path",
    [
        "/api/events/nope/standings",
        "/api/events/{slug}/rounds/2",
        "/api/events/{slug}/rounds/x",
        "/api/events/{slug}/rounds/99999999999999999999",
    ],
)
def test_unknown_events_and_rounds_are_json_404s(client, played, path):
    response = client.get(path.format(slug=played.slug))
    assert response.status_code == 404
    assert response.json()["error"]["message"]


def test_only_get(client, played):
    response = client.post(f"/api/events/{played.slug}/standings")
    assert response.status_code == 405 and "GET" in response["Allow"]


def test_an_unpublished_round_is_not_shown(client, played):
    played.rounds_planned = 2
    played.save()
    round_create(event=played)
    assert client.get(f"/api/events/{played.slug}/rounds/2").status_code == 404


def test_standings_queries_do_not_grow_with_the_field(
    client, played, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
        client.get(f"/api/events/{played.slug}/standings")
