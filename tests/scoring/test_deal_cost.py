"""What a deal's write costs (docs/performance.md "cost per request"): the deal
writes read the live deals as plain values (scoring.selectors.live_deals), never as
DealEntry models, and a deal through the API sends the six statements its floor replays.
Behaviour is the other test files' (test_api, test_services, test_corrections); these pin
the cost and check that the plain values are exactly what the models held."""

import json
from datetime import datetime

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring import selectors, services
from scoring.models import DealEntry, Game

pytestmark = pytest.mark.django_db

PLAYERS = ["Ana", "Boris", "Vera"]
# Nine blato hands in which everyone makes their target: a three-way tie at 0 that the last
# tricks' winners settle.
TIED_BLATO = [{"calls": ["spades"], "tricks": t} for t in ([3, 8, 5], [5, 3, 8], [8, 5, 3])] * 3


def new_game(client) -> dict:
    body = {"ruleset": "blato", "players": PLAYERS, "first_dealer": 0}
    response = client.post("/api/games", body, content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()


def send(client, game, method, path="", body=None):
    url = f"/api/games/{game['id']}/deals{path}"
    data = b"" if body is None else json.dumps(body)
    headers = {"Authorization": f"Bearer {game['token']}"}
    return client.generic(method, url, data, content_type="application/json", headers=headers)


def post(client, game, number, deal):
    return send(client, game, "POST", body={"deal": number, **deal})


def changed_game(client) -> dict:
    """A game with a redeal, an undone deal, a corrected one and the last tricks."""
    game = new_game(client)
    assert post(client, game, 1, {"calls": ["pass"]}).status_code == 201
    for number, deal in enumerate(TIED_BLATO, start=2):
        assert post(client, game, number, deal).status_code == 201
    assert send(client, game, "DELETE", "/10").status_code == 200
    assert post(client, game, 10, TIED_BLATO[-1]).status_code == 201
    assert send(client, game, "PUT", "/3", {"calls": ["spades"], "tricks": [4, 4, 8]})
    assert send(client, game, "PATCH", "/10", {"last_tricks": [0, 1]}).status_code == 200
    return game


def records(game_id: int) -> tuple[list, list]:
    """The live deals as the deal writes read them, and as the models hold them."""
    plain = selectors.live_deals(game_id)
    models = selectors.live_entries(Game.objects.get(pk=game_id))
    return (
        [(deal.pk, deal.as_record()) for deal in plain],
        [(entry.pk, entry.as_record()) for entry in models],
    )


@pytest.fixture
def no_deal_models(monkeypatch):
    """Any DealEntry built from a database row fails the test."""

    def refused(*args, **kwargs):
        raise AssertionError("a deal write built a DealEntry from the database")

    monkeypatch.setattr(DealEntry, "from_db", classmethod(refused))


def test_a_deal_through_the_api_sends_the_six_statements_of_its_floor(client):
    """The token; under the lock the game, its live deals; the deal, the game's new
    columns, the history's row. A seventh would be new work on the busiest write."""
    game = new_game(client)
    assert post(client, game, 1, TIED_BLATO[0]).status_code == 201
    with CaptureQueriesContext(connection) as captured:
        assert post(client, game, 2, TIED_BLATO[1]).status_code == 201
    statements = [
        query["sql"].split()[0].upper()
        for query in captured.captured_queries
        if not query["sql"].upper().startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))
    ]
    assert statements == ["SELECT", "SELECT", "SELECT", "INSERT", "UPDATE", "INSERT"]


def test_the_deal_writes_build_no_deal_model_from_the_database(client, no_deal_models):
    """Recorded, sent again, refused as taken, undone, corrected, a redeal, the last tricks:
    every deal write reads the live deals as values (a model per deal was a fifth of a
    deal's request)."""
    game = new_game(client)
    assert post(client, game, 1, {"calls": ["pass"]}).status_code == 201  # a redeal
    for number, deal in enumerate(TIED_BLATO, start=2):
        assert post(client, game, number, deal).status_code == 201
    assert post(client, game, 10, TIED_BLATO[-1]).status_code == 200  # sent again
    taken = post(client, game, 10, {"calls": ["spades"], "tricks": [8, 3, 5]})
    assert taken.status_code == 409 and "state" in taken.json()
    assert send(client, game, "DELETE", "/10").status_code == 200
    assert post(client, game, 10, TIED_BLATO[-1]).status_code == 201
    assert send(client, game, "PUT", "/2", {"calls": ["spades"], "tricks": [3, 8, 5]}).json()
    corrected = send(client, game, "PUT", "/3", {"calls": ["spades"], "tricks": [4, 4, 8]})
    assert corrected.status_code == 200, corrected.content
    patched = send(client, game, "PATCH", "/10", {"last_tricks": [0, 1]})
    assert patched.status_code == 200, patched.content
    assert patched.json()["state"]["placings"] is not None


def test_the_live_deals_are_the_values_the_models_hold(client):
    """live_deals against live_entries, on a game with a redeal, an undone deal, a
    corrected one and the last tricks: the same rows, in the same order, the same record."""
    game = changed_game(client)
    plain, models = records(game["id"])
    assert plain == models
    assert len(plain) == 10
    assert DealEntry.objects.filter(game_id=game["id"], undone_at__isnull=False).count() == 2
    assert plain[0][1] == {"calls": ["pass"]}
    assert plain[9][1] == {**TIED_BLATO[-1], "last_tricks": [0, 1]}


def test_every_entry_is_the_model_the_orm_makes(client):
    """all_entries (the table page's read) against the queryset it replaces, on a game with
    a redeal, an undone deal, a corrected one and the last tricks: the same models in the
    same order, field for field (JSON columns and times converted as the ORM converts
    them), in one statement, each knowing its game without another query."""
    game = changed_game(client)
    stored = Game.objects.get(pk=game["id"])
    expected = list(stored.entries.order_by("entered_at", "pk"))
    with CaptureQueriesContext(connection) as queries:
        entries = selectors.all_entries(stored)
        assert all(entry.game is stored for entry in entries)
    assert len(queries) == 1
    assert len(entries) == 12 and sum(e.undone_at is not None for e in entries) == 2
    fields = [field.attname for field in DealEntry._meta.concrete_fields]
    assert [[getattr(e, f) for f in fields] for e in entries] == [
        [getattr(e, f) for f in fields] for e in expected
    ]
    assert all(e.entered_at.tzinfo is not None and not e._state.adding for e in entries)
    assert {e._state.db for e in entries} == {e._state.db for e in expected}
    assert selectors.all_entries(Game(pk=stored.pk + 1000)) == []


def test_the_game_record_is_the_same_read_either_way(client):
    """game_record without deals reads them as values; with the models it says the same."""
    game = new_game(client)
    for number, deal in enumerate(TIED_BLATO[:4], start=1):
        assert post(client, game, number, deal).status_code == 201
    stored = Game.objects.get(pk=game["id"])
    assert selectors.game_record(stored) == selectors.game_record(
        stored, selectors.live_entries(stored)
    )
    assert selectors.live_deals(stored.pk + 1000) == []


def test_undo_and_correction_still_mark_the_old_row(client):
    """The rows a write changes are written by id: who undid and when, as before."""
    game = new_game(client)
    for number, deal in enumerate(TIED_BLATO[:3], start=1):
        assert post(client, game, number, deal).status_code == 201
    services.deal_undo(game_id=game["id"], number=3, actor="keeper")
    services.deal_correct(
        game_id=game["id"], number=1, calls=["spades"], tricks=[4, 4, 8], actor="organiser"
    )
    undone = DealEntry.objects.filter(game_id=game["id"], undone_at__isnull=False)
    assert sorted(undone.values_list("number", "undone_by")) == [(1, "organiser"), (3, "keeper")]
    assert all(entry.undone_at is not None for entry in undone)


def test_a_game_is_read_as_the_orm_would(client):
    """The token's read, the locked read, the pages' read and the watchers' mark are plain
    statements: the same game, field for field (JSON columns and times converted as the ORM
    converts them), the token's read deferring the rest; no such game, or an id that is no
    id (or out of the column's range), is Game.DoesNotExist."""
    game = new_game(client)
    for number, deal in enumerate(TIED_BLATO[:2], start=1):
        assert post(client, game, number, deal).status_code == 201
    stored = Game.objects.get(pk=game["id"])
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = selectors.game_locked(game["id"])
    assert len([q for q in queries if q["sql"].startswith("SELECT")]) == 1
    for field in Game._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(stored, field.attname), field.name
    assert locked.totals == stored.totals and isinstance(locked.updated_at, datetime)
    assert locked.updated_at.tzinfo is not None and not locked._state.adding
    page = selectors.game_row(game["id"])
    assert [getattr(page, f.attname) for f in Game._meta.concrete_fields] == [
        getattr(stored, f.attname) for f in Game._meta.concrete_fields
    ]
    assert selectors.game_mark(game["id"]) == (stored.version, stored.updated_at.timestamp())
    assert selectors.game_mark(game["id"] + 1000) is None
    token = selectors.game_token(game["id"])
    only = Game.objects.only("secret").get(pk=game["id"])
    assert (token.pk, token.secret) == (only.pk, only.secret) == (stored.pk, stored.secret)
    assert token.get_deferred_fields() == only.get_deferred_fields()
    for missing in (stored.pk + 1000, "x", None, 2**70, -(2**70)):
        with pytest.raises(Game.DoesNotExist), transaction.atomic():
            selectors.game_locked(missing)
        with pytest.raises(Game.DoesNotExist):
            selectors.game_token(missing)
        with pytest.raises(Game.DoesNotExist):
            selectors.game_row(missing)
