"""A table that cannot be played out as drawn: a player left mid-round.

The organiser settles each such table of a published round one of four ways, as clubs do:

- substitute: another player of the event (checked in, not seated elsewhere in the round; a
  bye player gives up the bye) takes the seat from the next deal on; the deals so far stand.
  The substitute gets the seat's whole result and the player who left gets no game for the
  round: the table's seats name who finished the game, and the standings, the public pages
  and the next pairings read the seats. `Table.substitutions` keeps who left, for whom, and
  from which deal.
- finish: the game ends as it stands and is confirmed; its placings are the engine's own
  placing rule applied to the score so far (scoring.services.early_placings).
- void: the game is set aside; the table's players who have not withdrawn get the event's
  `void_policy` in the standings (none / their own average / what a bye scores).
- adjust: the organiser's own placings (and totals), confirmed, with a reason.

Each is one transaction, written to the event log and the game's history. A round closes
once each of its tables is confirmed or void (services.round_close).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from scoring import services as scoring
from scoring.errors import ScoringError
from scoring.models import Game
from scoring.names import clean
from scoring.selectors import from_hand
from tournaments.common.errors import NotAllowed, TournamentError, scoring_refusal
from tournaments.common.services import log_action, standings_changed
from tournaments.common.vocabulary import TableStatus
from tournaments.events.selectors.entries import open_table_of  # noqa: F401 - the pages ask it here too
from tournaments.events.services.registration import players_register
from tournaments.models import PUBLIC_ROUND_STATUSES, Bye, Entry, Player, Round, Table
from tournaments.rounds.selectors import table_state


def _log(table: Table, actor: str, action: str, reason: str, **data) -> None:
    """The event's log line for this table (log_action, naming the round and table)."""
    where = {"round": table.round.number, "table": table.number}
    log_action(table.round.event, actor, action, reason, **where, **data)


def _scoring(call, **kwargs) -> Game:
    """A scoring service, its refusals given as this app's errors (a conflict stays one)."""
    try:
        return call(**kwargs)
    except ScoringError as error:
        raise scoring_refusal(error) from None


def _open_table(table: Table) -> Table:
    """The table locked, refused unless its round is published and its game not settled."""
    table = (
        # of=("self",): PostgreSQL locks no row through the nullable join to the game.
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event", "game", "seat_0", "seat_1", "seat_2")
        .get(pk=table.pk)
    )
    if table.round.status != Round.Status.PUBLISHED:
        raise NotAllowed("table_not_open")
    if table.game is None:
        raise NotAllowed("table_no_game")
    if table.outcome == Table.Outcome.VOID or table.game.result == Game.Result.VOID:
        raise NotAllowed("table_void")
    return table


def _reason(reason: object) -> str:
    text = clean(reason or "")
    if not text:
        raise TournamentError("reason_missing")
    return text


def substitute_candidates(table: Table) -> list[Player]:
    """Who may take a seat at this table: checked in, not withdrawn, not seated at a table
    of this round (a bye player may)."""
    round_ = table.round
    seated = {pid for ids in round_.tables.values_list("seat_0", "seat_1", "seat_2") for pid in ids}
    return list(
        Player.objects.filter(
            entries__event=round_.event, entries__checked_in=True, entries__withdrawn=False
        )
        .exclude(pk__in=seated)
        .order_by("name", "pk")
    )


@transaction.atomic
def table_substitute(
    *,
    table: Table,
    seat: int,
    player: Player | None = None,
    name: object = None,
    reason: str,
    actor: str = "",
    by=None,
) -> Table:
    """`player`, or a new `name` (entered in the event and checked in), takes `seat` from
    the next deal on (see the module docstring for the result). One of the two, never both.
    Entering the name and seating them are one act: refused, neither is done. A new name
    becomes a member of the club, so `by` must run the event (common.permissions)."""
    reason = _reason(reason)
    if (player is None) == (name is None or name == ""):
        raise TournamentError("substitute_one_of")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1, 2):
        raise TournamentError("seat_invalid")
    table = _open_table(table)
    if table.game.result == Game.Result.CONFIRMED:
        raise NotAllowed("result_confirmed_reopen")
    round_, event = table.round, table.round.event
    if player is None:
        new = players_register(event=event, names=[name], checked_in=True, actor=actor, by=by)
        player = new[0].player
    entry = Entry.objects.filter(event=event, player=player).first()
    if entry is None:
        raise TournamentError("player_not_in_event", name=player.name)
    if entry.withdrawn or not entry.checked_in:
        raise TournamentError("player_not_checked_in", name=player.name)
    sits = Q(seat_0=player) | Q(seat_1=player) | Q(seat_2=player)
    elsewhere = round_.tables.filter(sits).first()
    if elsewhere is not None:
        raise TournamentError("player_seated_elsewhere", name=player.name, t=elsewhere.number)
    leaver = table.seats[seat]
    game = _scoring(
        scoring.seat_substitute,
        game_id=table.game_id,
        seat=seat,
        name=player.name,
        actor=actor,
        reason=reason,
    )
    gave_up_bye = Bye.objects.filter(round=round_, player=player).delete()[0] > 0
    setattr(table, f"seat_{seat}", player)
    change = game.changes.order_by("-pk").first()
    from_deal, from_hand = change.deal_number, change.data["from_hand"]
    table.substitutions = [
        *table.substitutions,
        {
            "seat": seat,
            "left": leaver.pk,
            "joined": player.pk,
            "from_deal": from_deal,
            "from_hand": from_hand,
        },
    ]
    table.game = game
    table.save(update_fields=[f"seat_{seat}", "substitutions"])
    _log(
        table,
        actor,
        "seat_substituted",
        reason,
        seat=seat,
        players=[leaver.pk, player.pk],
        from_deal=from_deal,
        from_hand=from_hand,
        bye_given_up=gave_up_bye,
    )
    standings_changed(event)
    return table


@transaction.atomic
def table_void(*, table: Table, reason: str, actor: str = "") -> Table:
    """Set the table's game aside; its players still entered get the event's void policy."""
    reason = _reason(reason)
    table = _open_table(table)
    table.game = _scoring(scoring.game_void, game_id=table.game_id, actor=actor, reason=reason)
    withdrawn = set(
        Entry.objects.filter(
            event=table.round.event, player_id__in=table.seat_ids, withdrawn=True
        ).values_list("player_id", flat=True)
    )
    table.outcome = Table.Outcome.VOID
    table.outcome_reason = reason
    table.void_players = [pid for pid in table.seat_ids if pid not in withdrawn]
    table.save(update_fields=["outcome", "outcome_reason", "void_players"])
    policy = table.round.event.void_policy
    _log(table, actor, "table_voided", reason, players=table.void_players, policy=policy)
    standings_changed(table.round.event)
    return table


@transaction.atomic
def table_finish(*, table: Table, reason: str, actor: str = "") -> Table:
    """End the game as it stands and confirm it (placings: the engine's rule on the score so
    far; a game already finished by its rules is simply confirmed)."""
    reason = _reason(reason)
    table = _open_table(table)
    if table.game.result == Game.Result.CONFIRMED:
        raise NotAllowed("result_confirmed_already")
    before = table.game.result
    game = _scoring(scoring.game_end_early, game_id=table.game_id, actor=actor, reason=reason)
    ended_early = before == Game.Result.IN_PLAY
    table.game = _scoring(scoring.game_confirm, game_id=game.pk, actor=actor)
    table.outcome = Table.Outcome.ENDED_EARLY if ended_early else Table.Outcome.PLAYED
    table.outcome_reason = reason
    table.save(update_fields=["outcome", "outcome_reason"])
    _log(table, actor, "table_finished", reason, placings=table.game.placings)
    return table


@transaction.atomic
def table_adjust(
    *,
    table: Table,
    placings: list[int],
    totals: list[int] | None,
    reason: str,
    actor: str = "",
) -> Table:
    """The organisers' own result (placings: seats from first to last; totals by seat, or
    None to keep the score so far), confirmed, and shown as adjusted everywhere."""
    reason = _reason(reason)
    table = _open_table(table)
    if table.game.result == Game.Result.CONFIRMED:
        raise NotAllowed("result_confirmed_reopen")
    game = _scoring(
        scoring.game_adjust,
        game_id=table.game_id,
        placings=placings,
        totals=totals,
        actor=actor,
        reason=reason,
    )
    table.game = _scoring(scoring.game_confirm, game_id=game.pk, actor=actor)
    table.outcome = Table.Outcome.ADJUSTED
    table.outcome_reason = reason
    table.save(update_fields=["outcome", "outcome_reason"])
    _log(
        table,
        actor,
        "result_adjusted",
        reason,
        placings=list(table.game.placings),
        totals=list(table.game.totals),
    )
    return table


# --- reads ------------------------------------------------------------------------------------


def table_data(table: Table) -> dict:
    """The table as the API gives it (the round detail's table, plus how it was settled)."""
    game, state = table.game, table_state(table)
    return {
        "table": table.number,
        "players": [player.name for player in table.seats],
        "player_ids": list(table.seat_ids),
        "game": table.game_id,
        "finished": state.published and state.status != TableStatus.PLAYING,
        "status": state.status.value,
        "outcome": table.outcome,
        "reason": table.outcome_reason,
        "totals": list(game.totals) if game is not None else [],
        "placings": list(game.placings) if game is not None and game.placings else None,
        "substitutions": [{**move, "from_hand": from_hand(move)} for move in table.substitutions],
        "void_players": list(table.void_players),
        "clock_extra": table.clock_extra,
    }


def left_table_of(round_: Round, player_id: int) -> Table | None:
    """The table of this round the player left for a substitute, if any."""
    for table in round_.tables.exclude(substitutions=[]):
        if any(move["left"] == player_id for move in table.substitutions):
            return table
    return None


def changed_tables(event) -> list[Table]:
    """The event's public tables whose result a walkout changed: settled by the organisers
    (adjusted, void, ended as it stood) or with a substitute, by round and number."""
    tables = Table.objects.filter(
        round__event=event, round__status__in=PUBLIC_ROUND_STATUSES
    ).select_related("round", "game")
    tables = tables.exclude(outcome=Table.Outcome.PLAYED, substitutions=[])
    return list(tables.order_by("round__number", "number"))


def settled_tables(event) -> list[Table]:
    """The event's tables the organisers settled (adjusted, void, ended as it stood)."""
    tables = (
        Table.objects.filter(round__event=event, round__status__in=PUBLIC_ROUND_STATUSES)
        .exclude(outcome=Table.Outcome.PLAYED)
        .select_related("round", "game")
        .order_by("round__number", "number")
    )
    return list(tables)


def seat_names_at(table: Table, deal: int, names: dict[int, str]) -> list[str]:
    """Who sat at each seat during deal `deal` (a substitute plays from their first deal on;
    earlier deals were the leaver's), by name from `names` (player id → name)."""
    seats = list(table.seat_ids)
    for move in reversed(table.substitutions):
        if deal < move["from_deal"]:
            seats[move["seat"]] = move["left"]
    return [names.get(pid, "") for pid in seats]
