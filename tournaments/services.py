"""Writes to events: registration, rounds, publishing, results, standings.

Views, the API, the tasks and the simulator all come through here. Pairings and standings
are computed by the pure modules (via tournaments.bridge) inside Celery tasks; this module
holds what those tasks run, so the same code runs with or without a worker.
"""

from __future__ import annotations

import time

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext

import engine
from scoring import services as scoring
from scoring.models import Game

from . import bridge, pairing, selectors, standings, tasks
from .errors import NotAllowed, TournamentError
from .models import Club, Entry, Event, EventLog, Player, Round, Standings, Table
from .queue import enqueue_on_commit

MAX_NAME = 80


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
    if not isinstance(name, str) or not name.strip():
        raise TournamentError("a player needs a name")
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise TournamentError(f"a name has at most {MAX_NAME} characters: {name[:20]}…")
    return name


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
            raise TournamentError(f"unknown pairing mode {mode!r}")
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
    )
    if seed is not None:
        event.seed = seed
    try:
        bridge.standings_config(event)
    except standings.StandingsError as error:
        raise TournamentError(str(error)) from None
    event.save()
    event.organisers.set(organisers)
    _log(event, actor, "event_created")
    return event


@transaction.atomic
def players_register(
    *, event: Event, names: list[str], checked_in: bool = False, actor: str = ""
) -> list[Entry]:
    """Enter players by name; a name the club knows is the same person. Re-entering is a no-op."""
    if event.status == Event.Status.CLOSED:
        raise NotAllowed("the event is closed")
    cleaned = [_clean_name(name) for name in names]
    next_round = event.rounds.count() + 1
    entries = []
    for name in dict.fromkeys(cleaned):
        player, _ = Player.objects.get_or_create(club=event.club, name=name)
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
    """A withdrawn player is left out of later rounds; results so far stand."""
    _still_entered(entry)
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    _log(entry.event, actor, "withdrawn", reason, player=entry.player_id)
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


@transaction.atomic
def round_create(*, event: Event, actor: str = "") -> Round:
    """Start building the next round; the pairing runs in a Celery task after commit."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    last = event.rounds.order_by("-number").first()
    number = selectors.round_to_build(event, last)
    if number is None:
        if event.status == Event.Status.CLOSED:
            raise NotAllowed("the event is closed")
        raise NotAllowed(f"round {last.number} is not closed yet")
    round_ = Round.objects.create(
        event=event, number=number, pairing_mode=event.pairing_mode(number)
    )
    _log(event, actor, "round_requested", round=number, mode=round_.pairing_mode)
    enqueue_on_commit(tasks.pair_round, round_.pk)
    return round_


def round_pair(*, round_id: int) -> Round:
    """The pairing task's work: build the draft tables. Running it twice changes nothing."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_id)
        if round_.status != Round.Status.PENDING:
            return round_
        request = bridge.pairing_request(round_)
        started = time.perf_counter()
        try:
            result = pairing.pair(request)
        except pairing.PairingError as error:
            round_.status = Round.Status.FAILED
            round_.build_error = str(error)
            round_.save()
            return round_
        round_.pairing_seconds = time.perf_counter() - started
        bridge.store_pairing(round_, result)
        round_.status = Round.Status.DRAFT
        round_.built_at = timezone.now()
        round_.save()
    return round_


@transaction.atomic
def round_retry(*, round_: Round, actor: str = "") -> Round:
    """Build a failed or draft round again (e.g. after check-ins changed)."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status not in (Round.Status.FAILED, Round.Status.DRAFT):
        raise NotAllowed("only a draft or failed round can be built again")
    round_.tables.all().delete()
    round_.byes.all().delete()
    round_.status = Round.Status.PENDING
    round_.build_error = ""
    round_.save()
    _log(round_.event, actor, "round_rebuilt", round=round_.number)
    enqueue_on_commit(tasks.pair_round, round_.pk)
    return round_


@transaction.atomic
def round_swap(*, round_: Round, first: int, second: int, actor: str = "") -> Round:
    """Swap two players (by player id) in a draft: between tables, seats or a bye."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.DRAFT:
        raise NotAllowed("players can only be swapped in a draft")
    places = {}
    for table in round_.tables.all():
        for seat, pid in enumerate(table.seat_ids):
            places[pid] = (table, seat)
    for bye in round_.byes.all():
        places[bye.player_id] = (bye, None)
    if first not in places or second not in places or first == second:
        raise TournamentError("choose two different players of this round")
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
    if round_.status != Round.Status.DRAFT:
        raise NotAllowed("only a draft can be published")
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
    open_tables = round_.tables.exclude(game__result=Game.Result.CONFIRMED).count()
    if open_tables:
        raise NotAllowed(f"{open_tables} table(s) have no confirmed result yet")
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
    try:
        bridge.standings_config(event)
    except standings.StandingsError as error:
        raise TournamentError(str(error)) from None
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
