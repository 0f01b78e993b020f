"""`manage.py import_event <file|-> [--club-slug slug] [--organiser username ...]`: restore an
event from its backup.

The work is tournaments.backup (parse, then event_import, in one transaction): a refused
backup writes nothing, and the command says why and exits with status 1, never a traceback.
Who organises the imported event is the file's say (its organisers, where a user of that name
is here: the command names them in a warning), unless --organiser names the accounts instead.
"""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments import backup
from tournaments.common.errors import TournamentError


class Command(BaseCommand):
    help = "Load an event backup written by export_event (refused if the event is here)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file, or - for stdin")
        parser.add_argument(
            "--club-slug",
            help="put the event in this club (made if missing) instead of the backup's own",
        )
        parser.add_argument(
            "--organiser",
            action="append",
            dest="organisers",
            metavar="USERNAME",
            help="make this user (who must exist) an organiser of the imported event instead "
            "of the organisers the backup names; repeat for several",
        )

    def handle(self, *args, file, club_slug=None, organisers=None, **options):
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"cannot read {file}: {error}") from None
        try:
            data = backup.parse(text)
            imported = backup.event_import(data=data, club_slug=club_slug, organisers=organisers)
        except TournamentError as error:
            raise CommandError(f"nothing imported: {error.message}") from None
        for warning in imported.warnings:
            self.stderr.write(self.style.WARNING(f"warning: {warning}"))
        event = imported.event
        games = sum(1 for round_ in data["rounds"] for t in round_["tables"] if t["game"])
        self.stdout.write(
            self.style.SUCCESS(
                f"imported {event.slug} into club {event.club.slug}: "
                f"{len(data['entries'])} players, {len(data['rounds'])} rounds, {games} games"
            )
        )
