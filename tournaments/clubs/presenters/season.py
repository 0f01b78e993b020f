"""A season's standings as people read them: the rows with names, each night's points, and
every tie-break said in words; the same rows feed the page, the projector, the exports and
the API (so they never disagree)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournaments.clubs.selectors.seasons import SeasonTable
from tournaments.seasons import SHARED, SeasonRow


class NightCell(NamedTuple):
    """One row's cell for one night (a named tuple: a season's table has thousands)."""

    points: int | None  # None: not there that night
    place: int | None
    counted: bool


#: The cell of a night the player missed.
MISSED = NightCell(None, None, False)


@dataclass(frozen=True)
class Line:
    rank: int | None
    player_id: int
    name: str
    score: int
    nights: int
    counted: int
    wins: int
    best_place: int | None
    cells: tuple[NightCell, ...]
    tie: str  # why this row is below (or level with) the one above, in words; or ""
    shared: bool

    def as_api(self) -> dict:
        return {
            "rank": self.rank,
            "player": self.name,
            "player_id": self.player_id,
            "score": self.score,
            "nights": self.nights,
            "counted": self.counted,
            "wins": self.wins,
            "best_place": self.best_place,
            "tie_break": self.tie or None,
            "per_night": [
                {"place": c.place, "points": c.points, "counted": c.counted} for c in self.cells
            ],
        }


def place_words(place: int | None) -> str:
    if place is None:
        return "—"
    return pgettext("season: a place in a night's standings", "%(place)s.") % {"place": place}


def tie_words(row: SeasonRow, above: SeasonRow, names: dict[int, str]) -> str:
    """Why `row` is where it is next to `above`, the row before it, when their scores are
    level (the page's footnote)."""
    other = names.get(above.player, "?")
    if row.decided_by == "wins":
        return _(
            "Level on points with %(name)s, who won more nights (%(theirs)s against %(ours)s)."
        ) % {"name": other, "theirs": above.wins, "ours": row.wins}
    if row.decided_by == "best_place":
        return _(
            "Level on points and nights won with %(name)s, who has the better best night "
            "(%(theirs)s against %(ours)s)."
        ) % {
            "name": other,
            "theirs": place_words(above.best_place),
            "ours": place_words(row.best_place),
        }
    if row.decided_by == SHARED:
        return _(
            "Level with %(name)s on points, nights won and best night: they share the rank."
        ) % {"name": other}
    return ""


def short_of(row: SeasonRow, minimum: int) -> str:
    return ngettext(
        "Played %(nights)s of the %(minimum)s night needed to be ranked.",
        "Played %(nights)s of the %(minimum)s nights needed to be ranked.",
        minimum,
    ) % {"nights": row.nights, "minimum": minimum}


def season_lines(table: SeasonTable) -> list[Line]:
    keys = [night.event.pk for night in table.nights]
    lines, above = [], None
    for row in table.rows:
        by_night = {score.night: score for score in row.per_night}
        cells = tuple(
            NightCell(score.points, score.place, score.counted)
            if (score := by_night.get(k)) is not None
            else MISSED
            for k in keys
        )
        if not row.ranked:
            tie = short_of(row, table.counting.min_nights)
        elif above is not None and row.decided_by:
            tie = tie_words(row, above, table.names)
        else:
            tie = ""
        lines.append(
            Line(
                rank=row.rank,
                player_id=row.player,
                name=table.names.get(row.player, "?"),
                score=row.score,
                nights=row.nights,
                counted=row.counted,
                wins=row.wins,
                best_place=row.best_place,
                cells=cells,
                tie=tie,
                shared=row.decided_by == SHARED,
            )
        )
        above = row
    return lines


def counting_words(table: SeasonTable) -> list[str]:
    """How this season counts, one sentence a rule (shown above its table)."""
    counting = table.counting
    points = "-".join(str(p) for p in counting.place_points)
    said = [
        _("Each night's places score %(points)s season points; lower places score 0.")
        % {"points": points}
    ]
    if counting.best_nights:
        said.append(
            ngettext(
                "Only each player's best night counts.",
                "Only each player's best %(n)s nights count.",
                counting.best_nights,
            )
            % {"n": counting.best_nights}
        )
    else:
        said.append(_("Every night a player plays counts."))
    if counting.min_nights > 1:
        said.append(
            ngettext(
                "A player needs %(n)s night to be ranked; the others are listed below.",
                "A player needs %(n)s nights to be ranked; the others are listed below.",
                counting.min_nights,
            )
            % {"n": counting.min_nights}
        )
    said.append(
        _(
            "Level on points, more nights won ranks higher, then the better best night; "
            "players level on all three share the rank."
        )
    )
    return said


def export_rows(table: SeasonTable, lines: list[Line]) -> tuple[list[str], list[list]]:
    """The headers and rows of the season's download (CSV, XLSX)."""
    headers = [
        _("Rank"),
        _("Player"),
        _("Season points"),
        _("Nights"),
        _("Nights counted"),
        _("Nights won"),
        _("Best place"),
    ] + [night.event.name for night in table.nights]
    rows = []
    for line in lines:
        rows.append(
            [
                line.rank if line.rank is not None else "",
                line.name,
                line.score,
                line.nights,
                line.counted,
                line.wins,
                line.best_place or "",
            ]
            + [
                "" if cell.points is None else (cell.points if cell.counted else f"({cell.points})")
                for cell in line.cells
            ]
        )
    return headers, rows


def season_body(table: SeasonTable, lines: list[Line]) -> dict:
    """The JSON download's body, and the API's answer (tournaments.clubs.api.seasons): "club" and
    "season" name what the address names (slug, id), as the other APIs' answers do."""
    season = table.season
    counting = table.counting
    return {
        "club": season.club.slug,
        "season": season.pk,
        "name": season.name,
        "starts_on": season.starts_on.isoformat() if season.starts_on else None,
        "ends_on": season.ends_on.isoformat() if season.ends_on else None,
        "place_points": list(counting.place_points),
        "best_nights": counting.best_nights,
        "min_nights": counting.min_nights,
        "nights": [
            {
                "event": night.event.slug,
                "name": night.event.name,
                "provisional": night.provisional,
                "has_standings": night.has_standings,
            }
            for night in table.nights
        ],
        "rows": [line.as_api() for line in lines],
    }
