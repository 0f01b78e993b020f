"""Duplicate and near names in an event: "ivan petrov" beside "Ivan Petrov"
is one person, never two entries; a name the club knows is that person; near names are
entered with a warning on the page that follows."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.common import tokens
from tournaments.common.errors import TournamentError
from tournaments.events.csv_import import names_from_text
from tournaments.events.services.event import event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry, Player

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def url(event, name="organise_players"):
    return reverse(f"tournaments:{name}", args=[event.slug])


def entered(event) -> list[str]:
    return sorted(Entry.objects.filter(event=event).values_list("player__name", flat=True))


# --- the service ---------------------------------------------------------------------------------


def test_the_same_name_in_another_case_or_spacing_is_the_person_already_entered(organised_event):
    players_register(event=organised_event, names=["Ivan Petrov"])
    entries = players_register(event=organised_event, names=["ivan  petrov", "Zoë"])
    assert [entry.player.name for entry in entries] == ["Ivan Petrov", "Zoë"]
    players_register(event=organised_event, names=["ZOE"])
    assert entered(organised_event) == ["Ivan Petrov", "Zoë"]
    assert Player.objects.count() == 2


def test_one_list_with_the_same_name_twice_is_refused(organised_event):
    for twice in (["Ana", "Ana", "Bob"], ["Ivan Petrov", "Bob", "ivan petróv"]):
        with pytest.raises(TournamentError) as error:
            players_register(event=organised_event, names=twice)
        assert "is in the list twice" in error.value.message
    assert not Entry.objects.exists()


def test_a_name_the_club_knows_is_that_person_in_the_clubs_spelling(organised_event):
    players_register(event=organised_event, names=["Ivan Petrov"])
    saturday = event_create(club=organised_event.club, name="Saturday")
    (entry,) = players_register(event=saturday, names=["IVAN PETROV"])
    assert entry.player.name == "Ivan Petrov"
    assert Player.objects.filter(club=organised_event.club).count() == 1


def test_a_too_long_or_empty_name_is_refused_in_words(organised_event):
    with pytest.raises(TournamentError, match="at most 80 characters"):
        players_register(event=organised_event, names=["x" * 81])
    with pytest.raises(TournamentError, match="a player needs a name"):
        players_register(event=organised_event, names=[" "])


# --- a pasted list -------------------------------------------------------------------------------


def test_a_pasted_list_skips_a_name_repeated_in_another_case_or_with_accents():
    parsed = names_from_text("Ivan Petrov\nivan  petrov\nZoë\nZOE\nBob")
    assert parsed.names == ["Ivan Petrov", "Zoë", "Bob"]
    assert parsed.duplicates == [(2, "ivan petrov"), (4, "ZOE")]


# --- the organiser's page ------------------------------------------------------------------------


def test_adding_a_name_already_entered_in_another_case_says_who_it_is(
    organiser_client, organised_event
):
    players_register(event=organised_event, names=["Ivan Petrov"])
    response = organiser_client.post(
        url(organised_event, "organise_player_add"), {"name": "ivan petrov"}
    )
    page = text(organiser_client.get(response["Location"]))
    assert "ivan petrov is Ivan Petrov, who was already entered." in page
    assert entered(organised_event) == ["Ivan Petrov"]


def test_adding_a_name_the_club_knows_uses_its_spelling(organiser_client, organised_event):
    other = event_create(club=organised_event.club, name="Last week")
    players_register(event=other, names=["Ivan Petrov"])
    response = organiser_client.post(
        url(organised_event, "organise_player_add"), {"name": "ivan petrov"}
    )
    page = text(organiser_client.get(response["Location"]))
    assert "ivan petrov entered as Ivan Petrov, the name the club already knows." in page
    assert entered(organised_event) == ["Ivan Petrov"]


@pytest.mark.parametrize("near", ["Ivan Petrof", "Иван Петров", "Petrov Ivan"])
def test_a_near_name_is_entered_with_a_warning(organiser_client, organised_event, near):
    players_register(event=organised_event, names=["Ivan Petrov"])
    response = organiser_client.post(url(organised_event, "organise_player_add"), {"name": near})
    assert response.status_code == 302
    page = text(organiser_client.get(response["Location"]))
    assert f"{near} entered." in page
    assert (
        f"“{near}” looks like “Ivan Petrov”: if they are one person, delete the one entered by "
        "mistake, or merge the two (see “Names that look alike”)."
    ) in page
    assert entered(organised_event) == sorted(["Ivan Petrov", near])
    page = text(organiser_client.get(url(organised_event)))
    assert "looks like" not in page  # shown once, after adding


def test_a_pasted_list_warns_of_near_names_among_themselves(organiser_client, organised_event):
    pasted = "Georgi Ivanov\nГеорги Иванов\nVera\nvera\n"
    response = organiser_client.post(
        url(organised_event, "organise_players_paste"), {"names": pasted}
    )
    page = text(organiser_client.get(response["Location"]))
    assert "3 players entered." in page and "Repeated name skipped (line 4)." in page
    assert "“Георги Иванов” looks like “Georgi Ivanov”" in page
    assert entered(organised_event) == ["Georgi Ivanov", "Vera", "Георги Иванов"]


# --- the organisers' API -------------------------------------------------------------------------


def test_the_api_refuses_a_name_twice_and_answers_the_clubs_spelling(organiser, organised_event):
    client, token = Client(), tokens.token_issue(user=organiser)
    path = f"/api/events/{organised_event.slug}/players"

    def post(names):
        return client.post(
            path,
            json.dumps({"names": names}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )

    response = post(["Ana", "ANA "])
    assert response.status_code == 400
    assert "is in the list twice" in response.json()["error"]["message"]
    assert not Entry.objects.exists()
    assert post(["Ivan Petrov"]).status_code == 201
    response = post(["ivan  petrov"])
    assert response.status_code == 201
    assert [p["name"] for p in response.json()["players"]] == ["Ivan Petrov"]
    assert entered(organised_event) == ["Ivan Petrov"]
