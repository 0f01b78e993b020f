"""A club across its events: its audit log, its seasons, the casual games started under it,
and its players' ratings. Django finds these models through tournaments.models, which
imports them; they live here only to keep each module short (and name the models they point
to by label, so this module needs nothing from that one)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ClubLog(models.Model):
    """Who did what to a club across its events (a merge of two player records, a setting,
    a season): the club's audit trail, as EventLog is an event's."""

    club = models.ForeignKey("Club", on_delete=models.CASCADE, related_name="log")
    at = models.DateTimeField(auto_now_add=True)
    actor = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=40)
    data = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.club}: {self.action} by {self.actor or '?'}"


class Season(models.Model):
    """A club's season: the events it groups (Event.season) and how its standings count them."""

    club = models.ForeignKey("Club", on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    starts_on = models.DateField(_("starts"), null=True, blank=True)
    ends_on = models.DateField(_("ends"), null=True, blank=True)
    #: Season points for 1st, 2nd, ... place of a night's standings; places beyond score 0.
    place_points = models.JSONField(_("points per place"), default=list, blank=True)
    #: Count only a player's best N nights (None: all of them).
    best_nights = models.PositiveSmallIntegerField(_("best nights counted"), null=True, blank=True)
    #: Nights a player must attend to be ranked (below it they are listed unranked).
    min_nights = models.PositiveSmallIntegerField(_("minimum nights"), default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class ClubGame(models.Model):
    """A casual game started under a club, its seats known as the club's players: rated when
    the club rates casual games."""

    game = models.OneToOneField(
        "scoring.Game", on_delete=models.CASCADE, primary_key=True, related_name="club_game"
    )
    club = models.ForeignKey("Club", on_delete=models.CASCADE, related_name="casual_games")
    seat_0 = models.ForeignKey("Player", on_delete=models.PROTECT, related_name="+")
    seat_1 = models.ForeignKey("Player", on_delete=models.PROTECT, related_name="+")
    seat_2 = models.ForeignKey("Player", on_delete=models.PROTECT, related_name="+")

    def __str__(self) -> str:
        return f"{self.club}: casual game {self.game_id}"

    @property
    def seat_ids(self) -> tuple[int, int, int]:
        return (self.seat_0_id, self.seat_1_id, self.seat_2_id)


class Rating(models.Model):
    """A player's current OpenSkill rating in their club: the last RatingStep, kept so the
    leaderboard is one indexed query."""

    player = models.OneToOneField(
        "Player", on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.player}: {self.ordinal:.1f}"


class RatingStep(models.Model):
    """One player's rating after one rated game. Games are rated in batches (one round of an
    event, or one casual game) in `(batch_at, batch)` order; a change to a game re-rates its
    club from that game's batch on."""

    club = models.ForeignKey("Club", on_delete=models.CASCADE, related_name="rating_steps")
    player = models.ForeignKey("Player", on_delete=models.CASCADE, related_name="rating_steps")
    game = models.ForeignKey("scoring.Game", on_delete=models.CASCADE, related_name="rating_steps")
    batch_at = models.DateTimeField()
    batch = models.CharField(max_length=40)
    place = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["batch_at", "batch", "pk"]
        indexes = [
            models.Index(fields=["club", "batch_at", "batch"], name="tournaments_step_order"),
            models.Index(fields=["player", "batch_at"], name="tournaments_step_player"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="tournaments_one_step")
        ]

    def __str__(self) -> str:
        return f"{self.player} after game {self.game_id}: {self.ordinal:.1f}"


class ClubInvitation(models.Model):
    """A one-time link that makes whoever opens it an organiser of the club: made by one of
    its organisers, used once, refused after `expires_at` or once revoked. Only the digest of
    its token is kept (tournaments.services.invitations): the link is shown once."""

    club = models.ForeignKey("Club", on_delete=models.CASCADE, related_name="invitations")
    digest = models.CharField(max_length=64, unique=True)
    made_by = models.CharField(max_length=150, blank=True)
    #: Whom it was for, as its maker wrote it (a name or an e-mail address): a reminder only.
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.club}: invitation {self.pk}"


class NewcomerRequest(models.Model):
    """Someone at the door whose name is not on the event's list asks, from their phone, to be
    entered (self check-in): the organiser accepts (entered and checked in) or declines
    (the request is gone). An accepted request names its `entry` until the phone that asked
    comes back for it and is proven as that player, once (tournaments.events.services.check_in)."""

    event = models.ForeignKey("Event", on_delete=models.CASCADE, related_name="newcomers")
    name = models.CharField(max_length=80)
    asked_at = models.DateTimeField(auto_now_add=True)
    entry = models.ForeignKey(
        "Entry", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["asked_at", "pk"]

    def __str__(self) -> str:
        return f"{self.event}: {self.name} asks to be entered"
