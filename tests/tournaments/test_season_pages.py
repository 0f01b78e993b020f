"""A club's season on the site: three nights played through the services, the season page,
the projector, the downloads, the API, and the organiser's pages that make the season."""

from __future__ import annotations

import codecs
import csv
import io
import json

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from tournaments.clubs.services import seasons as writes
from tournaments.events.services.event import club_create, event_create
from tournaments.models import ClubLog, Event, Season

from .season_nights import MEMBERS, play_night

pytestmark = pytest.mark.django_db

POINTS = (10, 8, 6, 5, 4, 3, 2, 1)


@pytest.fixture
def club():
    return club_create(name="Plovdiv Blato", slug="plovdiv")


@pytest.fixture
def three_nights(club):
    """Three nights: the third with a seventh player, who came once."""
    first = play_night(club, "Night 1", seed=1)
    second = play_night(club, "Night 2", seed=2)
    third = play_night(club, "Night 3", [*MEMBERS[1:], "Zhivko", MEMBERS[0]], seed=3, rounds=2)
    return [first, second, third]


@pytest.fixture
def season(club, three_nights):
    season = writes.season_create(club=club, name="Autumn", best_nights=2, min_nights=2)
    for event in three_nights:
        writes.season_add_event(season, event)
    return season


def expected(events, best, minimum):
    """The season counted by hand from each night's final standings snapshot."""
    nights = {}
    for event in events:
        for row in event.standings.first().rows:
            if row["metrics"]["games"]:
                nights.setdefault(row["player"], []).append(row["rank"])
    table = {}
    for player, places in nights.items():
        points = sorted((POINTS[p - 1] if p <= len(POINTS) else 0 for p in places), reverse=True)
        table[player] = (sum(points[:best]), len(places), places.count(1), min(places))
    return table


def api(client, season):
    url = f"/api/clubs/{season.club.slug}/seasons/{season.pk}/standings"
    response = client.get(url)
    assert response.status_code == 200, response.content
    return response.json()


def test_the_season_counts_best_two_of_three_and_lists_the_once_player_below(season, three_nights):
    body = api(Client(), season)
    want = expected(three_nights, best=2, minimum=2)
    rows = body["rows"]
    assert body["club"] == "plovdiv" and body["season"] == season.pk
    assert body["name"] == "Autumn" and body["best_nights"] == 2 and body["min_nights"] == 2
    assert body["place_points"] == list(POINTS)
    assert [n["provisional"] for n in body["nights"]] == [False, False, False]
    assert {r["player_id"]: r["score"] for r in rows} == {p: w[0] for p, w in want.items()}
    ranked = [r for r in rows if r["rank"] is not None]
    unranked = [r for r in rows if r["rank"] is None]
    assert [r["player"] for r in unranked] == ["Zhivko"]
    assert rows[-1]["player"] == "Zhivko"
    # ranked by score, then nights won, then best place; equal on all three share the rank
    keys = [(-r["score"], -r["wins"], r["best_place"]) for r in ranked]
    assert keys == sorted(keys)
    for above, row in zip(ranked, ranked[1:], strict=False):
        level = (above["score"], above["wins"], above["best_place"]) == (
            row["score"],
            row["wins"],
            row["best_place"],
        )
        assert (row["rank"] == above["rank"]) == level
        assert bool(row["tie_break"]) == (above["score"] == row["score"])
    assert all(r["counted"] == 2 for r in ranked)
    assert all(len(r["per_night"]) == 3 for r in rows)


def test_the_season_page_says_how_it_counts_and_explains_ties(season):
    client = Client()
    page = client.get(reverse("tournaments:club_season", args=["plovdiv", season.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Only each player&#x27;s best 2 nights count." in text
    assert "Not ranked yet" in text and "Zhivko" in text
    assert "Played 1 of the 2 nights needed to be ranked." in text
    for row in api(client, season)["rows"]:
        if row["tie_break"]:
            assert row["tie_break"].replace("'", "&#x27;") in text
    bg = client.get(
        reverse("tournaments:club_season", args=["plovdiv", season.pk]),
        headers={"accept-language": "bg"},
    )
    assert bg.status_code == 200


def test_a_running_night_counts_as_it_stands_and_is_marked(club):
    season = writes.season_create(club=club, name="Winter")
    night = play_night(club, "Tonight", seed=5, rounds=2, close=False)
    writes.season_add_event(season, night)
    assert Event.objects.get(pk=night.pk).status == Event.Status.RUNNING
    body = api(Client(), season)
    assert body["nights"][0]["provisional"] is True
    assert len(body["rows"]) == 6 and body["rows"][0]["score"] == 10
    page = Client().get(reverse("tournaments:club_season", args=["plovdiv", season.pk]))
    assert "is still being played" in page.content.decode()


def season_url(name, season, *more):
    return reverse(f"tournaments:{name}", args=[season.club.slug, season.pk, *more])


def test_projector_and_downloads(season):
    client = Client()
    projector = client.get(
        reverse("tournaments:club_season_projector", args=["plovdiv", season.pk])
    )
    assert projector.status_code == 200
    assert b'http-equiv="refresh"' in projector.content
    body = api(client, season)

    answer = client.get(
        reverse("tournaments:club_season_export", args=["plovdiv", season.pk, "csv"])
    )
    assert answer.status_code == 200
    assert answer.content.startswith(codecs.BOM_UTF8)
    lines = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    assert lines[0][:3] == ["Rank", "Player", "Season points"]
    assert lines[0][7:] == ["Night 1", "Night 2", "Night 3"]
    assert [line[1] for line in lines[1:]] == [r["player"] for r in body["rows"]]
    assert [int(line[2]) for line in lines[1:]] == [r["score"] for r in body["rows"]]

    answer = client.get(
        reverse("tournaments:club_season_export", args=["plovdiv", season.pk, "xlsx"])
    )
    sheet = openpyxl.load_workbook(io.BytesIO(answer.content)).active
    assert [c.value for c in sheet[1]][:2] == ["Rank", "Player"]
    assert sheet.max_row == len(body["rows"]) + 1

    answer = client.get(
        reverse("tournaments:club_season_export", args=["plovdiv", season.pk, "json"])
    )
    assert json.loads(answer.content) == body
    assert "attachment" in answer["Content-Disposition"]


def test_unknown_seasons_are_404(season, club):
    other = club_create(name="Varna", slug="varna")
    client = Client()
    assert client.get(f"/clubs/varna/seasons/{season.pk}/").status_code == 404
    assert client.get(f"/clubs/plovdiv/seasons/{season.pk + 99}/").status_code == 404
    assert client.get(f"/api/clubs/varna/seasons/{season.pk}/standings").status_code == 404
    assert client.get("/api/clubs/plovdiv/seasons/x/standings").status_code == 404
    assert client.get(f"/clubs/plovdiv/seasons/{season.pk}/standings.pdf").status_code == 404
    assert other.seasons.count() == 0


def test_the_schema_documents_the_season_standings():
    schema = Client().get("/api/openapi.json").json()
    path = schema["paths"]["/api/clubs/{slug}/seasons/{season_id}/standings"]["get"]
    assert "200" in path["responses"] and "404" in path["responses"]
    rows = schema["components"]["schemas"]["SeasonRowOut"]["properties"]
    assert {"rank", "player", "player_id", "score", "nights", "counted"} <= set(rows)


# --- the organiser's pages ----------------------------------------------------------------------


@pytest.fixture
def club_organiser(club, make_user):
    user = make_user("petya")
    club.organisers.add(user)
    client = Client()
    client.force_login(user)
    return client


def test_an_organiser_creates_a_season_and_picks_its_nights(club, club_organiser, three_nights):
    url = reverse("tournaments:organise_seasons", args=["plovdiv"])
    assert club_organiser.get(url).status_code == 200
    answer = club_organiser.post(
        url, {"name": "Spring", "place_points": "12, 9, 7, 5", "min_nights": "1"}
    )
    season = Season.objects.get(name="Spring")
    assert answer.status_code == 302
    assert season.place_points == [12, 9, 7, 5] and season.best_nights is None
    edit = reverse("tournaments:organise_season", args=["plovdiv", season.pk])
    page = club_organiser.get(edit)
    assert page.status_code == 200 and b"Night 2" in page.content
    answer = club_organiser.post(
        edit,
        {
            "name": "Spring",
            "place_points": "12 9 7 5",
            "best_nights": "1",
            "min_nights": "1",
            "events": [three_nights[0].pk, three_nights[2].pk],
        },
    )
    assert answer.status_code == 302
    season.refresh_from_db()
    assert season.best_nights == 1
    assert set(season.events.values_list("name", flat=True)) == {"Night 1", "Night 3"}
    actions = list(ClubLog.objects.filter(club=club).values_list("action", "actor"))
    assert ("season_created", "petya") in actions and ("season_event_added", "petya") in actions
    # taking a night out is audited too
    club_organiser.post(edit, {"name": "Spring", "min_nights": "1", "events": [three_nights[0].pk]})
    assert list(season.events.values_list("name", flat=True)) == ["Night 1"]
    assert ClubLog.objects.filter(action="season_event_removed").exists()


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"name": "", "min_nights": "1"}, "This field is required."),
        ({"name": "X", "place_points": "5 8", "min_nights": "1"}, "each place no more than"),
        ({"name": "X", "place_points": "ten", "min_nights": "1"}, "Type whole numbers"),
        (
            {"name": "X", "starts_on": "2026-12-01", "ends_on": "2026-09-01", "min_nights": "1"},
            "cannot end before it starts",
        ),
    ],
)
def test_bad_input_is_refused_and_kept(club_organiser, data, error):
    answer = club_organiser.post(reverse("tournaments:organise_seasons", args=["plovdiv"]), data)
    assert answer.status_code == 400
    assert error in answer.content.decode().replace("&#x27;", "'")
    if data.get("place_points"):
        assert data["place_points"] in answer.content.decode()
    assert not Season.objects.exists()


def test_only_the_clubs_organisers_run_its_seasons(club, outsider_client, organiser_client):
    url = reverse("tournaments:organise_seasons", args=["plovdiv"])
    assert Client().get(url).status_code == 302
    assert outsider_client.get(url).status_code == 403
    assert outsider_client.post(url, {"name": "Mine", "min_nights": "1"}).status_code == 403
    assert not Season.objects.exists()


def test_an_event_of_another_club_cannot_join(club):
    other = club_create(name="Varna")
    event = event_create(club=other, name="Elsewhere")
    season = writes.season_create(club=club, name="S")
    with pytest.raises(services_error()):
        writes.season_add_event(season, event)


def services_error():
    from tournaments.common.errors import NotAllowed

    return NotAllowed


def test_deleting_a_season_keeps_its_nights(club, club_organiser, three_nights):
    season = writes.season_create(club=club, name="Spring", actor="petya")
    for night in three_nights[:2]:
        writes.season_add_event(season, night, actor="petya")
    edit = reverse("tournaments:organise_season", args=["plovdiv", season.pk])
    assert b"Delete this season" in club_organiser.get(edit).content
    delete = reverse("tournaments:organise_season_delete", args=["plovdiv", season.pk])
    assert club_organiser.get(delete).status_code == 405  # a tap on a form, never a link
    answer = club_organiser.post(delete)
    assert answer.status_code == 302
    assert not Season.objects.filter(pk=season.pk).exists()
    # the nights are still the club's events, with their games, in no season
    nights = Event.objects.filter(pk__in=[night.pk for night in three_nights])
    assert nights.count() == 3 and set(nights.values_list("season", flat=True)) == {None}
    assert all(night.rounds.exists() for night in nights)
    logged = ClubLog.objects.get(club=club, action="season_deleted")
    assert logged.actor == "petya" and logged.data["name"] == "Spring"
    assert logged.data["events"] == [night.slug for night in three_nights[:2]]
    assert club_organiser.post(delete).status_code == 404
    assert club_organiser.get(edit).status_code == 404


def test_an_outsider_cannot_delete_a_season(club, three_nights, make_user):
    season = writes.season_create(club=club, name="Spring")
    outsider = Client()
    outsider.force_login(make_user("mallory"))
    delete = reverse("tournaments:organise_season_delete", args=["plovdiv", season.pk])
    assert outsider.post(delete).status_code == 403
    assert Season.objects.filter(pk=season.pk).exists()


def test_the_event_settings_page_names_its_season(club, club_organiser, three_nights):
    season = writes.season_create(club=club, name="Spring")
    night = three_nights[0]
    night.organisers.add(*club.organisers.all())
    settings = reverse("tournaments:organise_settings", args=[night.slug])
    page = club_organiser.get(settings).content.decode()
    assert "This event is in no season." in page
    assert reverse("tournaments:organise_seasons", args=["plovdiv"]) in page
    writes.season_add_event(season, night)
    page = club_organiser.get(settings).content.decode()
    assert "A night of the season Spring." in page
    assert reverse("tournaments:club_season", args=["plovdiv", season.pk]) in page
    assert reverse("tournaments:organise_season", args=["plovdiv", season.pk]) in page
