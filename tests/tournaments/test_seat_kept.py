""" "Where do I sit" kept per player found, not per address (tournaments.rounds.views.public_seat).

After a publish a thousand phones each type their own name their own way: one kept page per
player serves them all, with each phone's own text put in the search box. What must hold:
one render per player however the name is typed, each answer the bytes a fresh render gives
(its text escaped as the template escapes it), and the searches that find nobody or several
still answered for their own address.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Player
from tournaments.rounds import web as public_kept
from tournaments.rounds.services.rounds import round_create, round_publish
from tournaments.rounds.views import public_seat

pytestmark = pytest.mark.django_db(transaction=True)

ODD = 'Zoë "Zee" O\'Neil & <Co>'
NAMES = ["Georgi Ivanov", "Maria Georgieva", ODD, "Vera Koleva", "Ivan Petrov", "Boris Vasilev"]
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


@pytest.fixture
def event():
    club = club_create(name="Sofia Blato Club")
    event = event_create(club=club, name="Friday open", rounds_planned=3, seed=5)
    players_register(event=event, names=NAMES, checked_in=True)
    round_publish(round_=round_create(event=event))
    public_kept.pages.clear()
    return event


def seat(event, **data) -> str:
    response = Client().get(reverse("tournaments:seat", args=[event.slug]), data)
    assert response.status_code == 200
    return TOKEN.sub('name="csrfmiddlewaretoken" value="-"', response.content.decode())


def fresh(event, **data) -> str:
    """The answer with nothing kept: rendered for this address alone."""
    public_kept.pages.clear()
    return seat(event, **data)


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    counted = []
    real = public_seat.render

    def counting(request, template, *args, **kwargs):
        counted.append(template)
        return real(request, template, *args, **kwargs)

    monkeypatch.setattr(public_seat, "render", counting)
    return counted


def test_every_typing_of_a_found_name_is_one_render_with_its_own_text(event, renders):
    typings = ["Georgi Ivanov", "georgi  ivanov", " GEORGI IVANOV", "Георги Иванов"]
    answers = [seat(event, name=typed) for typed in typings]
    assert len(renders) == 1
    for typed, answer in zip(typings, answers, strict=True):
        assert f'value="{" ".join(typed.split())}"' in answer
        assert "Table " in answer and "Which one" not in answer
    player = Player.objects.get(name="Georgi Ivanov").pk
    seat(event, name="georgi", player=player)  # the picked link: the same page again
    assert len(renders) == 1


@pytest.mark.parametrize(
    "typed",
    ["Georgi Ivanov", "gEORGI   ivanov", ODD, 'zoë  "zee" o\'neil &  <co>', "Vera Koleva"],
)
def test_a_kept_answer_is_the_bytes_of_a_fresh_render(event, typed):
    for other in NAMES:  # every player's page kept, under other typings first
        seat(event, name=other.upper())
    kept = seat(event, name=typed)
    assert kept == fresh(event, name=typed)
    assert "<Co>" not in kept and "&lt;Co&gt;" in kept or ODD not in typed


def test_searches_that_find_nobody_or_several_keep_their_own_text(event, renders):
    several = seat(event, name="georgi")
    assert "Which one are you?" in several and 'value="georgi"' in several
    nobody = seat(event, name="<b>Nobody</b>")
    assert "&lt;b&gt;Nobody&lt;/b&gt;" in nobody and "<b>Nobody" not in nobody
    assert seat(event, name="Georgi") != several  # another address, another answer
    assert len(renders) == 3
