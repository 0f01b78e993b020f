"""The keeper who also plays: her phone keeps the table and, once it has proven who she is,
speaks for her own seat from the keeper's page, one tap for her seat's word and the keeper's.
A proven player's phone is not asked again who it is, and the confirmation box counts the
people still to confirm, by name, never more confirmations than there are players."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game, Quorum, SeatClaim, Verdict
from tests.tournaments.test_seat_attacks import (
    claim_and_agree,
    evening,
    keeper_confirms_by_api,
    phone,
    prove,
)
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def keeper_phone(game: Game, event=None, name: str | None = None) -> Client:
    """A phone that opened the table's keeper link (proven first as `name`, if given)."""
    client = phone()
    if name is not None:
        prove(client, event, name)
    answer = client.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    assert answer.status_code in (200, 302)
    return client


def keeper_page(client: Client, game: Game) -> str:
    return client.get(reverse("scoring:table", args=[game.pk])).content.decode()


def confirm_as_seat(client: Client, game: Game, seat: int):
    """The keeper page's one tap "Confirm as X (seat n) and as keeper"."""
    game.refresh_from_db()
    return client.post(
        reverse("scoring:confirm", args=[game.pk]),
        {"player": seat, "version": game.version, "as_seat": "1"},
    )


@pytest.mark.parametrize("quorum", [Quorum.ALL, Quorum.KEEPER_AND_ONE])
def test_the_keeper_who_plays_confirms_her_own_seat_from_the_keeper_page(
    django_capture_on_commit_callbacks, quorum
):
    event, _table, game = evening(quorum, django_capture_on_commit_callbacks)
    ana = game.players[0]
    keeper = keeper_phone(game, event, ana)
    page = keeper_page(keeper, game)
    assert f"Confirm as {ana} (seat 1) and as keeper" in page
    assert "A second player checks the score sheet" not in page
    assert confirm_as_seat(keeper, game, 0).status_code in (200, 302)
    claim = SeatClaim.objects.get(game=game)
    assert (claim.seat, claim.proof) == (0, SeatClaim.Proof.CODE)
    entry = Entry.objects.get(event=event, player__name=ana)
    assert Verdict.objects.get(game=game, seat=None).person == f"entry:{entry.pk}"
    assert Verdict.objects.get(game=game, seat=0).agrees
    game.refresh_from_db()
    assert not game.confirmed
    # Her word counts once: the others' own phones complete the quorum.
    boris = phone()
    prove(boris, event, game.players[1])
    assert claim_and_agree(boris, game, 1) == 302
    game.refresh_from_db()
    if quorum == Quorum.ALL:
        assert not game.confirmed
        vera = phone()
        prove(vera, event, game.players[2])
        assert claim_and_agree(vera, game, 2) == 302
        game.refresh_from_db()
    assert game.confirmed


def test_the_keepers_token_alone_speaks_for_no_seat(django_capture_on_commit_callbacks):
    event, _table, game = evening(Quorum.ALL, django_capture_on_commit_callbacks)
    keeper = keeper_phone(game)
    page = keeper_page(keeper, game)
    assert "and as keeper" not in page
    assert reverse("tournaments:seat", args=[event.slug]) in page  # prove it first
    confirm_as_seat(keeper, game, 0)
    assert not SeatClaim.objects.filter(game=game).exists()
    assert Verdict.objects.get(game=game, seat=None).person == ""


def test_a_proven_phone_is_not_asked_who_it_is(django_capture_on_commit_callbacks):
    event, _table, game = evening(Quorum.ALL, django_capture_on_commit_callbacks)
    vera = phone()
    prove(vera, event, game.players[2])
    seat_page = vera.get(reverse("tournaments:seat", args=[event.slug])).content.decode()
    assert reverse("scoring:me", args=[game.pk]) in seat_page  # straight to her word
    page = vera.get(reverse("scoring:me", args=[game.pk])).content.decode()
    assert "claim-form" not in page and "verdict-form" in page
    answer = vera.post(reverse("scoring:verdict", args=[game.pk]), {"verdict": "agree"})
    assert answer.status_code == 302
    claim = SeatClaim.objects.get(game=game)
    assert (claim.seat, claim.proof) == (2, SeatClaim.Proof.CODE)
    assert Verdict.objects.get(game=game, seat=2).agrees


def waiting(client: Client, game: Game) -> str:
    page = client.get(reverse("scoring:table", args=[game.pk])).content.decode()
    start = page.index('<p class="quorum">')
    return " ".join(page[start : page.index("</p>", start)].split())


def test_the_box_counts_the_people_still_to_confirm(django_capture_on_commit_callbacks):
    event, _table, game = evening(Quorum.ALL, django_capture_on_commit_callbacks)
    ana, boris, vera = game.players
    watcher = phone()
    assert waiting(watcher, game).endswith(f"Waiting for {ana}, {boris} and {vera}.")
    keeper = keeper_phone(game, event, ana)
    confirm_as_seat(keeper, game, 0)
    line = waiting(keeper, game)
    assert line.endswith(f"Waiting for {boris} and {vera}.") and "more confirmation" not in line
    for seat in (1, 2):
        player = phone()
        prove(player, event, game.players[seat])
        player.post(reverse("scoring:claim", args=[game.pk]), {"seat": seat})
        if seat == 1:
            player.post(reverse("scoring:verdict", args=[game.pk]), {"verdict": "agree"})
    assert waiting(watcher, game).endswith(f"Waiting for {vera}.")


def test_the_box_counts_people_when_one_more_player_will_do(django_capture_on_commit_callbacks):
    event, _table, game = evening(Quorum.KEEPER_AND_ONE, django_capture_on_commit_callbacks)
    ana, boris, vera = game.players
    assert waiting(phone(), game).endswith(f"Waiting for {ana}, {boris} or {vera}.")
    keeper_confirms_by_api(game)  # a keeper who proved nobody: two players must agree
    assert waiting(phone(), game).endswith(f"Waiting for 2 of {ana}, {boris} and {vera}.")


def test_the_box_names_the_keeper_alone_last(django_capture_on_commit_callbacks):
    event, _table, game = evening(Quorum.ALL, django_capture_on_commit_callbacks)
    for seat in range(3):
        player = phone()
        prove(player, event, game.players[seat])
        claim_and_agree(player, game, seat)
    assert waiting(phone(), game).endswith("Waiting for the score-keeper.")
