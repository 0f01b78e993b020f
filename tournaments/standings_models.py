"""A standings snapshot written out for the polls, kept apart from tournaments.models.

A thousand phones poll the standings; each poll that finds its kept answer expired used to
read one language's table out of the snapshot's whole `rendered` JSON (every language's
tables, ~2 MB at 1,260 players: ~15 ms of JSON extraction in SQLite a poll). Here each
language of a snapshot is one row of plain text columns: a poll reads the small `mark` (which
names the writing) with the snapshot's head, and one table's text only when its answer is not
kept already (tournaments.results.render)."""

from django.db import models

#: The index of Standings by which a poll and a build find the newest snapshot of an event and
#: its version from the index alone: one entry read, whatever the snapshots before it and
#: however large their rows (a sort over every snapshot of the event grew with each one).
NEWEST_SNAPSHOT = models.Index(
    fields=["event", "-built_at", "-id", "results_version"], name="tournaments_standings_newest"
)


class StandingsText(models.Model):
    """One language's writing of a snapshot: its tables (`<part>_html`, PARTS in
    tournaments.results.render) and the label of what it counts, with the mark that names the
    writing (the same in every language of one writing)."""

    snapshot = models.ForeignKey(
        "tournaments.Standings", on_delete=models.CASCADE, related_name="texts"
    )
    language = models.CharField(max_length=12)
    mark = models.CharField(max_length=16)
    counted = models.TextField(blank=True, default="")
    standings_html = models.TextField(blank=True, default="")
    projector_html = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["snapshot", "language"], name="tournaments_standings_text_language"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.snapshot_id} in {self.language}"


def texts_of(snapshot, rendered: dict) -> list[StandingsText]:
    """The rows of a writing (tournaments.results.render.written's `rendered`: per language
    code its parts and "counted", and the "mark"), for `snapshot`, not yet stored."""
    mark = rendered["mark"]
    return [
        StandingsText(
            snapshot=snapshot,
            language=code,
            mark=mark,
            counted=parts["counted"],
            standings_html=parts["standings"],
            projector_html=parts["projector"],
        )
        for code, parts in rendered.items()
        if code != "mark"
    ]
