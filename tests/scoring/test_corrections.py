"""Correcting any deal: the service and `PUT /api/games/{id}/deals/{n}`.

A mistake found at deal 5 in deal 3 costs one correction: the whole game is replayed with
the corrected deal; when a later deal no longer fits, nothing is saved and the answer names
that deal; the old values stay in the history.
"""

import json

import pytest
from django.test import Client
from django.utils import translation

import engine
from scoring import rule_words, services
from scoring.errors import Conflict, DealRejected, InvalidInput
from scoring.models import DealEntry, Game, GameChange
from scoring.selectors import game_record, game_state_json, live_entries

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Boris", "Vera"]
# Blato, Ana deals first: Boris calls in deal 1, Vera in 2, Ana in 3; in deal 4 Boris
# passes (a redeal), Boris calls again in deal 5.
DEALS = [
    (["hearts"], [4, 7, 5]),
    (["spades"], [5, 3, 8]),
    (["clubs"], [8, 5, 3]),
    (["pass"], None),
    (["hearts"], [4, 7, 5]),
]


def new_game(deals=DEALS):
    game = services.game_create(ruleset="blato", players=NAMES, first_dealer=0)
    for number, (calls, tricks) in enumerate(deals, start=1):
        services.deal_record(game_id=game.pk, number=number, calls=calls, tricks=tricks)
    game.refresh_from_db()
    return game


def expected_state(game, number, calls, tricks):
    record = game_record(game)
    record["deals"][number - 1] = {"calls": calls, **({"tricks": tricks} if tricks else {})}
    return engine.state_as_json(engine.replay(record))


def test_a_deal_three_hands_back_is_corrected_in_one_step_and_the_old_values_kept():
    game = new_game()
    want = expected_state(game, 2, ["spades"], [5, 4, 7])
    recorded = services.deal_correct(
        game_id=game.pk, number=2, calls=["spades"], tricks=[5, 4, 7], actor="table"
    )
    assert recorded.created
    game.refresh_from_db()
    assert game_state_json(game) == want
    assert game.totals == want["totals"]
    assert game.version == 7  # created, five deals, one correction
    live = live_entries(game)
    assert [entry.number for entry in live] == [1, 2, 3, 4, 5]
    assert live[1].tricks == [5, 4, 7] and live[1].entered_by == "table"
    old = DealEntry.objects.get(game=game, number=2, undone_at__isnull=False)
    assert old.tricks == [5, 3, 8] and old.undone_by == "table"
    change = game.changes.get(action=GameChange.Action.DEAL_CORRECTED)
    assert change.deal_number == 2 and change.actor == "table"
    assert change.data["before"] == {"calls": ["spades"], "tricks": [5, 3, 8]}
    assert change.data["after"] == {"calls": ["spades"], "tricks": [5, 4, 7]}


def test_the_same_values_again_change_nothing_and_record_nothing_twice():
    game = new_game()
    for _ in range(2):
        services.deal_correct(game_id=game.pk, number=2, calls=["spades"], tricks=[5, 4, 7])
    again = services.deal_correct(game_id=game.pk, number=2, calls=["spades"], tricks=[5, 4, 7])
    assert not again.created
    game.refresh_from_db()
    assert game.version == 7
    assert game.changes.filter(action=GameChange.Action.DEAL_CORRECTED).count() == 1
    assert DealEntry.objects.filter(game=game, number=2).count() == 2


def test_a_correction_that_breaks_a_later_deal_saves_nothing_and_names_that_deal():
    game = new_game()
    before = (game.version, DealEntry.objects.count(), GameChange.objects.count())
    # Ana passes in deal 3 instead of calling clubs: the redeal keeps her as the caller of
    # deal 4, where she would pass a second time.
    with pytest.raises(DealRejected) as caught:
        services.deal_correct(game_id=game.pk, number=3, calls=["pass"])
    assert caught.value.rule.deal == 4
    assert caught.value.message == "seat 0 has no pass left"
    with translation.override("en"):
        text = rule_words.correction_refusal(caught.value, 3, NAMES, live_entries(game))
    # Named as the players count hands (deal 4 was redealt: the fourth hand dealt again).
    assert text == (
        "Nothing was saved. With hand 3 corrected, hand 4 (dealt again) no longer fits: Ana "
        "has no pass left. Correct hand 4 (dealt again) first, then hand 3."
    )
    with translation.override("bg"):
        assert "Ana" in rule_words.correction_refusal(caught.value, 3, NAMES, live_entries(game))
    game.refresh_from_db()
    assert (game.version, DealEntry.objects.count(), GameChange.objects.count()) == before


def test_a_correction_the_deal_itself_breaks_names_the_deal():
    game = new_game()
    with pytest.raises(DealRejected) as caught:
        services.deal_correct(game_id=game.pk, number=2, calls=["spades"], tricks=[5, 3, 9])
    assert caught.value.rule.deal == 2
    with translation.override("en"):
        assert rule_words.correction_refusal(caught.value, 2, NAMES, live_entries(game)) == (
            "Nothing was saved. Hand 2 cannot be so: The tricks add up to 17; they must add "
            "up to 16."
        )


def test_a_confirmed_result_is_reopened_first_and_unknown_deals_are_refused():
    game = services.game_create(ruleset="three-five-eight", players=NAMES, first_dealer=0)
    for number in (1, 2):
        services.deal_record(game_id=game.pk, number=number, calls=["hearts"], tricks=[16, 0, 0])
    services.game_confirm(game_id=game.pk, actor="Vera")
    with pytest.raises(Conflict, match="confirmed"):
        services.deal_correct(game_id=game.pk, number=1, calls=["spades"], tricks=[16, 0, 0])
    services.game_reopen(game_id=game.pk, actor="org", reason="wrong suit")
    services.deal_correct(
        game_id=game.pk, number=1, calls=["spades"], tricks=[16, 0, 0], actor="org"
    )
    with pytest.raises(Conflict, match="not on the score sheet yet"):
        services.deal_correct(game_id=game.pk, number=3, calls=["spades"], tricks=[16, 0, 0])
    for bad in (0, -1, "1", True, None):
        with pytest.raises(InvalidInput):
            services.deal_correct(game_id=game.pk, number=bad, calls=["spades"])


# --- the API ----------------------------------------------------------------------------------


def put(client, game, number, body, token=None):
    token = game.secret if token is None else token
    return client.generic(
        "PUT",
        f"/api/games/{game.pk}/deals/{number}",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )


def test_put_corrects_any_deal_as_the_spec_says():
    client = Client()
    game = new_game()
    want = expected_state(game, 1, ["hearts"], [5, 6, 5])
    body = {"calls": ["hearts"], "tricks": [5, 6, 5]}
    response = put(client, game, 1, body)
    assert response.status_code == 200, response.content
    assert response.json() == {"id": game.pk, "players": NAMES, "state": want, "version": 7}
    again = put(client, game, 1, {**body, "deal": 1})
    assert again.status_code == 200 and again.json()["state"] == want
    assert game.changes.filter(action=GameChange.Action.DEAL_CORRECTED).count() == 1
    change = game.changes.get(action=GameChange.Action.DEAL_CORRECTED)
    assert change.actor == "api"


def test_put_names_the_first_deal_that_fails_and_changes_nothing():
    client = Client()
    game = new_game()
    response = put(client, game, 3, {"calls": ["pass"]})
    assert response.status_code == 400
    assert response.json() == {"error": {"message": "seat 0 has no pass left", "deal": 4}}
    own = put(client, game, 3, {"calls": ["clubs"], "tricks": [8, 5, 4]})
    assert own.status_code == 400 and own.json()["error"]["deal"] == 3
    game.refresh_from_db()
    assert game.version == 6


def test_put_refusals_have_the_spec_statuses():
    client = Client()
    game = new_game()
    body = {"calls": ["hearts"], "tricks": [5, 6, 5]}
    assert put(client, game, 1, {**body, "deal": 2}).status_code == 400
    assert put(client, game, 1, {**body, "deal": True}).status_code == 400
    assert put(client, game, 1, {"tricks": [5, 6, 5]}).status_code == 400
    assert put(client, game, 1, {"calls": "hearts"}).status_code == 400
    assert put(client, game, 1, body, token="wrong").status_code == 403
    no_token = client.generic(
        "PUT", f"/api/games/{game.pk}/deals/1", json.dumps(body), content_type="application/json"
    )
    assert no_token.status_code == 401
    assert put(client, game, 9, body).status_code == 409
    Game.objects.filter(pk=game.pk).update(result=Game.Result.CONFIRMED)
    locked = put(client, game, 1, body)
    assert locked.status_code == 409
    assert "confirmed" in locked.json()["error"]["message"] and "state" in locked.json()
    missing = client.generic(
        "PUT",
        "/api/games/987654/deals/1",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": "Bearer x"},
    )
    assert missing.status_code == 404


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_corrections_of_one_deal_are_written_once_each_on_postgresql():
    import threading

    from django.db import connection

    game = new_game()
    bodies = [{"calls": ["spades"], "tricks": [5, 4, 7]}] * 4 + [
        {"calls": ["spades"], "tricks": [6, 3, 7]}
    ] * 2
    barrier = threading.Barrier(len(bodies))
    results = []

    def send(body):
        try:
            barrier.wait()
            done = services.deal_correct(game_id=game.pk, number=2, **body)
            results.append("created" if done.created else "same")
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            results.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(body,)) for body in bodies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(set(results)) <= ["created", "same"], results
    live = DealEntry.objects.filter(game=game, number=2, undone_at__isnull=True)
    assert live.count() == 1
    corrections = game.changes.filter(action=GameChange.Action.DEAL_CORRECTED).count()
    assert corrections == results.count("created")
    assert DealEntry.objects.filter(game=game, number=2).count() == 1 + corrections
