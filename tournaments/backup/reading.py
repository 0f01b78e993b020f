"""Reading a backup: the document checked whole and turned into unsaved rows (a Plan).

Nothing is written here: a document that does not hold together is refused before the
first row is saved. Rows point at each other as the file does, by meaning (players by
name, rows by nesting); the Plan keeps those links and sets them once ids are known.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass, field

import engine
from scoring.models import DealEntry, Game, GameChange
from scoring.names import NameProblem, PlayerName
from tournaments.backup.document import check
from tournaments.backup.fields import FORMAT, VERSION, bad, items, moment, nobody, row_in
from tournaments.backup.games import read_game
from tournaments.club_models import NewcomerRequest
from tournaments.common import event_settings
from tournaments.common.errors import TournamentError
from tournaments.models import (
    Bye,
    Club,
    Entry,
    Event,
    EventLog,
    KeepApart,
    Player,
    Round,
    Standings,
    Table,
    Team,
    TeamMember,
)

#: The rows below the event, in an order that saves each row after those it points at.
ORDER = (Entry, Game, DealEntry, GameChange, Round, Table, Bye, Standings, EventLog)
ORDER += (NewcomerRequest, Team, TeamMember, KeepApart, KeepApart.entries.through)
TOP = ("format", "version", "exported_at", "club", "event", "entries", "rounds")
TOP += ("standings", "log")
#: Keys added after version 1 of the format: a backup written before them lacks them (self
#: check-in: no newcomer waiting).
OPTIONAL_TOP = ("newcomers", "teams", "keep_apart")


@dataclass
class Plan:
    """Everything a document says, checked and turned into unsaved rows."""

    club: Club
    event: Event
    organisers: list[str]
    #: Whether the organisers were named by whoever imports, not by the file.
    organisers_chosen: bool = False
    players: dict[str, Player] = field(default_factory=dict)  # by name, in file order
    entries: dict[str, Entry] = field(default_factory=dict)  # by the player's name
    rows: dict[type, list] = field(default_factory=lambda: defaultdict(list))
    #: Each row's relations, set when the rows they point at are saved.
    links: dict[type, list[dict]] = field(default_factory=lambda: defaultdict(list))
    current: list[Standings] = field(default_factory=list)

    def add(self, row, **relations) -> None:
        self.rows[type(row)].append(row)
        self.links[type(row)].append(relations)

    def player(self, name: object, where: str) -> Player:
        if not isinstance(name, str) or name not in self.players:
            raise bad("stranger", where, name=repr(name))
        return self.players[name]

    def finder(self, where: str):
        return lambda name: self.player(name, where)


def read(data: object) -> Plan:
    check(data)  # every value storable first (document.py): what follows reads meanings
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise TournamentError("backup_not_a_backup", found=repr(found), expected=FORMAT)
    if data.get("version") != VERSION:
        version = repr(data.get("version"))
        raise TournamentError("backup_version_unknown", version=version, known=VERSION)
    missing = [key for key in TOP if key not in data]
    if missing:
        raise bad("lacks", "", keys=", ".join(missing))
    unknown = sorted(str(key) for key in data if key not in TOP + OPTIONAL_TOP)
    if unknown:
        raise bad("unknown_keys", "", keys=", ".join(unknown))
    moment(data["exported_at"], "exported_at")
    club, _ = row_in(Club, data["club"], "club", nobody)
    event, organisers = _read_event(data["event"])
    plan = Plan(club=club, event=event, organisers=organisers)
    for item, where in items(data, "entries", ""):
        _read_entry(item, where, plan)
    secrets: set[str] = set()
    for number, (item, where) in enumerate(items(data, "rounds", ""), start=1):
        _read_round(item, where, number, plan, secrets)
    for item, where in items(data, "standings", ""):
        snapshot, obj = row_in(Standings, item, where, plan.finder(where), more=("current",))
        if not isinstance(obj["current"], bool):
            raise bad("not_bool", f"{where}.current")
        plan.add(snapshot, event=plan.event)
        if obj["current"]:
            plan.current.append(snapshot)
    for item, where in items(data, "log", ""):
        line, _ = row_in(EventLog, item, where, plan.finder(f"{where}.data"))
        plan.add(line, event=plan.event)
    for item, where in items({"newcomers": [], **data}, "newcomers", ""):
        asked, _ = row_in(NewcomerRequest, item, where, nobody)
        plan.add(asked, event=plan.event)
    _read_teams(data, plan)
    _no_id_twice(Player, list(plan.players.values()))
    for model in ORDER:
        _no_id_twice(model, plan.rows[model])
    return plan


def _read_event(value: object) -> tuple[Event, list[str]]:
    event, obj = row_in(Event, value, "event", nobody, more=("organisers",))
    try:
        engine.Rules.build(event.ruleset, event.options)
    except engine.RuleError as error:
        raise bad("rules_refused", "event", why=error.message) from None
    # The settings are checked as the organiser pages check them (common.event_settings),
    # but kept as the file has them: a restore gives back what was stored.
    for name, value in event_settings.settings_of(event).items():
        try:
            event_settings.SETTINGS_BY_NAME[name].clean(value)
        except (TournamentError, TypeError) as error:
            raise bad("setting_refused", f"event.{name}", why=str(error)) from None
    try:
        event_settings.check_standings(event)
    except (TournamentError, TypeError) as error:
        raise bad("setting_refused", "event", why=str(error)) from None
    organisers = []
    for item, where in items(obj, "organisers", "event"):
        if not isinstance(item, str) or not item:
            raise bad("not_username", where)
        organisers.append(item)
    return event, organisers


def _read_entry(value: object, where: str, plan: Plan) -> None:
    entry, obj = row_in(Entry, value, where, nobody, more=("player",))
    player, _ = row_in(Player, obj["player"], f"{where}.player", nobody)
    # Names are tidy as the site stores them (scoring.names.PlayerName); a restore does not
    # re-judge names that are merely near each other, nor a comma stored before names typed
    # with one were refused (the backup brings back what was).
    try:
        tidy = str(PlayerName.parse(player.name))
    except NameProblem as problem:
        tidy = problem.text if problem.code == "list" else None
    if tidy != player.name:
        raise bad("name_untidy", f"{where}.player.name", name=repr(player.name))
    if player.name in plan.players:
        raise bad("entered_twice", where, name=repr(player.name))
    plan.players[player.name] = player
    plan.entries[player.name] = entry
    plan.add(entry, event=plan.event, player=player)


def _read_teams(data: dict, plan: Plan) -> None:
    """The teams and keep-apart rules (backups before them have none), players by name.
    What the database holds to (a team's name once in the event, a player in one team) is
    left to its constraints: a file that breaks them is refused and nothing written."""
    for item, where in items({"teams": [], **data}, "teams", ""):
        team, obj = row_in(Team, item, where, nobody, more=("players",))
        plan.add(team, event=plan.event)
        for name, here in items(obj, "players", where):
            entry = plan.entries[plan.player(name, here).name]
            plan.add(TeamMember(), team=team, entry=entry)
    for item, where in items({"keep_apart": [], **data}, "keep_apart", ""):
        rule, obj = row_in(KeepApart, item, where, nobody, more=("players",))
        plan.add(rule, event=plan.event)
        for name, here in items(obj, "players", where):
            entry = plan.entries[plan.player(name, here).name]
            plan.add(KeepApart.entries.through(), keepapart=rule, entry=entry)


def _read_round(value: object, where: str, number: int, plan: Plan, secrets: set[str]) -> None:
    round_, obj = row_in(Round, value, where, plan.finder(f"{where}.flags"), ("tables", "byes"))
    if round_.number != number:
        raise bad("rounds_numbered", f"{where}.number", n=number)
    plan.add(round_, event=plan.event)
    published = round_.status in (Round.Status.PUBLISHED, Round.Status.CLOSED)
    seated: set[str] = set()
    numbers: set[int] = set()
    for item, here in items(obj, "tables", where):
        table, names = _read_table(item, here, round_, plan, secrets, published)
        if table.number in numbers:
            raise bad("table_twice", here, n=table.number)
        numbers.add(table.number)
        for name in names:
            if name in seated:
                raise bad("plays_twice", here, name=repr(name), round=number)
            seated.add(name)
    for item, here in items(obj, "byes", where):
        bye, bye_obj = row_in(Bye, item, here, plan.finder(f"{here}.flags"), more=("player",))
        player = plan.player(bye_obj["player"], f"{here}.player")
        if player.name in seated:
            raise bad("bye_while_playing", here, name=repr(player.name))
        seated.add(player.name)
        plan.add(bye, round=round_, player=player)


def _read_table(value, where, round_, plan, secrets, published) -> tuple[Table, list[str]]:
    """A table and the names at its seats (to check that nobody plays twice in a round)."""
    table, obj = row_in(Table, value, where, plan.finder(where), more=("seats", "game"))
    seats = obj["seats"]
    if not isinstance(seats, list) or len(seats) != 3:
        raise bad("seats_three", f"{where}.seats")
    players = [plan.player(name, f"{where}.seats[{n}]") for n, name in enumerate(seats)]
    if len({player.name for player in players}) != 3:
        raise bad("seated_twice", f"{where}.seats")
    if table.first_dealer not in (0, 1, 2):
        raise bad("not_seat", f"{where}.first_dealer")
    game = None
    if obj["game"] is not None:
        game = read_game(obj["game"], f"{where}.game", plan, secrets, table.outcome)
    if published and game is None:
        raise bad("game_missing", where)
    if game is not None and not published:
        raise bad("game_unpublished", where)
    seat_0, seat_1, seat_2 = players
    plan.add(table, round=round_, seat_0=seat_0, seat_1=seat_1, seat_2=seat_2, game=game)
    return table, [player.name for player in players]


def _no_id_twice(model: type, rows: list) -> None:
    """One pass with sets: a few hashes a row, however many rows repeat ids (a file is
    someone else's, and comparing every id with every other took minutes)."""
    seen: set = set()
    twice: set = set()
    for row in rows:
        if row.pk is None:
            continue
        if row.pk in seen:
            twice.add(row.pk)
        else:
            seen.add(row.pk)
    if twice:
        first = heapq.nsmallest(5, twice)
        raise bad("ids_twice", f"the {model.__name__} rows", ids=str(first))
