"""Words and numbers for a club player's page: the rating and its chart, the games, the
placings and the per-position figures of the season asked for."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.presenters.numbering import hand_of, tricks_of
from scoring.templatetags.numbers import MINUS
from tournaments.clubs.charts import RatingPoint, rating_chart
from tournaments.clubs.player_figures import Figures, figures
from tournaments.clubs.selectors.club_player import PlayerGame
from tournaments.models import Rating, RatingStep, Season

ALL = "all"


def decimal(value: float, places: int = 1) -> str:
    """A rating figure as the page's language writes it, with a true minus sign."""
    text = number_format(round(value, places), places)
    return text.replace("-", MINUS) if text.startswith("-") else text


def rating_facts(rating: Rating | None) -> list[tuple[str, str]]:
    if rating is None:
        return []
    return [
        (_("Rating (μ − 3σ)"), decimal(rating.ordinal)),
        (_("Skill (μ)"), decimal(rating.mu)),
        (_("Uncertainty (σ)"), decimal(rating.sigma)),
        (_("Rated games"), str(rating.games)),
    ]


@dataclass(frozen=True)
class StepRow:
    number: int
    when: str
    place: int
    ordinal: str
    mu: str
    sigma: str


def chart_context(steps: Sequence[RatingStep]) -> dict | None:
    """The chart of the rating after each rated game, with what it says in words for those
    who cannot see it, and the figures as rows."""
    chart = rating_chart([RatingPoint(s.mu, s.sigma, s.ordinal) for s in steps])
    if chart is None:
        return None
    words = {
        "games": chart.games,
        "first": decimal(chart.first),
        "last": decimal(chart.last),
        "low": decimal(chart.low),
        "high": decimal(chart.high),
    }
    description = (
        ngettext(
            "The rating (μ − 3σ) after %(games)d rated game: %(last)s.",
            "The rating (μ − 3σ) over %(games)d rated games: from %(first)s to %(last)s, "
            "between %(low)s and %(high)s; the pale band is μ ± σ.",
            chart.games,
        )
        % words
    )
    rows = [
        StepRow(
            number=n,
            when=date_format(step.batch_at, "SHORT_DATE_FORMAT"),
            place=step.place,
            ordinal=decimal(step.ordinal),
            mu=decimal(step.mu),
            sigma=decimal(step.sigma),
        )
        for n, step in enumerate(steps, start=1)
    ]
    return {"chart": chart, "title": _("Rating over time"), "desc": description, "rows": rows}


def season_of(game: PlayerGame, seasons: Sequence[Season]) -> int | None:
    """An event's games belong to its season; a casual game to the season whose dates hold
    the day it was played (a season without both dates holds no casual game)."""
    if game.event is not None:
        return game.season_id
    day = game.when.date()
    for season in seasons:
        if season.starts_on and season.ends_on and season.starts_on <= day <= season.ends_on:
            return season.pk
    return None


def season_choices(seasons: Sequence[Season], chosen: int | None) -> list[dict]:
    """The season selector's links: every game, then each season of the club."""
    choices = [{"query": ALL, "label": _("All games"), "current": chosen is None}]
    choices += [
        {"query": str(season.pk), "label": season.name, "current": chosen == season.pk}
        for season in seasons
    ]
    return choices


def chosen_season(asked: str | None, seasons: Sequence[Season]) -> Season | None:
    """The season the address asks for; anything else (none, "all", unknown) means all."""
    return next((season for season in seasons if str(season.pk) == (asked or "")), None)


def _state_words(game: PlayerGame) -> str:
    if game.game.void:
        return _("void")
    if game.game.confirmed:
        return _("confirmed")
    return _("finished") if game.state.finished else _("being played")


@dataclass(frozen=True)
class GameRow:
    game: PlayerGame
    where: str
    state: str
    place: int | None
    points: int | None
    left_at: int | None  # the hand the player's substitute took over from


def game_row(game: PlayerGame) -> GameRow:
    if game.event is None:
        where = _("Casual game")
    else:
        where = _("Round %(round)s, table %(table)s") % {"round": game.round, "table": game.table}
    left_at = None
    if game.seat is None and game.stints:
        deal = max(stint.last or 0 for stint in game.stints) + 1
        left_at = hand_of(tricks_of(game.state.deals), deal)
    points = game.state.totals[game.seat] if game.seat is not None else None
    return GameRow(game, where, _state_words(game), game.place, points, left_at)


def placings(games: Sequence[PlayerGame]) -> list[tuple[str, int]]:
    counts = Counter(game.place for game in games if game.place)
    if not counts:
        return []
    places = range(1, max(3, *counts) + 1)  # three at a table: 1st, 2nd and 3rd at least
    words = {1: _("First"), 2: _("Second"), 3: _("Third")}
    return [(words.get(place, str(place)), counts.get(place, 0)) for place in places]


def counted(games: Sequence[PlayerGame]) -> list[PlayerGame]:
    """The games the figures count: confirmed results only."""
    return [game for game in games if game.game.confirmed]


def figure_rows(found: Figures) -> dict:
    def share(made: int, of: int) -> str:
        return _("%(made)d of %(of)d") % {"made": made, "of": of}

    targets = [
        (_("Target %(target)d made") % {"target": row.target}, share(row.made, row.hands))
        for row in found.targets
    ]
    others = [
        (_("Contracts called and made"), share(found.calls_made, found.calls)),
        (_("No-trumps called and made"), share(found.no_trumps_made, found.no_trumps)),
        (_("Passes"), str(found.passes)),
        (_("Hands played"), str(found.hands)),
    ]
    average = found.average_points
    if average is not None:
        others.append((_("Average points per game"), decimal(average, 2)))
    return {"figures": found, "targets": targets, "others": others}


def games_context(games: Sequence[PlayerGame], seasons: Sequence[Season], asked: str | None):
    season = chosen_season(asked, seasons)
    shown = [g for g in games if season is None or season_of(g, seasons) == season.pk]
    confirmed = counted(shown)
    return {
        "season": season,
        "seasons": season_choices(seasons, season.pk if season else None),
        "games": [game_row(game) for game in reversed(shown)],
        "placings": placings(confirmed),
        "confirmed_games": len(confirmed),
        **figure_rows(figures(game.played for game in confirmed)),
    }
