"""An event's backup round-trips: export, lose the event, import, and nothing is missing.

"Nothing missing" is checked three ways: the export of the restored event is the export of
the original (ids aside where they had to change), every game replays in the engine to the
state it had, and the standings built again from the restored rows are the original ones.
"""

import copy
import io
import json
import random
import stat
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.core.management.color import no_style
from django.db import connection
from django.db.models import Model
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import autoplay
from scoring import services as scoring
from scoring.models import DealEntry, Game, GameChange
from scoring.selectors import game_state_json, live_entries
from tournaments import backup
from tournaments.backup import writing
from tournaments.club_models import NewcomerRequest
from tournaments.common import event_settings
from tournaments.common.errors import TournamentError
from tournaments.events.selectors.entries import player_names
from tournaments.events.services import check_in
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import (
    entry_check_in,
    entry_withdraw,
    players_register,
)
from tournaments.management.commands.simulate_event import simulate
from tournaments.models import Bye, Club, Entry, Event, EventLog, Player, Round, Standings, Table
from tournaments.results import sweep
from tournaments.results.selectors import standings_latest
from tournaments.results.services import result_confirm, result_reopen, standings_build
from tournaments.rounds.services.rounds import round_close, round_create, round_publish, round_swap
from tournaments.team_models import KeepApart, Team, TeamMember
from tournaments.teams.services import keep_apart_create, team_create

pytestmark = pytest.mark.django_db(transaction=True)

User = get_user_model()
MODELS: list[type[Model]] = [
    Club,
    Player,
    Event,
    Event.organisers.through,
    Entry,
    Round,
    Table,
    Bye,
    Standings,
    EventLog,
    NewcomerRequest,
    Game,
    DealEntry,
    GameChange,
    User,
    Team,
    TeamMember,
    KeepApart,
    KeepApart.entries.through,
]


# --- an event with a history worth keeping -----------------------------------------------------


def _play_and_confirm(table: Table, rng: random.Random) -> None:
    autoplay.play(table.game, rng, actor="table")
    result_confirm(table=table, actor="olga")


def _ready(round_: Round) -> Round:
    round_.refresh_from_db()  # the pairing task ran eagerly on commit
    assert round_.status == Round.Status.DRAFT, round_.build_error
    return round_


@pytest.fixture
def played() -> Event:
    """13 players; round 1 with an undone deal, a reopened and corrected result and a new
    secret; then a late entry and a withdrawal; round 2 with a hand swap in the draft; round
    3 under way (one result confirmed, one awaiting confirmation, one half played)."""
    rng = random.Random(358)
    olga = User.objects.create_user("olga")
    boris = User.objects.create_user("boris")
    club = club_create(name="Sofia Blato Club")
    event = event_create(
        club=club,
        name="Friday night",
        rounds_planned=4,
        pairing_modes=["random", "swiss"],
        placing_points=[3, 1, 0],
        seed=358,
        organisers=[olga, boris],
        actor="olga",
    )
    names = [f"Player {n:02d}" for n in range(1, 14)]
    entries = players_register(event=event, names=names, checked_in=True, actor="olga")

    first = _ready(round_create(event=event, actor="olga"))
    round_publish(round_=first, actor="olga")
    tables = list(first.tables.select_related("game").order_by("number"))
    autoplay.play(tables[0].game, rng, deals=3, actor="table")
    scoring.deal_undo(game_id=tables[0].game_id, number=3, actor="table", reason="wrong tricks")
    for table in tables:
        _play_and_confirm(table, rng)
    corrected = tables[1]
    result_reopen(table=corrected, actor="olga", reason="hand 9 was misscored")
    last = len(live_entries(corrected.game))
    scoring.deal_undo(game_id=corrected.game_id, number=last, actor="olga", reason="misscored")
    _play_and_confirm(Table.objects.select_related("game", "round").get(pk=corrected.pk), rng)
    scoring.secret_replace(game_id=tables[2].game_id, actor="olga", reason="QR code photographed")
    round_close(round_=first, actor="olga")

    players_register(event=event, names=["Late Comer"], checked_in=True, actor="olga")
    entry_withdraw(entry=entries[4], actor="olga", reason="went home")

    second = _ready(round_create(event=event, actor="olga"))
    a, b = second.tables.order_by("number")[:2]
    round_swap(round_=second, first=a.seat_0_id, second=b.seat_1_id, actor="olga")
    round_publish(round_=second, actor="olga")
    for table in second.tables.select_related("game", "round"):
        _play_and_confirm(table, rng)
    round_close(round_=second, actor="olga")

    third = _ready(round_create(event=event, actor="olga"))
    round_publish(round_=third, actor="olga")
    tables = list(third.tables.select_related("game", "round").order_by("number"))
    _play_and_confirm(tables[0], rng)
    autoplay.play(tables[1].game, rng, actor="table")
    autoplay.play(tables[2].game, rng, deals=3, actor="table")

    # self check-in: the late comer checked in again from their phone, a newcomer waiting
    late = Entry.objects.get(event=event, player__name="Late Comer")
    entry_check_in(entry=late, checked_in=False, actor="olga")
    check_in.self_check_in_set(event=event, open=True, actor="olga")
    check_in.self_check_in(event=event, entry=late, proven=late)
    check_in.newcomer_ask(event=event, name="Asked At Door", address="10.0.0.1")
    # a team and a keep-apart rule (docs/teams.md)
    team_create(event=event, name="=1+1 Aces", entries=entries[:2], actor="olga")
    keep_apart_create(event=event, entries=entries[2:5], label="same club", actor="olga")
    return Event.objects.get(pk=event.pk)


def wipe(event: Event) -> None:
    """Lose the event: its rows, its games (they outlive tables), its club and players."""
    games = list(Game.objects.filter(table__round__event=event).values_list("pk", flat=True))
    club = event.club
    event.delete()
    Game.objects.filter(pk__in=games).delete()
    club.delete()


def rewind_sequences() -> None:
    """Id sequences as a new database has them (PostgreSQL; SQLite needs nothing), so that a
    restore's kept ids are ahead of them, as they are when restoring into a new database."""
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), MODELS):
            cursor.execute(sql)


def fingerprint() -> dict:
    """Every row of every table the import may write, by id."""
    return {model.__name__: sorted(model.objects.values_list("pk", flat=True)) for model in MODELS}


def document(event: Event) -> dict:
    """The export as a file holds it (through JSON text)."""
    return json.loads(json.dumps(backup.event_export(event=event)))


def canonical(data: dict, drop: set[str] = frozenset()) -> dict:
    """What must survive a round trip: all but the moment of export (and `drop`)."""
    return without(data, {"exported_at", *drop})


def without(value, keys: set[str]):
    """The value with every key in `keys` dropped, at any depth."""
    if isinstance(value, dict):
        return {k: without(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list):
        return [without(v, keys) for v in value]
    return value


def changes_in(value):
    """Every game change in a backup document, at any depth."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "changes" and isinstance(inner, list):
                yield from inner
            else:
                yield from changes_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from changes_in(inner)


def games_of(event: Event) -> dict[str, Game]:
    return {g.secret: g for g in Game.objects.filter(table__round__event=event)}


def named_rows(snapshot: Standings) -> list[dict]:
    names = player_names(snapshot.event)
    return [{**row, "player": names[row["player"]]} for row in snapshot.rows]


def history(event: Event) -> dict[str, list]:
    """Every change and every deal ever entered (undone ones too), by table secret."""
    out: dict[str, list] = {}
    for secret, game in games_of(event).items():
        changes = game.changes.values_list("at", "actor", "action", "deal_number", "data", "reason")
        deals = game.entries.order_by("entered_at").values_list(
            "number", "calls", "tricks", "last_tricks", "entered_at", "entered_by"
        )
        undone = game.entries.exclude(undone_at=None).values_list(
            "number", "undone_at", "undone_by"
        )
        out[secret] = [list(changes), list(deals), list(undone)]
    return out


# --- the export --------------------------------------------------------------------------------


def test_the_export_holds_the_whole_event_and_names_players_by_name(played):
    data = backup.event_export(event=played)
    assert json.loads(json.dumps(data)) == data  # plain JSON values only
    assert (data["format"], data["version"]) == (backup.FORMAT, backup.VERSION)
    assert list(data)[:2] == ["format", "version"]
    assert data["club"]["slug"] == played.club.slug
    assert data["event"]["organisers"] == ["boris", "olga"]
    assert data["event"]["placing_points"] == [3, 1, 0] and data["event"]["seed"] == 358
    entries = {entry["player"]["name"]: entry for entry in data["entries"]}
    assert len(entries) == 14
    assert entries["Player 05"]["withdrawn"] and entries["Late Comer"]["joined_round"] == 2

    names = set(entries)
    rounds = data["rounds"]
    assert [r["status"] for r in rounds] == ["closed", "closed", "published"]
    assert all(r["byes"] for r in rounds)  # 13 players: a bye every round
    for round_ in rounds:
        for table in round_["tables"]:
            assert set(table["seats"]) <= names
        for flag in round_["flags"] + [f for t in round_["tables"] for f in t["flags"]]:
            assert set(flag.get("players", [])) <= names
    for snapshot in data["standings"]:
        assert {row["player"] for row in snapshot["rows"]} <= names
    assert data["standings"][-1]["current"]
    swapped = next(line for line in data["log"] if line["action"] == "players_swapped")
    assert set(swapped["data"]["players"]) <= names
    withdrawn = next(line for line in data["log"] if line["action"] == "withdrawn")
    assert withdrawn["data"]["player"] == "Player 05" and withdrawn["reason"] == "went home"
    assert data["event"]["self_check_in"] is True
    assert entries["Late Comer"]["checked_in_by"] == "phone"
    assert entries["Late Comer"]["checked_in_at"]
    assert entries["Player 01"]["checked_in_by"] == "organiser"
    assert [asked["name"] for asked in data["newcomers"]] == ["Asked At Door"]
    self_checked = next(line for line in data["log"] if line["action"] == "self_checked_in")
    assert self_checked["data"]["player"] == "Late Comer"
    (team,) = data["teams"]
    assert (team["name"], team["players"]) == ("=1+1 Aces", ["Player 01", "Player 02"])
    (rule,) = data["keep_apart"]
    assert (rule["label"], rule["players"]) == (
        "same club",
        ["Player 03", "Player 04", "Player 05"],
    )
    made = next(line for line in data["log"] if line["action"] == "team_created")
    assert made["data"]["players"] == ["Player 01", "Player 02"]

    games = [table["game"] for round_ in rounds for table in round_["tables"]]
    actions = {change["action"] for game in games for change in game["changes"]}
    assert {"created", "deal_recorded", "deal_undone", "reopened", "secret_replaced"} <= actions
    undone = [deal for game in games for deal in game["deals"] if deal["undone_at"]]
    assert len(undone) == 2 and all(deal["undone_by"] for deal in undone)
    assert {g["result"] for g in games} == {"confirmed", "finished", "in_play"}
    assert len({g["secret"] for g in games}) == len(games)


def test_exporting_takes_the_same_queries_for_a_small_and_a_large_event(played):
    small = simulate(players=4, rounds=1, ruleset="blato", mode="swiss", seed=1)
    counts = []
    for event in (Event.objects.get(slug=small["event"]), played):
        with CaptureQueriesContext(connection) as queries:
            backup.event_export(event=event)
        counts.append(len(queries))
    assert counts[0] == counts[1]


# --- restores ----------------------------------------------------------------------------------


def test_a_restore_into_an_empty_database_gives_back_the_event_exactly(played):
    before = document(played)
    states = {secret: game_state_json(game) for secret, game in games_of(played).items()}
    ids = {secret: game.pk for secret, game in games_of(played).items()}
    rows = named_rows(played.standings.first())
    stale = standings_latest(played).stale
    changes = history(played)
    counts = {model.__name__: model.objects.count() for model in MODELS}
    wipe(played)
    rewind_sequences()

    imported = backup.event_import(data=copy.deepcopy(before))
    event = imported.event
    # The one warning: who organises it, as the file says (olga and boris are users here).
    assert [str(warning) for warning in imported.warnings] == [
        str(
            backup.Notice(
                "backup_organisers_from_file", {"names": "boris, olga", "slug": event.slug}
            )
        )
    ]
    assert canonical(document(event)) == canonical(before)  # ids too: all were free again
    assert {model.__name__: model.objects.count() for model in MODELS} == counts
    assert {secret: game_state_json(game) for secret, game in games_of(event).items()} == states
    assert history(event) == changes
    assert sorted(event.organisers.values_list("username", flat=True)) == ["boris", "olga"]

    # The standings: the stored snapshot is still current, and a rebuild gives the same rows.
    latest = event.standings.first()
    assert named_rows(latest) == rows
    assert standings_build(event_id=event.pk).pk == latest.pk
    assert standings_latest(event).stale == stale
    assert event.pk not in sweep.events_with_stale_standings()
    event.standings.all().delete()
    assert named_rows(standings_build(event_id=event.pk)) == rows

    # The keeper links printed for the tables still work (the game id and the secret).
    for secret, game_id in ids.items():
        response = Client().get(reverse("scoring:keep", args=[game_id, secret]))
        assert response.status_code == 302, secret

    # And the event goes on: new rows of every kind get ids of their own.
    players_register(event=event, names=["Later Still"], actor="olga")
    half_played = next(g for g in games_of(event).values() if g.result == Game.Result.IN_PLAY)
    autoplay.play(half_played, random.Random(1), deals=1, actor="table")
    standings_build(event_id=event.pk)
    event_create(club=club_create(name="Another club"), name="Next week")


def test_a_copy_under_new_ids_keeps_everything_but_the_ids(played):
    """The original stays, so every id is taken: the copy (another slug, new secrets, in
    another club) is re-keyed throughout, players' ids in JSON values included."""
    before = document(played)
    data = copy.deepcopy(before)
    data["event"]["slug"] = "friday-night-copy"
    for round_ in data["rounds"]:
        for table in round_["tables"]:
            if table["game"]:
                table["game"]["secret"] += "-copy"
    fresh = {
        name: set(model.objects.values_list("pk", flat=True))
        for name, model in (("games", Game), ("players", Player), ("deals", DealEntry))
    }

    imported = backup.event_import(data=data, club_slug="plovdiv")
    event = imported.event
    assert event.club.slug == "plovdiv" and event.club.name == "Sofia Blato Club"
    codes = [warning.code for warning in imported.warnings]
    assert codes == ["backup_players_moved", "backup_organisers_from_file", "backup_games_moved"]
    assert "lots" in str(imported.warnings[0]) and "keeper links" in str(imported.warnings[2])
    new_games = {g.pk for g in games_of(event).values()}
    assert not new_games & fresh["games"]
    assert not set(event.club.players.values_list("pk", flat=True)) & fresh["players"]
    assert Player.objects.filter(club=event.club).count() == 14

    after = document(event)
    drop = {"id"}
    assert after["event"]["slug"] == "friday-night-copy" and after["club"]["slug"] == "plovdiv"
    for doc in (after, before):
        doc["event"]["slug"] = doc["club"]["slug"] = None
    assert canonical(after, drop | {"secret"}) == canonical(before, drop | {"secret"})
    swapped = EventLog.objects.get(event=event, action="players_swapped")
    assert set(swapped.data["players"]) <= set(event.club.players.values_list("pk", flat=True))

    # Up to date as it was; rebuilt, the same results (the lot is drawn anew: new ids).
    latest = event.standings.first()
    assert standings_build(event_id=event.pk).pk == latest.pk
    original = {row["player"]: row for row in named_rows(played.standings.first())}
    event.standings.all().delete()
    rebuilt = {row["player"]: row for row in named_rows(standings_build(event_id=event.pk))}
    assert rebuilt.keys() == original.keys()
    for name, row in rebuilt.items():
        metrics = {k: v for k, v in row["metrics"].items() if k != "lot"}
        assert metrics == {k: v for k, v in original[name]["metrics"].items() if k != "lot"}
        assert row["score"] == original[name]["score"]


def test_an_organiser_without_a_login_here_is_left_out_with_a_warning(played):
    data = document(played)
    wipe(played)
    User.objects.filter(username="boris").delete()
    imported = backup.event_import(data=data)
    assert list(imported.event.organisers.values_list("username", flat=True)) == ["olga"]
    named, missing = imported.warnings
    assert "makes olga organisers" in str(named) and "boris" not in str(named)
    assert missing.code == "backup_organisers_missing" and "boris" in str(missing)
    assert not User.objects.filter(username="boris").exists()


def test_importing_writes_in_bulk(played):
    data = document(played)
    wipe(played)
    rows = sum(model.objects.count() for model in MODELS)
    with CaptureQueriesContext(connection) as queries:
        backup.event_import(data=data)
    written = sum(model.objects.count() for model in MODELS) - rows
    # Per-row writes would take several queries a row; bulk ones take a few per kind of row
    # (on PostgreSQL up to five: the ids taken, the rows, the sequence, the times; 16 kinds).
    assert written > 300
    assert len(queries) < 80, [q["sql"][:80] for q in queries]


# --- through the commands ----------------------------------------------------------------------


def test_the_commands_round_trip_a_simulated_event(tmp_path, monkeypatch):
    result = simulate(players=13, rounds=3, ruleset="blato", mode="swiss", seed=7)
    event = Event.objects.get(slug=result["event"])
    path = tmp_path / "backup.json"
    call_command("export_event", event.slug, "-o", str(path), stderr=io.StringIO())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it holds the table secrets
    out = io.StringIO()
    call_command("export_event", event.slug, stdout=out)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert canonical(json.loads(out.getvalue())) == canonical(written)
    states = {secret: game_state_json(game) for secret, game in games_of(event).items()}
    rows = named_rows(event.standings.first())
    wipe(event)

    out = io.StringIO()
    call_command("import_event", str(path), stdout=out, stderr=io.StringIO())
    assert f"imported {result['event']}" in out.getvalue() and "12 games" in out.getvalue()
    event = Event.objects.get(slug=result["event"])
    assert canonical(document(event)) == canonical(written)
    assert {secret: game_state_json(game) for secret, game in games_of(event).items()} == states
    event.standings.all().delete()
    assert named_rows(standings_build(event_id=event.pk)) == rows

    # From stdin, into another club (the players are still in the first: they get new ids).
    games = list(Game.objects.filter(table__round__event=event).values_list("pk", flat=True))
    event.delete()
    Game.objects.filter(pk__in=games).delete()
    monkeypatch.setattr(sys, "stdin", io.StringIO(path.read_text(encoding="utf-8")))
    err = io.StringIO()
    call_command("import_event", "-", "--club-slug", "elsewhere", stdout=io.StringIO(), stderr=err)
    assert "warning:" in err.getvalue() and "lots" in err.getvalue()
    event = Event.objects.get(slug=result["event"])
    assert event.club.slug == "elsewhere"
    assert {e.player.club.slug for e in event.entries.select_related("player__club")} == {
        "elsewhere"
    }
    drop = {"id", "club"}
    assert canonical(document(event), drop) == canonical(written, drop)


def test_the_commands_refuse_with_a_message(tmp_path, played):
    with pytest.raises(CommandError, match="there is no event"):
        call_command("export_event", "no-such-event")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("import_event", str(bad))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_event", str(tmp_path / "missing.json"))
    path = tmp_path / "backup.json"
    call_command("export_event", played.slug, "-o", str(path), stderr=io.StringIO())
    before = fingerprint()
    with pytest.raises(CommandError, match="nothing imported: .*already here"):
        call_command("import_event", str(path))
    with pytest.raises(CommandError, match="not a club slug"):
        call_command("import_event", str(path), "--club-slug", "no spaces please")
    assert fingerprint() == before

    # A player id the event cannot name would come back as somebody else: not exported.
    EventLog.objects.create(event=played, action="checked_in", data={"player": 10**9})
    with pytest.raises(CommandError, match="cannot be exported: .*player 1000000000"):
        call_command("export_event", played.slug, "-o", str(path), stderr=io.StringIO())
    assert json.loads(path.read_text(encoding="utf-8"))["event"]["slug"] == played.slug


# --- refusals: each leaves the database as it was ---------------------------------------------


def _first_game(data: dict) -> dict:
    return data["rounds"][0]["tables"][0]["game"]


def _undone(data: dict) -> dict:
    return next(d for d in _first_game(data)["deals"] if d["undone_at"])


def _set(path: str, value):
    """A change to the document at a dotted path (numbers index lists)."""

    def change(data: dict) -> None:
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return change


def _drop(path: str):
    def change(data: dict) -> None:
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        del target[last]

    return change


def _seat_twice(data: dict) -> None:
    tables = data["rounds"][0]["tables"]
    tables[1]["seats"][0] = tables[0]["seats"][0]


def _bye_at_a_table(data: dict) -> None:
    data["rounds"][0]["byes"][0]["player"] = data["rounds"][0]["tables"][0]["seats"][0]


def _same_secret(data: dict) -> None:
    tables = data["rounds"][0]["tables"]
    tables[1]["game"]["secret"] = tables[0]["game"]["secret"]


def _two_live_deals(data: dict) -> None:
    _undone(data)["undone_at"] = None


def _totals_changed(data: dict) -> None:
    _first_game(data)["totals"][0] += 1


def _deals_changed(data: dict) -> None:
    deal = next(d for d in _first_game(data)["deals"] if not d["undone_at"] and d["tricks"])
    deal["tricks"] = [9, 9, 9]


def _not_confirmed(data: dict) -> None:
    _first_game(data)["confirmed_at"] = None


def _log_stranger(data: dict) -> None:
    line = next(line for line in data["log"] if line["action"] == "withdrawn")
    line["data"]["player"] = "Somebody Else"


def _rounds_swapped(data: dict) -> None:
    data["rounds"][0], data["rounds"][1] = data["rounds"][1], data["rounds"][0]


def _entered_twice(data: dict) -> None:
    data["entries"].append(copy.deepcopy(data["entries"][0]))


def _id_twice(data: dict) -> None:
    data["log"][1]["id"] = data["log"][0]["id"]


REFUSALS = {
    "not an object": (lambda data: data.clear() or data.update(format=None), "not an event backup"),
    "another format": (_set("format", "something-else"), "not an event backup"),
    "a newer version": (_set("version", 2), "version 2 is not known"),
    "a missing key": (_drop("event.seed"), "lacks seed"),
    "an unknown key": (_set("rounds.0.colour", "red"), "does not know: colour"),
    "a wrong type": (_set("event.rounds_planned", "four"), "must be an integer"),
    "a bad choice": (_set("rounds.0.status", "lost"), "status"),
    "a bad slug": (_set("event.slug", "not a slug!"), "slug"),
    "a bad time": (_set("event.created_at", "yesterday"), "ISO 8601"),
    "a time without its offset": (_set("log.0.at", "2025-01-01T10:00:00"), "ISO 8601"),
    "a seat for a stranger": (_set("rounds.0.tables.0.seats.1", "Somebody Else"), "entries"),
    "a bye for a stranger": (_set("rounds.0.byes.0.player", "Somebody Else"), "entries"),
    "a standings row for a stranger": (
        _set("standings.0.rows.0.player", "Somebody Else"),
        "entries",
    ),
    "a flag for a stranger": (
        lambda data: data["rounds"][0]["flags"].append({"code": "x", "players": ["Nobody"]}),
        "entries",
    ),
    "the log naming a stranger": (_log_stranger, "entries"),
    "a player at two tables": (_seat_twice, "already plays"),
    "a bye for a seated player": (_bye_at_a_table, "bye"),
    "a player entered twice": (_entered_twice, "second time"),
    "rounds out of order": (_rounds_swapped, "numbered"),
    "one secret at two tables": (_same_secret, "different at every table"),
    "two live deals of one number": (_two_live_deals, "one live deal"),
    "totals that are not the deals'": (_totals_changed, "totals or placings"),
    "deals the engine refuses": (_deals_changed, "engine refuses"),
    "a confirmation without its time": (_not_confirmed, "confirmed_at"),
    "a published table without a game": (_set("rounds.0.tables.0.game", None), "has no game"),
    "an id twice": (_id_twice, "repeat the id"),
    "unknown rules": (_set("event.ruleset", "poker"), "rules"),
    # The event's settings are checked as the organiser pages check them (event_settings).
    "an unknown pairing mode": (_set("event.pairing_modes", ["chess"]), "pairing mode"),
    "placing points upside down": (_set("event.placing_points", [0, 1, 3]), "placing points"),
    "a counted that is not an object": (_set("standings.0.counted", []), "must be an object"),
    # teams and keep-apart rules (docs/teams.md)
    "a team naming a stranger": (_set("teams.0.players.1", "Somebody Else"), "entries"),
    "a keep-apart rule naming a stranger": (_set("keep_apart.0.players.0", "Nobody"), "entries"),
    "a team without its players": (_drop("teams.0.players"), "lacks players"),
    "a player in two teams": (
        lambda data: data["teams"].append({**data["teams"][0], "id": None, "name": "Twice"}),
        "database refused",
    ),
}


_SAMPLE: dict[str, dict] = {}


@pytest.fixture
def sample(request) -> dict:
    """The played event's backup, the database without it. Made once per run: the refusal
    cases only change the document, and building the event is most of their time."""
    if "data" not in _SAMPLE:
        event = request.getfixturevalue("played")
        _SAMPLE["data"] = document(event)
        wipe(event)
    return copy.deepcopy(_SAMPLE["data"])


def test_the_sample_imports_as_it_is(sample):
    """The control for the refusals below: unchanged, their document is accepted."""
    assert backup.event_import(data=sample).event.slug == sample["event"]["slug"]


@pytest.mark.parametrize("change", REFUSALS, ids=list(REFUSALS))
def test_a_backup_that_does_not_hold_together_is_refused_and_nothing_written(sample, change):
    data = sample
    mutate, message = REFUSALS[change]
    mutate(data)
    before = fingerprint()
    with pytest.raises(TournamentError, match=message):
        backup.event_import(data=data)
    assert fingerprint() == before


def test_an_event_or_secret_already_here_is_refused_and_nothing_written(played):
    data = document(played)
    before = fingerprint()
    with pytest.raises(TournamentError, match="already here"):
        backup.event_import(data=data)
    data["event"]["slug"] = "another-slug"
    with pytest.raises(TournamentError, match="secret .* already in use"):
        backup.event_import(data=data, club_slug="another-club")
    assert fingerprint() == before


def test_a_failure_half_way_through_writes_nothing(played, monkeypatch):
    data = document(played)
    wipe(played)
    before = fingerprint()

    insert = writing._insert

    def fail_at_the_last_rows(model, rows):
        if model is EventLog:  # every other row is written, but not yet committed
            assert Event.objects.filter(slug=data["event"]["slug"]).exists()
            assert Game.objects.filter(secret=_first_game(data)["secret"]).exists()
            raise TournamentError("backup_database_refused", why="the lights went out")
        insert(model, rows)

    monkeypatch.setattr(writing, "_insert", fail_at_the_last_rows)
    with pytest.raises(TournamentError, match="lights"):
        backup.event_import(data=data)
    assert fingerprint() == before


# --- the format stays readable ----------------------------------------------------------------

#: Written by the backup module before it became a package (tournaments/backup.py): the
#: `played` event above plus walkouts in round 3 (a substitution then an adjusted result at
#: table 4, table 3 void), void policy "average", and the standings'
#: former fingerprint `results_stamp`. Never regenerate it: it stands for the files
#: operators already keep.
FIXTURE = Path(__file__).parent / "fixtures" / "event-backup-v1.json"
#: The round clock's fields, which that version did not keep (none set, never started).
CLOCK_FIELDS = {
    "clock_minutes",
    "clock_autostart",
    "clock_at_time",
    "clock_more_deals",
    "clock_started_at",
    "clock_deadline",
    "clock_remaining",
    "clock_stopped_at",
    "time_up_at",
    "clock_extra",
}


def test_a_backup_written_before_the_rewrite_imports_and_round_trips():
    old = json.loads(FIXTURE.read_text(encoding="utf-8"))
    User.objects.create_user("olga")
    User.objects.create_user("boris")
    rewind_sequences()

    imported = backup.event_import(data=copy.deepcopy(old))
    event = imported.event
    assert [warning.code for warning in imported.warnings] == ["backup_organisers_from_file"]
    # Everything comes back as the file has it, ids included; the fingerprint is gone (each
    # snapshot's `current` says it) and `counted`, which that version did not keep, is empty;
    # so are the table phones' fields (the keeper alone confirms, no PIN).
    again = document(event)
    added = {"counted", "confirm_quorum", "seed_by_rating", "pin", "quorum", "self_check_in"}
    added |= {"checked_in_by", "checked_in_at", "newcomers"}  # self check-in
    added |= set(CLOCK_FIELDS) | {"played_at"}
    added |= {"teams", "keep_apart", "team_scoring", "team_precedence"}  # docs/teams.md
    # A change's game version, which that version did not keep either, reads as unknown.
    changes = list(changes_in(again))
    assert changes and all(change.pop("version") is None for change in changes)
    assert canonical(again, added) == canonical(old, {"results_stamp"})
    assert again["event"]["confirm_quorum"] == "keeper"
    assert again["event"]["self_check_in"] is False and again["newcomers"] == []
    assert again["teams"] == [] and again["keep_apart"] == []
    assert all(snapshot["counted"] == {} for snapshot in again["standings"])

    # The walkouts: players in the tables' JSON are the same people again.
    ids = dict(event.club.players.values_list("name", "pk"))
    third = Round.objects.get(event=event, number=3)
    adjusted, void = third.tables.get(number=4), third.tables.get(number=3)
    assert adjusted.outcome == "adjusted" and adjusted.game.confirmed
    assert adjusted.substitutions == [
        {"seat": 1, "left": ids["Player 08"], "joined": ids["Player 09"], "from_deal": 1}
    ]
    assert void.outcome == "void" and void.game.result == Game.Result.VOID
    assert void.void_players == [ids[name] for name in ("Player 13", "Player 02", "Player 03")]
    assert event.void_policy == "average"

    # The standings: the snapshot that was current still is, and built again from the
    # restored rows they are the file's, row for row (the lot too: the ids were kept).
    current = [snapshot for snapshot in old["standings"] if snapshot["current"]]
    assert len(current) == 1
    latest = event.standings.first()
    assert latest.pk == current[0]["id"] and latest.is_current(Event.objects.get(pk=event.pk))
    assert not standings_latest(event).stale
    event.standings.all().delete()
    assert named_rows(standings_build(event_id=event.pk)) == current[0]["rows"]

    # The games: each holds the file's result, and a played one replays in the engine to it.
    tables = {t["game"]["secret"]: t for r in old["rounds"] for t in r["tables"] if t["game"]}
    restored = games_of(event)
    assert restored.keys() == tables.keys()
    for secret, game in restored.items():
        held = tables[secret]["game"]
        assert [game.result, game.totals, game.placings] == [
            held["result"],
            held["totals"],
            held["placings"],
        ]
        if tables[secret]["outcome"] == "played":
            state = game_state_json(game)
            assert [state["totals"], state["placings"]] == [game.totals, game.placings]


def test_what_a_snapshot_counted_survives_a_restore(played):
    """The standings' label ("after round 2 + 1 of 4 tables of round 3") is read from
    `counted`; the backup before the rewrite left it out, so a restore lost the label."""
    counted = dict(played.standings.values_list("pk", "counted"))
    assert any(counted.values())
    data = document(played)
    wipe(played)
    rewind_sequences()
    event = backup.event_import(data=data).event
    assert dict(event.standings.values_list("pk", "counted")) == counted


def test_the_event_settings_are_those_the_organisers_edit(sample):
    """One list of editable settings (tournaments.common.event_settings): the backup holds each."""
    assert set(event_settings.SETTING_NAMES) <= set(sample["event"])
