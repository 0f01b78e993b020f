"""An event's backup: one JSON document that gives the event back, history and all.

`event_export` writes everything an event is made of: its club, settings, organisers,
entries, rounds with their tables and byes, each table's game with every deal ever entered
(undone ones too) and every change, the standings snapshots, the event log, and its teams
and keep-apart rules.
`event_import` loads such a document in one transaction, or refuses it and writes nothing.

Rows refer to each other by what they mean, never by database id: players by name (names
are unique in a club), rounds by number, tables and games by nesting. So a backup can be
restored into any database, into its club or another one. Each row also carries the id it
had, kept on restore wherever it is still free (writing.py says why ids matter). Player ids
inside JSON values (pairing flags, substitutions, void players, standings rows, the event
log's `player` and `players`, a team's and a keep-apart rule's players) are written as names
too.

The rooms:
- document.py: JSON text parsed, and every value of the document checked first (how deep
  it nests, numbers a database keeps, text it stores), wherever it stands;
- fields.py: the FORMAT and VERSION; which fields of each model the file holds (the
  model's own `_meta`, less an explicit list); how a row goes out and comes back, players
  in JSON values both ways;
- export.py: the document;
- reading.py, games.py: the document checked whole and turned into unsaved rows (a game
  must replay in the engine to the result it holds);
- writing.py: the rows saved in one transaction, ids kept where free.

The event's editable settings are checked by tournaments.common.event_settings, as the organiser
pages check them. Refusals are TournamentErrors with "backup_..." codes
(tournaments.common.messages). The file holds the tables' secrets: whoever has it can keep score
at those tables.
"""

from tournaments.backup.document import parse
from tournaments.backup.export import event_export
from tournaments.backup.fields import FORMAT, VERSION
from tournaments.backup.writing import Imported, Notice, event_import

__all__ = ["FORMAT", "VERSION", "Imported", "Notice", "event_export", "event_import", "parse"]
