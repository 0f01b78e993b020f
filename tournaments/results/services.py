"""Writes about results: an organiser confirming or reopening a table's result, and the
standings task's build."""

from __future__ import annotations

import time

from django.db import transaction
from django.utils import timezone

from scoring import services as scoring
from scoring.models import Game
from tournaments import standings
from tournaments.common import bridge
from tournaments.common.services import log_action
from tournaments.common.signals import standings_built
from tournaments.models import Event, Standings, StandingsText, Table
from tournaments.standings_models import texts_of


def result_confirm(*, table: Table, actor: str, version: object = None, note: str = "") -> Game:
    """An organiser confirms a table's result (as the second player would); the standings
    hear of it through scoring's game_confirmed (tournaments.receivers). With `version`, a
    result changed since it was seen is refused (scoring's game_confirm). `note`: the
    organiser's answer to a dispute, shown on the players' phones (in both audit trails)."""
    game = scoring.game_confirm(game_id=table.game_id, actor=actor, version=version, note=note)
    log_action(
        table.round.event,
        actor,
        "result_confirmed",
        " ".join(note.split()),
        round=table.round.number,
        table=table.number,
    )
    return game


def result_reopen(*, table: Table, actor: str, reason: str) -> Game:
    """Unlock a confirmed result for correction; the reason is kept in both audit trails."""
    game = scoring.game_reopen(game_id=table.game_id, actor=actor, reason=reason)
    log_action(
        table.round.event,
        actor,
        "result_reopened",
        reason,
        round=table.round.number,
        table=table.number,
    )
    return game


def standings_build(*, event_id: int) -> Standings:
    """The standings task's work: a snapshot of the event as of its results_version. If the
    newest snapshot has that version already, nothing is stored (builds are idempotent).

    The version is read before the results: a change committed meanwhile bumps it past the
    one stored, so the snapshot is stale at once and the change's own build follows."""
    event = Event.objects.get(pk=event_id)
    version = event.results_version
    if _newest_version(event) == version:
        return _newest(event)
    started = time.perf_counter()
    players, results, byes = bridge.standings_inputs(event)
    rows = standings.build_standings(players, results, byes, bridge.standings_config(event))
    teams = bridge.event_teams(event)  # docs/team-standings.md; most events have none
    team_rows = (
        standings.build_team_standings(teams, players, results, byes, bridge.team_config(event))
        if teams
        else []
    )
    seconds = time.perf_counter() - started
    snapshot = Standings(
        event=event,
        built_at=timezone.now(),
        rounds_complete=bridge.rounds_complete(event),
        counted=bridge.open_round_counted(event),
        results_version=version,
        rows=[row.as_dict() for row in rows],
        team_rows=[row.as_dict() for row in team_rows],
        build_seconds=seconds,
    )
    # Written out for the polls before it is stored, outside the event's lock (below): a
    # stored snapshot always has its writing, and confirmations never wait on a render.
    standings_built.send(sender=Standings, snapshot=snapshot)
    built_at = snapshot.built_at
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)  # one build stored at a time
        if _newest_version(event) == version:
            return _newest(event)
        snapshot.save()  # auto_now_add stamps it anew: the time written out is kept
        if getattr(snapshot, "rendered", None):  # else the first poll writes it out
            StandingsText.objects.bulk_create(texts_of(snapshot, snapshot.rendered))
        Standings.objects.filter(pk=snapshot.pk).update(built_at=built_at)
        snapshot.built_at = built_at
    return snapshot


def _newest_version(event: Event) -> int | None:
    """The version of the event's newest snapshot (None: none yet), read from the index of the
    newest (standings_models.NEWEST_SNAPSHOT): one entry, not the snapshot's rows and texts
    (reading the whole newest snapshot, twice a confirmation, made the k-th confirmation of a
    999-player round cost more with every k)."""
    return event.standings.values_list("results_version", flat=True).first()


def _newest(event: Event) -> Standings:
    """The newest snapshot, found current: its rows and texts are read only when used."""
    return event.standings.defer("rows", "api_body").first()
