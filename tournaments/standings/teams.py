"""Team standings: teams ranked by what their players score, from the same results and byes
the individual standings are built from (docs/team-standings.md).

A team is a set of the event's players. In each round a team scores the sum of what its
players scored in that round, by the event's choice (`TeamConfig.scoring`):

placing: the players' placing points (the config's points for each place; a bye is worth
    what it is worth individually, under the bye policy or a void table's own policy).
game_points: the players' game totals (a bye: its game points under the same policies).

So a team's `points` are exactly the sum of its players' individual placing points (or game
points): the team standings never count a game differently from the individual ones. A
walkout counts the way it counts for the player: a substitute's game is the substitute's,
a void table's players get a bye under the event's void policy (tournaments.common.bridge).

The team total ranks first; the tie-breaks, in the order of `TeamConfig.precedence`
(every one ranks the higher value first):

round_wins: rounds in which the team scored the most of the teams that took part in that
    round (a shared top counts for each of them).
placing_points, score, firsts: the players' placing points, game points and first places,
    added up (one of the first two is the total itself under each scoring, so it never
    decides; it is allowed so one precedence serves both scorings).
head_to_head: within each group of teams level on everything before it: team A beat team B
    if, over the games where a player of A and a player of B sat at one table, A's players
    placed above B's more often than the other way round. A team's count is the number of
    its group's teams it beat; used only when it separates cleanly (every team with a higher
    count beat every team of the group with a lower count), else 0 for the whole group, as
    the individual head_to_head (build.py).
lot: a 53-bit number from BLAKE2b of "seed:team:id": a team's own draw, never a player's.

A team ranks when at least one of its players took part in a round (a game or a bye); the
others follow with rank None, by team id. Rows are a pure function of the input as a set:
sums and counts over the games, sorted on the key and the team id at last.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .build import _bye_values, _check_event, _roster
from .errors import StandingsConfigError, StandingsInputError
from .values import BYE_POLICIES, Bye, Config, GameResult

TEAM_SCORINGS = ("placing", "game_points")
#: Every metric of a team row, in the order a row's `metrics` lists them.
TEAM_METRICS = ("points", "round_wins", "placing_points", "score", "firsts", "head_to_head", "lot")
#: What may follow the total in a team precedence.
TEAM_TIE_BREAKS = TEAM_METRICS[1:]
DEFAULT_TEAM_PRECEDENCE = ("round_wins", "score", "placing_points", "firsts", "head_to_head", "lot")


@dataclass(frozen=True)
class TeamConfig:
    """How an event ranks its teams; checked when made.

    scoring: what a team scores per round (TEAM_SCORINGS). precedence: the tie-breaks after
    the total, most important first; "lot" ends it (added when left out). placing_points,
    bye_policy and seed: the event's own, as in values.Config.
    """

    scoring: str = "placing"
    precedence: tuple[str, ...] = DEFAULT_TEAM_PRECEDENCE
    placing_points: tuple[int, int, int] = (2, 1, 0)
    bye_policy: str = "second"
    seed: int = 0

    def __post_init__(self) -> None:
        if self.scoring not in TEAM_SCORINGS:
            raise StandingsConfigError(
                "team_scoring_invalid", value=self.scoring, known=list(TEAM_SCORINGS)
            )
        precedence = self.precedence
        if isinstance(precedence, str) or not isinstance(precedence, tuple | list):
            raise StandingsConfigError("precedence_invalid", value=precedence)
        precedence = tuple(precedence)
        object.__setattr__(self, "precedence", precedence)
        unknown = [name for name in precedence if name not in TEAM_TIE_BREAKS]
        if unknown:
            raise StandingsConfigError("metric_unknown", unknown=unknown, known=TEAM_TIE_BREAKS)
        if len(set(precedence)) != len(precedence):
            raise StandingsConfigError("metric_twice", precedence=precedence)
        if "lot" in precedence and precedence[-1] != "lot":
            raise StandingsConfigError("lot_not_last", precedence=precedence)
        # The individual checks (placing points, bye policy, seed), in their own words.
        config = Config(
            placing_points=self.placing_points, bye_policy=self.bye_policy, seed=self.seed
        )
        object.__setattr__(self, "placing_points", config.placing_points)

    @property
    def individual(self) -> Config:
        points, policy = self.placing_points, self.bye_policy
        return Config(placing_points=points, bye_policy=policy, seed=self.seed)

    @property
    def order(self) -> tuple[str, ...]:
        """The keys the build sorts on: the total, the tie-breaks, the lot at last."""
        tail = self.precedence if "lot" in self.precedence else (*self.precedence, "lot")
        return ("points", *tail)


@dataclass(frozen=True)
class TeamRow:
    """One team's line: rank (None: none of its players took part yet), its points per
    round (rounds 1..the last with a result or bye; 0 where it scored nothing), its metrics,
    and `decided_by`: the tie-break that put it below the row above (None for the first row,
    rows the total separates, and unranked rows)."""

    rank: int | None
    team: int
    points: int
    per_round: tuple[int, ...]
    metrics: dict[str, int]
    decided_by: str | None
    members: tuple[int, ...] = field(default=())

    def as_dict(self) -> dict:
        return {
            "rank": self.rank,
            "team": self.team,
            "points": self.points,
            "per_round": list(self.per_round),
            "metrics": dict(self.metrics),
            "decided_by": self.decided_by,
            "members": list(self.members),
        }


def team_lot(seed: int, team: int) -> int:
    digest = hashlib.blake2b(f"{seed}:team:{team}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 11


def _teams(teams: Mapping[int, Iterable[int]]) -> dict[int, tuple[int, ...]]:
    checked: dict[int, tuple[int, ...]] = {}
    team_of: dict[int, int] = {}
    for team, members in teams.items():
        if isinstance(team, bool) or not isinstance(team, int):
            raise StandingsInputError("team_not_int", team=team)
        listed = tuple(sorted(_roster(members)))
        for player in listed:
            if player in team_of:
                raise StandingsInputError(
                    "team_member_twice", player=player, team=team, other=team_of[player]
                )
            team_of[player] = team
        checked[team] = listed
    return checked


def build_team_standings(
    teams: Mapping[int, Iterable[int]],
    players: Iterable[int],
    results: Iterable[GameResult],
    byes: Iterable[Bye] = (),
    config: TeamConfig | None = None,
) -> list[TeamRow]:
    """One row per team: those that took part ranked 1..K, then the others by team id.
    `players` and the results and byes are the individual build's (refused the same way);
    a team's member who is not among `players` simply scores nothing."""
    config = TeamConfig() if config is None else config
    members = _teams(teams)
    roster = _roster(players)
    games, bye_list = list(results), list(byes)
    _check_event(roster, games, bye_list)
    team_of = {p: t for t, listed in members.items() for p in listed}

    per_player = _per_round(roster, games, bye_list, config)  # (round, player) -> (placing, score)
    last_round = max((r for r, _p in per_player), default=0)
    metric = {name: dict.fromkeys(members, 0) for name in TEAM_METRICS}
    rounds = {t: [0] * last_round for t in members}
    took_part: set[int] = set()
    playing = 0 if config.scoring == "placing" else 1
    for (round_, player), values in per_player.items():
        team = team_of.get(player)
        if team is None:
            continue
        took_part.add(team)
        rounds[team][round_ - 1] += values[playing]
        metric["placing_points"][team] += values[0]
        metric["score"][team] += values[1]
    for game in games:
        team = team_of.get(game.placings[0])
        if team is not None:
            metric["firsts"][team] += 1
    for team in members:
        metric["points"][team] = sum(rounds[team])
    present_in = {(r, team_of[p]) for r, p in per_player if p in team_of}
    for round_ in range(last_round):
        present = [t for t in members if (round_ + 1, t) in present_in]
        if present:
            top = max(rounds[t][round_] for t in present)
            for team in present:
                metric["round_wins"][team] += rounds[team][round_] == top
    order = config.order
    if "head_to_head" in order:
        before = [metric[m] for m in order[: order.index("head_to_head")]]
        metric["head_to_head"].update(_head_to_head(sorted(took_part), games, team_of, before))
    metric["lot"] = {t: team_lot(config.seed, t) for t in members}

    keys = {t: tuple(-metric[m][t] for m in order) for t in took_part}
    ranked = sorted(took_part, key=lambda t: (keys[t], t))
    rows, above = [], None
    for rank, team in enumerate(ranked, start=1):
        why = None if above is None else _decided_by(order, above, keys[team])
        rows.append(_row(rank, team, metric, rounds, members, why))
        above = keys[team]
    rows.extend(
        _row(None, team, metric, rounds, members, None)
        for team in sorted(t for t in members if t not in took_part)
    )
    return rows


def _row(rank, team, metric, rounds, members, why) -> TeamRow:
    return TeamRow(
        rank=rank,
        team=team,
        points=metric["points"][team],
        per_round=tuple(rounds[team]),
        metrics={m: metric[m][team] for m in TEAM_METRICS},
        decided_by=why,
        members=members[team],
    )


def _decided_by(order: tuple[str, ...], above: tuple[int, ...], key: tuple[int, ...]) -> str | None:
    for index, (a, b) in enumerate(zip(above, key, strict=True)):
        if a != b:
            return None if index == 0 else order[index]
    return "lot"  # equal lots, separated by team id: still the lot's doing


def _per_round(
    roster: list[int], games: list[GameResult], byes: list[Bye], config: TeamConfig
) -> dict[tuple[int, int], tuple[int, int]]:
    """(round, player) -> (placing points, game points) that player scored in that round:
    a game's, or a bye's under its policy, exactly as the individual build counts them."""
    points = config.placing_points
    score = dict.fromkeys(roster, 0)
    placing = dict.fromkeys(roster, 0)
    played = dict.fromkeys(roster, 0)
    found: dict[tuple[int, int], tuple[int, int]] = {}
    for game in games:
        place_of = {p: points[i] for i, p in enumerate(game.placings)}
        for player, total in zip(game.players, game.totals, strict=True):
            found[game.round, player] = (place_of[player], total)
            score[player] += total
            placing[player] += place_of[player]
            played[player] += 1
    if byes:
        individual = config.individual
        policies = {bye.policy or config.bye_policy for bye in byes}
        values = {p: _bye_values(p, individual, score, placing, played) for p in policies}
        for bye in byes:
            bye_score, bye_placing = values[bye.policy or config.bye_policy]
            found[bye.round, bye.player] = (bye_placing(bye.player), bye_score(bye.player))
    return found


def _head_to_head(
    ranked: list[int], games: list[GameResult], team_of: dict[int, int], before: list[dict]
) -> dict[int, int]:
    """head_to_head as the module docstring defines it, in time linear in the games."""
    group_of = {t: tuple(column[t] for column in before) for t in ranked}
    above_count: dict[tuple[int, int], int] = defaultdict(int)
    for game in games:
        teams = [team_of.get(p) for p in game.placings]  # first to last
        for i in range(3):
            for j in range(i + 1, 3):
                a, b = teams[i], teams[j]
                if a is not None and b is not None and a != b and group_of[a] == group_of[b]:
                    above_count[a, b] += 1
    beaten: dict[int, set[int]] = defaultdict(set)
    for (winner, loser), wins in above_count.items():
        if wins > above_count.get((loser, winner), 0):
            beaten[winner].add(loser)
    result = dict.fromkeys(ranked, 0)
    groups: dict[tuple, list[int]] = defaultdict(list)
    for team in ranked:
        groups[group_of[team]].append(team)
    for group in groups.values():
        if len(group) < 2 or not any(beaten.get(t) for t in group):
            continue
        counts = {t: len(beaten.get(t, ())) for t in group}
        clean = all((u in beaten.get(t, ())) for t in group for u in group if counts[t] > counts[u])
        if clean:
            result.update(counts)
    return result


__all__ = [
    "BYE_POLICIES",
    "DEFAULT_TEAM_PRECEDENCE",
    "TEAM_METRICS",
    "TEAM_SCORINGS",
    "TEAM_TIE_BREAKS",
    "TeamConfig",
    "TeamRow",
    "build_team_standings",
    "team_lot",
]
