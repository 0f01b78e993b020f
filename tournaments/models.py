"""Clubs, their players, events, rounds, tables, byes and standings snapshots.

The pure algorithms (tournaments.pairing, tournaments.standings) never see these models;
tournaments.bridge turns rows into their plain values and their answers back into rows.
A published table owns a scoring Game: the game is where results live.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.models import Game

PAIRING_MODES = [
    ("random", _("random")),
    ("swiss", _("swiss")),
    ("no-repeat", _("no repeat")),
]
BYE_POLICIES = [
    ("zero", _("nothing")),
    ("second", _("as a second place")),
    ("average", _("the player's own average")),
]


def new_seed() -> int:
    return secrets.randbelow(2**31)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person as a club knows them, the same across the club's events."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="tournaments_player_name")
        ]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        CLOSED = "closed", _("closed")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(unique=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_events", blank=True
    )
    ruleset = models.CharField(_("ruleset"), max_length=40, default="blato")
    options = models.JSONField(_("options"), default=dict, blank=True)
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"), default=4)
    pairing_modes = models.JSONField(
        _("pairing mode of each round"),
        default=list,
        blank=True,
        help_text=_("One mode per round; rounds beyond the list use the last one."),
    )
    precedence = models.JSONField(_("standings precedence"), default=list, blank=True)
    placing_points = models.JSONField(_("placing points"), default=list, blank=True)
    bye_policy = models.CharField(
        _("a bye scores"), max_length=10, choices=BYE_POLICIES, default="second"
    )
    seed = models.PositiveIntegerField(default=new_seed)
    status = models.CharField(max_length=15, choices=Status.choices, default=Status.REGISTRATION)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def pairing_mode(self, number: int) -> str:
        modes = self.pairing_modes or ["swiss"]
        return modes[min(number, len(modes)) - 1]


class Entry(models.Model):
    """A player's place in one event: checked in, withdrawn, or joining late."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="entries")
    checked_in = models.BooleanField(_("checked in"), default=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    joined_round = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="tournaments_one_entry")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"


class Round(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("being built")
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")
        CLOSED = "closed", _("closed")
        FAILED = "failed", _("failed to build")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    pairing_mode = models.CharField(max_length=10, choices=PAIRING_MODES)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    flags = models.JSONField(default=list, blank=True)
    build_error = models.TextField(blank=True)
    pairing_seconds = models.FloatField(null=True, blank=True)
    built_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="tournaments_round_number")
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    seat_0 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat_2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    first_dealer = models.PositiveSmallIntegerField(default=0)
    flags = models.JSONField(default=list, blank=True)
    game = models.OneToOneField(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="table"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="tournaments_table_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"

    @property
    def seats(self) -> tuple[Player, Player, Player]:
        return (self.seat_0, self.seat_1, self.seat_2)

    @property
    def seat_ids(self) -> tuple[int, int, int]:
        return (self.seat_0_id, self.seat_1_id, self.seat_2_id)


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    flags = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="tournaments_one_bye")
        ]

    def __str__(self) -> str:
        return f"{self.player} has a bye in {self.round}"


class Standings(models.Model):
    """A stored build of an event's standings; pages serve the newest one."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    built_at = models.DateTimeField(auto_now_add=True)
    rounds_complete = models.PositiveSmallIntegerField(default=0)
    results_stamp = models.CharField(
        max_length=80, help_text="Which confirmed results this build saw; newer ones make it stale."
    )
    rows = models.JSONField(default=list)
    build_seconds = models.FloatField(default=0)

    class Meta:
        ordering = ["-built_at", "-pk"]
        get_latest_by = "built_at"

    def __str__(self) -> str:
        return f"{self.event} standings at {self.built_at:%Y-%m-%d %H:%M}"


class EventLog(models.Model):
    """Who did what to an event, when, and why: the organisers' audit trail."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="log")
    at = models.DateTimeField(auto_now_add=True)
    actor = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=40)
    data = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["event", "-at"])]
        constraints = [
            models.CheckConstraint(condition=~Q(action=""), name="tournaments_log_action"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.action} by {self.actor or '?'}"
