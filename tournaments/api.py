"""The events part of the JSON API (read-only): standings and a round's tables."""

import hashlib
import json

from django.core.cache import cache
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers

from config.api import CONTENT_TYPE, ApiError, api_view, json_response

from . import api_organise, walkouts
from .api_auth import organises, token_account
from .models import Event
from .selectors import (
    StandingsView,
    event_by_slug,
    published_rounds,
    results_newer_than,
    round_byes,
    round_tables,
    standings_latest,
)

#: How long a process answers a standings poll from memory without asking the database
#: anything. Every phone in the room polls: one look every few seconds per process is plenty
#: (a new snapshot, or results newer than it, show up at most this much later).
FRESH_SECONDS = 2
#: How long the written-out answer for one snapshot is reused: the players' names come live
#: from their rows, so a renamed player shows up within this time.
BODY_SECONDS = 30


def _event(slug: str) -> Event:
    try:
        return event_by_slug(slug)
    except Event.DoesNotExist:
        raise ApiError(404, "no such event") from None


def _utc(moment) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def _standings_data(event: Event, view: StandingsView) -> dict:
    snapshot = view.snapshot
    return {
        "event": event.slug,
        "rounds_complete": snapshot.rounds_complete if snapshot else 0,
        "updated": _utc(snapshot.built_at) if snapshot else None,
        "stale": view.stale,
        "rows": [
            {
                "rank": row["rank"],
                "player": view.names.get(row["player"], ""),
                "player_id": row["player"],
                "score": row["score"],
                "metrics": row["metrics"],
                "decided_by": row.get("decided_by"),
            }
            for row in (snapshot.rows if snapshot else [])
        ],
    }


def _mark(pk, built_at) -> str:
    """Names one stored snapshot (its time too: ids can come round again in a fresh database)."""
    return f"{pk}.{built_at.timestamp()}" if pk else "none"


def _standings_answer(event: Event) -> tuple[str, bytes]:
    """(ETag, body) of the standings answer now, written out once per snapshot and process.

    Reads the newest snapshot's id and time and whether results have come in since (two small
    queries); the rows are written out only for a snapshot not seen before, and the body's
    hash is the ETag, the same in every process.
    """
    newest = event.standings.values("pk", "built_at").first()
    if newest is None:
        stale, mark = True, _mark(None, None)
    else:
        stale = results_newer_than(event, newest["built_at"])
        mark = _mark(newest["pk"], newest["built_at"])
    found = cache.get(f"api-standings-body:{event.pk}:{mark}:{stale}")
    if found is None:
        view = standings_latest(event)  # may be newer still: keyed by what it holds
        snapshot = view.snapshot
        body = json.dumps(_standings_data(event, view), ensure_ascii=False, allow_nan=False)
        found = ('"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"', body.encode())
        mark = _mark(snapshot.pk, snapshot.built_at) if snapshot else _mark(None, None)
        cache.set(f"api-standings-body:{event.pk}:{mark}:{view.stale}", found, BODY_SECONDS)
    return found


@api_view("GET")
def standings(request, slug: str):
    """The newest standings; 304 when the client's ETag (If-None-Match) is still current.

    Every poll used to read the whole snapshot, every player's name and whether results came
    in since, then write out a row per player: four queries and O(players) work for each of a
    thousand phones polling every few seconds. Now each process keeps the answer for
    FRESH_SECONDS, then asks the database whether it still holds, and writes the rows out
    again only for a new snapshot.
    """
    key = f"api-standings:{slug}"
    found = cache.get(key)
    if found is None:
        found = _standings_answer(_event(slug))
        cache.set(key, found, FRESH_SECONDS)
    etag, body = found
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(body, content_type=CONTENT_TYPE)
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return response


def _table_data(table, *, with_token: bool) -> dict:
    """The table as walkouts.table_data gives it, whether its result is confirmed, and for
    the event's organisers its token."""
    data = {
        **walkouts.table_data(table),
        "confirmed": table.game is not None and table.game.confirmed,
    }
    if with_token:
        data["token"] = table.game.secret if table.game is not None else None
    return data


@api_view("GET", "DELETE")
def round_detail(request, slug: str, number: str):
    """A round's tables. The public sees published and closed rounds; the event's organisers
    (their API token) see every round, a draft, a failed or a still-building one too, and each
    table's token (its game's secret) for the scripts that hand them out. DELETE: the
    organisers' api_organise.round_delete."""
    if request.method == "DELETE":
        return api_organise.round_delete(request, slug, number)
    event = _event(slug)
    organiser = organises(token_account(request, required=False), event)
    if not (number.isascii() and number.isdigit()) or len(number) > 4:
        raise ApiError(404, "no such round")
    rounds = event.rounds.all() if organiser else published_rounds(event)
    round_ = rounds.filter(number=int(number)).first()
    if round_ is None:
        raise ApiError(404, "no such round, or it is not published yet")
    byes = round_byes(round_)
    response = json_response(
        {
            "event": event.slug,
            "round": round_.number,
            **api_organise.round_status(round_),
            "tables": [_table_data(table, with_token=organiser) for table in round_tables(round_)],
            "byes": [bye.player.name for bye in byes],
            "bye_ids": [bye.player_id for bye in byes],
        }
    )
    patch_vary_headers(response, ["Authorization"])
    if organiser:
        patch_cache_control(response, private=True, no_store=True)
    return response
