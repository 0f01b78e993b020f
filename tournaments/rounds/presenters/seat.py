"""Where a player sits ("where do I sit?", the event's phones), and a player's own page."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import translation

from scoring.names import latin_key
from tournaments.models import Event, Player, Round
from tournaments.rounds.presenters.tables import SeatLine, TableLine, round_over, table_line
from tournaments.rounds.selectors import (
    NamedIds,
    names_matching,
    newest_published_round,
    player_byes,
    player_tables,
    round_tables_played,
    seat_names_and_byes,
)
from tournaments.rounds.services import walkouts


@dataclass(frozen=True)
class SeatAnswer:
    """Where a player sits in the newest published round ("table"), or why not."""

    kind: str  # "table", "bye", "left" (substituted), "not_in_round" or "no_round"
    round: Round | None = None
    table: TableLine | None = None
    seat: SeatLine | None = None
    others: tuple[SeatLine, ...] = ()

    @property
    def round_over(self) -> bool:
        return round_over(self.round)


def seat_answer(event: Event, player_id: int) -> SeatAnswer:
    round_ = newest_published_round(event)
    if round_ is None:
        return SeatAnswer("no_round")
    table = next((t for t in player_tables(event, player_id) if t.round_id == round_.pk), None)
    if table is not None:
        line = table_line(table)
        return SeatAnswer(
            "table", round_, line, line.seat_of(player_id), tuple(line.others(player_id))
        )
    if any(bye.round_id == round_.pk for bye in player_byes(event, player_id)):
        return SeatAnswer("bye", round_)
    if walkouts.left_table_of(round_, player_id) is not None:
        return SeatAnswer("left", round_)  # another player took the seat (a substitution)
    return SeatAnswer("not_in_round", round_)


def _sounds(name: str) -> tuple[str, ...]:
    """A name's words as they sound, in any order: two names the search calls the same
    (scoring.names.search's exact match, by its accents-and-case key or its Latin spelling)
    always sound the same, so only the names sounding like a typed one can be its exact
    matches."""
    return tuple(sorted(latin_key(name).split()))


@dataclass(frozen=True)
class SeatMap:
    """What "where do I sit" reads, read once for an event as it stands: the entered players'
    names and each one's place in the newest published round (seat_map). Every answer and
    search is the one seat_answer and selectors.players_matching give; a map is kept while
    the event's results_version is unchanged (tournaments.rounds.web), which every
    change of a published round moves: publishing, closing, a substitution, a void table.
    The tables' deals and totals in it are those of when it was read: the seat page shows
    neither."""

    names: dict[int, str]
    round: Round | None
    tables: dict[int, TableLine]  # player id → their table in `round`
    byes: frozenset[int]
    left: frozenset[int]  # who gave their seat in `round` to a substitute
    sounding: dict[tuple[str, ...], dict[int, str]] = field(default_factory=dict)

    def entered(self, player_id: int) -> tuple[int, str] | None:
        name = self.names.get(player_id)
        return None if name is None else (player_id, name)

    def answer(self, player_id: int) -> SeatAnswer:
        """seat_answer(event, player_id), from the map."""
        if self.round is None:
            return SeatAnswer("no_round")
        line = self.tables.get(player_id)
        if line is not None:
            return SeatAnswer(
                "table", self.round, line, line.seat_of(player_id), tuple(line.others(player_id))
            )
        if player_id in self.byes:
            return SeatAnswer("bye", self.round)
        if player_id in self.left:
            return SeatAnswer("left", self.round)
        return SeatAnswer("not_in_round", self.round)

    def exact(self, text: str) -> NamedIds:
        """Whose whole name `text` is (players_matching's first list), among those sounding
        alike only: no scan of every name."""
        return names_matching(self.sounding.get(_sounds(text), {}), text)[0]

    def matching(self, text: str) -> tuple[NamedIds, NamedIds]:
        """players_matching: the exact matches and everyone `text` may mean (a scan)."""
        return names_matching(self.names, text)

    def may_mean(self, text: str, player_id: int) -> tuple[int, str] | None:
        """The player, if `text` may mean them (they are in `matching(text)[1]`)."""
        name = self.names.get(player_id)
        if name is None or not names_matching({player_id: name}, text)[1]:
            return None
        return player_id, name


def _read(event: Event):
    """The round, names, byes, the round's tables and who left a seat: three queries.

    A withdrawn player's name is matched only while the round still places them (at a table,
    or as the one who gave their seat away: "your seat was taken"): a withdrawn entry the
    round does not seat, such as a typo of a real player's name, is never offered."""
    round_ = newest_published_round(event)
    names, byes, withdrawn = seat_names_and_byes(event, round_)
    played = round_tables_played(round_) if round_ is not None else []
    left = frozenset(move["left"] for table in played for move in table.substitutions)
    placed = left.union(*(table.seat_ids for table in played))
    names = {pid: name for pid, name in names.items() if pid not in withdrawn or pid in placed}
    return round_, names, byes, played, left


def _sounding(names: dict[int, str]) -> dict[tuple[str, ...], dict[int, str]]:
    sounding: dict[tuple[str, ...], dict[int, str]] = {}
    for pid, name in names.items():
        sounding.setdefault(_sounds(name), {})[pid] = name
    return sounding


def seat_map(event: Event) -> SeatMap:
    """The event's SeatMap, in three queries (the round, the names with the byes, the
    round's tables)."""
    round_, names, byes, played, left = _read(event)
    tables = {}
    for table in played:
        line = table_line(table)
        tables.update((seat.player_id, line) for seat in line.seats)
    return SeatMap(names, round_, tables, byes, left, _sounding(names))


# --- the compact form, for the shared cache ---------------------------------------------------
#
# What a process needs to make the map without the three queries: plain values (a pickled
# map of 333 TableLines of model-free dataclasses would be several times the size), the
# words that depend on the language (a table's state, the seats' places) once per language
# of the site, and the names' sounds (not worked out again by every process). The round is
# kept as its model (the seat page reads its number and status).

COMPACT_FORM = 1


def seat_map_compact(event: Event, languages: list[str]) -> dict:
    """The event's seat map in compact form (seat_map_from makes the SeatMap of a language
    from it), read in the same three queries as seat_map."""
    round_, names, byes, played, left = _read(event)
    tables = []
    for table in played:
        words, line = {}, None
        for code in languages:
            with translation.override(code):
                line = table_line(table)
            words[code] = (line.state, tuple(seat.place for seat in line.seats))
        if line is None:
            break  # no language: no form to make
        seats = tuple(
            (s.player_id, None if s.name == names.get(s.player_id) else s.name, s.deals_first)
            + (s.total, s.first)
            for s in line.seats
        )
        dealer = line.seats.index(line.dealer)
        tables.append((line.number, line.game_id, line.result, line.outcome, dealer, seats, words))
    sounding = [(sound, list(ids)) for sound, ids in _sounding(names).items()]
    return {
        "form": COMPACT_FORM,
        "round": round_,
        "names": names,
        "byes": sorted(byes),
        "left": sorted(left),
        "tables": tables,
        "sounding": sounding,
    }


def seat_map_from(compact: dict, language: str) -> SeatMap | None:
    """The SeatMap in `language` that seat_map would read, from seat_map_compact's form
    (None if the form is another one or lacks the language: read the map afresh)."""
    if compact.get("form") != COMPACT_FORM:
        return None
    names = compact["names"]
    tables: dict[int, TableLine] = {}
    for number, game_id, result, outcome, dealer, seats, words in compact["tables"]:
        if language not in words:
            return None
        state, places = words[language]
        lines = [
            SeatLine(
                seat=index + 1,
                player_id=pid,
                name=names[pid] if name is None else name,
                deals_first=deals_first,
                total=total,
                place=places[index],
                first=first,
            )
            for index, (pid, name, deals_first, total, first) in enumerate(seats)
        ]
        line = TableLine(number, game_id, lines, lines[dealer], state, result, outcome)
        tables.update((seat.player_id, line) for seat in lines)
    sounding = {
        tuple(sound): {pid: names[pid] for pid in ids} for sound, ids in compact["sounding"]
    }
    return SeatMap(
        names,
        compact["round"],
        tables,
        frozenset(compact["byes"]),
        frozenset(compact["left"]),
        sounding,
    )


@dataclass(frozen=True)
class PlayerGame:
    round: int
    table: TableLine | None
    seat: SeatLine | None
    others: list[SeatLine]


def player_games(event: Event, person: Player) -> list[PlayerGame]:
    """A player's event round by round: each published round's table, or their bye."""
    games = []
    for table in player_tables(event, person.pk):
        line = table_line(table)
        games.append(
            PlayerGame(table.round.number, line, line.seat_of(person.pk), line.others(person.pk))
        )
    games += [PlayerGame(bye.round.number, None, None, []) for bye in player_byes(event, person.pk)]
    games.sort(key=lambda game: game.round)
    return games
