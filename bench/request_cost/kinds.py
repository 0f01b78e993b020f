"""The requests measured: what a keeper's phone and the watchers' phones send, each with how
its database round trips are captured for its floor.

Each kind makes its i-th request of a measurement (`make`), and captures its recipe in this
process with the test client (`capture`: warm once, then record one request as the server
would see it in the middle of a measurement). Deals go to every table of the round but the
spare one, whose state the captures and the floor's replays use (a replayed write is rolled
back, so the spare table stays as captured).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .event import Table
from .recipes import capturing

FLOOR_PATH = "/bench-floor/replay/{name}/"


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None
    cookies: dict[str, str] | None = None
    answered: Callable[[int, dict, bytes], None] | None = None  # the client's own follow-up


@dataclass
class Context:
    """What the kinds share during a run."""

    slug: str
    tables: list[Table]  # the tables measured on
    spare: Table  # the table the recipes are captured on and the floor replays
    polls: int  # requests per measurement of the cheap kinds
    rng: random.Random
    etags: dict[str, str] = field(default_factory=dict)

    def refresh_versions(self) -> None:
        """The games' versions now, as a phone holding the newest sheet knows them."""
        from scoring.models import Game

        every = [*self.tables, self.spare]
        found = Game.objects.filter(pk__in=[t.game_id for t in every]).values_list("pk", "version")
        versions = dict(found)
        for table in every:
            table.version = versions[table.game_id]


@dataclass
class Kind:
    name: str
    what: str
    expect: tuple[int, ...]
    count: Callable[[Context], int]
    make: Callable[[Context, int], Request]
    capture: Callable[[object, Context], list[dict]]
    before: Callable[[Context], None] | None = None  # run before each measurement, unmeasured


def per_table(ctx: Context) -> int:
    return len(ctx.tables)


def polls(ctx: Context) -> int:
    return ctx.polls


# --- entering a deal --------------------------------------------------------------------------


def _deal_body(table: Table, rng: random.Random) -> tuple[dict, bytes]:
    from scoring.autoplay import next_deal

    deal = next_deal(table.rules, rng)
    body = {"deal": len(table.rules.deals) + 1, "calls": deal["calls"], "tricks": deal["tricks"]}
    return deal, json.dumps(body).encode()


def deal_make(ctx: Context, i: int) -> Request:
    table = ctx.tables[i % len(ctx.tables)]
    deal, body = _deal_body(table, ctx.rng)

    def answered(status: int, headers: dict, content: bytes) -> None:
        if status == 201:
            table.rules.play(**deal)

    return Request(
        "POST",
        f"/api/games/{table.game_id}/deals",
        {"Authorization": f"Bearer {table.secret}", "Content-Type": "application/json"},
        body,
        answered=answered,
    )


def deal_capture(client, ctx: Context) -> list[dict]:
    table = ctx.spare
    _, body = _deal_body(table, random.Random(0))
    post = dict(
        path=f"/api/games/{table.game_id}/deals",
        data=body,
        content_type="application/json",
        headers={"Authorization": f"Bearer {table.secret}"},
    )
    for _ in range(2):  # the first warms; each is rolled back, so both record the same deal
        with capturing() as steps:
            status = client.post(**post).status_code
        _expect("deal", status, 201)
    return steps


# --- the watchers' sheet ----------------------------------------------------------------------


def _sheet(table: Table, changed: bool) -> str:
    version = table.version - 1 if changed else table.version
    return f"/games/{table.game_id}/sheet/?v={version}"


def sheet_make(changed: bool):
    def make(ctx: Context, i: int) -> Request:
        return Request("GET", _sheet(ctx.tables[i % len(ctx.tables)], changed))

    return make


def _forget_sheet(game_id: int) -> None:
    """Drop the kept partial of the game's current version (scoring.views.watch keeps it in
    the shared cache and in the process's memory)."""
    from django.conf import settings
    from django.core.cache import cache
    from django.utils import translation

    from scoring import selectors
    from scoring.views import watch

    with translation.override(settings.LANGUAGE_CODE):
        key = watch._sheet_key(game_id, selectors.game_mark(game_id))
    cache.delete(key)
    watch._sheets.forget(key)


def sheet_capture(changed: bool, kept: bool):
    def capture(client, ctx: Context) -> list[dict]:
        ctx.refresh_versions()
        path = _sheet(ctx.spare, changed)
        client.get(path)  # warm
        if changed and not kept:
            _forget_sheet(ctx.spare.game_id)
        with capturing() as steps:
            status = client.get(path).status_code
        _expect("sheet", status, 200 if changed else 204)
        return steps

    return capture


# --- the keeper's table page ------------------------------------------------------------------


def table_make(ctx: Context, i: int) -> Request:
    table = ctx.tables[i % len(ctx.tables)]
    return Request("GET", f"/games/{table.game_id}/", cookies=table.cookies)


def table_capture(client, ctx: Context) -> list[dict]:
    table = ctx.spare
    _expect(
        "keeper link", client.get(f"/games/{table.game_id}/keep/{table.secret}/").status_code, 302
    )
    client.get(f"/games/{table.game_id}/")  # warm (and the CSRF cookie, as a phone has it)
    with capturing() as steps:
        _expect("table page", client.get(f"/games/{table.game_id}/").status_code, 200)
    return steps


# --- the standings polls ----------------------------------------------------------------------


def standings_make(path: str, revalidate: bool):
    def make(ctx: Context, i: int) -> Request:
        url = path.format(slug=ctx.slug)
        headers = {"If-None-Match": ctx.etags[url]} if revalidate and url in ctx.etags else {}

        def answered(status: int, answer: dict, content: bytes) -> None:
            if status == 200 and "etag" in answer:
                ctx.etags[url] = answer["etag"]

        return Request("GET", url, headers, answered=answered)

    return make


def standings_capture(path: str, revalidate: bool):
    def capture(client, ctx: Context) -> list[dict]:
        url = path.format(slug=ctx.slug)
        etag = client.get(url)["ETag"]  # warm, and the ETag a phone holds
        headers = {"If-None-Match": etag} if revalidate else {}
        with capturing() as steps:
            status = client.get(url, headers=headers).status_code
        _expect(url, status, 304 if revalidate else 200)
        return steps

    return capture


def _expect(what: str, status: int, expected: int) -> None:
    if status != expected:
        raise RuntimeError(f"capturing {what}: answered {status}, expected {expected}")


FRAGMENT = "/events/{slug}/standings/live/"
API = "/api/events/{slug}/standings"

KINDS = [
    Kind("deal", "enter a deal: POST /api/games/{id}/deals", (201,), per_table, deal_make,
         deal_capture),
    Kind("sheet_render", "sheet poll, changed, first phone (renders)", (200,), per_table,
         sheet_make(True), sheet_capture(True, kept=False), Context.refresh_versions),
    Kind("sheet_kept", "sheet poll, changed, kept partial", (200,), polls, sheet_make(True),
         sheet_capture(True, kept=True), Context.refresh_versions),
    Kind("sheet_204", "sheet poll, unchanged (204)", (204,), polls, sheet_make(False),
         sheet_capture(False, kept=True), Context.refresh_versions),
    Kind("table", "keeper's table page GET /games/{id}/", (200,), per_table, table_make,
         table_capture),
    Kind("fragment_304", "standings fragment, ETag revalidated (304)", (304,), polls,
         standings_make(FRAGMENT, True), standings_capture(FRAGMENT, True)),
    Kind("fragment_200", "standings fragment, no ETag (200)", (200,), polls,
         standings_make(FRAGMENT, False), standings_capture(FRAGMENT, False)),
    Kind("api_304", "standings API, ETag revalidated (304)", (304,), polls,
         standings_make(API, True), standings_capture(API, True)),
    Kind("api_200", "standings API, no ETag (200)", (200,), polls, standings_make(API, False),
         standings_capture(API, False)),
]  # fmt: skip
