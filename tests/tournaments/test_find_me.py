"""Finding yourself on "where do I sit": a part of a name never jumps to
someone's seat, Latin finds Cyrillic and back, and "This is me" makes the next round one tap."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.events.selectors.identity import identity_value
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry, Player
from tournaments.rounds.services.rounds import round_create, round_publish

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Maria Georgieva", "Georgi Ivanov", "Анна Иванова", "Ivan Petrov", "Boris Vasilev"]
NAMES += ["Vera Koleva"]


def squash(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.fixture
def event():
    club = club_create(name="Sofia Blato Club")
    event = event_create(club=club, name="Friday open", rounds_planned=3, seed=5)
    players_register(event=event, names=NAMES, checked_in=True)
    round_publish(round_=round_create(event=event))
    return event


def seat(client, event, **data):
    response = client.get(reverse("tournaments:seat", args=[event.slug]), data)
    assert response.status_code == 200
    return response


def pid(name: str) -> int:
    return Player.objects.get(name=name).pk


def code(event, player_id: int) -> str:
    return Entry.objects.get(event=event, player_id=player_id).code


def where(event, name) -> tuple[int, int]:
    for table in event.rounds.get().tables.all():
        names = [player.name for player in table.seats]
        if name in names:
            return table.number, names.index(name) + 1
    raise AssertionError(name)


def test_a_part_of_a_name_shows_the_candidates_even_when_only_one_fits(event):
    client = Client()
    words = squash(seat(client, event, name="Georgi"))
    assert "Which one are you?" in words and "Table " not in words
    assert "Maria Georgieva" in words and "Georgi Ivanov" in words
    words = squash(seat(client, event, name="georgieva"))  # one fits, still not taken as you
    assert "Which one are you?" in words and "Maria Georgieva" in words
    assert "Table " not in words


def test_the_whole_name_goes_straight_to_the_seat(event):
    table, number = where(event, "Georgi Ivanov")
    words = squash(seat(Client(), event, name="georgi  IVANOV"))
    assert "Which one" not in words and f"Table {table} seat {number}" in words


@pytest.mark.parametrize(
    ("typed", "name"), [("anna", "Анна Иванова"), ("Иван Петров", "Ivan Petrov")]
)
def test_latin_finds_cyrillic_and_back(event, typed, name):
    words = squash(seat(Client(), event, name=typed))
    assert name in words
    assert "No player of this event" not in words


def test_this_is_me_is_remembered_and_forgotten(event):
    client = Client(enforce_csrf_checks=False)
    vera, (table, number) = pid("Vera Koleva"), where(event, "Vera Koleva")
    picked = seat(client, event, name="vera", player=vera).content.decode()
    assert "This is me: remember on this phone" in picked
    me_url = reverse("tournaments:seat_me", args=[event.slug])
    assert f'action="{me_url}"' in picked and f'name="player" value="{vera}"' in picked
    assert 'name="code"' in picked  # "This is me" is proven with the personal code
    refused = client.post(me_url, {"player": vera, "code": "00000000"})
    assert refused.status_code == 403 and f"me-{event.pk}" not in refused.cookies
    response = client.post(me_url, {"player": vera, "code": code(event, vera)})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:seat", args=[event.slug])
    cookie = response.cookies[f"me-{event.pk}"]
    entry = Entry.objects.get(event=event, player_id=vera)
    assert cookie.value == identity_value(entry)
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    # The next round: one tap, nothing to type; the answer comes first.
    words = squash(seat(client, event))
    assert words.index(f"You: table {table}, seat {number}") < words.index("Your name")
    assert "Vera Koleva" in words and "Not you?" in words
    assert "At your table" in words  # and the whole answer below, as after a search
    assert "This is me" not in words
    # Looking someone else up keeps "You" on top.
    words = squash(seat(client, event, name="boris vasilev"))
    assert f"You: table {table}, seat {number}" in words and "This is me" in words
    # "Not you?" forgets.
    response = client.post(me_url, {"forget": "1"})
    assert response.status_code == 302 and response.cookies[f"me-{event.pk}"].value == ""
    words = squash(seat(client, event))
    assert "You: " not in words and "Not you?" not in words


def test_a_cookie_for_someone_not_in_the_event_is_ignored(event):
    client = Client()
    other = event_create(club=event.club, name="Saturday")
    (stranger,) = players_register(event=other, names=["Stranger"])
    me_url = reverse("tournaments:seat_me", args=[event.slug])
    response = client.post(me_url, {"player": stranger.player_id, "code": stranger.code})
    assert f"me-{event.pk}" not in response.cookies
    client.cookies[f"me-{event.pk}"] = identity_value(stranger)  # another event's identity
    assert "You: " not in squash(seat(client, event))
    client.cookies[f"me-{event.pk}"] = str(stranger.player_id)  # the old unproven cookie
    assert "You: " not in squash(seat(client, event))
    client.cookies[f"me-{event.pk}"] = "nonsense"
    assert "You: " not in squash(seat(client, event))
    assert client.get(me_url).status_code == 405
    missing = reverse("tournaments:seat_me", args=["no-such-event"])
    assert client.post(missing, {"player": 1}).status_code == 404


def test_this_is_me_needs_the_forms_csrf_token(event):
    client = Client(enforce_csrf_checks=True)
    me_url = reverse("tournaments:seat_me", args=[event.slug])
    vera = pid("Vera Koleva")
    assert client.post(me_url, {"player": vera, "code": code(event, vera)}).status_code == 403
    page = seat(client, event, name="vera koleva").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = client.post(
        me_url, {"player": vera, "code": code(event, vera), "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302 and f"me-{event.pk}" in response.cookies


def test_before_any_round_the_remembered_player_is_told_so(event):
    club_event = event_create(club=event.club, name="Next week")
    (entry,) = players_register(event=club_event, names=["Vera Koleva"])
    client = Client()
    client.cookies[f"me-{club_event.pk}"] = identity_value(entry)
    words = squash(seat(client, club_event))
    assert "You: no round is published yet" in words and "Not you?" in words
