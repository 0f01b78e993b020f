"""The club's pages: who runs a club, its organiser home (members, rename, merge, settings,
log), picking members into an event, a casual game under the club, its public page."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.common import tokens
from tournaments.events.services.registration import players_register
from tournaments.models import Club, ClubGame, ClubLog, Entry, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(organised_event, organiser):
    players_register(
        event=organised_event, names=["Ivan Petrov", "Иван Петров", "Мария Иванова", "Ana"]
    )
    club = organised_event.club
    club.organisers.add(organiser)
    return club


def home(club):
    return reverse("tournaments:organise_club", args=[club.slug])


def test_whoever_creates_a_club_runs_it(organiser_client, organiser):
    response = organiser_client.post(reverse("tournaments:organise_club_create"), {"name": "Varna"})
    assert response.status_code == 302
    club = Club.objects.get(name="Varna")
    assert list(club.organisers.all()) == [organiser]
    assert organiser.has_perm("tournaments.change_club", club)
    assert organiser_client.get(home(club)).status_code == 200


def test_only_the_clubs_organisers_get_its_home(club, outsider_client):
    assert outsider_client.get(home(club)).status_code == 403
    anonymous = Client().get(home(club))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert outsider_client.get("/organise/clubs/nope/").status_code == 404


def test_members_are_found_by_either_script(club, organiser_client):
    page = organiser_client.get(home(club), {"q": "мария"}).content.decode()
    assert "Мария Иванова" in page and "Ana" not in page
    page = organiser_client.get(home(club), {"q": "ivan"}).content.decode()
    assert "Ivan Petrov" in page and "Иван Петров" in page and "Мария Иванова" in page
    everyone = organiser_client.get(home(club)).content.decode()
    assert "4 members" in everyone


def test_rename_and_a_refused_rename(club, organiser_client):
    ana = Player.objects.get(name="Ana")
    url = reverse("tournaments:organise_member_rename", args=[club.slug, ana.pk])
    assert organiser_client.post(url, {"name": "Ana Georgieva"}).status_code == 302
    ana.refresh_from_db()
    assert ana.name == "Ana Georgieva"
    refused = organiser_client.post(url, {"name": "ivan petrov"})
    assert refused.status_code == 400
    assert "already has a member called" in refused.content.decode()
    assert "renamed Ana to Ana Georgieva" in organiser_client.get(home(club)).content.decode()


def test_merge_finds_confirms_and_merges(club, organiser_client):
    latin = Player.objects.get(name="Ivan Petrov")
    cyrillic = Player.objects.get(name="Иван Петров")
    url = reverse("tournaments:organise_member_merge", args=[club.slug, latin.pk])
    found = organiser_client.get(url, {"q": "иван"}).content.decode()
    assert "Иван Петров" in found and f"?other={cyrillic.pk}" in found
    confirm = organiser_client.get(url, {"other": cyrillic.pk}).content.decode()
    assert "Which name stays?" in confirm
    done = organiser_client.post(url, {"other": cyrillic.pk, "keep": cyrillic.pk})
    assert done.status_code == 302
    assert not Player.objects.filter(pk=latin.pk).exists()
    log = ClubLog.objects.get(club=club, action="members_merged")
    assert log.data["gone"]["name"] == "Ivan Petrov" and log.actor == "olga"
    page = organiser_client.get(home(club)).content.decode()
    assert "merged Ivan Petrov" in page and "Friday night" in page


def test_a_refused_merge_says_why(club, organiser_client, build_round):
    event = club.events.get()
    players_register(event=event, names=["Boris", "Cveta"], checked_in=True)
    Entry.objects.filter(event=event).update(checked_in=True)
    build_round(event, publish=True)
    a, b = Player.objects.get(name="Ana"), Player.objects.get(name="Boris")
    url = reverse("tournaments:organise_member_merge", args=[club.slug, a.pk])
    refused = organiser_client.post(url, {"other": b.pk, "keep": a.pk})
    assert refused.status_code == 400
    assert "both played in Friday night" in refused.content.decode()
    assert Player.objects.filter(pk=b.pk).exists()


def test_settings_are_saved_and_logged(club, organiser_client):
    url = reverse("tournaments:organise_club_settings", args=[club.slug])
    assert organiser_client.post(url, {"rate_casual_games": "on"}).status_code == 302
    club.refresh_from_db()
    assert club.rate_casual_games and not club.ratings_public
    assert ClubLog.objects.filter(club=club, action="club_settings").count() == 1


def test_picking_members_enters_that_very_record(club, organiser_client):
    event = club.events.get()
    Entry.objects.filter(event=event).delete()
    url = reverse("tournaments:organise_members_pick", args=[event.slug])
    players_page = organiser_client.get(reverse("tournaments:organise_players", args=[event.slug]))
    assert url in players_page.content.decode()
    suggested = organiser_client.get(url, {"q": "petrov"}, HTTP_HX_REQUEST="true")
    text = suggested.content.decode()
    assert suggested.status_code == 200 and "<html" not in text
    assert "Ivan Petrov" in text and "Иван Петров" in text
    latin = Player.objects.get(name="Ivan Petrov")
    before = Player.objects.count()
    assert organiser_client.post(url, {"player": latin.pk}).status_code == 302
    assert Player.objects.count() == before
    assert list(Entry.objects.filter(event=event).values_list("player_id", flat=True)) == [latin.pk]
    again = organiser_client.get(url, {"q": "Иван Петров"}).content.decode()
    assert "entered" in again
    assert organiser_client.post(url, {"player": "x"}).status_code == 400


def test_a_casual_game_under_the_club(club, organiser_client):
    url = reverse("tournaments:organise_casual_game", args=[club.slug])
    assert organiser_client.get(url).status_code == 200
    started = organiser_client.post(
        url, {"seat_0": "ana", "seat_1": "Мария Иванова", "seat_2": "Nikola"}
    )
    assert started.status_code == 302 and "/keep/" in started["Location"]
    casual = ClubGame.objects.get(club=club)
    assert casual.seat_0_id == Player.objects.get(name="Ana").pk
    assert Player.objects.filter(club=club, name="Nikola").exists()
    assert casual.game.players == ["Ana", "Мария Иванова", "Nikola"]
    twice = organiser_client.post(url, {"seat_0": "Ana", "seat_1": "ANA", "seat_2": "Nikola"})
    assert twice.status_code == 400 and "three different players" in twice.content.decode()


def test_the_public_club_page(club):
    event = club.events.get()
    page = Client().get(reverse("tournaments:club", args=[club.slug]))
    text = page.content.decode()
    assert page.status_code == 200
    assert reverse("tournaments:event", args=[event.slug]) in text
    ivan = Player.objects.get(name="Ivan Petrov")
    assert reverse("tournaments:club_player", args=[club.slug, ivan.pk]) in text
    assert "Run the club" not in text
    assert Client().get("/clubs/no-such-club/").status_code == 404


def test_a_club_made_through_the_api_is_run_by_the_tokens_account(organiser):
    token = tokens.token_issue(user=organiser)
    response = Client().post(
        "/api/clubs",
        json.dumps({"name": "Burgas"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 201
    club = Club.objects.get(slug=response.json()["club"])
    assert list(club.organisers.all()) == [organiser]


def test_a_clubs_organiser_lets_another_run_it(club, organiser_client, make_user):
    vera = make_user("vera")
    url = reverse("tournaments:organise_club_organiser_add", args=[club.slug])
    assert organiser_client.post(url, {"username": "vera"}).status_code == 302
    assert vera.has_perm("tournaments.change_club", club)
    assert ClubLog.objects.filter(club=club, action="organiser_added").exists()
    unknown = organiser_client.post(url, {"username": "nobody"})
    assert unknown.status_code == 400
    mine = organiser_client.get(reverse("tournaments:organise_home")).content.decode()
    assert home(club) in mine


def test_an_organiser_is_removed_but_never_the_last(club, organiser_client, organiser, make_user):
    remove = reverse("tournaments:organise_club_organiser_remove", args=[club.slug])
    # the only organiser cannot go: nobody but an administrator could reach the club again
    refused = organiser_client.post(remove, {"username": organiser.username})
    assert refused.status_code == 400 and b"last organiser" in refused.content
    assert organiser.has_perm("tournaments.change_club", club)
    vera = make_user("vera")
    club.organisers.add(vera)
    assert b"Remove" in organiser_client.get(home(club)).content
    assert organiser_client.post(remove, {"username": "vera"}).status_code == 302
    assert not vera.has_perm("tournaments.change_club", club)
    removed = ClubLog.objects.get(club=club, action="organiser_removed")
    assert removed.data == {"username": "vera"} and removed.actor == organiser.username
    assert b"stopped vera running the club" in organiser_client.get(home(club)).content
    # someone who does not run the club is refused with a reason
    stranger = organiser_client.post(remove, {"username": "vera"})
    assert stranger.status_code == 400 and b"does not run this club" in stranger.content


def test_an_organiser_may_step_down_when_another_runs_the_club(
    club, organiser_client, organiser, make_user
):
    club.organisers.add(make_user("vera"))
    remove = reverse("tournaments:organise_club_organiser_remove", args=[club.slug])
    answer = organiser_client.post(remove, {"username": organiser.username})
    assert answer.status_code == 302 and answer["Location"] == reverse("tournaments:organise_home")
    assert not organiser.has_perm("tournaments.change_club", club)
    assert organiser_client.get(home(club)).status_code == 403
