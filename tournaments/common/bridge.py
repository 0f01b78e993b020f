"""The small bridge between the models and the pure algorithms.

Reads an event's rows into the plain values tournaments.pairing and tournaments.standings
take, and turns their answers back into rows. Nothing here decides anything.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from django.db.models import Count, Q

from scoring.models import Game
from tournaments import pairing, standings
from tournaments.common import vocabulary
from tournaments.models import (
    PUBLIC_ROUND_STATUSES,
    SETTLED_RESULTS,
    Bye,
    Entry,
    Event,
    KeepApart,
    Rating,
    Round,
    Table,
    Team,
    TeamMember,
)


def standings_config(event: Event) -> standings.Config:
    return standings.Config(
        placing_points=tuple(event.placing_points or vocabulary.DEFAULT_PLACING_POINTS),
        bye_policy=event.bye_policy,
        precedence=tuple(event.precedence or vocabulary.DEFAULT_PRECEDENCE),
        seed=event.seed,
    )


def team_config(event: Event) -> standings.TeamConfig:
    """How the event ranks its teams (docs/team-standings.md): its team scoring and team
    tie-breaks, with its own placing points, bye policy and seed."""
    return standings.TeamConfig(
        scoring=event.team_scoring,
        precedence=tuple(event.team_precedence or standings.DEFAULT_TEAM_PRECEDENCE),
        placing_points=tuple(event.placing_points or vocabulary.DEFAULT_PLACING_POINTS),
        bye_policy=event.bye_policy,
        seed=event.seed,
    )


def event_teams(event: Event) -> dict[int, list[int]]:
    """Each team of the event (by id) and its players, in one query; {} when it has none."""
    teams: dict[int, list[int]] = {}
    pairs = Team.objects.filter(event=event).values_list("pk", "members__entry__player_id")
    for team, player in pairs:
        listed = teams.setdefault(team, [])
        if player is not None:
            listed.append(player)
    return teams


def confirmed_tables(event: Event):
    return (
        Table.objects.filter(round__event=event, game__result=Game.Result.CONFIRMED)
        .select_related("round", "game")
        .order_by("round__number", "number")
    )


def counted_byes(event: Event):
    """Byes of rounds that have been published: a draft's byes may still change."""
    return Bye.objects.filter(
        round__event=event,
        round__status__in=PUBLIC_ROUND_STATUSES,
    ).select_related("round")


def void_tables(event: Event):
    """Tables set aside (void) in the event's published or closed rounds."""
    return Table.objects.filter(
        round__event=event,
        outcome=Table.Outcome.VOID,
        round__status__in=PUBLIC_ROUND_STATUSES,
    ).select_related("round")


def void_byes(event: Event) -> list[standings.Bye]:
    """What the players of each void table get: a bye under the event's void policy."""
    policy = vocabulary.VOID_AS_BYE[event.void_policy]
    return [
        standings.Bye(round=table.round.number, player=player, policy=policy)
        for table in void_tables(event).order_by("round__number", "number")
        for player in table.void_players
    ]


def standings_inputs(event: Event):
    tables = list(confirmed_tables(event))
    results = [
        standings.GameResult(
            round=table.round.number,
            table=table.number,
            players=table.seat_ids,
            totals=tuple(table.game.totals),
            placings=tuple(table.seat_ids[seat] for seat in table.game.placings),
        )
        for table in tables
    ]
    byes = [
        standings.Bye(round=bye.round.number, player=bye.player_id) for bye in counted_byes(event)
    ]
    byes += void_byes(event)
    players = list(event.entries.values_list("player_id", flat=True))
    return players, results, byes


def rounds_complete(event: Event) -> int:
    return event.rounds.filter(status=Round.Status.CLOSED).count()


def open_round_counted(event: Event) -> dict:
    """What a build counts of the round being played (published, not closed): its number,
    its tables, and how many are settled (confirmed or void), which the standings already
    count; {} when no round is open. Stored with the snapshot for its label."""
    round_ = event.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    if round_ is None:
        return {}
    tables = round_.tables.aggregate(
        tables=Count("pk"), settled=Count("pk", filter=Q(game__result__in=SETTLED_RESULTS))
    )
    return {"round": round_.number, **tables}


def round_field(event: Event, number: int):
    """The entries round `number` pairs: checked in, not withdrawn, joined by then."""
    return Entry.objects.filter(
        event=event, checked_in=True, withdrawn=False, joined_round__lte=number
    )


def pairing_request(round_: Round) -> pairing.Request:
    """The field of this round and everything the pairing needs from earlier rounds."""
    event = round_.event
    earlier = list(
        Table.objects.filter(round__event=event, round__number__lt=round_.number)
        .select_related("round")
        .order_by("round__number", "number")
    )
    seat_counts: dict[int, list[int]] = {}
    dealer_counts: Counter[int] = Counter()
    by_round: dict[int, list[tuple[int, int, int]]] = {}
    for table in earlier:
        ids = table.seat_ids
        by_round.setdefault(table.round.number, []).append(ids)
        for seat, player in enumerate(ids):
            seat_counts.setdefault(player, [0, 0, 0])[seat] += 1
        dealer_counts[ids[table.first_dealer]] += 1
    bye_counts = Counter(
        Bye.objects.filter(round__event=event, round__number__lt=round_.number).values_list(
            "player_id", flat=True
        )
    )
    latest = event.standings.first()
    # Those not ranked (no game, no bye yet) share the rank after the last ranked player.
    rows = latest.rows if latest else []
    ranks = {row["player"]: row["rank"] for row in rows if row["rank"] is not None}
    points = _group_points(event, rows)
    active = round_field(event, round_.number).values_list("player_id", flat=True)
    if not ranks and _seeded_by_rating(event, round_):
        ranks = rating_ranks(list(active))
    entrants = tuple(
        pairing.Entrant(
            id=player,
            rank=ranks.get(player, len(ranks) + 1),
            byes=bye_counts[player],
            seat_counts=tuple(seat_counts.get(player, (0, 0, 0))),
            dealer_count=dealer_counts[player],
            points=points.get(player, 0),
        )
        for player in sorted(active)
    )
    return pairing.Request(
        entrants=entrants,
        met=pairing.meetings(by_round),
        mode=round_.pairing_mode,
        seed=event.seed,  # the same every round: a no-repeat plan is drawn from it
        round_number=round_.number,
        planned_field=_round_one_field(event, round_, entrants),
        apart=apart_pairs(event),
        teams=team_ids(event),
    )


def apart_pairs(event: Event) -> frozenset[tuple[int, int]]:
    """Every pair of players (smaller id first) inside a keep-apart rule of the event: a rule
    of n players is its n(n-1)/2 pairs. The draw's ids are player ids, as everywhere here."""
    groups: dict[int, list[int]] = {}
    rows = KeepApart.entries.through.objects.filter(keepapart__event=event)
    for rule, player in rows.values_list("keepapart_id", "entry__player_id"):
        groups.setdefault(rule, []).append(player)
    return frozenset(
        pair for players in groups.values() for pair in combinations(sorted(set(players)), 2)
    )


def team_ids(event: Event) -> dict[int, int]:
    """Each player in a team of the event: player id → team id."""
    rows = TeamMember.objects.filter(team__event=event)
    return dict(rows.values_list("entry__player_id", "team_id"))


def _group_points(event: Event, rows: list[dict]) -> dict[int, int]:
    """Each ranked player's score group: the value of the standings' first measure (placing
    points unless the event ranks by another first)."""
    first = (event.precedence or vocabulary.DEFAULT_PRECEDENCE)[0]
    return {
        row["player"]: row.get("metrics", {}).get(first, 0)
        for row in rows
        if row["rank"] is not None
    }


def _seeded_by_rating(event: Event, round_: Round) -> bool:
    return (
        round_.number == 1
        and event.seed_by_rating
        and round_.pairing_mode == vocabulary.PairingMode.SWISS.value
    )


def rating_ranks(players: list[int]) -> dict[int, int]:
    """Round 1's ranks from the club's ratings (docs/ratings.md): the rated players 1..k by
    ordinal; the unrated share rank k + 1, so the pairing orders them by the event's own
    seeded lot, as it would the whole field without ratings."""
    ordinals = dict(
        Rating.objects.filter(player_id__in=players, games__gt=0).values_list(
            "player_id", "ordinal"
        )
    )
    order = sorted(ordinals, key=lambda p: (-ordinals[p], p))
    ranks = {p: n for n, p in enumerate(order, start=1)}
    return {p: ranks.get(p, len(order) + 1) for p in players}


def _round_one_field(event: Event, round_: Round, entrants) -> tuple[int, ...]:
    """Who was drawn in round 1: a no-repeat plan holds only while the field is unchanged."""
    first = event.rounds.filter(number=1).first()
    if first is None or first.pk == round_.pk:
        return tuple(sorted(entrant.id for entrant in entrants))
    seated = [pid for table in first.tables.all() for pid in table.seat_ids]
    return tuple(sorted(seated + list(first.byes.values_list("player_id", flat=True))))


#: The round's stored note of how many rounds its plan still gives with nobody meeting twice
#: and every keep-apart rule and team kept (pairing.Pairing.rounds_without_repeat).
PLAN_ROUNDS = "plan_rounds"
#: A draft that follows no plan: at most how many rounds, this one included, the field still
#: allows with nobody meeting twice and every rule kept, and the player who runs out first
#: (pairing.outlook).
ROUNDS_BOUND = "rounds_bound"


def _flags_json(flags, why=None) -> list[dict]:
    """A table's flags as stored; a swiss table's explanation rides with them (its code
    `why`, pairing.why.WHY_CODE), which the pages show as the table's line, not a flag."""
    return [flag.as_dict() for flag in flags] + ([why.as_dict()] if why else [])


def _rounds_bound(request: pairing.Request, tables, byes, flags: list[dict]) -> list[dict]:
    """The bound's note (ROUNDS_BOUND) for a draft's tables and byes, when it carries no
    plan's exact figure."""
    if any(flag.get("code") == PLAN_ROUNDS for flag in flags):
        return []
    players = [*(p for table in tables for p in table), *byes]
    seen = pairing.outlook(players, tables, request.met, request.apart, request.teams)
    players = [] if seen.player is None else [seen.player]
    return [{"code": ROUNDS_BOUND, "amount": seen.rounds, "players": players, "left": seen.left}]


def store_pairing(round_: Round, result: pairing.Pairing, request: pairing.Request) -> None:
    Table.objects.bulk_create(
        Table(
            round=round_,
            number=table.number,
            seat_0_id=table.seats[0],
            seat_1_id=table.seats[1],
            seat_2_id=table.seats[2],
            first_dealer=table.first_dealer,
            flags=_flags_json(table.flags, table.why),
        )
        for table in result.tables
    )
    byes = [Bye(round=round_, player_id=player) for player in result.byes]
    _store_bye_flags(byes, result.flags)
    Bye.objects.bulk_create(byes)
    round_.flags = _flags_json(result.flags)
    if result.rounds_without_repeat is not None:  # the plan's rounds left, this one included
        round_.flags.append({"code": PLAN_ROUNDS, "amount": result.rounds_without_repeat})
    seats = [table.seats for table in result.tables]
    round_.flags += _rounds_bound(request, seats, result.byes, round_.flags)


def _store_bye_flags(byes: list[Bye], flags) -> None:
    """Each bye carries the round's flags that name its player (a second bye)."""
    for bye in byes:
        bye.flags = [flag.as_dict() for flag in flags if bye.player_id in flag.players]


def reflag_round(round_: Round) -> None:
    """Flag a draft again after a hand edit, by the pairing module's own rules."""
    tables = list(round_.tables.order_by("number"))
    byes = list(round_.byes.all())
    request = pairing_request(round_)
    seats, benched = [table.seat_ids for table in tables], [bye.player_id for bye in byes]
    per_table, round_flags, whys = pairing.review(request, seats, benched)
    for table, flags, why in zip(tables, per_table, whys, strict=True):
        table.flags = _flags_json(flags, why)
    Table.objects.bulk_update(tables, ["flags"])
    _store_bye_flags(byes, round_flags)
    Bye.objects.bulk_update(byes, ["flags"])
    round_.flags = _flags_json(round_flags)
    round_.flags += _rounds_bound(request, seats, benched, round_.flags)  # the plan is left
    round_.save(update_fields=["flags"])
