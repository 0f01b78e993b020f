"""An event's quorum on its tables' games, and a disputed table reaching the organiser."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring import services as scoring
from scoring.models import Game, Quorum, SeatClaim
from scoring.signals import Person
from tests.scoring.test_manage import finish
from tournaments.common.errors import TournamentError
from tournaments.events.services.event import club_create, event_create, event_update
from tournaments.events.services.registration import players_register
from tournaments.rounds.services.rounds import round_create, round_publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(django_capture_on_commit_callbacks):
    """An event asking all three players, its round published; the organiser's client."""
    club = club_create(name="Club")
    organiser = get_user_model().objects.create_user(username="olga", password="pw")
    event = event_create(
        club=club, name="Evening", organisers=[organiser], seed=3, confirm_quorum=Quorum.ALL
    )
    players_register(event=event, names=["Ana", "Boris", "Vera"], checked_in=True)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = round_create(event=event)
    round_.refresh_from_db()
    round_publish(round_=round_, actor="olga")
    client = Client()
    client.force_login(organiser)
    return event, round_, round_.tables.get(), client


def proven(table, seat: int) -> dict:
    """What a phone that proved it is the player in `seat` claims with (scoring.signals)."""
    entry = table.round.event.entries.get(player_id=table.seat_ids[seat])
    person = Person(f"entry:{entry.pk}", entry.player.name, seat)
    holder = scoring.holder_digest(table.game_id, f"cookie-{seat}")
    return {"holder": holder, "person": person}


def claim(table, seat: int) -> str:
    """The seat claimed by its proven player; the holder their word is given as."""
    scoring.seat_claim(game_id=table.game_id, seat=seat, **proven(table, seat))
    return scoring.person_holder(table.game_id, proven(table, seat)["person"])


def test_the_events_quorum_is_copied_to_each_tables_game(evening):
    _event, _round, table, _client = evening
    assert table.game.quorum == Quorum.ALL


def test_changing_the_setting_moves_the_open_games_not_the_locked_ones(evening):
    event, _round, table, _client = evening
    event_update(event=event, actor="olga", confirm_quorum=Quorum.KEEPER_AND_ONE)
    assert Game.objects.get(pk=table.game_id).quorum == Quorum.KEEPER_AND_ONE
    game = finish(table.game)
    scoring.game_confirm(game_id=game.pk, actor="olga")
    event_update(event=event, actor="olga", confirm_quorum=Quorum.KEEPER)
    assert Game.objects.get(pk=game.pk).quorum == Quorum.KEEPER_AND_ONE


def test_an_unknown_quorum_is_refused(evening):
    event, *_ = evening
    with pytest.raises(TournamentError):
        event_update(event=event, actor="olga", confirm_quorum="everyone")


def test_a_dispute_reaches_the_round_page_with_every_sides_words(evening):
    event, round_, table, client = evening
    game = finish(table.game)
    vera, ana = claim(table, 2), claim(table, 0)
    scoring.result_agree(game_id=game.pk, holder=ana)
    scoring.result_dispute(game_id=game.pk, holder=vera, reason="deal 5: I made my 8")
    url = reverse("tournaments:organise_round", args=[event.slug, round_.number])
    page = client.get(url).content.decode()
    assert "Disputed results" in page
    assert "deal 5: I made my 8" in page
    partial = client.get(url + "?part=results", HTTP_HX_REQUEST="true").content.decode()
    assert "deal 5: I made my 8" in partial
    # The organiser resets Vera's claim from the round page and comes back to it.
    answer = client.post(reverse("scoring:claim_reset", args=[game.pk, 2]), {"next": url})
    assert answer.status_code == 302 and answer["Location"] == url
    assert not SeatClaim.objects.filter(game=game, seat=2).exists()
    assert "Disputed results" not in client.get(url).content.decode()


def test_the_table_page_lists_the_claims_to_reset(evening):
    event, round_, table, client = evening
    finish(table.game)
    claim(table, 1)
    boris = table.seat_1.name
    url = reverse("tournaments:organise_table", args=[event.slug, round_.number, table.number])
    page = client.get(url).content.decode()
    assert f"Reset the claim of {boris}" in page
    assert "personal code" in page  # how the seat was proven


def test_the_settings_form_offers_the_quorum(evening):
    event, _round, _table, client = evening
    page = client.get(reverse("tournaments:organise_settings", args=[event.slug]))
    assert page.status_code == 200
    assert 'name="confirm_quorum"' in page.content.decode()


def test_the_tables_token_waits_for_the_quorum_and_says_how_many(evening):
    _event, _round, table, client = evening
    game = finish(table.game)
    api = Client()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {game.secret}"}
    url = f"/api/games/{game.pk}/confirm"
    body = api.post(url, "{}", content_type="application/json", **auth).json()
    assert body["confirmed"] is False and body["waiting_for"] == 3  # the three seats
    again = api.post(url, "{}", content_type="application/json", **auth).json()
    assert again["waiting_for"] == 3  # the keeper's word counts once
    for seat in range(3):
        scoring.result_agree(game_id=game.pk, holder=claim(table, seat))
    assert Game.objects.get(pk=game.pk).confirmed
    done = api.post(url, "{}", content_type="application/json", **auth).json()
    assert done["confirmed"] is True and "waiting_for" not in done
