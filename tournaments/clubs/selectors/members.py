"""What a club's pages read: its members (found by a typed name in Latin or Cyrillic
letters, scoring.names.search), its events and seasons, its audit trail."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from scoring.names import name_key
from scoring.names import search as search_names
from tournaments.models import Club, ClubGame, ClubLog, Event, Player, Season, Table

#: How many members a type-ahead suggests at most.
SUGGESTED = 8


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    events: int


def members(club: Club, query: str = "", *, limit: int | None = None) -> list[Member]:
    """The club's members by name (the whole names a query means first, then the rest it
    may mean), each with the number of its events they were entered in."""
    rows = Player.objects.filter(club=club).annotate(events=Count("entries")).only("pk", "name")
    found = {p.pk: Member(p.pk, p.name, p.events) for p in rows}
    if query:
        matches = search_names(query, {pid: m.name for pid, m in found.items()})
        chosen = [
            *sorted(matches.exact, key=lambda pid: name_key(found[pid].name)),
            *sorted(matches.partial, key=lambda pid: name_key(found[pid].name)),
        ]
        listed = [found[pid] for pid in dict.fromkeys(chosen)]
    else:
        listed = sorted(found.values(), key=lambda m: (name_key(m.name), m.id))
    return listed if limit is None else listed[:limit]


def member(club: Club, player_id: int | None) -> Player | None:
    if player_id is None:
        return None
    return Player.objects.filter(club=club, pk=player_id).first()


def entered_ids(event: Event) -> set[int]:
    return set(event.entries.values_list("player_id", flat=True))


def club_events(club: Club) -> list[Event]:
    return list(club.events.select_related("season").order_by("-created_at", "-pk"))


def club_seasons(club: Club) -> list[Season]:
    return list(Season.objects.filter(club=club).order_by("-created_at", "-pk"))


def club_log(club: Club, limit: int = 50) -> list[ClubLog]:
    return list(ClubLog.objects.filter(club=club)[:limit])


def club_organisers(club: Club) -> list[str]:
    return sorted(user.get_username() for user in club.organisers.all())


@dataclass(frozen=True)
class History:
    """What a member's record holds, to set two records side by side before a merge."""

    player: Player
    events: list[str]  # the events they were entered in, oldest first
    games: int  # games played: event tables and casual games

    @property
    def weight(self) -> tuple[int, int]:
        return (self.games, len(self.events))


def member_history(player: Player) -> History:
    seated = Q(seat_0=player) | Q(seat_1=player) | Q(seat_2=player)
    games = Table.objects.filter(seated, game__isnull=False).count()
    games += ClubGame.objects.filter(seated).count()
    events = Event.objects.filter(entries__player=player).order_by("created_at", "pk")
    return History(player, list(events.values_list("name", flat=True)), games)
