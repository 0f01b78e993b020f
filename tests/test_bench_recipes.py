"""bench.request_cost.recipes.capturing: a captured write leaves no row behind.

The floors replay what a request sent on the very rows it was captured on, so the capture
must undo its writes. On SQLite it once did not: with autocommit off, the view's first
SAVEPOINT opened the transaction and its RELEASE committed it. These run on whatever database
the settings name: SQLite by default, PostgreSQL when DATABASE_URL points at it.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import connection, transaction

from bench.request_cost.recipes import capturing

pytestmark = pytest.mark.django_db(transaction=True)  # real commits and rollbacks


def words(steps: list[dict]) -> list[str]:
    return [step["sql"].lstrip().split()[0].upper() for step in steps]


def test_a_write_in_the_views_transaction_is_recorded_and_undone():
    with capturing() as steps:
        with transaction.atomic():  # the view's outermost block, as a service opens it
            Group.objects.create(name="captured in a block")
            assert Group.objects.filter(name="captured in a block").exists()
    assert not Group.objects.filter(name="captured in a block").exists()
    assert "INSERT" in words(steps)
    assert "SAVEPOINT" not in words(steps) and "RELEASE" not in words(steps)
    assert all(step["atomic"] for step in steps)


def test_a_write_outside_any_block_is_recorded_as_such_and_undone():
    with capturing() as steps:
        Group.objects.create(name="captured bare")
    assert not Group.objects.filter(name="captured bare").exists()
    assert words(steps) == ["INSERT"]
    assert steps[0]["atomic"] is False


def test_a_nested_block_keeps_its_savepoints_and_the_capture_leaves_autocommit_as_it_was():
    with capturing() as steps:
        with transaction.atomic():
            Group.objects.create(name="outer")
            with transaction.atomic():
                Group.objects.create(name="inner")
    assert Group.objects.filter(name__in=["outer", "inner"]).count() == 0
    assert words(steps).count("SAVEPOINT") == 1  # the inner block's, as the request sent it
    assert connection.get_autocommit() and not connection.in_atomic_block


def test_a_failing_block_still_leaves_nothing():
    with pytest.raises(RuntimeError), capturing():
        Group.objects.create(name="then it failed")
        raise RuntimeError("the request failed")
    assert not Group.objects.filter(name="then it failed").exists()


def test_a_first_phones_sheet_is_rendered_again_once_forgotten():
    """The first render's recipe is captured after `_forget_sheet`: the partial must be gone
    from the shared cache and from this process's memory, or the floor would replay the
    kept partial's one query."""
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.request_cost.kinds import _forget_sheet
    from tests.scoring.test_views import create, play

    keeper = Client()
    keeper.next_query = ""
    game = create(keeper)
    play(keeper, game, ["hearts"], [4, 7, 5])
    game.refresh_from_db()
    path = f"/games/{game.pk}/sheet/?v={game.version - 1}"
    Client().get(path)  # made and kept
    with CaptureQueriesContext(connection) as kept:
        assert Client().get(path).status_code == 200
    _forget_sheet(game.pk)
    with CaptureQueriesContext(connection) as made:
        assert Client().get(path).status_code == 200
    assert len(kept) == 1 and len(made) > 1
