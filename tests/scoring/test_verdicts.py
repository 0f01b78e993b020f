"""Every player confirms on their own phone: the quorum rule, seat claims and their reset,
verdicts bound to the game's version, and the pages that carry them."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.errors import Conflict, InvalidInput
from scoring.models import Game, GameChange, Quorum, SeatClaim, Verdict
from scoring.services.verdicts import quorum_met
from scoring.signals import Person
from scoring.views.seat_claim import COOKIE
from tests.scoring.test_manage import event_game, finish, login  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

K, K1, ALL = Quorum.KEEPER, Quorum.KEEPER_AND_ONE, Quorum.ALL


# --- the quorum rule, every quorum × who confirmed ------------------------------------------


@pytest.mark.parametrize(
    ("quorum", "keeper", "seats", "met"),
    [
        (K, False, set(), False),
        (K, True, set(), True),
        (K, False, {0, 1, 2}, False),
        (K1, True, set(), False),
        (K1, False, {1}, False),
        (K1, True, {1}, True),
        (K1, True, {0, 1, 2}, True),
        (ALL, True, {0, 1}, False),
        (ALL, False, {0, 1, 2}, False),
        (ALL, True, {0, 1, 2}, True),
    ],
)
def test_the_quorum_rule(quorum, keeper, seats, met):
    assert quorum_met(quorum, keeper=keeper, seats=seats) is met


def test_the_keepers_own_seat_is_not_another_player():
    assert not quorum_met(K1, keeper=True, seats={0}, keeper_seats={0})
    assert quorum_met(K1, keeper=True, seats={0, 2}, keeper_seats={0})


def test_a_dispute_stops_the_lock_unless_the_keeper_alone_decides():
    assert not quorum_met(K1, keeper=True, seats={1}, disputed=True)
    assert not quorum_met(ALL, keeper=True, seats={0, 1, 2}, disputed=True)
    assert quorum_met(K, keeper=True, seats=set(), disputed=True)


# --- the services ---------------------------------------------------------------------------


def _game(quorum=K1) -> Game:
    game = services.game_create(ruleset="blato", players=["Ana", "Boris", "Vera"])
    Game.objects.filter(pk=game.pk).update(quorum=quorum)
    return finish(Game.objects.get(pk=game.pk))


#: Where the players of `_game` sit; "stranger" sits nowhere.
SEATED = {"ana": 0, "boris": 1, "vera": 2}


def who(name: str) -> Person:
    """The person a phone has proven to be, as an event would answer (scoring.signals)."""
    return Person(f"entry:{name}", name.title(), SEATED.get(name))


def cookie(game, name: str) -> str:
    """The holder of a phone known only by its own cookie (anyone's word)."""
    return services.holder_digest(game.pk, f"token-of-{name}-phone")


def phone(game, name: str) -> str:
    """The holder of a phone that proved it is `name`'s."""
    return services.person_holder(game.pk, who(name))


def claim(game, seat: int, name: str, **extra) -> int:
    """ "I am X" from a phone that proved it is `name`'s (its cookie sent along, as always)."""
    return services.seat_claim(
        game_id=game.pk, seat=seat, holder=cookie(game, name), person=who(name), **extra
    )


def test_a_seat_is_claimed_once_and_a_phone_claims_one_seat():
    game = _game(K)  # keeper alone: a phone's own cookie claims, as in a casual game
    services.seat_claim(game_id=game.pk, seat=1, holder=cookie(game, "boris"))
    services.seat_claim(game_id=game.pk, seat=1, holder=cookie(game, "boris"))  # again: no change
    with pytest.raises(Conflict) as taken:
        services.seat_claim(game_id=game.pk, seat=1, holder=cookie(game, "stranger"))
    assert taken.value.code == "seat_taken"
    assert "organiser" in taken.value.message
    with pytest.raises(Conflict) as second:
        services.seat_claim(game_id=game.pk, seat=2, holder=cookie(game, "boris"))
    assert second.value.code == "phone_has_seat"
    with pytest.raises(InvalidInput):
        services.seat_claim(game_id=game.pk, seat=3, holder=cookie(game, "x"))
    assert SeatClaim.objects.filter(game=game).count() == 1
    assert game.changes.filter(action=GameChange.Action.SEAT_CLAIMED).count() == 1
    assert SeatClaim.objects.get(game=game).proof == SeatClaim.Proof.PHONE


@pytest.mark.parametrize("quorum", [K1, ALL])
def test_where_the_players_are_asked_only_the_proven_player_claims_their_seat(quorum):
    game = _game(quorum)
    refusals = {}
    for name, seat in [("stranger", 0), ("boris", 2)]:
        with pytest.raises(Conflict) as refused:
            claim(game, seat, name)
        refusals[name] = refused.value.code
    with pytest.raises(Conflict) as unproven:
        services.seat_claim(game_id=game.pk, seat=1, holder=cookie(game, "boris"))
    assert refusals == {"stranger": "seat_not_at_table", "boris": "seat_not_yours"}
    assert unproven.value.code == "seat_prove_first"
    claim(game, 1, "boris")
    claim(game, 1, "boris")  # again, from another of Boris's phones: the same claim
    made = SeatClaim.objects.get(game=game)
    assert (made.seat, made.proof, made.person) == (1, SeatClaim.Proof.CODE, "entry:boris")


def test_a_proven_player_takes_their_seat_from_an_unproven_claim():
    game = _game(K)
    services.seat_claim(game_id=game.pk, seat=2, holder=cookie(game, "stranger"))
    services.result_dispute(game_id=game.pk, holder=cookie(game, "stranger"), reason="nonsense")
    Game.objects.filter(pk=game.pk).update(quorum=ALL)  # the organiser asks the players now
    claim(game, 2, "vera")
    made = SeatClaim.objects.get(game=game)
    assert (made.proof, made.person) == (SeatClaim.Proof.CODE, "entry:vera")
    assert not Verdict.objects.filter(game=game, seat=2).exists()  # the stranger's words go


def test_an_unproven_claim_from_before_counts_nothing_where_the_players_are_asked():
    game = _game(K)
    for seat, name in enumerate(("ana", "boris", "vera")):
        services.seat_claim(game_id=game.pk, seat=seat, holder=cookie(game, name))
        services.result_agree(game_id=game.pk, holder=cookie(game, name))
    Game.objects.filter(pk=game.pk).update(quorum=ALL)
    game = services.game_confirm(game_id=game.pk, actor="table", by_keeper=True)
    assert not game.confirmed and services.waiting_for(game) == 3


def test_the_organisers_say_so_confirms_for_a_player():
    game = _game(ALL)
    services.game_confirm(game_id=game.pk, actor="table", by_keeper=True)
    claim(game, 0, "ana")
    services.result_agree(game_id=game.pk, holder=phone(game, "ana"))
    game = services.seat_vouch(game_id=game.pk, seat=1, actor="olga")
    assert not game.confirmed and services.waiting_for(game) == 1
    game = services.seat_vouch(game_id=game.pk, seat=0, actor="olga")  # Ana proved: kept
    assert SeatClaim.objects.get(game=game, seat=0).proof == SeatClaim.Proof.CODE
    assert SeatClaim.objects.get(game=game, seat=1).proof == SeatClaim.Proof.ORGANISER
    game = services.seat_vouch(game_id=game.pk, seat=2, actor="olga")
    assert game.confirmed and game.confirmed_by == "Ana, Boris, Vera"


def test_a_player_proven_later_takes_over_the_organisers_say_so_and_keeps_its_word():
    game = _game(ALL)
    services.seat_vouch(game_id=game.pk, seat=2, actor="olga")
    claim(game, 2, "vera")
    made = SeatClaim.objects.get(game=game)
    assert (made.proof, made.person) == (SeatClaim.Proof.CODE, "entry:vera")
    assert Verdict.objects.get(game=game, seat=2).agrees


def test_the_keeper_and_one_player_lock_the_result_in_either_order():
    game = _game(K1)
    # The keeper's phone proved it is Ana's: Vera is "one other".
    services.game_confirm(
        game_id=game.pk, actor="table", by_keeper=True, keeper_person=who("ana").key
    )
    game.refresh_from_db()
    assert not game.confirmed
    assert services.waiting_for(game) == 1
    claim(game, 2, "vera")
    game = services.result_agree(game_id=game.pk, holder=phone(game, "vera"))
    assert game.confirmed
    assert game.confirmed_by == "Vera"
    actions = list(game.changes.values_list("action", flat=True))
    assert actions[-3:] == ["seat_claimed", "result_agreed", "confirmed"]

    other = _game(K1)
    claim(other, 0, "ana")
    services.result_agree(game_id=other.pk, holder=phone(other, "ana"))
    other.refresh_from_db()
    assert not other.confirmed  # the keeper has not confirmed yet
    other = services.game_confirm(
        game_id=other.pk, actor="table", by_keeper=True, keeper_person=who("vera").key
    )
    assert other.confirmed


def test_a_keeper_who_proved_nobody_could_be_anyone_so_two_players_are_needed():
    game = _game(K1)
    game = services.game_confirm(game_id=game.pk, actor="table", by_keeper=True)  # the token
    assert services.waiting_for(game) == 2
    claim(game, 0, "ana")
    game = services.result_agree(game_id=game.pk, holder=phone(game, "ana"))
    assert not game.confirmed and services.waiting_for(game) == 1
    claim(game, 1, "boris")
    assert services.result_agree(game_id=game.pk, holder=phone(game, "boris")).confirmed


def test_the_keepers_own_seat_is_not_another_player_when_the_keeper_proved_who_she_is():
    game = _game(K1)
    services.game_confirm(
        game_id=game.pk, actor="Ana", by_keeper=True, keeper_person=who("ana").key
    )
    claim(game, 0, "ana")
    game = services.result_agree(game_id=game.pk, holder=phone(game, "ana"))
    assert not game.confirmed and services.waiting_for(game) == 1
    claim(game, 2, "vera")
    assert services.result_agree(game_id=game.pk, holder=phone(game, "vera")).confirmed


def test_all_three_need_every_seat():
    game = _game(ALL)
    services.game_confirm(game_id=game.pk, actor="table", by_keeper=True)
    for seat, name in enumerate(("ana", "boris")):
        claim(game, seat, name)
        game = services.result_agree(game_id=game.pk, holder=phone(game, name))
        assert not game.confirmed
    assert services.waiting_for(game) == 1
    claim(game, 2, "vera")
    assert services.result_agree(game_id=game.pk, holder=phone(game, "vera")).confirmed


def test_the_keeper_alone_locks_as_before():
    game = _game(K)
    assert services.game_confirm(game_id=game.pk, actor="Ana", by_keeper=True).confirmed


def test_an_organisers_confirmation_always_locks():
    game = _game(ALL)
    assert services.game_confirm(game_id=game.pk, actor="olga").confirmed


def test_a_seat_player_keeps_nothing_locked_without_the_keeper_strangers_cannot_lock():
    game = _game(K1)
    with pytest.raises(Conflict) as unclaimed:
        services.result_agree(game_id=game.pk, holder=phone(game, "stranger"))
    assert unclaimed.value.code == "no_seat_here"
    # The keeper's phone claiming a seat is not "another player".
    claim(game, 0, "ana", keeper_phone=True)
    services.game_confirm(
        game_id=game.pk, actor="table", by_keeper=True, keeper_person=who("ana").key
    )
    game = services.result_agree(game_id=game.pk, holder=phone(game, "ana"))
    assert not game.confirmed


def test_a_dispute_needs_a_reason_and_stops_the_lock():
    game = _game(K1)
    claim(game, 1, "boris")
    with pytest.raises(InvalidInput):
        services.result_dispute(game_id=game.pk, holder=phone(game, "boris"), reason="  ")
    services.result_dispute(
        game_id=game.pk, holder=phone(game, "boris"), reason="deal 3: I took 6, not 5"
    )
    claim(game, 2, "vera")
    services.result_agree(game_id=game.pk, holder=phone(game, "vera"))
    game = services.game_confirm(game_id=game.pk, actor="table", by_keeper=True)
    assert not game.confirmed
    change = game.changes.get(action=GameChange.Action.RESULT_DISPUTED)
    assert (change.actor, change.reason) == ("Boris", "deal 3: I took 6, not 5")


def test_a_correction_after_the_verdicts_asks_again():
    game = _game(K1)
    claim(game, 2, "vera")
    services.result_agree(game_id=game.pk, holder=phone(game, "vera"))
    services.deal_undo(game_id=game.pk, number=9)  # the game changes: a new version
    game = finish(Game.objects.get(pk=game.pk))
    game = services.game_confirm(
        game_id=game.pk, actor="table", by_keeper=True, keeper_person=who("ana").key
    )
    assert not game.confirmed  # Vera's word was on the old version
    assert services.result_agree(game_id=game.pk, holder=phone(game, "vera")).confirmed


def test_a_reopened_result_asks_again():
    game = _game(K1)
    services.game_confirm(game_id=game.pk, actor="olga")
    services.game_reopen(game_id=game.pk, actor="olga", reason="check deal 2")
    claim(game, 2, "vera")
    game = services.result_agree(game_id=game.pk, holder=phone(game, "vera"))
    assert not game.confirmed and services.waiting_for(game) == 2  # the keeper, and one more


def test_a_reset_frees_the_seat_and_drops_its_verdicts():
    game = _game(K)
    services.seat_claim(game_id=game.pk, seat=1, holder=cookie(game, "stranger"))
    services.result_agree(game_id=game.pk, holder=cookie(game, "stranger"))
    services.claim_reset(game_id=game.pk, seat=1, actor="olga")
    assert not Verdict.objects.filter(game=game, seat=1).exists()
    services.seat_claim(game_id=game.pk, seat=1, holder=cookie(game, "boris"))
    with pytest.raises(Conflict):
        services.claim_reset(game_id=game.pk, seat=0, actor="olga")
    assert game.changes.filter(action=GameChange.Action.CLAIM_RESET).count() == 1


# --- the pages ------------------------------------------------------------------------------


def test_a_phone_claims_confirms_and_a_second_phone_is_refused():
    game = _game(K)  # keeper alone (a casual game): the phone's cookie claims
    vera = Client()
    page = vera.get(reverse("scoring:me", args=[game.pk]) + "?seat=2")
    assert page.status_code == 200 and "I am Vera" in page.content.decode()
    answer = vera.post(reverse("scoring:claim", args=[game.pk]), {"seat": "2"})
    assert answer.status_code == 302 and COOKIE in answer.cookies
    stranger = Client()
    refused = stranger.post(reverse("scoring:claim", args=[game.pk]), {"seat": "2"})
    assert refused.status_code == 409
    assert "ask the organiser to reset it" in refused.content.decode()
    missing = vera.post(reverse("scoring:verdict", args=[game.pk]), {"verdict": "wrong"})
    assert missing.status_code == 400
    vera.post(reverse("scoring:verdict", args=[game.pk]), {"verdict": "agree"})
    assert Verdict.objects.get(game=game, seat=2).agrees
    game.refresh_from_db()
    assert not game.confirmed


def test_a_stranger_without_a_seat_cannot_confirm():
    game = _game(K1)
    answer = Client().post(reverse("scoring:verdict", args=[game.pk]), {"verdict": "agree"})
    assert answer.status_code == 409
    assert not Verdict.objects.exists()


def test_only_the_organiser_resets_an_event_claim_and_the_keeper_a_casual_one(event_game):  # noqa: F811
    game, organiser = event_game
    game = finish(game)
    services.seat_claim(game_id=game.pk, seat=0, holder=cookie(game, "x"))
    url = reverse("scoring:claim_reset", args=[game.pk, 0])
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    assert keeper.post(url).status_code == 403  # an event's keeper may not
    assert organiser.post(url).status_code == 302
    assert not SeatClaim.objects.filter(game=game).exists()

    casual = _game(K)
    services.seat_claim(game_id=casual.pk, seat=0, holder=cookie(casual, "x"))
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[casual.pk, casual.secret]))
    assert Client().post(reverse("scoring:claim_reset", args=[casual.pk, 0])).status_code == 403
    assert keeper.post(reverse("scoring:claim_reset", args=[casual.pk, 0])).status_code == 302
    assert not SeatClaim.objects.filter(game=casual).exists()


def test_the_keeper_page_waits_for_the_quorum_and_shows_a_dispute():
    game = _game(K1)
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    keeper.post(reverse("scoring:confirm", args=[game.pk]), {"player": "0"})
    game.refresh_from_db()
    assert not game.confirmed
    claim(game, 2, "vera")
    services.result_dispute(game_id=game.pk, holder=phone(game, "vera"), reason="deal 4 wrong")
    page = keeper.get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert "deal 4 wrong" in page and "says it is wrong" in page


def test_an_organiser_on_the_table_page_locks_at_once():
    game = _game(ALL)
    client = login("root", is_superuser=True)
    client.post(reverse("scoring:confirm", args=[game.pk]), {"player": "0"})
    game.refresh_from_db()
    assert game.confirmed


def test_a_players_word_changes_the_table_pages_etag_and_the_keeper_is_not_asked_twice():
    game = _game(K1)
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    url = reverse("scoring:table", args=[game.pk])
    assert "confirm-form" in keeper.get(url).content.decode()
    keeper.post(reverse("scoring:confirm", args=[game.pk]), {"player": "0"})
    first = keeper.get(url)
    assert "confirm-form" not in first.content.decode()  # the keeper's word is given
    claim(game, 2, "vera")
    services.result_dispute(game_id=game.pk, holder=phone(game, "vera"), reason="deal 2")
    again = keeper.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and "deal 2" in again.content.decode()


def test_a_casual_games_keeper_sees_the_claims_to_reset():
    game = _game(K)
    services.seat_claim(game_id=game.pk, seat=1, holder=cookie(game, "boris"))
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    page = keeper.get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert "Reset the claim of Boris" in page
    watcher = Client().get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert "Reset the claim of Boris" not in watcher


def test_the_players_confirmation_page_signs_the_totals_as_the_table_page_does():
    """A player checks the result on their own phone: "+6" there too, not "6"."""
    game = _game(K)
    Game.objects.filter(pk=game.pk).update(totals=[6, -2, 0])  # the page shows what is stored
    vera = Client()
    vera.post(reverse("scoring:claim", args=[game.pk]), {"seat": "2"})
    html = vera.get(reverse("scoring:me", args=[game.pk])).content.decode()
    for shown in ("+6", "\u22122", "0"):
        assert f'<span class="points">{shown}</span>' in html
