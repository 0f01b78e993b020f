"""`manage.py demo`: a demo club to click through, and an organiser login to do it with.

The club (run by the demo organiser) has one event of twelve players, the first night of its
season: round 1 played, confirmed and in the standings, round 2 published with its games
under way (one finished and waiting for its confirmation).
Everything is made through the same services and tasks the site uses. Running it again
keeps the data and only gives the organiser a new password.
"""

import random
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from scoring import autoplay
from tournaments.clubs.services import seasons
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Club, Event, Round
from tournaments.results.services import result_confirm, standings_build
from tournaments.rounds.services.rounds import round_close, round_create, round_pair, round_publish

CLUB = "Demo Blato Club"
EVENT = "Demo evening"
SEASON = "Demo season"
USERNAME = "organiser"
PLAYERS = [
    "Ana Petrova", "Boris Ivanov", "Vera Georgieva", "Dimitar Kolev", "Elena Todorova",
    "Georgi Stoyanov", "Iva Nikolova", "Kaloyan Dimitrov", "Maria Hristova", "Nikolay Popov",
    "Petya Angelova", "Stefan Vasilev",
]  # fmt: skip


class Command(BaseCommand):
    help = "Load a demo club and event (idempotent) and print an organiser login."

    def add_arguments(self, parser):
        parser.add_argument("--password", help="the organiser's password (default: random)")
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")

    def handle(self, *args, password=None, base_url, **options):
        password = password or secrets.token_urlsafe(9)
        organiser = self._organiser(password)
        event = Event.objects.filter(club__name=CLUB, name=EVENT).first()
        created = event is None
        if created:
            event = build_demo(organiser)
        base = base_url.rstrip("/")
        self.stdout.write(
            "\n".join(
                [
                    "Demo event " + ("loaded" if created else "already there") + ":",
                    f"  site:       {base}/",
                    f"  event:      {base}/events/{event.slug}/",
                    f"  organise:   {base}/organise/events/{event.slug}/",
                    f"  club:       {base}/organise/clubs/{event.club.slug}/",
                    f"  log in as:  {USERNAME} / {password}",
                ]
            )
        )

    def _organiser(self, password: str):
        user, _ = get_user_model().objects.get_or_create(username=USERNAME)
        user.set_password(password)
        user.is_active = True
        user.save()
        return user


def build_demo(organiser) -> Event:
    """The demo club's event: one round played and confirmed, the next one under way."""
    rng = random.Random(358)
    with transaction.atomic():
        club = Club.objects.filter(name=CLUB).first() or club_create(name=CLUB, creator=organiser)
        club.organisers.add(organiser)
        season = club.seasons.filter(name=SEASON).first() or seasons.season_create(
            club=club, name=SEASON, actor=USERNAME, by=organiser
        )
        event = event_create(
            club=club,
            name=EVENT,
            rounds_planned=4,
            pairing_modes=["random", "swiss"],
            organisers=[organiser],
            seed=358,
            actor=USERNAME,
            by=organiser,
        )
        seasons.season_add_event(season, event, actor=USERNAME, by=organiser)
        players_register(event=event, names=PLAYERS, checked_in=True, actor=USERNAME, by=organiser)
    first = _published_round(event)
    for table in first.tables.select_related("game").order_by("number"):
        autoplay.play(table.game, rng, actor="demo")
        result_confirm(table=table, actor=USERNAME)
    round_close(round_=first, actor=USERNAME)
    standings_build(event_id=event.pk)
    second = _published_round(event)
    for number, table in enumerate(second.tables.select_related("game").order_by("number")):
        # The first table has finished (its result awaits confirmation); the others are at
        # different points of their games.
        autoplay.play(table.game, rng, deals=None if number == 0 else 2 + 2 * number, actor="demo")
    return event


def _published_round(event: Event) -> Round:
    """Ask for the next round and pair it here, so the demo needs no worker running yet; the
    queued pairing task finds the round built and does nothing."""
    round_ = round_create(event=event, actor=USERNAME)
    round_ = round_pair(round_id=round_.pk)
    return round_publish(round_=round_, actor=USERNAME)
