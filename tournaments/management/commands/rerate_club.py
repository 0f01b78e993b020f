"""manage.py rerate_club SLUG: rate every confirmed game of the club again from the start
(after a change to what is rated, or to check the stored ratings)."""

from django.core.management.base import BaseCommand, CommandError

from tournaments.clubs.services import ratings
from tournaments.models import Club


class Command(BaseCommand):
    help = "Rate every confirmed game of a club again, from its first round on."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's slug")

    def handle(self, *args, slug: str, **options):
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"no club {slug!r}")
        steps = ratings.rebuild(club)
        rated = club.rating_steps.values("player").distinct().count()
        self.stdout.write(f"{club.slug}: {steps // 3} games rated, {rated} players")
