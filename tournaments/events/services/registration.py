"""Writes to an event's entries: entering players, checking in, withdrawing, reinstating."""

from __future__ import annotations

from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from scoring.names import MAX_NAME, NameProblem, PlayerName, first_repeat, name_key
from tournaments.common import vocabulary
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.common.permissions import require_event
from tournaments.common.services import log_action, standings_changed
from tournaments.events.selectors.entries import joining_round, open_table_of, seated_ids
from tournaments.models import Entry, Event, Player


def clean_name(name: object) -> str:
    """A player's name as stored (scoring.names.PlayerName), or the refusal."""
    try:
        return str(PlayerName.parse(name))
    except NameProblem as problem:
        if problem.code == "too_long":
            raise TournamentError("name_too_long", max=MAX_NAME, start=problem.text[:20]) from None
        if problem.code == "list":
            raise TournamentError("name_is_a_list", name=problem.text) from None
        raise TournamentError("name_missing") from None


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


def _open(event: Event) -> None:
    if event.status == Event.Status.CLOSED:
        raise NotAllowed("event_closed")


@transaction.atomic
def players_register(
    *, event: Event, names: list[str], checked_in: bool = False, actor: str = "", by=None
) -> list[Entry]:
    """Enter players by name, one entry per name, in order. A name the club knows, whatever
    its case, spacing or accents ("ivan petrov" for "Ivan Petrov", scoring.names.name_key), is
    that person, entered under the club's spelling; entering someone already entered changes
    nothing. The same name twice in one list is refused: the pairings could not tell the two
    apart (a pasted list skips its repeats before it gets here, see csv_import). A new entry
    is a new row of the standings, so once there are rounds they are marked stale. A new name
    becomes a member of the event's club, so `by` must run the event (common.permissions)."""
    require_event(by, event)
    _open(event)
    cleaned = [clean_name(name) for name in names]
    repeat = first_repeat(cleaned)
    if repeat is not None:
        raise TournamentError("name_listed_twice", name=cleaned[repeat[1]])
    known = _club_players_by_key(event)
    players = []
    for name in cleaned:
        player = known.get(name_key(name))
        if player is None:
            player, _ = Player.objects.get_or_create(club=event.club, name=name)
            known[name_key(name)] = player
        players.append(player)
    return enter_players(event=event, players=players, checked_in=checked_in, actor=actor)


def enter_players(
    *, event: Event, players: list[Player], checked_in: bool = False, actor: str = ""
) -> list[Entry]:
    """The one way a player is entered into an event (by name, players_register; by record,
    clubs.services.members.members_enter; each asks who may first): one entry each, joining
    the next round built, in the event's log; entering someone already entered changes
    nothing. A new entry is a new row of the standings, so once there are rounds they are
    marked stale. Call it inside the caller's transaction."""
    _open(event)
    next_round = joining_round(event)
    entries, entered = [], False
    for player in players:
        entry, created = Entry.objects.get_or_create(
            event=event,
            player=player,
            defaults={"joined_round": next_round, **checked_in_by(ORGANISER if checked_in else "")},
        )
        entries.append(entry)
        if created:
            entered = True
            data = {"player": player.pk, "name": player.name, "round": next_round}
            log_action(event, actor, "player_entered", **data)
    if entered and event.rounds.exists():  # before the first round there are no standings
        standings_changed(event)
    return entries


ORGANISER, PHONE = vocabulary.CHECK_IN_BY_ORGANISER, vocabulary.CHECK_IN_BY_PHONE


def checked_in_by(how: str) -> dict:
    """An entry's check-in fields for `how` (ORGANISER or PHONE; "" checks out)."""
    return {
        "checked_in": bool(how),
        "checked_in_by": how,
        "checked_in_at": timezone.now() if how else None,
    }


def _still_entered(entry: Entry) -> None:
    """A withdrawal is final for the event: a withdrawn player is neither checked in (or out)
    nor withdrawn again. Read under a row lock, so a withdrawal and a check-in sent at the same
    moment cannot both pass."""
    if Entry.objects.select_for_update().only("withdrawn").get(pk=entry.pk).withdrawn:
        entry.withdrawn = True
        raise NotAllowed("player_withdrawn", name=entry.player.name)


@transaction.atomic
def entry_check_in(*, entry: Entry, checked_in: bool = True, actor: str = "") -> Entry:
    """The organiser checks the player in, or out; checking out a player who checked in from
    their own phone undoes that check-in (its own line in the log)."""
    _still_entered(entry)
    was_in, was_by = Entry.objects.values_list("checked_in", "checked_in_by").get(pk=entry.pk)
    if not (checked_in and was_in):  # checked in already: how and when stay as they were
        fields = checked_in_by(ORGANISER if checked_in else "")
        for name, value in fields.items():
            setattr(entry, name, value)
        entry.save(update_fields=list(fields))
    if not checked_in and was_in and was_by == PHONE:
        log_action(entry.event, actor, "check_in_undone", player=entry.player_id)
        return entry
    action = "checked_in" if checked_in else "checked_out"
    log_action(entry.event, actor, action, player=entry.player_id)
    return entry


@transaction.atomic
def entries_check_in_all(*, event: Event, actor: str = "") -> int:
    """Check in every entered player who has not withdrawn; one audit entry for them all."""
    _open(event)
    count = event.entries.filter(checked_in=False, withdrawn=False).update(
        **checked_in_by(ORGANISER)
    )
    log_action(event, actor, "checked_in_all", count=count)
    return count


@transaction.atomic
def entry_withdraw(*, entry: Entry, actor: str = "", reason: str = "") -> Entry:
    """A withdrawn player is left out of later rounds; results so far stand. A player still
    seated at an unsettled table of a published round leaves that table to the organiser
    (rounds.services.walkouts: substitute, finish, void or adjust); the log names the table and
    the pages warn with selectors.open_table_of."""
    _still_entered(entry)
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    seated = open_table_of(entry.event, entry.player_id)
    where = {"round": seated.round.number, "table": seated.number} if seated else {}
    log_action(entry.event, actor, "withdrawn", reason, player=entry.player_id, **where)
    return entry


@transaction.atomic
def entry_reinstate(*, entry: Entry, actor: str = "", reason: str = "") -> Entry:
    """Undo a withdrawal (a mistake, or the player is back): the player is paired again from
    the next round built, checked in or not as before; rounds missed meanwhile stay missed."""
    if not Entry.objects.select_for_update().only("withdrawn").get(pk=entry.pk).withdrawn:
        raise NotAllowed("player_not_withdrawn", name=entry.player.name)
    entry.withdrawn = False
    entry.save(update_fields=["withdrawn"])
    log_action(entry.event, actor, "reinstated", reason, player=entry.player_id)
    return entry


@transaction.atomic
def entry_delete(*, entry: Entry, actor: str = "", reason: str = "") -> str:
    """Delete an entry made by mistake (a typo of a real player's name, one person entered
    twice): only one that never played, with no seat at any table of the event (a draft's
    too) and no bye; anyone else is withdrawn instead, and keeps their results. The member
    record made for the name goes with it when nothing else names it (another event, a
    casual game). Logged with the name; returns it."""
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    event, player = entry.event, entry.player
    _open(event)
    if player.pk in seated_ids(event):
        raise NotAllowed("entry_played", name=player.name)
    entry.delete()
    if not player.entries.exists():
        try:
            with transaction.atomic():
                player.delete()
        except ProtectedError:  # a casual game of the club: the member stays
            pass
    log_action(event, actor, "entry_deleted", reason, player=player.pk, name=player.name)
    if event.rounds.exists():  # the standings listed them among the unranked
        standings_changed(event)
    return player.name
