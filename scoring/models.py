"""A table's game: its players, its deals as entered, and every change made to it.

The game's state is never stored as rules: it is always the engine's replay of the live
(not undone) deals. `finished`, `totals` and `placings` are copies of the engine's last
answer, kept only so that lists of games can be shown and filtered without replaying.
"""

import secrets

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


def new_secret() -> str:
    """A table secret: 256 random bits, URL-safe, not derivable from anything."""
    return secrets.token_urlsafe(32)


class Quorum(models.TextChoices):
    """Who must confirm a finished game before its result locks. The keeper's
    confirmation is always one of them; "all three" asks each seat's player too (a keeper who
    sits at the table confirms their own seat by claiming it). Casual games: the keeper alone."""

    KEEPER = "keeper", _("the score-keeper alone")
    KEEPER_AND_ONE = "keeper_one", _("the score-keeper and one other player")
    ALL = "all", _("all three players")


class Game(models.Model):
    class Result(models.TextChoices):
        IN_PLAY = "in_play", _("in play")
        FINISHED = "finished", _("finished")
        CONFIRMED = "confirmed", _("confirmed")
        VOID = "void", _("void")

    ruleset = models.CharField(_("ruleset"), max_length=40)
    options = models.JSONField(_("options"), default=dict, blank=True)
    players = models.JSONField(_("players"), help_text=_("Three names, by seat."))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"))
    secret = models.CharField(max_length=64, unique=True, default=new_secret, editable=False)
    result = models.CharField(max_length=10, choices=Result.choices, default=Result.IN_PLAY)
    version = models.PositiveIntegerField(
        default=0, help_text="Goes up with every change: watchers poll it."
    )
    totals = models.JSONField(default=list)
    placings = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.CharField(max_length=150, blank=True)
    quorum = models.CharField(
        _("who confirms the result"), max_length=12, choices=Quorum.choices, default=Quorum.KEEPER
    )
    #: Its owner's time limit (a tournament's round clock): a deal recorded from this moment on
    #: is told to the owner (scoring.signals.deal_recorded), who may end the game by its own
    #: rule. Null: no limit. Read with the game the deal write locks anyway: no query more.
    time_up_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"#{self.pk} {self.ruleset}: {', '.join(self.players)}"

    @property
    def confirmed(self) -> bool:
        return self.result == self.Result.CONFIRMED

    @property
    def void(self) -> bool:
        """Set aside by its organisers: no result, no more deals."""
        return self.result == self.Result.VOID

    @property
    def confirmable(self) -> bool:
        """The one rule for "can this result be confirmed now": the game is finished (by its
        rules, ended early or adjusted) and its placings are settled. game_confirm refuses
        otherwise, and the pages offer the confirmation by it."""
        return self.result == self.Result.FINISHED and self.placings is not None


def deal_as_record(calls: list, tricks: list | None, last_tricks: list | None) -> dict:
    """A stored deal's values as the engine's game record writes a deal (what was not given
    is left out)."""
    record = {"calls": calls}
    if tricks is not None:
        record["tricks"] = tricks
    if last_tricks is not None:
        record["last_tricks"] = last_tricks
    return record


class DealEntry(models.Model):
    """One deal as the score-keeper entered it. Undoing keeps the row, marked undone."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveIntegerField()
    calls = models.JSONField()
    tricks = models.JSONField(null=True, blank=True)
    last_tricks = models.JSONField(null=True, blank=True)
    entered_at = models.DateTimeField(auto_now_add=True)
    #: When the keeper entered it on the phone: `entered_at` less the age its offline queue
    #: reported (scoring.services.recording.played_at); the round clock asks this one.
    played_at = models.DateTimeField(null=True, blank=True)
    entered_by = models.CharField(max_length=150, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["number", "entered_at"]
        constraints = [
            # The last guard against a race: one live deal per number, on any database.
            models.UniqueConstraint(
                fields=["game", "number"],
                condition=Q(undone_at__isnull=True),
                name="scoring_one_live_deal_per_number",
            )
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} deal {self.number}" + (" (undone)" if self.undone_at else "")

    def as_record(self) -> dict:
        """This deal as the engine's game record writes it."""
        return deal_as_record(self.calls, self.tricks, self.last_tricks)


class GameChange(models.Model):
    """The history of a game: who changed what, when, and why."""

    class Action(models.TextChoices):
        CREATED = "created", _("game created")
        DEAL_RECORDED = "deal_recorded", _("deal recorded")
        DEAL_UNDONE = "deal_undone", _("deal undone")
        LAST_TRICKS = "last_tricks", _("last trick winners added")
        CONFIRMED = "confirmed", _("result confirmed")
        REOPENED = "reopened", _("result reopened")
        SECRET_REPLACED = "secret_replaced", _("table secret replaced")
        DEAL_CORRECTED = "deal_corrected", _("deal corrected")
        SEAT_SUBSTITUTED = "seat_substituted", _("player substituted")
        ENDED_EARLY = "ended_early", _("game ended as it stands")
        VOIDED = "voided", _("game set aside (void)")
        RESULT_ADJUSTED = "result_adjusted", _("result adjusted")
        SEAT_CLAIMED = "seat_claimed", _("seat claimed")
        CLAIM_RESET = "claim_reset", _("seat claim reset")
        RESULT_AGREED = "result_agreed", _("result confirmed by a player")
        RESULT_DISPUTED = "result_disputed", _("result disputed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    at = models.DateTimeField(auto_now_add=True)
    actor = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=20, choices=Action.choices)
    deal_number = models.PositiveIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    #: The game's version once this change was made: a write made against an older version
    #: is refused when its deal changed after it (scoring.selectors.deal_changed_since).
    #: Empty on changes stored before versions were kept.
    version = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.action} by {self.actor or '?'}"


class SeatClaim(models.Model):
    """A phone that said "I am the player in this seat": it may then confirm or dispute the
    result for that seat. A seat is claimed once and a phone claims one seat of a game; only
    the organiser (or the keeper of a casual game) resets a claim. How the claim was proven
    decides whether it counts where the quorum asks the players (docs/confirmations.md)."""

    class Proof(models.TextChoices):
        #: The phone's own cookie: anyone's word (casual games, "keeper alone").
        PHONE = "phone", _("not proven")
        #: A phone that proved it is the player seated there (their personal code).
        CODE = "code", _("personal code")
        #: The organiser confirmed for the player.
        ORGANISER = "organiser", _("organiser's say-so")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="claims")
    seat = models.PositiveSmallIntegerField()
    #: A digest of the claiming phone's own random token (kept in its cookie), never the token.
    holder = models.CharField(max_length=64)
    claimed_at = models.DateTimeField(auto_now_add=True)
    proof = models.CharField(max_length=10, choices=Proof.choices, default=Proof.PHONE)
    #: Who proved it ("entry:17", the owner's key for one person), empty unless proven by code.
    person = models.CharField(max_length=40, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="scoring_one_claim_per_seat"),
            models.UniqueConstraint(fields=["game", "holder"], name="scoring_one_seat_per_phone"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat} claimed"


class Verdict(models.Model):
    """What one side of the table said about a finished result: agreed, or "this is wrong"
    with a word of why. Bound to the game's version when it was given, so a correction made
    afterwards asks again. seat None is the score-keeper."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="verdicts")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    agrees = models.BooleanField()
    reason = models.TextField(blank=True)
    version = models.PositiveIntegerField()
    at = models.DateTimeField(auto_now_add=True)
    #: The keeper's verdict: the person the keeper's phone had proven to be, if any (so that
    #: the keeper's own seat is not "another player"); empty when unknown (the API's token).
    person = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["game", "version"], name="scoring_verdict_version")]

    def __str__(self) -> str:
        side = "keeper" if self.seat is None else f"seat {self.seat}"
        return (
            f"game {self.game_id} v{self.version}: {side} {'agrees' if self.agrees else 'disputes'}"
        )
