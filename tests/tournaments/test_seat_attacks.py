"""The attacks on the players' confirmations, as an outside probe made them: one person with
three cookie jars speaking for all three seats, a stranger claiming the seats of a round
before the players do, and the keeper alone meeting "keeper + one other" with the table's
token and one fresh cookie. Each drives the real pages and API, as a phone would."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game, Quorum, SeatClaim
from tests.scoring.test_manage import finish
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry
from tournaments.rounds.services.rounds import round_create, round_publish

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Boris", "Vera"]


def evening(quorum: str, capture):
    """An event asking `quorum`, three players, its one table published and finished."""
    club = club_create(name="Club")
    event = event_create(club=club, name="Evening", seed=3, confirm_quorum=quorum)
    players_register(event=event, names=NAMES, checked_in=True)
    with capture(execute=True):
        round_ = round_create(event=event)
    round_.refresh_from_db()
    round_publish(round_=round_, actor="olga")
    table = round_.tables.get()
    return event, table, finish(table.game)


def phone() -> Client:
    """A fresh phone: its own cookie jar, with the CSRF checks a browser meets."""
    return Client()


def claim_and_agree(client: Client, game: Game, seat: int) -> int:
    """ "I am X" then "Confirm the result"; the claim's status code."""
    answer = client.post(reverse("scoring:claim", args=[game.pk]), {"seat": seat})
    client.post(reverse("scoring:verdict", args=[game.pk]), {"verdict": "agree"})
    return answer.status_code


def keeper_confirms_by_api(game: Game) -> dict:
    answer = Client().post(
        f"/api/games/{game.pk}/confirm",
        "{}",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.secret}",
    )
    return json.loads(answer.content)


def prove(client: Client, event, name: str) -> None:
    """This phone proves it is `name`'s: "This is me" with the player's personal code."""
    entry = Entry.objects.get(event=event, player__name=name)
    answer = client.post(
        reverse("tournaments:seat_me", args=[event.slug]),
        {"player": entry.player_id, "code": entry.code},
    )
    assert answer.status_code == 302


def test_one_person_with_three_cookie_jars_cannot_confirm_for_all_three(
    django_capture_on_commit_callbacks,
):
    _event, _table, game = evening(Quorum.ALL, django_capture_on_commit_callbacks)
    keeper_confirms_by_api(game)
    for seat in range(3):
        claim_and_agree(phone(), game, seat)
    game.refresh_from_db()
    assert not game.confirmed
    assert not SeatClaim.objects.filter(game=game).exists()


def test_a_stranger_cannot_claim_the_seats_of_a_round_before_its_players(
    django_capture_on_commit_callbacks,
):
    event, table, game = evening(Quorum.ALL, django_capture_on_commit_callbacks)
    stranger = phone()
    statuses = [
        stranger.post(reverse("scoring:claim", args=[game.pk]), {"seat": seat}).status_code
        for seat in range(3)
    ]
    assert statuses == [409, 409, 409]
    assert not SeatClaim.objects.filter(game=game).exists()
    # The real player, once her phone has proven who she is, claims her own seat.
    vera = phone()
    prove(vera, event, table.seats[2].name)
    assert claim_and_agree(vera, game, 2) == 302
    assert SeatClaim.objects.get(game=game).seat == 2


def test_the_tables_token_and_one_fresh_cookie_do_not_make_keeper_and_one(
    django_capture_on_commit_callbacks,
):
    _event, _table, game = evening(Quorum.KEEPER_AND_ONE, django_capture_on_commit_callbacks)
    assert keeper_confirms_by_api(game)["confirmed"] is False
    assert claim_and_agree(phone(), game, 1) == 409
    game.refresh_from_db()
    assert not game.confirmed
    body = keeper_confirms_by_api(game)
    assert body["confirmed"] is False and body["waiting_for"] >= 1
