"""The scoring services: every write to a game, checked against the engine's own answers."""

import threading

import pytest
from django.db import connection

import engine
from scoring import services
from scoring.errors import Conflict, DealRejected, InvalidInput
from scoring.models import DealEntry, Game, GameChange
from scoring.selectors import game_record, game_state_json
from scoring.signals import game_confirmed

pytestmark = pytest.mark.django_db

TIED_BLATO = [(["spades"], [3, 8, 5]), (["spades"], [5, 3, 8]), (["spades"], [8, 5, 3])] * 3


def new_game(ruleset="blato", **kwargs):
    kwargs.setdefault("first_dealer", 0)
    return services.game_create(ruleset=ruleset, players=["Ana", "Boris", "Vera"], **kwargs)


def play(game, deals):
    for calls, tricks in deals:
        number = game.entries.filter(undone_at__isnull=True).count() + 1
        services.deal_record(game_id=game.pk, number=number, calls=calls, tricks=tricks)
    game.refresh_from_db()
    return game


def test_create_checks_names_ruleset_and_options():
    game = services.game_create(ruleset="blato", players=["  Ana  Maria ", "Boris", "Vera"])
    assert game.players == ["Ana Maria", "Boris", "Vera"]
    assert game.first_dealer in (0, 1, 2)
    assert len(game.secret) >= 43  # 32 random bytes
    assert game.changes.get().action == GameChange.Action.CREATED
    for bad in (
        dict(ruleset="poker", players=["A", "B", "C"]),
        dict(ruleset="blato", players=["A", "B"]),
        dict(ruleset="blato", players=["A", " ", "C"]),
        dict(ruleset="blato", players=["A", "B", "C" * 81]),
        dict(ruleset="blato", players=["A", "B", "C"], options={"hands": 0}),
        dict(ruleset="blato", players=["A", "B", "C"], first_dealer=3),
    ):
        with pytest.raises(InvalidInput):
            services.game_create(**bad)
    assert Game.objects.count() == 1


def test_the_stored_state_is_the_engines_replay():
    game = play(new_game(), [(["pass"], None), (["hearts"], [4, 7, 5]), (["spades"], [7, 2, 7])])
    record = game_record(game)
    assert game_state_json(game) == engine.state_as_json(engine.replay(record))
    assert game.totals == [3, -2, -1]
    assert game.result == Game.Result.IN_PLAY
    assert game.version == 4  # created, then three deals


def test_a_deal_the_engine_refuses_is_not_stored():
    game = new_game()
    with pytest.raises(DealRejected, match="add up to 16"):
        services.deal_record(game_id=game.pk, number=1, calls=["spades"], tricks=[5, 5, 5])
    with pytest.raises(DealRejected):
        services.deal_record(game_id=game.pk, number=1, calls=["miz"], tricks=[3, 8, 5])
    assert not DealEntry.objects.exists()
    game.refresh_from_db()
    assert game.version == 1


def test_resending_a_deal_records_it_once_and_a_different_one_conflicts():
    game = new_game()
    first = services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[4, 7, 5])
    again = services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[4, 7, 5])
    assert (first.created, again.created) == (True, False)
    with pytest.raises(Conflict, match="other values"):
        services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[5, 6, 5])
    with pytest.raises(Conflict, match="the next is hand 2"):
        services.deal_record(game_id=game.pk, number=3, calls=["hearts"], tricks=[5, 6, 5])
    assert DealEntry.objects.count() == 1


@pytest.mark.parametrize("number", [0, -1, "1", 1.0, True, None])
def test_the_deal_number_must_be_a_positive_whole_number(number):
    game = new_game()
    with pytest.raises(InvalidInput):
        services.deal_record(game_id=game.pk, number=number, calls=["hearts"], tricks=[4, 7, 5])


def test_undo_keeps_the_deal_in_the_history_and_only_the_last_one_goes():
    game = play(new_game(), [(["hearts"], [4, 7, 5]), (["spades"], [7, 2, 7])])
    with pytest.raises(Conflict, match="only the last hand"):
        services.deal_undo(game_id=game.pk, number=1, actor="table")
    services.deal_undo(game_id=game.pk, number=2, actor="table", reason="wrong tricks")
    game.refresh_from_db()
    assert game.totals == [1, -1, 0]
    undone = DealEntry.objects.get(number=2)
    assert undone.undone_at is not None and undone.undone_by == "table"
    change = game.changes.get(action=GameChange.Action.DEAL_UNDONE)
    assert (change.deal_number, change.reason) == (2, "wrong tricks")
    # the number is free again, and the new deal 2 lives beside the undone one
    services.deal_record(game_id=game.pk, number=2, calls=["clubs"], tricks=[6, 3, 7])
    assert DealEntry.objects.filter(number=2).count() == 2


def test_a_tie_asks_for_trick_winners_then_confirming_locks_the_result():
    game = play(new_game(), TIED_BLATO)
    assert game.result == Game.Result.FINISHED and game.placings is None
    with pytest.raises(Conflict, match="settled placings"):
        services.game_confirm(game_id=game.pk, actor="Boris")
    with pytest.raises(Conflict, match="last deal"):
        services.last_tricks_add(game_id=game.pk, number=8, last_tricks=[2])
    with pytest.raises(DealRejected, match="names seat 0"):
        services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[0] * 9)
    services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[2])
    assert game_state_json(game)["needs"] == {"last_tricks": 2}
    services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[2, 0], actor="table")
    game.refresh_from_db()
    assert game.placings == [2, 0, 1]
    with pytest.raises(DealRejected, match="finished"):
        services.deal_record(game_id=game.pk, number=10, calls=["spades"], tricks=[3, 8, 5])
    services.game_confirm(game_id=game.pk, actor="Boris")
    game.refresh_from_db()
    assert game.confirmed and game.confirmed_by == "Boris"
    for locked in (
        lambda: services.deal_record(game_id=game.pk, number=10, calls=["spades"], tricks=[1]),
        lambda: services.deal_undo(game_id=game.pk, number=9),
        lambda: services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[1]),
    ):
        with pytest.raises(Conflict, match="confirmed"):
            locked()


@pytest.mark.django_db(transaction=True)
def test_listeners_hear_of_a_confirmation_only_after_it_commits():
    game = play(new_game("three-five-eight"), [(["hearts"], [16, 0, 0])] * 2)
    heard = []
    game_confirmed.connect(
        lambda sender, game, **kw: heard.append(game.pk), weak=False, dispatch_uid="test-heard"
    )
    try:
        services.game_confirm(game_id=game.pk, actor="Vera")
    finally:
        game_confirmed.disconnect(dispatch_uid="test-heard")
    assert heard == [game.pk]


def test_reopening_needs_a_reason_and_is_logged():
    game = play(new_game("three-five-eight"), [(["hearts"], [16, 0, 0])] * 2)
    services.game_confirm(game_id=game.pk, actor="Vera")
    with pytest.raises(InvalidInput):
        services.game_reopen(game_id=game.pk, actor="org", reason="  ")
    services.game_reopen(game_id=game.pk, actor="org", reason="tricks mistyped")
    game.refresh_from_db()
    assert game.result == Game.Result.FINISHED
    assert game.changes.get(action=GameChange.Action.REOPENED).reason == "tricks mistyped"
    services.deal_undo(game_id=game.pk, number=2, actor="org")


def test_a_replaced_secret_works_and_the_old_one_does_not():
    game = new_game()
    old = game.secret
    assert services.secret_matches(game, old)
    services.secret_replace(game_id=game.pk, actor="org")
    game.refresh_from_db()
    assert game.secret != old
    assert services.secret_matches(game, game.secret) and not services.secret_matches(game, old)
    assert not services.secret_matches(game, None) and not services.secret_matches(game, "")
    change = game.changes.get(action=GameChange.Action.SECRET_REPLACED)
    assert old not in str(change.data) and game.secret not in str(change.data)


def test_unknown_games_are_not_found():
    with pytest.raises(Game.DoesNotExist):
        services.deal_record(game_id=987654, number=1, calls=["hearts"], tricks=[4, 7, 5])


def _race(game_id, bodies):
    """Send the bodies at once from threads; return what each got back."""
    barrier = threading.Barrier(len(bodies))
    results = [None] * len(bodies)

    def send(index, body):
        try:
            barrier.wait()
            outcome = services.deal_record(game_id=game_id, number=1, **body)
            results[index] = "created" if outcome.created else "same"
        except Conflict:
            results[index] = "conflict"
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            results[index] = repr(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i, body)) for i, body in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(results)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_deals_are_recorded_once_on_postgresql():
    game = new_game()
    same = {"calls": ["hearts"], "tricks": [4, 7, 5]}
    assert _race(game.pk, [same] * 6) == ["created"] + ["same"] * 5
    other = new_game()
    bodies = [{"calls": ["hearts"], "tricks": [4 + i, 7 - i, 5]} for i in range(5)]
    assert _race(other.pk, bodies) == ["conflict"] * 4 + ["created"]
    for each in (game, other):
        assert DealEntry.objects.filter(game=each, undone_at__isnull=True).count() == 1
        each.refresh_from_db()
        assert each.version == 2
