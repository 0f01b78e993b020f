"""A write that arrives late (a phone's offline queue, a retry, a page left open) carries the
game version it was made against; one whose deal changed since, on any phone, is refused
with both sides shown instead of silently overwriting or bringing back what the table did
since. Resending what is already recorded stays a 200, whatever version it carries; a write
without a version is taken as it always was (../shared/spec/http-api.md, "Games").

The attacks, at the service and at the API: a queued correction replayed over another
phone's newer correction; a deal resent after another phone undid it; a late undo of a deal
corrected meanwhile; late trick winners over newer ones; a stale confirmation.
"""

import json

import pytest
from django.test import Client

from scoring import services
from scoring.errors import Conflict, InvalidInput
from scoring.models import DealEntry, Game, GameChange

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Boris", "Vera"]
DEALS = [(["hearts"], [4, 7, 5]), (["spades"], [5, 3, 8]), (["clubs"], [8, 5, 3])]
TIED_BLATO = [(["spades"], [3, 8, 5]), (["spades"], [5, 3, 8]), (["spades"], [8, 5, 3])] * 3


def new_game(deals=DEALS) -> Game:
    game = services.game_create(ruleset="blato", players=NAMES, first_dealer=0)
    for number, (calls, tricks) in enumerate(deals, start=1):
        services.deal_record(game_id=game.pk, number=number, calls=calls, tricks=tricks)
    game.refresh_from_db()
    return game


def live(game: Game, number: int):
    entry = DealEntry.objects.filter(game=game, number=number, undone_at__isnull=True).first()
    return None if entry is None else (entry.calls, entry.tricks, entry.last_tricks)


def untouched(game: Game):
    """What a refused write must leave as it was."""
    game.refresh_from_db()
    return (game.version, DealEntry.objects.filter(game=game).count(), game.changes.count())


# --- the service -----------------------------------------------------------------------------


def test_a_late_correction_never_overwrites_a_newer_correction_of_the_same_deal():
    game = new_game()
    seen = game.version  # both phones saw the sheet at this version
    services.deal_correct(
        game_id=game.pk, number=2, calls=["spades"], tricks=[5, 4, 7], actor="a", version=seen
    )
    before = untouched(game)
    with pytest.raises(Conflict) as refused:
        services.deal_correct(
            game_id=game.pk, number=2, calls=["spades"], tricks=[6, 3, 7], actor="b", version=seen
        )
    assert refused.value.code == "deal_stale"
    assert refused.value.params == {
        "n": 2,
        "hand": 2,
        "redeal": False,
        "yours": seen,
        "current": seen + 1,
    }
    assert untouched(game) == before
    assert live(game, 2) == (["spades"], [5, 4, 7], None)
    # Made against the version it now is (the keeper saw the other correction): taken.
    services.deal_correct(
        game_id=game.pk, number=2, calls=["spades"], tricks=[6, 3, 7], version=seen + 1
    )
    assert live(game, 2) == (["spades"], [6, 3, 7], None)


def test_a_resent_correction_is_answered_as_recorded_whatever_version_it_carries():
    game = new_game()
    seen = game.version
    first = services.deal_correct(
        game_id=game.pk, number=2, calls=["spades"], tricks=[5, 4, 7], version=seen
    )
    assert first.created
    before = untouched(game)
    again = services.deal_correct(
        game_id=game.pk, number=2, calls=["spades"], tricks=[5, 4, 7], version=seen
    )
    assert not again.created and untouched(game) == before


def test_a_change_to_another_deal_does_not_make_a_write_stale():
    game = new_game()
    seen = game.version
    services.deal_correct(game_id=game.pk, number=1, calls=["hearts"], tricks=[5, 6, 5])
    services.deal_correct(
        game_id=game.pk, number=3, calls=["clubs"], tricks=[7, 6, 3], version=seen
    )
    assert live(game, 3) == (["clubs"], [7, 6, 3], None)
    recorded = services.deal_record(game_id=game.pk, number=4, calls=["pass"], version=seen)
    assert recorded.created


def test_a_deal_resent_after_another_phone_undid_it_does_not_come_back():
    game = new_game(DEALS[:2])
    made_at = game.version  # this phone enters deal 3 at this version
    calls, tricks = DEALS[2]
    services.deal_record(game_id=game.pk, number=3, calls=calls, tricks=tricks, version=made_at)
    # The answer is lost; another phone undoes deal 3.
    services.deal_undo(game_id=game.pk, number=3, actor="other")
    before = untouched(game)
    with pytest.raises(Conflict) as refused:
        services.deal_record(game_id=game.pk, number=3, calls=calls, tricks=tricks, version=made_at)
    assert refused.value.code == "deal_stale"
    assert refused.value.params == {
        "n": 3,
        "hand": 3,
        "redeal": False,
        "yours": made_at,
        "current": made_at + 2,
    }
    assert untouched(game) == before and live(game, 3) is None
    # A phone that sends no version is taken as before: the deal is recorded.
    assert services.deal_record(game_id=game.pk, number=3, calls=calls, tricks=tricks).created


def test_a_resent_deal_still_recorded_is_answered_as_recorded_with_an_older_version():
    game = new_game(DEALS[:2])
    made_at = game.version
    calls, tricks = DEALS[2]
    services.deal_record(game_id=game.pk, number=3, calls=calls, tricks=tricks, version=made_at)
    services.deal_correct(game_id=game.pk, number=1, calls=["hearts"], tricks=[5, 6, 5])
    before = untouched(game)
    again = services.deal_record(
        game_id=game.pk, number=3, calls=calls, tricks=tricks, version=made_at
    )
    assert not again.created and untouched(game) == before


def test_a_late_undo_never_takes_away_a_correction_it_did_not_see():
    game = new_game()
    seen = game.version
    services.deal_correct(game_id=game.pk, number=3, calls=["clubs"], tricks=[7, 6, 3])
    before = untouched(game)
    with pytest.raises(Conflict) as refused:
        services.deal_undo(game_id=game.pk, number=3, version=seen)
    assert refused.value.code == "undo_stale"
    assert refused.value.params == {
        "n": 3,
        "hand": 3,
        "redeal": False,
        "yours": seen,
        "current": seen + 1,
    }
    assert untouched(game) == before and live(game, 3) == (["clubs"], [7, 6, 3], None)
    # A change to another deal since does not stop it.
    services.deal_correct(game_id=game.pk, number=1, calls=["hearts"], tricks=[5, 6, 5])
    services.deal_undo(game_id=game.pk, number=3, version=seen + 1)
    assert live(game, 3) is None


def test_late_trick_winners_never_overwrite_newer_ones_and_a_resend_changes_nothing():
    game = new_game(TIED_BLATO)
    seen = game.version
    services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[2, 0], version=seen)
    before = untouched(game)
    again = services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[2, 0], version=seen)
    assert not again.created and untouched(game) == before
    with pytest.raises(Conflict) as refused:
        services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[0, 1], version=seen)
    assert refused.value.code == "deal_stale"
    assert untouched(game) == before and live(game, 9)[2] == [2, 0]


def test_a_stale_confirmation_never_confirms_a_result_its_keeper_has_not_seen():
    game = new_game(TIED_BLATO)
    services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[2, 0])
    game.refresh_from_db()
    shown = game.version
    # Another phone corrects a deal: the result the keeper's page shows is no longer so.
    services.deal_correct(game_id=game.pk, number=1, calls=["spades"], tricks=[4, 7, 5])
    before = untouched(game)
    with pytest.raises(Conflict) as refused:
        services.game_confirm(game_id=game.pk, actor="Boris", version=shown)
    assert refused.value.code == "confirm_stale"
    assert refused.value.params == {"yours": shown, "current": shown + 1}
    assert untouched(game) == before and not game.confirmed
    services.game_confirm(game_id=game.pk, actor="Boris", version=shown + 1)
    game.refresh_from_db()
    assert game.confirmed
    # A resent confirmation finds it confirmed: answered as it is.
    assert services.game_confirm(game_id=game.pk, actor="Boris", version=shown + 1).confirmed


@pytest.mark.parametrize("version", [-1, True, "3", 2.5, [3]])
def test_a_version_that_is_no_version_is_refused(version):
    game = new_game(DEALS[:2])
    with pytest.raises(InvalidInput) as refused:
        services.deal_record(
            game_id=game.pk, number=3, calls=["clubs"], tricks=[8, 5, 3], version=version
        )
    assert refused.value.code == "version_invalid"


def test_each_change_is_stamped_with_the_version_it_made():
    game = new_game()
    services.deal_undo(game_id=game.pk, number=3)
    stamps = list(game.changes.order_by("pk").values_list("action", "version"))
    assert stamps == [
        (GameChange.Action.CREATED, 1),
        (GameChange.Action.DEAL_RECORDED, 2),
        (GameChange.Action.DEAL_RECORDED, 3),
        (GameChange.Action.DEAL_RECORDED, 4),
        (GameChange.Action.DEAL_UNDONE, 5),
    ]


# --- the API ---------------------------------------------------------------------------------


def api(method, game, path="", body=None):
    client = Client()
    data = b"" if body is None else json.dumps(body)
    return client.generic(
        method,
        f"/api/games/{game.pk}/deals{path}",
        data,
        content_type="application/json",
        headers={"Authorization": f"Bearer {game.secret}"},
    )


def test_every_answer_about_a_game_says_its_version():
    game = new_game()
    body = Client().get(f"/api/games/{game.pk}").json()
    assert body["version"] == game.version == 4  # created, three deals
    answer = api("POST", game, body={"deal": 4, "calls": ["pass"]})
    assert answer.status_code == 201 and answer.json()["version"] == 5
    created = Client().post(
        "/api/games", {"ruleset": "blato", "players": NAMES}, content_type="application/json"
    )
    assert created.json()["version"] == 1


def test_api_a_queued_correction_replayed_late_is_refused_with_both_sides():
    game = new_game()
    seen = game.version
    first = api("PUT", game, "/2", {"calls": ["spades"], "tricks": [5, 4, 7], "version": seen})
    assert first.status_code == 200 and first.json()["version"] == seen + 1
    before = untouched(game)
    late = api("PUT", game, "/2", {"calls": ["spades"], "tricks": [6, 3, 7], "version": seen})
    assert late.status_code == 409, late.content
    body = late.json()
    assert body["error"]["message"].startswith("hand 2 changed on another phone")
    assert body["error"]["yours"] == {
        "version": seen,
        "deal": {"deal": 2, "calls": ["spades"], "tricks": [6, 3, 7]},
    }
    assert body["error"]["current"] == {
        "version": seen + 1,
        "deal": {"deal": 2, "calls": ["spades"], "tricks": [5, 4, 7]},
    }
    assert body["version"] == seen + 1
    assert body["state"]["deals"][1]["tricks"] == [5, 4, 7]
    assert untouched(game) == before
    # The same values again, with the older version: 200, nothing recorded twice.
    again = api("PUT", game, "/2", {"calls": ["spades"], "tricks": [5, 4, 7], "version": seen})
    assert again.status_code == 200 and untouched(game) == before
    # Without a version, as the spec has always had it: the correction is taken.
    plain = api("PUT", game, "/2", {"calls": ["spades"], "tricks": [6, 3, 7]})
    assert plain.status_code == 200 and live(game, 2) == (["spades"], [6, 3, 7], None)


def test_api_a_deal_resent_after_another_phone_undid_it_is_refused_not_recorded_again():
    game = new_game(DEALS[:2])
    made_at = game.version
    deal = {"deal": 3, "calls": ["clubs"], "tricks": [8, 5, 3], "version": made_at}
    assert api("POST", game, body=deal).status_code == 201
    assert api("POST", game, body=deal).status_code == 200  # a resend: recorded once
    assert api("DELETE", game, "/3", {"version": made_at + 1}).status_code == 200  # other phone
    before = untouched(game)
    late = api("POST", game, body=deal)
    assert late.status_code == 409, late.content
    body = late.json()
    assert body["error"]["yours"]["version"] == made_at
    assert body["error"]["yours"]["deal"] == {"deal": 3, "calls": ["clubs"], "tricks": [8, 5, 3]}
    assert body["error"]["current"] == {"version": made_at + 2, "deal": None}
    assert len(body["state"]["deals"]) == 2 and body["version"] == made_at + 2
    assert untouched(game) == before and live(game, 3) is None
    # Sent again against the version it now is (the keeper chose to keep it): recorded.
    again = api("POST", game, body={**deal, "version": made_at + 2})
    assert again.status_code == 201 and live(game, 3) == (["clubs"], [8, 5, 3], None)


def test_api_a_deal_recorded_first_otherwise_shows_both_sides_too():
    game = new_game(DEALS[:2])
    services.deal_record(game_id=game.pk, number=3, calls=["clubs"], tricks=[8, 5, 3])
    clash = api("POST", game, body={"deal": 3, "calls": ["hearts"], "tricks": [4, 7, 5]})
    assert clash.status_code == 409
    error = clash.json()["error"]
    assert error["yours"] == {
        "version": None,
        "deal": {"deal": 3, "calls": ["hearts"], "tricks": [4, 7, 5]},
    }
    assert error["current"]["deal"] == {"deal": 3, "calls": ["clubs"], "tricks": [8, 5, 3]}


def test_api_a_late_undo_and_late_trick_winners_are_refused():
    game = new_game()
    seen = game.version
    services.deal_correct(game_id=game.pk, number=3, calls=["clubs"], tricks=[7, 6, 3])
    before = untouched(game)
    late = api("DELETE", game, "/3", {"version": seen})
    assert late.status_code == 409 and untouched(game) == before
    assert late.json()["error"]["yours"] == {"version": seen, "deal": None}
    assert late.json()["error"]["current"]["deal"]["tricks"] == [7, 6, 3]
    # An undo's other bodies are ignored, as before.
    assert api("DELETE", game, "/3", "not an object").status_code == 200

    tied = new_game(TIED_BLATO)
    seen = tied.version
    assert api("PATCH", tied, "/9", {"last_tricks": [2, 0], "version": seen}).status_code == 200
    assert api("PATCH", tied, "/9", {"last_tricks": [2, 0], "version": seen}).status_code == 200
    before = untouched(tied)
    late = api("PATCH", tied, "/9", {"last_tricks": [0, 1], "version": seen})
    assert late.status_code == 409 and untouched(tied) == before
    assert late.json()["error"]["current"]["deal"]["last_tricks"] == [2, 0]


@pytest.mark.parametrize("version", [-1, True, "3", 2.5])
def test_api_a_version_that_is_no_version_answers_400(version):
    game = new_game(DEALS[:2])
    before = untouched(game)
    body = {"deal": 3, "calls": ["clubs"], "tricks": [8, 5, 3], "version": version}
    answer = api("POST", game, body=body)
    assert answer.status_code == 400 and "version" in answer.json()["error"]["message"]
    assert untouched(game) == before


def test_api_a_late_confirmation_is_refused_with_both_versions():
    game = new_game(TIED_BLATO)
    services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[2, 0])
    game.refresh_from_db()
    seen = game.version
    services.deal_correct(game_id=game.pk, number=1, calls=["spades"], tricks=[4, 7, 5])
    url = f"/api/games/{game.pk}/confirm"
    headers = {"Authorization": f"Bearer {game.secret}"}
    late = Client().post(url, {"version": seen}, content_type="application/json", headers=headers)
    assert late.status_code == 409, late.content
    body = late.json()
    assert body["error"]["yours"] == {"version": seen}
    assert body["error"]["current"] == {"version": seen + 1}
    assert body["version"] == seen + 1 and "state" in body
    assert not Game.objects.get(pk=game.pk).confirmed
    done = Client().post(
        url, {"version": seen + 1}, content_type="application/json", headers=headers
    )
    assert done.status_code == 200 and done.json()["confirmed"] is True
    # Sent again (a retry of the one that locked it), with its now older version: as it is.
    again = Client().post(
        url, {"version": seen + 1}, content_type="application/json", headers=headers
    )
    assert again.status_code == 200 and again.json()["confirmed"] is True
    # No version, no body: as before.
    plain = Client().post(url, "", content_type="application/json", headers=headers)
    assert plain.status_code == 200
