"""The standings written out when they are built, so that no poll renders them.

A thousand phones poll the standings (the page's fragment, the projector, the JSON API)
every few seconds. Rendering 999 rows takes ~0.1 s, so each snapshot is written out once,
when services.standings_build stores it (the `standings_built` signal: services may not
import the presenters this needs): the API's JSON body on the snapshot's row (`api_body`),
and per language of the site the standings table and the projector's, each language a row of
plain text (tournaments.standings_models.StandingsText, the snapshot's `texts`). A poll reads
the small head first (which snapshot, which writing of it: `newest_head`), then one stored
text only if its answer is not kept already (`with_text`), and words only the few lines that
change between two snapshots (what is counted, "built … ago", "being updated"):
tournaments.results.presenters. No poll reads JSON of the whole standings.

The players' names and who has withdrawn are written into the text, so a withdrawal (or a
reinstatement) writes the newest snapshot out again after its transaction; `mark` names
each writing, and the polls' ETags include it. A snapshot stored before this existed, or
one whose writing failed, is written out by the first poll that finds it missing.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import F, OuterRef, Subquery
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.utils import translation

from tournaments.common.signals import standings_built
from tournaments.models import Entry, Event, Standings, StandingsText, Team
from tournaments.results.presenters import standings_label, table_context
from tournaments.results.selectors import (
    StandingsView,
    TeamStandingsView,
    standings_head,
    standings_people,
    team_order,
)
from tournaments.standings_models import texts_of

STANDINGS_TABLE = "tournaments/public/standings.html#table"
PROJECTOR_TABLE = "tournaments/public/projector.html#standings_table"
#: The parts written out per language: the standings page's table, the projector's.
PARTS = {"standings": STANDINGS_TABLE, "projector": PROJECTOR_TABLE}


def _utc(moment) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def _api_row(row: dict, view: StandingsView) -> dict:
    return {
        "rank": row["rank"],
        "player": view.names.get(row["player"], ""),
        "player_id": row["player"],
        "score": row["score"],
        "metrics": row["metrics"],
        "decided_by": row.get("decided_by"),
        "withdrawn": row["player"] in view.withdrawn,
    }


def api_data(event: Event, view: StandingsView) -> dict:
    """The API's standings answer (../shared/spec/http-api.md), the one home of its shape.
    `rows` holds the ranked players only, so every row's rank is a number 1..K as the spec
    shows it; the players not ranked (no game, no bye yet: tournaments.standings) follow in
    `unranked`, rows of the same shape with rank null."""
    snapshot = view.snapshot
    stored = snapshot.rows if snapshot else []
    return {
        "event": event.slug,
        "rounds_complete": snapshot.rounds_complete if snapshot else 0,
        "updated": _utc(snapshot.built_at) if snapshot else None,
        "stale": view.stale,
        "rows": [_api_row(row, view) for row in stored if row["rank"] is not None],
        "unranked": [_api_row(row, view) for row in stored if row["rank"] is None],
    }


def _team_api_row(row: dict, view: TeamStandingsView) -> dict:
    members = row.get("members", [])
    return {
        "rank": row["rank"],
        "team": view.teams.get(row["team"], ""),
        "team_id": row["team"],
        "points": row["points"],
        "per_round": row["per_round"],
        "metrics": row["metrics"],
        "decided_by": row.get("decided_by"),
        "players": [view.names.get(p, "") for p in members],
        "player_ids": members,
    }


def team_api_data(event: Event, view: TeamStandingsView) -> dict:
    """The API's team standings answer (docs/team-standings.md), shaped like the players':
    the ranked teams in `rows`, those none of whose players has played yet in `unranked`."""
    return {
        "event": event.slug,
        "scoring": event.team_scoring,
        "order": list(team_order(event)),
        "rounds_complete": view.rounds_complete,
        "updated": _utc(view.built_at),
        "stale": view.stale,
        "rows": [_team_api_row(row, view) for row in view.team_rows if row["rank"] is not None],
        "unranked": [_team_api_row(row, view) for row in view.team_rows if row["rank"] is None],
    }


def _json(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False)


#: How a stored body says it is up to date; `_with_stale` turns it into the other answer.
#: "stale" comes before "rows" (api_data's order), so the first match is the key's own.
_FRESH, _STALE = '"stale": false', '"stale": true'


def _with_stale(body: str, stale: bool) -> str:
    return body.replace(_FRESH, _STALE, 1) if stale else body


def written(snapshot: Standings) -> tuple[str, dict]:
    """The snapshot written out for the polls: the API's body, and per language its tables
    and the label of what it counts, with the `mark` that names this writing."""
    event = snapshot.event
    view = StandingsView(snapshot, False, *standings_people(event))
    body = _json(api_data(event, view))
    rendered: dict = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            context = table_context(event, view)
            rendered[code] = {part: render_to_string(name, context) for part, name in PARTS.items()}
            rendered[code]["counted"] = standings_label(snapshot)
    text = body + json.dumps(rendered, sort_keys=True)
    rendered["mark"] = hashlib.sha256(text.encode()).hexdigest()[:16]
    return body, rendered


def write_out(snapshot: Standings) -> Standings:
    """Write a stored snapshot out again (a withdrawal, or one stored without it) and store
    that: its body on its row, its texts in place of those it had (two polls may write the
    same snapshot out at once: the second's texts replace the first's, same words)."""
    body, rendered = written(snapshot)
    with transaction.atomic():
        Standings.objects.filter(pk=snapshot.pk).update(api_body=body)
        StandingsText.objects.bulk_create(
            texts_of(snapshot, rendered),
            update_conflicts=True,
            unique_fields=["snapshot", "language"],
            update_fields=["mark", "counted", "standings_html", "projector_html"],
        )
    snapshot.api_body, snapshot.rendered = body, rendered
    return snapshot


@receiver(standings_built)
def _built(sender, snapshot: Standings, **kwargs) -> None:
    """A new snapshot is stored with its writing: were it written after it is stored, every
    poll in that time (a thousand phones, ~0.3 s of rendering at 999 players) would find it
    without and write it out itself. `rendered` is what standings_build stores as the
    snapshot's texts (standings_models.texts_of), in the transaction that stores it."""
    snapshot.api_body, snapshot.rendered = written(snapshot)


@receiver(post_save, sender=Entry)
def _entry_saved(sender, instance: Entry, update_fields=None, **kwargs) -> None:
    """A withdrawal or reinstatement is marked in the standings rows: write them out again."""
    if update_fields and "withdrawn" in update_fields:
        event_id = instance.event_id
        transaction.on_commit(lambda: _rewrite_newest(event_id))


@receiver(post_save, sender=Team)
def _team_saved(sender, instance: Team, created: bool = False, **kwargs) -> None:
    """A team's name is written into the team standings (docs/team-standings.md): a renamed
    team's standings are written out again. A new team, or new members, count from the next
    build (the teams' services make the standings stale)."""
    if not created:
        event_id = instance.event_id
        transaction.on_commit(lambda: _rewrite_newest(event_id))


def _rewrite_newest(event_id: int) -> None:
    snapshot = Standings.objects.select_related("event").filter(event_id=event_id).first()
    if snapshot is not None:
        write_out(snapshot)


# --- reading what was written, for the polls ------------------------------------------------------


@dataclass(frozen=True)
class Stored:
    """The newest snapshot as a poll needs it: which one, which writing of it (`mark`),
    whether it is stale, and in the active language the label of what it counts and, once
    asked for (`with_text`), one written-out part. `None` from `newest_head` when the event
    has no standings yet."""

    snapshot_id: int
    built_at: datetime
    stale: bool
    mark: str
    counted: str
    text: str | None = None


def _language() -> str:
    code = translation.get_language() or settings.LANGUAGE_CODE
    return code if code in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def newest_head(event: Event) -> Stored | None:
    """One small query, whatever the field's size and however many snapshots came before: the
    newest snapshot's id and time and whether it is stale (from the index of the newest,
    standings_models.NEWEST_SNAPSHOT), with its writing's mark and label in the active
    language; no table. Written out now if its writing is missing."""
    code = _language()
    texts = StandingsText.objects.filter(snapshot=OuterRef("pk"), language=code)
    head = (
        event.standings.annotate(
            event_version=F("event__results_version"),
            mark=Subquery(texts.values("mark")[:1]),
            counted_label=Subquery(texts.values("counted")[:1]),
        )
        .values("pk", "built_at", "results_version", "event_version", "mark", "counted_label")
        .first()
    )
    if head is None:
        return None
    mark, counted = head["mark"], head["counted_label"]
    if mark is None:  # from before, or its writing failed
        snapshot = Standings.objects.get(pk=head["pk"])
        snapshot.event = event
        rendered = write_out(snapshot).rendered
        mark, counted = rendered["mark"], rendered[code]["counted"]
    stale = head["results_version"] != head["event_version"]
    return Stored(head["pk"], head["built_at"], stale, mark, counted or "")


def with_text(stored: Stored, part: str) -> Stored:
    """`stored` with its `part` (PARTS) in the active language: one query of one plain text
    column. Gone meanwhile (a newer writing replaced it): the newest writing's, which the
    next poll's head names."""
    code = _language()
    text = (
        StandingsText.objects.filter(snapshot_id=stored.snapshot_id, language=code)
        .values_list(f"{part}_html", flat=True)
        .first()
    )
    if text is None:
        snapshot = Standings.objects.filter(pk=stored.snapshot_id).first()
        text = "" if snapshot is None else write_out(snapshot).rendered[code][part]
    return replace(stored, text=text)


def newest(event: Event, part: str) -> Stored | None:
    """The newest snapshot's head and its `part` in the active language: two small queries
    (newest_head, with_text), whatever the field's size."""
    head = newest_head(event)
    return None if head is None else with_text(head, part)


def api_answer(event: Event) -> tuple[str, bytes]:
    """(ETag, body) of the API's standings answer now: the newest snapshot's stored body,
    marked stale when results came in since it was built. Two small queries; the ETag is
    the body's hash, the same in every process."""
    head = standings_head(event)
    body = None
    if head.snapshot_id is not None:
        body = (
            Standings.objects.filter(pk=head.snapshot_id).values_list("api_body", flat=True).first()
        )
        if body == "":  # from before, or its writing failed
            snapshot = Standings.objects.get(pk=head.snapshot_id)
            snapshot.event = event
            body = write_out(snapshot).api_body
    if body is None:
        body = _json(api_data(event, StandingsView(None, True, {})))
    body = _with_stale(body, head.stale)
    etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
    return etag, body.encode()
