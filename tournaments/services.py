"""Writes to events: registration, rounds, publishing, results, standings.

Views, the API, the tasks and the simulator all come through here. Pairings and standings
are computed by the pure modules (via tournaments.bridge) inside Celery tasks; this module
holds what those tasks run, so the same code runs with or without a worker.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, transaction
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext

import engine
from scoring import services as scoring
from scoring.models import Game
from scoring.names import MAX_NAME, NameProblem, PlayerName, first_repeat, name_key

from . import bridge, pairing, selectors, standings, tasks
from .errors import NotAllowed, TournamentError
from .models import VOID_POLICIES, Club, Entry, Event, EventLog, Player, Round, Standings, Table
from .queue import enqueue_on_commit
from .standings_words import standings_refusal

log = logging.getLogger(__name__)


def _log(event: Event, actor: str, action: str, reason: str = "", **data) -> None:
    EventLog.objects.create(event=event, actor=actor, action=action, data=data, reason=reason)


def _unique_slug(model, text: str) -> str:
    base = slugify(text)[:40] or "event"
    slug, n = base, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _clean_name(name: object) -> str:
    try:
        return str(PlayerName.parse(name))
    except NameProblem as problem:
        if problem.code == "too_long":
            raise TournamentError(
                gettext("a name has at most %(max)s characters: %(start)s…")
                % {"max": MAX_NAME, "start": problem.text[:20]}
            ) from None
        raise TournamentError(gettext("a player needs a name")) from None


def _club_players_by_key(event: Event) -> dict[str, Player]:
    """The club's players by scoring.names.name_key; where old rows share a key, the one
    entered in this event (else the oldest) is the person."""
    entered = set(event.entries.values_list("player_id", flat=True))
    known: dict[str, Player] = {}
    for player in Player.objects.filter(club=event.club).order_by("pk"):
        key = name_key(player.name)
        if key not in known or (player.pk in entered and known[key].pk not in entered):
            known[key] = player
    return known


def _void_policy(policy: object) -> str:
    """What a void table scores: one of models.VOID_POLICIES."""
    if policy not in {choice for choice, _label in VOID_POLICIES}:
        raise TournamentError(gettext("unknown void policy %(p)r") % {"p": policy})
    return policy


def club_create(*, name: str, slug: str | None = None) -> Club:
    return Club.objects.create(name=name, slug=slug or _unique_slug(Club, name))


@transaction.atomic
def event_create(
    *,
    club: Club,
    name: str,
    ruleset: str = "blato",
    options: dict | None = None,
    rounds_planned: int = 4,
    pairing_modes: list[str] | None = None,
    precedence: list[str] | None = None,
    placing_points: list[int] | None = None,
    bye_policy: str = "second",
    void_policy: str = "bye",
    organisers=(),
    seed: int | None = None,
    actor: str = "",
) -> Event:
    """A new event; its rules and standings settings are checked by the pure modules."""
    try:
        engine.Rules.build(ruleset, options or {})
    except engine.RuleError as error:
        raise TournamentError(error.message) from None
    for mode in pairing_modes or []:
        if mode not in pairing.MODES:
            raise TournamentError(gettext("unknown pairing mode %(mode)r") % {"mode": mode})
    event = Event(
        club=club,
        name=name,
        slug=_unique_slug(Event, name),
        ruleset=ruleset,
        options=options or {},
        rounds_planned=rounds_planned,
        pairing_modes=pairing_modes or ["swiss"],
        precedence=precedence or [],
        placing_points=placing_points or [],
        bye_policy=bye_policy,
        void_policy=_void_policy(void_policy),
    )
    if seed is not None:
        event.seed = seed
    try:
        bridge.standings_config(event)
    except standings.StandingsError as error:
        raise TournamentError(standings_refusal(error)) from None
    event.save()
    event.organisers.set(organisers)
    _log(event, actor, "event_created")
    return event


@transaction.atomic
def players_register(
    *, event: Event, names: list[str], checked_in: bool = False, actor: str = ""
) -> list[Entry]:
    """Enter players by name, one entry per name, in order. A name the club knows, whatever
    its case, spacing or accents ("ivan petrov" for "Ivan Petrov", scoring.names.name_key), is
    that person, entered under the club's spelling; entering someone already entered changes
    nothing. The same name twice in one list is refused: the pairings could not tell the two
    apart (a pasted list skips its repeats before it gets here, see csv_import)."""
    if event.status == Event.Status.CLOSED:
        raise NotAllowed(gettext("the event is closed"))
    cleaned = [_clean_name(name) for name in names]
    repeat = first_repeat(cleaned)
    if repeat is not None:
        raise TournamentError(
            gettext(
                "“%(name)s” is in the list twice: if they are two people, add an initial or "
                "a surname to one of them"
            )
            % {"name": cleaned[repeat[1]]}
        )
    known = _club_players_by_key(event)
    next_round = selectors.joining_round(event)
    entries = []
    for name in cleaned:
        player = known.get(name_key(name))
        if player is None:
            player, _ = Player.objects.get_or_create(club=event.club, name=name)
            known[name_key(name)] = player
        name = player.name
        entry, created = Entry.objects.get_or_create(
            event=event,
            player=player,
            defaults={"checked_in": checked_in, "joined_round": next_round},
        )
        entries.append(entry)
        if created:
            _log(event, actor, "player_entered", player=player.pk, name=name, round=next_round)
    return entries


def _still_entered(entry: Entry) -> None:
    """A withdrawal is final for the event: a withdrawn player is neither checked in (or out)
    nor withdrawn again. Read under a row lock, so a withdrawal and a check-in sent at the same
    moment cannot both pass."""
    if Entry.objects.select_for_update().only("withdrawn").get(pk=entry.pk).withdrawn:
        entry.withdrawn = True
        raise NotAllowed(gettext("%(name)s has withdrawn.") % {"name": entry.player.name})


@transaction.atomic
def entry_check_in(*, entry: Entry, checked_in: bool = True, actor: str = "") -> Entry:
    _still_entered(entry)
    entry.checked_in = checked_in
    entry.save(update_fields=["checked_in"])
    _log(entry.event, actor, "checked_in" if checked_in else "checked_out", player=entry.player_id)
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry, actor: str = "", reason: str = "") -> Entry:
    """A withdrawn player is left out of later rounds; results so far stand. A player still
    seated at an unsettled table of a published round leaves that table to the organiser
    (tournaments.walkouts: substitute, finish, void or adjust); the log names the table and
    the pages warn with walkouts.open_table_of."""
    from .walkouts import open_table_of  # walkouts builds on this module

    _still_entered(entry)
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    seated = open_table_of(entry.event, entry.player_id)
    where = {"round": seated.round.number, "table": seated.number} if seated else {}
    _log(entry.event, actor, "withdrawn", reason, player=entry.player_id, **where)
    return entry


@transaction.atomic
def entry_reinstate(*, entry: Entry, actor: str = "", reason: str = "") -> Entry:
    """Undo a withdrawal (a mistake, or the player is back): the player is paired again from
    the next round built, checked in or not as before; rounds missed meanwhile stay missed."""
    if not Entry.objects.select_for_update().only("withdrawn").get(pk=entry.pk).withdrawn:
        raise NotAllowed(gettext("%(name)s has not withdrawn.") % {"name": entry.player.name})
    entry.withdrawn = False
    entry.save(update_fields=["withdrawn"])
    _log(entry.event, actor, "reinstated", reason, player=entry.player_id)
    return entry


#: The fewest players a round can seat: tables are of three.
ROUND_MIN_PLAYERS = 3


def too_few_players(count: int) -> str:
    """Why a round can't be built with `count` players, in words the organiser can act on."""
    if count == 0:
        return gettext("no player is checked in; a round needs at least 3")
    return ngettext(
        "only %(n)s player is checked in; a round needs at least 3",
        "only %(n)s players are checked in; a round needs at least 3",
        count,
    ) % {"n": count}


def _not_buildable(event: Event, last: Round | None) -> str:
    """Why no round can be built now (round_to_build said None)."""
    if event.status == Event.Status.CLOSED:
        return gettext("the event is closed")
    values = {"n": last.number}
    if last.status == Round.Status.PENDING:
        return gettext("round %(n)s is still being built") % values
    if last.status == Round.Status.FAILED:
        return gettext("round %(n)s could not be built: build it again or delete it") % values
    if last.status == Round.Status.DRAFT:
        return gettext("round %(n)s is a draft: publish it or delete it first") % values
    return gettext("round %(n)s is not closed yet") % values


def _allowed(round_: Round, action: str, message: str) -> None:
    """Refuse an action the round's state does not allow (selectors.round_actions: the rule
    the pages offer actions by)."""
    if action not in selectors.round_actions(round_):
        raise NotAllowed(message)


@transaction.atomic
def round_create(*, event: Event, actor: str = "") -> Round:
    """Start building the next round; the pairing runs in a Celery task after commit. A round
    that can't be paired (too few players) is refused here, never left to fail later."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    last = event.rounds.order_by("-number").first()
    number = selectors.round_to_build(event, last)
    if number is None:
        raise NotAllowed(_not_buildable(event, last))
    count = selectors.round_field_size(event, number)
    if count < ROUND_MIN_PLAYERS:
        raise NotAllowed(too_few_players(count))
    round_ = Round.objects.create(
        event=event, number=number, pairing_mode=event.pairing_mode(number)
    )
    _log(event, actor, "round_requested", round=number, mode=round_.pairing_mode)
    enqueue_on_commit(tasks.pair_round, round_.pk)
    return round_


class _BuildFailed(Exception):
    """A build that can't succeed: `code` for the translated reason shown on the pages."""

    def __init__(self, code: str, message: str, count: int | None = None):
        super().__init__(message)
        self.code, self.message, self.count = code, message, count


def round_pair(*, round_id: int) -> Round:
    """The pairing task's work: build the draft tables. Running it twice changes nothing.

    Any build that fails ends `failed` with the reason, so no round waits for ever: the
    field may have shrunk since the round was asked for, and an unexpected error must not
    leave the round pending for the sweep to fail on again every minute. Only database
    errors propagate (the task retries them).
    """
    try:
        with transaction.atomic():
            round_ = Round.objects.select_for_update().select_related("event").get(pk=round_id)
            if round_.status != Round.Status.PENDING:
                return round_
            count = selectors.round_field_size(round_.event, round_.number)
            if count < ROUND_MIN_PLAYERS:
                with translation.override(settings.LANGUAGE_CODE):
                    message = too_few_players(count)
                raise _BuildFailed("too_few_players", message, count)
            request = bridge.pairing_request(round_)
            started = time.perf_counter()
            result = pairing.pair(request)
            round_.pairing_seconds = time.perf_counter() - started
            bridge.store_pairing(round_, result)
            round_.status = Round.Status.DRAFT
            round_.built_at = timezone.now()
            round_.save()
            return round_
    except (DatabaseError, Round.DoesNotExist):
        raise
    except _BuildFailed as error:
        return _round_failed(round_id, error.code, error.message, error.count)
    except pairing.PairingError as error:
        return _round_failed(round_id, error.code, error.message, error.data.get("count"))
    except Exception as error:  # noqa: BLE001 - any other failure ends the build too
        log.exception("round %s could not be built", round_id)
        return _round_failed(round_id, "error", f"{type(error).__name__}: {error}")


def _round_failed(round_id: int, code: str, message: str, count: int | None = None) -> Round:
    """Store a failed build: the reason in words (the API's "error") and, as the round's one
    flag, its code for the pages to translate (organise_presenters.build_error)."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_id)
        if round_.status != Round.Status.PENDING:
            return round_
        round_.status = Round.Status.FAILED
        round_.build_error = message
        round_.flags = [{"code": "build_failed", "reason": code, "amount": count}]
        round_.save()
    return round_


@transaction.atomic
def round_retry(*, round_: Round, actor: str = "") -> Round:
    """Build a failed or draft round again (e.g. after check-ins changed), or one whose build
    was lost (still pending a minute on: no worker took it). Everyone entered by now plays.

    A lost build is run in this process once the change is committed rather than sent to the
    worker again: a stopped worker must not stop the evening (pairing takes well under a
    second). Running twice is harmless: the pairing skips a round no longer pending.
    """
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    _allowed(
        round_,
        "retry",
        gettext("only a draft or failed round, or one stuck being built, can be built again"),
    )
    stuck = round_.status == Round.Status.PENDING
    round_.tables.all().delete()
    round_.byes.all().delete()
    round_.event.entries.filter(joined_round__gt=round_.number).update(joined_round=round_.number)
    round_.status = Round.Status.PENDING
    round_.build_error = ""
    round_.flags = []
    round_.requested_at = timezone.now()
    round_.save()
    _log(round_.event, actor, "round_rebuilt", round=round_.number)
    if stuck:
        transaction.on_commit(lambda pk=round_.pk: round_pair(round_id=pk))
    else:
        enqueue_on_commit(tasks.pair_round, round_.pk)
    return round_


@transaction.atomic
def round_delete(*, round_: Round, actor: str = "", reason: str = "") -> int:
    """Delete a failed or draft round (or one stuck being built): its number can be built
    again later, and players entered meanwhile join it. Published rounds have games and
    are never deleted. Returns the deleted round's number."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    _allowed(
        round_,
        "delete",
        gettext("only a draft or failed round, or one stuck being built, can be deleted"),
    )
    event, number = round_.event, round_.number
    round_.delete()  # its tables and byes go with it (no game yet)
    event.entries.filter(joined_round__gt=number).update(joined_round=number)
    _log(event, actor, "round_deleted", reason, round=number)
    return number


@transaction.atomic
def round_swap(*, round_: Round, first: int, second: int, actor: str = "") -> Round:
    """Swap two players (by player id) in a draft: between tables, seats or a bye."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    _allowed(round_, "swap", gettext("players can only be swapped in a draft"))
    places = {}
    for table in round_.tables.all():
        for seat, pid in enumerate(table.seat_ids):
            places[pid] = (table, seat)
    for bye in round_.byes.all():
        places[bye.player_id] = (bye, None)
    if first not in places or second not in places or first == second:
        raise TournamentError(gettext("choose two different players of this round"))
    (a, seat_a), (b, seat_b) = places[first], places[second]
    _put(a, seat_a, second)  # a and b are one object when both sit at the same table
    _put(b, seat_b, first)
    a.save()
    if b is not a:
        b.save()
    bridge.reflag_round(round_)
    _log(round_.event, actor, "players_swapped", round=round_.number, players=[first, second])
    return round_


def _put(place, seat, player_id) -> None:
    if seat is None:
        place.player_id = player_id
    else:
        setattr(place, f"seat_{seat}_id", player_id)


@transaction.atomic
def round_publish(*, round_: Round, actor: str = "") -> Round:
    """Publish a draft: every table gets its game (and with it a table secret)."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    _allowed(round_, "publish", gettext("only a draft can be published"))
    event = round_.event
    tables = list(round_.tables.select_related("seat_0", "seat_1", "seat_2"))
    for table in tables:
        table.game = scoring.game_create(
            ruleset=event.ruleset,
            options=event.options,
            players=[player.name for player in table.seats],
            first_dealer=table.first_dealer,
            actor=actor,
        )
    Table.objects.bulk_update(tables, ["game"])
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save()
    if event.status == Event.Status.REGISTRATION:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    _log(event, actor, "round_published", round=round_.number, tables=len(tables))
    standings_enqueue(event)
    return round_


@transaction.atomic
def round_close(*, round_: Round, actor: str = "") -> Round:
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    if round_.status != Round.Status.PUBLISHED:
        raise NotAllowed("only a published round can be closed")
    # Settled: confirmed, or void (tournaments.walkouts): a walkout never blocks the round.
    settled = [Game.Result.CONFIRMED, Game.Result.VOID]
    open_tables = round_.tables.exclude(game__result__in=settled).count()
    if open_tables:
        raise NotAllowed(
            ngettext(
                "%(n)s table is neither confirmed nor void yet",
                "%(n)s tables are neither confirmed nor void yet",
                open_tables,
            )
            % {"n": open_tables}
        )
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save()
    event = round_.event
    if round_.number >= event.rounds_planned:
        event.status = Event.Status.CLOSED
        event.save(update_fields=["status"])
    _log(event, actor, "round_closed", round=round_.number)
    standings_enqueue(event)
    return round_


def result_confirm(*, table: Table, actor: str) -> Game:
    """An organiser confirms a table's result (as the second player would)."""
    game = scoring.game_confirm(game_id=table.game_id, actor=actor)
    _log(table.round.event, actor, "result_confirmed", round=table.round.number, table=table.number)
    return game


def result_reopen(*, table: Table, actor: str, reason: str) -> Game:
    """Unlock a confirmed result for correction; the reason is kept in both audit trails."""
    game = scoring.game_reopen(game_id=table.game_id, actor=actor, reason=reason)
    _log(
        table.round.event,
        actor,
        "result_reopened",
        reason,
        round=table.round.number,
        table=table.number,
    )
    return game


def standings_enqueue(event: Event) -> None:
    enqueue_on_commit(tasks.build_standings, event.pk)


def standings_build(*, event_id: int) -> Standings:
    """The standings task's work. If nothing changed since the last build, it stores nothing."""
    event = Event.objects.get(pk=event_id)
    stamp = bridge.results_stamp(event)
    latest = event.standings.first()
    if latest is not None and latest.results_stamp == stamp:
        return latest
    started = time.perf_counter()
    players, results, byes = bridge.standings_inputs(event)
    rows = standings.build_standings(players, results, byes, bridge.standings_config(event))
    seconds = time.perf_counter() - started
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)  # one build stored at a time
        latest = event.standings.first()
        if latest is not None and latest.results_stamp == stamp:
            return latest
        return Standings.objects.create(
            event=event,
            rounds_complete=bridge.rounds_complete(event),
            counted=bridge.open_round_counted(event),
            results_stamp=stamp,
            rows=[row.as_dict() for row in rows],
            build_seconds=seconds,
        )


# --- the organiser pages' own writes ------------------------------------------------------------

#: The settings an organiser may change after creating the event (the rules of play stay).
EDITABLE_SETTINGS = (
    "name",
    "rounds_planned",
    "pairing_modes",
    "precedence",
    "placing_points",
    "bye_policy",
    "void_policy",
)


@transaction.atomic
def event_update(
    *,
    event: Event,
    name: str,
    rounds_planned: int,
    pairing_modes: list[str],
    precedence: list[str],
    placing_points: list[int],
    bye_policy: str,
    void_policy: str | None = None,
    actor: str = "",
) -> Event:
    """Change a running event's settings. Rounds already built keep their pairing mode; the
    standings are rebuilt because precedence, placing points and byes decide them."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.CLOSED:
        raise NotAllowed(gettext("the event is closed"))
    name = " ".join(str(name).split())
    if not name:
        raise TournamentError(gettext("an event needs a name"))
    built = event.rounds.count()
    if rounds_planned < max(built, 1):
        raise TournamentError(
            ngettext(
                "the event already has %(n)s round: plan at least as many",
                "the event already has %(n)s rounds: plan at least as many",
                built,
            )
            % {"n": built}
        )
    for mode in pairing_modes:
        if mode not in pairing.MODES:
            raise TournamentError(gettext("unknown pairing mode %(mode)r") % {"mode": mode})
    before = {setting: getattr(event, setting) for setting in EDITABLE_SETTINGS}
    event.name = name
    event.rounds_planned = rounds_planned
    event.pairing_modes = list(pairing_modes) or ["swiss"]
    event.precedence = list(precedence)
    event.placing_points = list(placing_points)
    event.bye_policy = bye_policy
    if void_policy is not None:
        event.void_policy = _void_policy(void_policy)
    try:
        bridge.standings_config(event)
    except standings.StandingsError as error:
        raise TournamentError(standings_refusal(error)) from None
    changed = [s for s in EDITABLE_SETTINGS if getattr(event, s) != before[s]]
    if not changed:
        return event
    closed = event.rounds.filter(status=Round.Status.CLOSED).count()
    if closed >= event.rounds_planned:  # the last planned round is already over
        event.status = Event.Status.CLOSED
    event.save()
    _log(event, actor, "event_updated", changed={s: getattr(event, s) for s in changed})
    standings_enqueue(event)
    return event


@transaction.atomic
def organiser_add(*, event: Event, username: str, actor: str = ""):
    """Let another user run this event (they get the same rights as its creator)."""
    user_model = get_user_model()
    username = str(username).strip()
    user = user_model.objects.filter(**{user_model.USERNAME_FIELD: username}).first()
    if user is None or not user.is_active:
        raise TournamentError(gettext("there is no active user %(name)r") % {"name": username})
    if event.organisers.filter(pk=user.pk).exists():
        raise TournamentError(gettext("%(name)s already organises this event") % {"name": username})
    event.organisers.add(user)
    _log(event, actor, "organiser_added", username=user.get_username())
    return user


@transaction.atomic
def entries_check_in_all(*, event: Event, actor: str = "") -> int:
    """Check in every entered player who has not withdrawn; one audit entry for them all."""
    if event.status == Event.Status.CLOSED:
        raise NotAllowed(gettext("the event is closed"))
    count = event.entries.filter(checked_in=False, withdrawn=False).update(checked_in=True)
    _log(event, actor, "checked_in_all", count=count)
    return count
