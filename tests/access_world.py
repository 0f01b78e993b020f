"""The world tests/test_access_matrix.py asks its questions in: two clubs, their nights, the
people in each role, the addresses filled in, the bodies of the writes, and a fingerprint of
everything a write could change.

Club A (``club-a``, run by alice; its ratings not public) has a night listing dave alone as
its organiser (alice runs it as the club's organiser; dave runs the night, not the club), six
members entered and checked in, round 1 published, table 1's game played to its end and
awaiting confirmation, a season holding the night, and a member entered in no night. Club B
(run by bob) has a night bob listed carol on.
"""

from __future__ import annotations

import random
import re

from django.contrib.auth import get_user_model
from django.test import Client, TestCase
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring import autoplay
from scoring.models import DealEntry, Game, GameChange, SeatClaim, Verdict
from tournaments.club_models import ClubInvitation, NewcomerRequest
from tournaments.clubs.services import invitations, seasons
from tournaments.common import tokens
from tournaments.events.selectors.identity import slip_token
from tournaments.events.services.event import club_create, event_create, organiser_add
from tournaments.events.services.registration import players_register
from tournaments.models import (
    Club,
    ClubGame,
    ClubLog,
    Entry,
    Event,
    EventLog,
    Player,
    Rating,
    RatingStep,
    Round,
    Season,
    Table,
)
from tournaments.rounds.services.rounds import round_create, round_publish
from tournaments.team_models import KeepApart, Team, TeamMember
from tournaments.teams.services import keep_apart_create, team_create

ROLES = ("anonymous", "table", "club", "event", "other club", "other event", "superuser")
USERS = {
    "club": "alice",
    "event": "dave",
    "other club": "bob",
    "other event": "carol",
    "superuser": "root",
}

ARGUMENTS = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>")
OF_CLUB = ("clubs/", "^clubs/", "organise/clubs/<", "api/clubs/<")

EVENT_FORM = {
    "name": "Taken over",
    "ruleset": "blato",
    "rounds_planned": "1",
    "pairing_mode": "random",
    "pairing_list": "",
    "placing_first": "3",
    "placing_second": "1",
    "placing_third": "0",
    "bye_policy": "average",
    "precedence_1": "placing_points",
    "precedence_2": "firsts",
    "precedence_3": "score",
}


def routes(outside: tuple[str, ...]) -> list[tuple[str, str]]:
    """(namespaced name, route text) of every named route but those under `outside`."""
    found = []

    def walk(patterns, prefix="", namespace=""):
        for item in patterns:
            text = prefix + str(item.pattern)
            if text.startswith(outside):
                continue
            if isinstance(item, URLResolver):
                inner = f"{namespace}{item.namespace}:" if item.namespace else namespace
                walk(item.url_patterns, text, inner)
            elif isinstance(item, URLPattern) and item.name:
                found.append((namespace + item.name, text))

    walk(get_resolver().url_patterns)
    return found


class World:
    """Club A's night and the people in each role, with a session and a token each."""

    def __init__(self):
        users = get_user_model().objects
        self.users = {role: users.create_user(username=name) for role, name in USERS.items()}
        root = self.users["superuser"]
        root.is_superuser = root.is_staff = True
        root.save()
        alice, bob = self.users["club"], self.users["other club"]
        self.club = club_create(name="Club A", slug="club-a", creator=alice)
        self.club.ratings_public = False
        self.club.save()
        # alice is not listed on her club's night: she runs it because she runs the club
        self.event = event_create(
            club=self.club, name="A night", organisers=[self.users["event"]], seed=1, by=alice
        )
        players_register(
            event=self.event, names=[f"A{n} Player" for n in range(6)], checked_in=True
        )
        self.season = seasons.season_create(club=self.club, name="Autumn")
        seasons.season_add_event(self.season, self.event)
        self.spare = Player.objects.create(club=self.club, name="A9 Spare")
        self.invitation, self.invitation_token = invitations.invitation_create(
            club=self.club, actor="alice", by=alice
        )
        with TestCase.captureOnCommitCallbacks(execute=True):
            round_ = round_create(event=self.event)
        with TestCase.captureOnCommitCallbacks(execute=True):
            round_publish(round_=Round.objects.get(pk=round_.pk))
        table = Table.objects.get(round__event=self.event, number=1)
        self.game = Game.objects.get(pk=table.game_id)
        autoplay.play(self.game, random.Random(1))  # finished, awaiting confirmation
        self.game.refresh_from_db()
        self.entry = Entry.objects.get(event=self.event, player_id=table.seat_0_id)
        self.newcomer = NewcomerRequest.objects.create(event=self.event, name="A7 Newcomer")
        self.team = team_create(event=self.event, name="A team", entries=[self.entry])
        pair = list(Entry.objects.filter(event=self.event).order_by("pk")[:2])
        self.rule = keep_apart_create(event=self.event, entries=pair, label="couple")
        other = club_create(name="Club B", slug="club-b", creator=bob)
        night_b = event_create(club=other, name="B night", organisers=[bob])
        organiser_add(event=night_b, username="carol", by=bob)
        self._tokens = {role: tokens.token_issue(user=user) for role, user in self.users.items()}
        self._tokens["table"] = self.game.secret
        self._clients = {role: Client() for role in ROLES}
        for role, user in self.users.items():
            self._clients[role].force_login(user)
        self._clients["table"].get(reverse("scoring:keep", args=[self.game.pk, self.game.secret]))

    def client(self, role: str) -> Client:
        return self._clients[role]

    def token(self, role: str) -> str | None:
        return self._tokens.get(role)


def built_world() -> World:
    """The world, its tasks run where they are sent (the module's fixture comes before the
    function-scoped one of tests/conftest.py that does so for each test)."""
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        return World()
    finally:
        app.conf.task_always_eager = previous


def build_url(name: str, route: str, world: World) -> str:
    wanted = [a or b for a, b in ARGUMENTS.findall(route)]
    values = {
        "slug": world.club.slug if route.startswith(OF_CLUB) else world.event.slug,
        "season_id": world.season.pk,
        "seat": 0,
        "number": 1,
        "table_number": 1,
        "entry_id": world.entry.pk,
        "game_id": world.game.pk,
        "player_id": world.entry.player_id,
        # a slip's link carries its entry's proof; every other secret is the table's
        "secret": slip_token(world.entry) if name.endswith(":seat_slip") else world.game.secret,
        "what": "standings",
        "fmt": "csv",
        "invitation_id": world.invitation.pk,
        "request_id": world.newcomer.pk,
        "token": world.invitation_token,
        "team_id": world.team.pk,
        "rule_id": world.rule.pk,
    }
    return reverse(name, kwargs={key: values[key] for key in wanted})


def write_body(name: str, world: World) -> dict:
    """A write that would change club A if let through (an empty body elsewhere: refused
    requests are refused before the body is read)."""
    members = list(Player.objects.filter(club=world.club).order_by("pk")[:2])
    bodies = {
        "api:events": {
            "club": world.club.slug,
            "name": "Taken over",
            "ruleset": "blato",
            "rounds": 1,
            "pairing": "random",
        },
        "api:players": {"names": ["A0 Player", "Intruder"]},
        "api:team_create": {"name": "Intruders"},
        "api:team_update": {"name": "Taken over"},
        "api:team_members_add": {"players": [members[1].pk]},
        "api:keep_apart_create": {"players": [members[0].pk, members[1].pk]},
        "tournaments:organise_team_create": {"name": "Intruders"},
        "tournaments:organise_teams_paste": {"text": "Intruders: A1 Player"},
        "tournaments:organise_team_rename": {"name": "Taken over"},
        "tournaments:organise_team_member_add": {"entry": world.entry.pk},
        "tournaments:organise_event_new": {**EVENT_FORM, "club": world.club.pk},
        "tournaments:organise_player_add": {"name": "Intruder"},
        "tournaments:organise_players_paste": {"names": "Intruder\nOutsider"},
        "tournaments:organise_members_pick": {"player": world.spare.pk},
        "tournaments:organise_organiser_add": {"username": "bob"},
        "tournaments:organise_club_organiser_add": {"username": "bob"},
        "tournaments:organise_club_organiser_remove": {"username": "alice"},
        "tournaments:organise_member_rename": {"name": "Renamed"},
        "tournaments:organise_member_merge": {"other": world.spare.pk, "keep": members[0].pk},
        "tournaments:organise_casual_game": {
            "seat_0": members[0].name,
            "seat_1": members[1].name,
            "seat_2": "Intruder",
        },
        "tournaments:organise_seasons": {"name": "Mine", "min_nights": 1},
        "tournaments:organise_club_settings": {"ratings_public": "on"},
        "tournaments:organise_club_invitations": {"note": "Intruder"},
        "tournaments:organise_club_reset_link": {"username": "alice"},
        "tournaments:invitation_accept": {
            "username": "newcomer",
            "password1": "a long new pass 358",
            "password2": "a long new pass 358",
        },
    }
    return bodies.get(name, {})


def _rows(queryset, *fields) -> tuple:
    return tuple(queryset.order_by("pk").values_list(*fields))


def fingerprint() -> tuple:
    """Everything of the clubs, events, members, seasons, ratings and games a write could
    change."""
    return (
        _rows(Club.objects, "pk", "name", "ratings_public", "rate_casual_games"),
        _rows(Club.organisers.through.objects, "club_id", "user_id"),
        _rows(
            Event.objects, "pk", "name", "status", "season_id", "rounds_planned", "self_check_in"
        ),
        _rows(Event.organisers.through.objects, "event_id", "user_id"),
        _rows(Player.objects, "pk", "club_id", "name"),
        _rows(Entry.objects, "pk", "player_id", "checked_in", "checked_in_by", "withdrawn"),
        _rows(NewcomerRequest.objects, "pk", "event_id", "name"),
        _rows(Season.objects, "pk", "name", "min_nights"),
        _rows(Round.objects, "pk", "status"),
        _rows(Table.objects, "pk", "outcome", "pin", "seat_0_id", "seat_1_id", "seat_2_id"),
        _rows(Game.objects, "pk", "result", "secret", "version"),
        _rows(DealEntry.objects, "pk", "undone_at"),
        Rating.objects.count(),
        RatingStep.objects.count(),
        ClubGame.objects.count(),
        ClubLog.objects.count(),
        _rows(ClubInvitation.objects, "pk", "used_at", "revoked_at"),
        EventLog.objects.count(),
        GameChange.objects.count(),
        SeatClaim.objects.count(),
        Verdict.objects.count(),
        _rows(Team.objects, "pk", "event_id", "name"),
        _rows(TeamMember.objects, "pk", "team_id", "entry_id"),
        _rows(KeepApart.objects, "pk", "event_id", "label"),
        _rows(KeepApart.entries.through.objects, "pk", "keepapart_id", "entry_id"),
    )
