"""`manage.py demo`: a demo club to click through, and an organiser login to do it with.

The club (run by the demo organiser) has one event of twelve players, the first night of its
season: round 1 played, confirmed and in the standings, round 2 published with its games
under way (one finished and waiting for its confirmation).
Everything is made through the same services and tasks the site uses. Running it again
keeps the data and the organiser's password: a club that goes on using the demo site must not
be locked out at each restart. The password it made is kept in ``var/demo-organiser-password``
(readable by its owner only) and printed each run; one the organiser changed since is left
alone. ``--password`` sets a given one instead.
"""

import os
import random
import secrets
from pathlib import Path

from django.conf import settings
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
#: Bulgarian clubs write their players in Cyrillic, Latin or both: the demo shows both.
PLAYERS = [
    "Иван Петров", "Boris Ivanov", "Мария Димитрова", "Vera Georgieva", "Калоян Колев",
    "Elena Todorova", "Ива Николова", "Georgi Stoyanov", "Петя Ангелова", "Nikolay Popov",
    "Димитър Христов", "Stefan Vasilev",
]  # fmt: skip
PASSWORD_FILE = "demo-organiser-password"


class Command(BaseCommand):
    help = "Load a demo club and event (idempotent) and print an organiser login."

    def add_arguments(self, parser):
        parser.add_argument(
            "--password", help="the organiser's password (default: the kept one, else random)"
        )
        parser.add_argument(
            "--password-file",
            help=f"where a made password is kept (default: var/{PASSWORD_FILE})",
        )
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")

    def handle(self, *args, password=None, password_file=None, base_url, **options):
        kept = Path(password_file) if password_file else settings.VAR_DIR / PASSWORD_FILE
        organiser, password = organiser_login(password, kept)
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
                    f"  log in as:  {USERNAME} / {password}"
                    if password
                    else f"  log in as:  {USERNAME} / (the password you chose; "
                    f"manage.py changepassword {USERNAME} sets another)",
                ]
            )
        )


def organiser_login(password: str | None, kept: Path):
    """The demo organiser and the password to print: the given one; else the kept one while
    it still opens the account; else, for a new account or when none was kept, a new one
    (kept). None when the organiser has chosen their own since: it is theirs, not printed."""
    user, created = get_user_model().objects.get_or_create(username=USERNAME)
    if not user.is_active:
        user.is_active = True
        user.save(update_fields=["is_active"])
    remembered = None if password else _read(kept)
    if remembered and not created and not user.check_password(remembered):
        return user, None  # changed on the site since: left alone
    wanted = password or remembered or secrets.token_urlsafe(9)
    if created or not user.check_password(wanted):
        user.set_password(wanted)  # a new hash logs out every session: only when it changes
        user.save(update_fields=["password"])
    if not password and wanted != remembered:
        _keep(kept, wanted)
    return user, wanted


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except FileNotFoundError:
        return None


def _keep(path: Path, password: str) -> None:
    """Written readable by its owner only, like the database beside it."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as kept:
        kept.write(password + "\n")
    path.chmod(0o600)


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
