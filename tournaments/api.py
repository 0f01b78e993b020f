"""The events part of the JSON API (read-only): standings and a round's tables."""

from config.api import ApiError, api_view, json_response

from .models import Event
from .selectors import (
    event_by_slug,
    published_rounds,
    round_byes,
    round_tables,
    standings_latest,
)


def _event(slug: str) -> Event:
    try:
        return event_by_slug(slug)
    except Event.DoesNotExist:
        raise ApiError(404, "no such event") from None


def _utc(moment) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


@api_view("GET")
def standings(request, slug: str):
    event = _event(slug)
    view = standings_latest(event)
    snapshot = view.snapshot
    return json_response(
        {
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
    )


@api_view("GET")
def round_detail(request, slug: str, number: str):
    event = _event(slug)
    if not number.isdigit() or len(number) > 4:
        raise ApiError(404, "no such round")
    round_ = published_rounds(event).filter(number=int(number)).first()
    if round_ is None:
        raise ApiError(404, "no such round, or it is not published yet")
    byes = round_byes(round_)
    return json_response(
        {
            "event": event.slug,
            "round": round_.number,
            "status": round_.status,
            "tables": [
                {
                    "table": table.number,
                    "players": [player.name for player in table.seats],
                    "player_ids": list(table.seat_ids),
                    "game": table.game_id,
                    "finished": table.game is not None and table.game.result != "in_play",
                    "confirmed": table.game is not None and table.game.confirmed,
                }
                for table in round_tables(round_)
            ],
            "byes": [bye.player.name for bye in byes],
            "bye_ids": [bye.player_id for bye in byes],
        }
    )
