"""Building the standings of an event from its confirmed results, in one linear pass or so.

The standings are rebuilt from scratch after every confirmed game (the task is idempotent),
so the build must be cheap for a large open (3000 players, 9 rounds, about 9000 games) and
must not depend on the order results arrive in: every metric is a sum or a count over the
games, and the final sort ends on the player id, so any order of the same input gives the
same rows.

Definitions (every metric ranks the higher value first):

placing_points: the config's points for each place, summed over games, plus byes.
score: game totals summed over games, plus byes (game points under the bye policy).
firsts: first places. A bye is never a first place.
games: games played. A bye is not a game.
opponents: for each game played, the final placing_points of the two opponents, summed; an
    opponent met twice counts twice. A bye has no opponents, so it adds nothing. (Buchholz
    with placing points: it rewards having placed well against players who did well.)
head_to_head: computed within each group of players equal on every metric that comes before
    it in the precedence. For two players of a group, A beat B if, over the games where both
    sat, A placed above B in more of them than B placed above A. A player's count is the
    number of the group's players he beat. The counts are used only if they separate cleanly:
    every player with a higher count beat every player of the group with a lower count.
    Otherwise (a cycle, or players who never met with different counts) head_to_head is 0
    for the whole group and the next metric decides. Players alone in their group, and every
    player when head_to_head is not in the precedence, have 0.
Who is ranked: a player who has taken part in a round, by playing a game or by a bye (the
bye policy makes a bye worth something, so it is taking part). A player who has done
neither (entered and withdrawn before the first game, a walkout before any result, a late
arrival) is not ranked: their row has rank None and comes after every ranked row, by player
id, with decided_by None; no lot places them among those who played. The ranks of the
ranked players are 1..K. A player who has played no game (ranked by a bye or not ranked) is
left out of head_to_head's groups: never having met anyone, they could only spoil a clean
separation.
lot: a 53-bit number from BLAKE2b of "seed:player", so it depends only on the event's seed
    and the player: adding a player later changes no one else's lot. 53 bits so that it stays
    exact as a JSON number in a browser. Should two lots ever be equal (about one event in
    10^9 at 3000 players), the lower player id ranks higher.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable

from .errors import StandingsInputError
from .values import METRICS, Bye, Config, GameResult, Row


def lot(seed: int, player: int) -> int:
    """The player's lot in an event with this seed: the same in every build, whoever else plays."""
    digest = hashlib.blake2b(f"{seed}:{player}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 11


def build_standings(
    players: Iterable[int],
    results: Iterable[GameResult],
    byes: Iterable[Bye] = (),
    config: Config | None = None,
) -> list[Row]:
    """The event's standings: one row per player; those who took part ranked 1..K, then those
    who did not (no game, no bye) with rank None, by player id."""
    config = Config() if config is None else config
    roster = _roster(players)
    games = list(results)
    bye_list = list(byes)
    _check_event(roster, games, bye_list)

    values = _base_metrics(roster, games, bye_list, config)
    had_bye = {bye.player for bye in bye_list}
    took_part = [p for p in roster if values["games"][p] or p in had_bye]
    order = config.order
    if "head_to_head" in order:
        before = order[: order.index("head_to_head")]
        values["head_to_head"].update(
            _head_to_head(
                [p for p in took_part if values["games"][p]], games, [values[m] for m in before]
            )
        )
    values["lot"] = {p: lot(config.seed, p) for p in roster}

    columns = [values[m] for m in order]
    keys = {p: tuple(-column[p] for column in columns) for p in took_part}
    ranked = sorted(took_part, key=lambda p: (keys[p], p))

    rows = []
    above: tuple[int, ...] | None = None
    for rank, player in enumerate(ranked, start=1):
        key = keys[player]
        rows.append(
            Row(
                rank=rank,
                player=player,
                score=values["score"][player],
                metrics={m: values[m][player] for m in METRICS},
                decided_by=None if above is None else _decided_by(order, above, key),
            )
        )
        above = key
    ranked_set = set(ranked)
    rows.extend(
        Row(
            rank=None,
            player=player,
            score=values["score"][player],
            metrics={m: values[m][player] for m in METRICS},
            decided_by=None,
        )
        for player in sorted(p for p in roster if p not in ranked_set)
    )
    return rows


def _decided_by(order: tuple[str, ...], above: tuple[int, ...], key: tuple[int, ...]) -> str | None:
    for index, (a, b) in enumerate(zip(above, key, strict=True)):
        if a != b:
            return None if index == 0 else order[index]
    return "lot"  # equal lots, separated by player id: still the lot's doing


def _roster(players: Iterable[int]) -> list[int]:
    roster = list(players)
    seen: set[int] = set()
    for player in roster:
        if isinstance(player, bool) or not isinstance(player, int):
            raise StandingsInputError("player_not_int", player=player)
        if player in seen:
            raise StandingsInputError("player_twice", player=player)
        seen.add(player)
    return roster


def _check_event(roster: list[int], games: list[GameResult], byes: list[Bye]) -> None:
    """Refuse input that cannot be one event, rather than rank it into something plausible."""
    known = set(roster)
    tables: set[tuple[int, int]] = set()
    seated: dict[tuple[int, int], int | None] = {}  # (round, player) -> table; None: a bye
    for game in games:
        if (game.round, game.table) in tables:
            raise StandingsInputError("table_twice", round=game.round, table=game.table)
        tables.add((game.round, game.table))
        for player in game.players:
            slot = (game.round, player)
            if player not in known:
                raise StandingsInputError(
                    "seated_stranger", round=game.round, table=game.table, player=player
                )
            if slot in seated:  # only tables so far: the byes come next
                raise StandingsInputError(
                    "plays_at_two_tables",
                    player=player,
                    round=game.round,
                    other=seated[slot],
                    table=game.table,
                )
            seated[slot] = game.table
    for bye in byes:
        slot = (bye.round, bye.player)
        if bye.player not in known:
            raise StandingsInputError("bye_stranger", round=bye.round, player=bye.player)
        if slot in seated and seated[slot] is None:
            raise StandingsInputError("bye_twice", player=bye.player, round=bye.round)
        if slot in seated:
            raise StandingsInputError(
                "bye_and_table", player=bye.player, round=bye.round, table=seated[slot]
            )
        seated[slot] = None


def _base_metrics(
    roster: list[int], games: list[GameResult], byes: list[Bye], config: Config
) -> dict[str, dict[int, int]]:
    """Every metric but head_to_head and lot, byes included per the bye policy."""
    first_pts, second_pts, third_pts = config.placing_points
    score = dict.fromkeys(roster, 0)
    placing = dict.fromkeys(roster, 0)
    firsts = dict.fromkeys(roster, 0)
    played = dict.fromkeys(roster, 0)
    for game in games:
        for player, total in zip(game.players, game.totals, strict=True):
            score[player] += total
            played[player] += 1
        first, second, third = game.placings
        placing[first] += first_pts
        placing[second] += second_pts
        placing[third] += third_pts
        firsts[first] += 1

    if byes:
        # Every policy's values are made before any bye is added (an average must see the
        # games alone); a void table's players carry their own policy (values.Bye).
        policies = {bye.policy or config.bye_policy for bye in byes}
        values = {p: _bye_values(p, config, score, placing, played) for p in policies}
        for bye in byes:
            bye_score, bye_placing = values[bye.policy or config.bye_policy]
            score[bye.player] += bye_score(bye.player)
            placing[bye.player] += bye_placing(bye.player)

    # Opponents need every player's final placing points, byes included: a second pass.
    opponents = dict.fromkeys(roster, 0)
    for game in games:
        a, b, c = game.players
        table = placing[a] + placing[b] + placing[c]
        opponents[a] += table - placing[a]
        opponents[b] += table - placing[b]
        opponents[c] += table - placing[c]

    return {
        "placing_points": placing,
        "score": score,
        "firsts": firsts,
        "opponents": opponents,
        "head_to_head": dict.fromkeys(roster, 0),
        "games": played,
    }


def _bye_values(policy, config, score, placing, played):
    """What one bye adds to (score, placing points) for a player, under `policy`.

    "average" takes the average over the games alone (byes do not average themselves in), so
    every bye of a player is worth the same, and it moves as the player's later games come in:
    the standings are always rebuilt from all results, so that is consistent.
    """
    if policy == "zero":
        return (lambda p: 0), (lambda p: 0)
    if policy == "second":
        second = config.placing_points[1]
        return (lambda p: 0), (lambda p: second)

    def average(column):
        # Taken now, before any bye is added: a bye must not average in the byes before it.
        games_only = dict(column)
        return lambda p: _round_half_away(games_only[p], played[p]) if played[p] else 0

    return average(score), average(placing)


def _round_half_away(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded to nearest, halves away from zero, in exact ints.

    Not round(): its halves go to even, so 2.5 and 3.5 would both give an even number and a
    bye would be worth a different share depending on the parity of the average.
    """
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)
    return magnitude if numerator >= 0 else -magnitude


def _head_to_head(
    roster: list[int], games: list[GameResult], before: list[dict[int, int]]
) -> dict[int, int]:
    """head_to_head as the module docstring defines it, in time linear in the games.

    Only pairs of the same group are counted, straight from each game's three pairs, so no
    group is ever walked pair by pair; the clean-separation check visits each "beat" once.
    """
    group_of = {p: tuple(column[p] for column in before) for p in roster}
    above_count: dict[tuple[int, int], int] = defaultdict(int)
    for game in games:
        a, b, c = game.placings
        ga, gb, gc = group_of[a], group_of[b], group_of[c]
        if ga == gb:
            above_count[a, b] += 1
        if ga == gc:
            above_count[a, c] += 1
        if gb == gc:
            above_count[b, c] += 1

    beaten: dict[int, list[int]] = defaultdict(list)
    for (winner, loser), wins in above_count.items():
        if wins > above_count.get((loser, winner), 0):
            beaten[winner].append(loser)

    result = dict.fromkeys(roster, 0)
    if not beaten:
        return result
    members: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for player in roster:
        members[group_of[player]].append(player)
    for group_key in {group_of[p] for p in beaten}:
        group = members[group_key]
        counts = {p: len(beaten.get(p, ())) for p in group}
        ordered = sorted(counts.values())
        clean = all(
            sum(1 for q in beaten.get(p, ()) if counts[q] < count) == bisect_left(ordered, count)
            for p, count in counts.items()
        )
        if clean:
            result.update(counts)
    return result
