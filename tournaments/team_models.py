"""Teams and keep-apart rules of an event (docs/teams.md), kept apart from tournaments.models.

A team is a name and its members (entries of the event; an entry is in at most one team, which
the one-to-one `TeamMember.entry` holds). A keep-apart rule is a group of entries no two of whom
may share a table: a couple is a group of two, "same club" a group of many. The draw reads both
through tournaments.common.bridge as plain values (`pairing.Request.teams` and `.apart`).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.common import vocabulary

TEAM_SCORING = vocabulary.choices(vocabulary.TEAM_SCORING_LABELS)


class EventTeams(models.Model):
    #: What a team scores per round (vocabulary.TEAM_SCORING_LABELS) and the team standings'
    #: tie-breaks, in the same words as the individual `precedence` (empty: the default).
    team_scoring = models.CharField(
        _("a team scores"),
        max_length=12,
        choices=TEAM_SCORING,
        default=vocabulary.DEFAULT_TEAM_SCORING,
    )
    team_precedence = models.JSONField(_("team standings precedence"), default=list, blank=True)

    class Meta:
        abstract = True


class Team(models.Model):
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="tournaments_team_name")
        ]
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """An entry's place in a team; the entry and the team are of the same event (the services
    check it)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    entry = models.OneToOneField(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="team_member"
    )

    class Meta:
        verbose_name = _("team member")
        verbose_name_plural = _("team members")

    def __str__(self) -> str:
        return f"{self.entry} in {self.team}"


class KeepApart(models.Model):
    """Entries of one event no two of whom may share a table: a pair, or a group ("same
    club"). `label` is the organiser's own reason, shown in the draft when the rule bends."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="keep_apart"
    )
    label = models.CharField(_("reason"), max_length=80, blank=True)
    entries = models.ManyToManyField("tournaments.Entry", related_name="keep_apart")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("keep-apart rule")
        verbose_name_plural = _("keep-apart rules")
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.label or f"keep apart #{self.pk}"
