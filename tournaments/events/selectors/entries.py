"""An event's players and organisers, read: the entries and their counts, the events and clubs
a user runs, the event's log, which round a late entry joins and a player's open table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import (
    Case,
    Count,
    IntegerField,
    Q,
    When,
)

from tournaments.models import (
    SETTLED_RESULTS,
    Bye,
    Club,
    Entry,
    Event,
    EventLog,
    Player,
    Round,
    Table,
)


def player_names(event: Event) -> dict[int, str]:
    return dict(Player.objects.filter(entries__event=event).values_list("pk", "name"))


def events_listed() -> list[Event]:
    """Running events first, then those taking entries, then closed ones; newest first."""
    listed = Case(
        When(status=Event.Status.RUNNING, then=0),
        When(status=Event.Status.REGISTRATION, then=1),
        default=2,
        output_field=IntegerField(),
    )
    events = Event.objects.select_related("club").annotate(listed=listed)
    return list(events.order_by("listed", "-created_at", "-pk"))


def entered_player(event: Event, player_id: int) -> Player:
    return Player.objects.get(pk=player_id, entries__event=event)


def events_organised_by(user):
    """The events this user runs (listed on the event, or running its club), newest first;
    a superuser sees every event (tournaments.common.permissions)."""
    events = Event.objects.select_related("club").order_by("-created_at", "-pk")
    if user.is_superuser:
        return events
    return events.filter(Q(organisers=user) | Q(club__organisers=user)).distinct()


def clubs_by_name():
    return Club.objects.order_by("name")


def clubs_run_by(user):
    """The clubs this user may make an event in (tournaments.common.permissions): the clubs they
    run; a superuser, every club."""
    clubs = clubs_by_name()
    return clubs if user.is_superuser else clubs.filter(organisers=user)


@dataclass(frozen=True)
class EntryCounts:
    entered: int
    checked_in: int
    withdrawn: int
    from_phones: int = 0  # checked in from their own phones (self check-in)


def entry_counts(event: Event) -> EntryCounts:
    in_event = Q(checked_in=True, withdrawn=False)
    counts = event.entries.aggregate(  # from_phones first: its filter names the fields
        from_phones=Count("pk", filter=in_event & Q(checked_in_by="phone")),
        entered=Count("pk"),
        checked_in=Count("pk", filter=in_event),
        withdrawn=Count("pk", filter=Q(withdrawn=True)),
    )
    return EntryCounts(**counts)


def event_entries(event: Event, name_contains: str = "") -> list[Entry]:
    entries = event.entries.select_related("player").order_by("player__name", "pk")
    if name_contains:
        entries = entries.filter(player__name__icontains=name_contains)
    return list(entries)


def entry_of(event: Event, entry_id: int) -> Entry:
    return event.entries.select_related("player", "event").get(pk=entry_id)


def event_log(event: Event, limit: int | None = None) -> list[EventLog]:
    entries = event.log.order_by("-at", "-pk")
    return list(entries[:limit] if limit else entries)


def joining_round(event: Event) -> int:
    """The first round a player entered now can play: the next one not built yet (a round
    being built, failed or deleted takes them when it is built)."""
    built = (Round.Status.DRAFT, Round.Status.PUBLISHED, Round.Status.CLOSED)
    return event.rounds.filter(status__in=built).count() + 1


def open_table_of(event: Event, player_id: int) -> Table | None:
    """The table of a published round where the player still sits and whose result is not
    settled (neither confirmed nor void): what a withdrawal leaves for the organiser."""
    sits = Q(seat_0_id=player_id) | Q(seat_1_id=player_id) | Q(seat_2_id=player_id)
    return (
        Table.objects.filter(sits, round__event=event, round__status=Round.Status.PUBLISHED)
        .exclude(game__result__in=SETTLED_RESULTS)
        .select_related("round")
        .order_by("-round__number", "number")
        .first()
    )


def seated_ids(event: Event) -> set[int]:
    """The players of the event with a seat at a table of any of its rounds (a draft's too)
    or a bye: an entry of anyone else never played, and may be deleted (entered by mistake)."""
    tables = Table.objects.filter(round__event=event).order_by()
    seats = [tables.values_list(f"seat_{seat}_id", flat=True) for seat in (1, 2)]
    byes = Bye.objects.filter(round__event=event).order_by().values_list("player_id", flat=True)
    return set(tables.values_list("seat_0_id", flat=True).union(*seats, byes))  # one query
