"""`manage.py export_event <slug> [-o file]`: an event's backup, as one JSON document.

The work is tournaments.backup.event_export; this command only finds the event and writes
the document. A file is written whole or not at all (a temporary file, then a rename), and
readable by its owner only: it holds the tables' secrets.
"""

import json
import os
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments import backup
from tournaments.common.errors import TournamentError
from tournaments.models import Event


class Command(BaseCommand):
    help = "Write an event (players, rounds, games with their history) as a JSON backup."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the event's slug (as in its address)")
        parser.add_argument("-o", "--output", help="write to this file (default: stdout)")

    def handle(self, *args, slug, output=None, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"there is no event {slug!r}")
        try:
            document = backup.event_export(event=event)
        except TournamentError as error:
            raise CommandError(f"the event cannot be exported: {error.message}") from None
        text = json.dumps(document, ensure_ascii=False, indent=1)
        if output in (None, "-"):
            self.stdout.write(text)
            return
        _write_private(Path(output), text + "\n")
        self.stderr.write(f"{slug}: written to {output} (it holds table secrets: keep it private)")


def _write_private(path: Path, text: str) -> None:
    """Write next to the target, readable by the owner only, then rename over it: a reader
    never sees half a backup, and a failed write leaves the previous file as it was."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
