"""The organiser's page for a game, keeper rights that follow the secret, and stopping keeping."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Game, GameChange
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.rounds.services.rounds import round_create, round_publish

pytestmark = pytest.mark.django_db


def _rotate(tricks, first_dealer, number):
    dealer = (first_dealer + number - 1) % 3
    return [tricks[(seat - dealer) % 3] for seat in range(3)]


def finish(game: Game) -> Game:
    """Nine hands in which everyone makes their target, and the last tricks for the tie."""
    for number in range(1, 10):
        services.deal_record(
            game_id=game.pk,
            number=number,
            calls=["spades"],
            tricks=_rotate((3, 8, 5), game.first_dealer, number),
        )
    services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[0, 1])
    return Game.objects.get(pk=game.pk)


def login(username: str, **extra) -> Client:
    user = get_user_model().objects.create_user(username=username, password="pw", **extra)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def event_game(django_capture_on_commit_callbacks):
    """A game at an event's table, and a client for that event's organiser."""
    club = club_create(name="Club")
    organiser = get_user_model().objects.create_user(username="olga", password="pw")
    event = event_create(club=club, name="Evening", organisers=[organiser], seed=3)
    players_register(event=event, names=["Ana", "Boris", "Vera"], checked_in=True)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = round_create(event=event)  # pairs the round once the write commits
    round_.refresh_from_db()
    round_publish(round_=round_, actor="olga")
    table = round_.tables.get()
    client = Client()
    client.force_login(organiser)
    return table.game, client


def manage_url(game, name="manage"):
    return reverse(f"scoring:{name}", args=[game.pk])


def test_anonymous_is_sent_to_log_in_and_others_are_refused(event_game, client):
    game, _ = event_game
    response = client.get(manage_url(game))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    stranger = login("stranger")
    assert stranger.get(manage_url(game)).status_code == 403
    assert stranger.post(manage_url(game, "manage_secret")).status_code == 403
    assert Game.objects.get(pk=game.pk).secret == game.secret


def test_an_organiser_of_another_event_is_refused(event_game):
    game, _ = event_game
    other = get_user_model().objects.create_user(username="petar")
    club = club_create(name="Other club")
    event_create(club=club, name="Other", organisers=[other])
    client = Client()
    client.force_login(other)
    assert client.get(manage_url(game)).status_code == 403


def test_a_superuser_manages_a_game_outside_any_event():
    game = services.game_create(ruleset="blato", players=["A", "B", "C"], first_dealer=0)
    admin = login("root", is_superuser=True)
    page = admin.get(manage_url(game)).content.decode()
    # States and history read as words, capitalised; labels carry no colon.
    assert "Result: <strong>In play</strong>" in page
    assert "<strong>Game created</strong>" in page
    assert '<label for="id_secret-reason">Reason</label>' in page and ":</label>" not in page
    assert game.secret in page  # the keeper link is the organiser's to hand out
    assert login("plain").get(manage_url(game)).status_code == 403


def test_reopening_needs_a_reason_and_is_written_down(event_game):
    game, organiser = event_game
    finish(game)
    services.game_confirm(game_id=game.pk, actor="Ana")
    response = organiser.post(manage_url(game, "manage_reopen"), {"reopen-reason": "  "})
    assert response.status_code == 400
    assert Game.objects.get(pk=game.pk).confirmed
    response = organiser.post(
        manage_url(game, "manage_reopen"), {"reopen-reason": "deal 4 tricks were swapped"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.result == Game.Result.FINISHED
    change = game.changes.get(action=GameChange.Action.REOPENED)
    assert (change.actor, change.reason) == ("olga", "deal 4 tricks were swapped")
    page = organiser.get(manage_url(game)).content.decode()
    assert "deal 4 tricks were swapped" in page and "olga" in page


def test_the_organiser_corrects_on_the_table_page_and_confirms(event_game):
    game, organiser = event_game
    finish(game)
    game.refresh_from_db()
    undo = organiser.post(
        reverse("scoring:undo", args=[game.pk]), {"deal": 9, "version": game.version}
    )
    assert undo.status_code == 302
    entry = game.entries.get(number=9)
    assert entry.undone_by == "olga"
    assert organiser.post(manage_url(game, "manage_confirm")).status_code == 409
    finish_again = services.deal_record(
        game_id=game.pk, number=9, calls=["spades"], tricks=_rotate((3, 8, 5), game.first_dealer, 9)
    )
    services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[0, 1])
    assert finish_again.created
    assert organiser.post(manage_url(game, "manage_confirm")).status_code == 302
    game.refresh_from_db()
    assert game.confirmed and game.confirmed_by == "olga"
    page = organiser.get(manage_url(game)).content.decode()
    assert 'class="undone"' in page


def test_a_new_secret_ends_every_phone_keeping_with_the_old_one(event_game):
    game, organiser = event_game
    phone = Client()
    old_secret = game.secret
    assert phone.get(reverse("scoring:keep", args=[game.pk, old_secret])).status_code == 302
    assert 'action="/games/' in phone.get(reverse("scoring:table", args=[game.pk])).content.decode()
    response = organiser.post(manage_url(game, "manage_secret"), {"secret-reason": "card lost"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.secret != old_secret
    deal = phone.post(reverse("scoring:call", args=[game.pk]), {"deal": 1, "call": "spades"})
    assert deal.status_code == 403
    assert phone.get(reverse("scoring:keep", args=[game.pk, old_secret])).status_code == 403
    assert phone.get(reverse("scoring:keep", args=[game.pk, game.secret])).status_code == 302
    change = game.changes.get(action=GameChange.Action.SECRET_REPLACED)
    assert change.actor == "olga" and change.reason == "card lost"
    assert old_secret not in str(change.data) and game.secret not in str(change.data)


def test_stop_keeping_on_this_phone(client):
    response = client.post(
        reverse("scoring:game_new"),
        {
            "ruleset": "blato",
            "first_dealer": "0",
            "exchange_order": "target",
            "player_0": "A",
            "player_1": "B",
            "player_2": "C",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    page = client.get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert "Stop keeping the score on this phone" in page
    assert client.post(reverse("scoring:release", args=[game.pk])).status_code == 302
    page = client.get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert "Stop keeping the score on this phone" not in page
    call = client.post(reverse("scoring:call", args=[game.pk]), {"deal": 1, "call": "spades"})
    assert call.status_code == 403


def test_the_manage_page_costs_the_same_queries_however_long_the_game(
    event_game, django_assert_max_num_queries
):
    game, organiser = event_game
    with django_assert_max_num_queries(12):
        assert organiser.get(manage_url(game)).status_code == 200
    finish(game)
    with django_assert_max_num_queries(12):
        assert organiser.get(manage_url(game)).status_code == 200


def test_the_history_words_deals_and_placings_for_people(event_game):
    game, organiser = event_game
    finish(game)
    services.game_confirm(game_id=game.pk, actor="Ana")
    game.refresh_from_db()
    page = organiser.get(manage_url(game)).content.decode()
    names = game.players
    placings = ", ".join(f"{n}. {names[seat]}" for n, seat in enumerate(game.placings, 1))
    assert f"placings: {placings}" in page
    assert "calls: spades; tricks:" in page and "last tricks won by" in page
    bulgarian = organiser.get(manage_url(game), HTTP_ACCEPT_LANGUAGE="bg").content.decode()
    assert "пика" in bulgarian and "spades" not in bulgarian
