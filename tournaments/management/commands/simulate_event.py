"""`manage.py simulate_event`: a whole event played through the site's own code paths.

Pairings and standings are built by the Celery tasks (eagerly or by a worker, as the
settings say), and every deal is recorded by the same service the table page and the API
use, with random but valid calls and tricks. Deterministic for a seed; prints one JSON
object (../shared/spec/http-api.md, "The event simulator").
"""

import json
import random
import time

from django.core.management.base import BaseCommand, CommandError

import engine
from config.celery import app as celery_app
from scoring import autoplay
from tournaments import pairing
from tournaments.common.queue import coalesced
from tournaments.events.services.event import club_create, event_create, event_end
from tournaments.events.services.registration import players_register
from tournaments.models import Round, Table
from tournaments.results.selectors import standings_current
from tournaments.results.services import result_confirm
from tournaments.rounds.services.rounds import round_close, round_create, round_publish

WAIT_SECONDS = 300
#: A task not done after this long is a reason to ask whether any worker is there at all:
#: pairing and standings take well under a second, so waiting the full WAIT_SECONDS for a
#: worker that is not running only hid the mistake for five minutes.
NOTICE_SECONDS = 5.0
#: How long the ping waits for workers to answer.
PING_SECONDS = 1.0
NO_WORKER = (
    "{what} is still waiting after {seconds:g} s and no Celery worker answers a ping. Start "
    "one beside this command (same settings and broker):\n"
    "    .venv/bin/celery -A config worker --loglevel INFO\n"
    "or run the tasks in this process instead:\n"
    "    CELERY_TASK_ALWAYS_EAGER=1 DJANGO_DEBUG=1 .venv/bin/python manage.py simulate_event ..."
)


class Command(BaseCommand):
    help = "Create an event with generated players and play it round by round."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--ruleset", default="blato", choices=list(engine.RULESETS))
        parser.add_argument("--pairing", default="swiss", choices=list(pairing.MODES))
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args, players, rounds, ruleset, pairing, seed, **options):
        if players < 3:
            raise CommandError("an event needs at least 3 players")
        if rounds < 1:
            raise CommandError("an event needs at least 1 round")
        result = simulate(players=players, rounds=rounds, ruleset=ruleset, mode=pairing, seed=seed)
        self.stdout.write(json.dumps(result))


def simulate(*, players: int, rounds: int, ruleset: str, mode: str, seed: int) -> dict:
    rng = random.Random(seed)
    club = club_create(name=f"Simulated club {seed}")
    event = event_create(
        club=club,
        name=f"Simulated {ruleset} {mode} {seed}",
        ruleset=ruleset,
        rounds_planned=rounds,
        pairing_modes=[mode],
        seed=seed,
        actor="simulator",
    )
    names = [f"Player {number:04d}" for number in range(1, players + 1)]
    entries = players_register(event=event, names=names, checked_in=True)
    output = {
        "event": event.slug,
        "players": [{"id": entry.player_id, "name": entry.player.name} for entry in entries],
        "rounds": [],
        "seconds": {"pairing": [], "standings": []},
    }
    for _ in range(rounds):
        round_ = round_create(event=event, actor="simulator")
        round_ = _wait_for(
            lambda r=round_: Round.objects.get(pk=r.pk),
            lambda r: r.status != Round.Status.PENDING,
            "the pairing",
        )
        if round_.status == Round.Status.FAILED:
            raise CommandError(f"round {round_.number} could not be paired: {round_.build_error}")
        output["seconds"]["pairing"].append(round_.pairing_seconds)
        round_publish(round_=round_, actor="simulator")
        tables = list(round_.tables.select_related("game").order_by("number"))
        # One standings build for the round's results, as a worker coalesces a room's
        # confirmations, not one a table (tournaments.common.queue.coalesced).
        with coalesced("build_standings"):
            for table in tables:
                _play(table, rng)
            round_close(round_=round_, actor="simulator")
        # The round's results are all in: wait for the build that counts them all.
        snapshot = _wait_for(
            lambda: standings_current(event),
            lambda s: s is not None,
            "the standings",
        )
        output["seconds"]["standings"].append(snapshot.build_seconds)
        output["rounds"].append(_round_json(round_, snapshot))
    event_end(event=event, actor="simulator")  # every round played: the event is over
    return output


def workers_answering() -> list:
    """The Celery workers that answer a ping on the configured broker ([] when none)."""
    try:
        return celery_app.control.ping(timeout=PING_SECONDS) or []
    except Exception:  # noqa: BLE001 - a broker that can't be reached has no worker either
        return []


def _wait_for(fetch, done, what):
    """Poll until `done`; after NOTICE_SECONDS ask once whether a worker is there at all, and
    if none answers, stop with how to start one (tasks run eagerly never wait)."""
    started = time.monotonic()
    asked = celery_app.conf.task_always_eager
    while True:
        value = fetch()
        if done(value):
            return value
        waited = time.monotonic() - started
        if not asked and waited > NOTICE_SECONDS:
            asked = True
            if not workers_answering():
                raise CommandError(NO_WORKER.format(what=what.capitalize(), seconds=NOTICE_SECONDS))
        if waited > WAIT_SECONDS:
            raise CommandError(f"{what} did not finish in {WAIT_SECONDS} s: is a worker running?")
        time.sleep(0.05)


def _play(table: Table, rng: random.Random) -> None:
    """Play the table's game to its end through the scoring services, then confirm it."""
    autoplay.play(table.game, rng, actor="simulator")
    result_confirm(table=table, actor="simulator")


def _round_json(round_: Round, snapshot) -> dict:
    tables = []
    for table in round_.tables.select_related("game").order_by("number"):
        ids = table.seat_ids
        tables.append(
            {
                "table": table.number,
                "seats": list(ids),
                "game": table.game_id,
                "totals": list(table.game.totals),
                "placings": [ids[seat] for seat in table.game.placings],
            }
        )
    return {
        "number": round_.number,
        "tables": tables,
        "byes": sorted(round_.byes.values_list("player_id", flat=True)),
        "standings": [
            {
                "rank": row["rank"],
                "player": row["player"],
                "score": row["score"],
                "metrics": row["metrics"],
            }
            for row in snapshot.rows
        ],
    }
