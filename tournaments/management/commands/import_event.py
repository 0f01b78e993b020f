"""`manage.py import_event <file|-> [--club-slug slug]`: restore an event from its backup.

The work is tournaments.backup.event_import, in one transaction: a refused backup writes
nothing. This command only reads the file (or stdin) and reports.
"""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments import backup
from tournaments.errors import TournamentError


class Command(BaseCommand):
    help = "Load an event backup written by export_event (refused if the event is here)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file, or - for stdin")
        parser.add_argument(
            "--club-slug",
            help="put the event in this club (made if missing) instead of the backup's own",
        )

    def handle(self, *args, file, club_slug=None, **options):
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"cannot read {file}: {error}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(f"{file} is not JSON: {error}") from None
        try:
            imported = backup.event_import(data=data, club_slug=club_slug)
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
