"""The floor's recipes: the SQL each kind of product request sends, captured in this process
(bench.request_cost.recipes.capturing: through the whole middleware stack, writes rolled
back on either backend) on a spare table the load never touches, and replayed by
bench.floor.views.replay on the same server. So the floor of a request is the stack, a fresh
connection and that request's own database round trips: like for like.

- the deal: `POST /api/games/<id>/deals` with the table's token (201);
- the sheet poll, unchanged: `GET /games/<id>/sheet/?v=<current>` (what 11 of a phone's 12
  polls a minute find when its keeper posts every 60 s);
- the sheet poll, changed: the same with the version before, once its answer is kept (two
  of a table's three phones find it so; the first renders, which no floor can do for it);
- the standings fragment with the ETag a phone holds (304), or without one when the event
  has no standings yet.
"""

from __future__ import annotations

from pathlib import Path

from bench.request_cost.recipes import capturing, save

DEAL_RECIPE = "capacity-deal"
SHEET_UNCHANGED = "capacity-sheet-unchanged"
SHEET_CHANGED = "capacity-sheet-changed"
STANDINGS_RECIPE = "capacity-standings"


def _expect(what: str, status: int, expected: tuple[int, ...]) -> None:
    if status not in expected:
        raise RuntimeError(f"capturing {what}: answered {status}, expected {expected}")


def capture(slug: str, spare, path: Path) -> dict[str, dict]:
    """Capture the four recipes on `spare` (a bench.site_load.event.TableInfo) and write them
    to `path`; returns each recipe's statement count and the status it was captured at."""
    import json
    import random

    from django.test import Client

    import engine
    from scoring.autoplay import next_deal
    from scoring.models import Game

    client = Client(HTTP_HOST="127.0.0.1")
    found: dict[str, list[dict]] = {}
    about: dict[str, dict] = {}

    def take(name: str, expected: tuple[int, ...], method: str, url: str, **kwargs) -> None:
        with capturing():  # warm (the first of a process is not typical), rolled back too
            getattr(client, method)(url, **kwargs)
        with capturing() as steps:
            status = getattr(client, method)(url, **kwargs).status_code
        _expect(name, status, expected)
        found[name], about[name] = steps, {"statements": len(steps), "status": status}

    record = {"ruleset": spare.ruleset, "options": spare.options, "deals": []}
    game = engine.game_from_record({**record, "first_dealer": spare.first_dealer})
    rng, url = random.Random(0), f"/api/games/{spare.game_id}/deals"
    token = {"Authorization": f"Bearer {spare.secret}"}

    def body() -> str:
        deal = next_deal(game, rng)
        game.play(**deal)
        number = len(game.deals)
        return json.dumps({"deal": number, "calls": deal["calls"], "tricks": deal["tricks"]})

    # The spare's first deal is stored for real, so that "the version before" exists for
    # the changed sheet; the second is the recipe, never stored (the replay inserts it).
    first = client.post(url, data=body(), content_type="application/json", headers=token)
    _expect("the spare's first deal", first.status_code, (201,))
    take(DEAL_RECIPE, (201,), "post", url, data=body(), content_type="application/json",
         headers=token)  # fmt: skip
    version = Game.objects.get(pk=spare.game_id).version
    sheet = f"/games/{spare.game_id}/sheet/?v="
    take(SHEET_UNCHANGED, (204, 304), "get", f"{sheet}{version}")
    take(SHEET_CHANGED, (200,), "get", f"{sheet}{version - 1}")
    standings = f"/events/{slug}/standings/live/"
    etag = client.get(standings).get("ETag")
    headers = {"If-None-Match": etag} if etag else {}
    take(STANDINGS_RECIPE, (200, 304), "get", standings, headers=headers)
    save(found, path)
    return about
