"""Bare views: the database round trip of a page, in raw SQL, answered with a few bytes.

`read` is one indexed read of a game's row (what a sheet poll that answers 204 needs);
`write` is one write transaction on a game's row (take the write lock, read the row, write it
back: the least a deal's entry can do). CSRF is off for `write`: a benchmark's client posts
to it without a form, as the API's clients post with a token.

`replay` sends again, over one cursor, exactly the statements a site request sent (a recipe
captured by bench.request_cost, read from the JSON file named by $BENCH_FLOOR_RECIPES): the
floor of that request is the stack plus its own database round trips and nothing else. The
statements the view ran in a transaction run in one here too, rolled back when they wrote
(the recipe's rows must stay replayable; COMMIT and ROLLBACK are one round trip alike).
"""

from functools import cache

from django.db import connection, transaction
from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from bench.request_cost import recipes


@require_GET
def read(request, game_id: int):
    with connection.cursor() as cursor:
        cursor.execute("SELECT version, updated_at FROM scoring_game WHERE id = %s", [game_id])
        row = cursor.fetchone()
    return HttpResponse(status=204 if row else 404)


@csrf_exempt
@require_POST
def write(request, game_id: int):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT version FROM scoring_game WHERE id = %s", [game_id])
        row = cursor.fetchone()
        if row is None:
            return HttpResponse(status=404)
        cursor.execute("UPDATE scoring_game SET version = %s WHERE id = %s", [row[0], game_id])
    return HttpResponse(b'{"ok": true}', content_type="application/json")


@cache
def _recipes() -> dict[str, list[dict]]:
    return recipes.load()


def _run(cursor, step: dict) -> None:
    if step["many"]:
        cursor.executemany(step["sql"], step["params"])
    else:
        cursor.execute(step["sql"], step["params"])
    if cursor.description is not None:
        cursor.fetchall()  # the site reads what it asked for: so does its floor


@csrf_exempt
def replay(request, name: str):
    steps = _recipes().get(name)
    if steps is None:
        return HttpResponse(status=404)
    with connection.cursor() as cursor:
        index = 0
        while index < len(steps):
            if not steps[index]["atomic"]:
                _run(cursor, steps[index])
                index += 1
                continue
            end = index
            while end < len(steps) and steps[end]["atomic"]:
                end += 1
            block = steps[index:end]
            with transaction.atomic():
                for step in block:
                    _run(cursor, step)
                if recipes.writes(block):
                    transaction.set_rollback(True)
            index = end
    if request.method == "GET":
        return HttpResponse(status=204)
    return HttpResponse(b'{"ok": true}', content_type="application/json")
