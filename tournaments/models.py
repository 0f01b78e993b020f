"""Clubs, players, events (teams: team_models), rounds (clocks: clock_models), tables, byes.
The pure algorithms (tournaments.pairing, tournaments.standings) never see these models;
tournaments.common.bridge turns rows into their plain values and their answers back into rows.
A published table owns a scoring Game: the game is where results live."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models import Game, Quorum
from tournaments.clock_models import EventClock, RoundClock, TableClock
from tournaments.common import vocabulary
from tournaments.standings_models import NEWEST_SNAPSHOT, StandingsText  # noqa: F401
from tournaments.team_models import EventTeams

# The choices come from tournaments.common.vocabulary, where the words are listed once.
PAIRING_MODES = vocabulary.choices(vocabulary.PAIRING_MODE_LABELS)
BYE_POLICIES = vocabulary.choices(vocabulary.BYE_POLICY_LABELS)
VOID_POLICIES = vocabulary.choices(vocabulary.VOID_POLICY_LABELS)


def new_seed() -> int:
    return secrets.randbelow(2**31)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Who runs the club across nights: its members, seasons and settings.
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, "organised_clubs", blank=True)
    #: The leaderboard and ratings API for everyone, or only for the club's organisers.
    ratings_public = models.BooleanField(_("ratings are public"), default=True)
    #: Whether casual games started under the club are rated like event tables.
    rate_casual_games = models.BooleanField(_("rate casual games"), default=False)

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


class Event(EventClock, EventTeams):
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
        _("a bye scores"),
        max_length=10,
        choices=BYE_POLICIES,
        default=vocabulary.DEFAULT_BYE_POLICY,
    )
    void_policy = models.CharField(
        _("a void table scores"),
        max_length=10,
        choices=VOID_POLICIES,
        default=vocabulary.DEFAULT_VOID_POLICY,
    )
    confirm_quorum = models.CharField(
        _("who confirms a table's result"),
        max_length=12,
        choices=Quorum.choices,
        default=Quorum.KEEPER,
    )
    #: Round 1 of a swiss event paired by the players' club ratings instead of at random.
    seed_by_rating = models.BooleanField(_("seed round 1 by rating"), default=False)
    self_check_in = models.BooleanField(_("players check themselves in"), default=False)
    season = models.ForeignKey(
        "Season", on_delete=models.SET_NULL, null=True, blank=True, related_name="events"
    )
    seed = models.PositiveIntegerField(default=new_seed)
    status = models.CharField(max_length=15, choices=Status.choices, default=Status.REGISTRATION)
    created_at = models.DateTimeField(auto_now_add=True)
    #: The one source of "the standings are stale": every write changing what they are built
    #: from (a result confirmed or reopened, a table void or substituted, a round published or
    #: closed, a player entered, a setting) adds one and enqueues a build (standings_changed);
    #: a snapshot keeps the value it was built from, and is stale while the two differ.
    results_version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        """results_version moves only by services.standings_changed (an UPDATE adding one),
        so a copy of the event read before a change never writes an older value back."""
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                field.name
                for field in self._meta.concrete_fields
                if not field.primary_key and field.name != "results_version"
            ]
        super().save(*args, **kwargs)

    def pairing_mode(self, number: int) -> str:
        return vocabulary.pairing_mode_of_round(self.pairing_modes, number)

    @property
    def status_label(self) -> str:
        return self.get_status_display()

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED


class Entry(models.Model):
    """A player's place in one event: checked in (how: services.check_in), withdrawn, late."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="entries")
    checked_in = models.BooleanField(_("checked in"), default=False)
    checked_in_by = models.CharField(max_length=10, blank=True, default="")
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    joined_round = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Proves a phone is this player's; a new one ends the old (events.services.identity).
    code = models.CharField(_("personal code"), max_length=8, default=vocabulary.personal_code)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="tournaments_one_entry")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"


class Round(RoundClock):
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
    #: When the build was last asked for (created or retried): a round still being built a
    #: minute later has lost its worker, and the organiser may ask again (docs/rounds.md).
    requested_at = models.DateTimeField(default=timezone.now)
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

    # For templates, which read states by name rather than compare raw strings.
    @property
    def status_label(self) -> str:
        return self.get_status_display()

    @property
    def pairing_mode_label(self) -> str:
        return self.get_pairing_mode_display()

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING

    @property
    def is_failed(self) -> bool:
        return self.status == self.Status.FAILED

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED

    @property
    def is_public(self) -> bool:
        """Published or closed: the public may see it (a draft may still change)."""
        return self.status in PUBLIC_ROUND_STATUSES


#: The rounds the public may see: a draft may still change.
PUBLIC_ROUND_STATUSES = (Round.Status.PUBLISHED, Round.Status.CLOSED)
#: A table is settled once its game's result is confirmed or void (rounds.services.walkouts): a
#: round closes when every table is, and the standings count what is settled.
SETTLED_RESULTS = (Game.Result.CONFIRMED, Game.Result.VOID)


class Table(TableClock):
    class Outcome(models.TextChoices):
        """How the organiser settled the table when the game could not simply be played out
        (tournaments.rounds.services.walkouts); PLAYED for every ordinary table."""

        PLAYED = "played", _("played")
        ENDED_EARLY = "ended_early", _("ended as it stood")
        ENDED_AT_TIME = "at_time", _("ended at time")  # by the round clock (services.clock)
        VOID = "void", _("void")
        ADJUSTED = "adjusted", _("adjusted")

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
    outcome = models.CharField(max_length=12, choices=Outcome.choices, default=Outcome.PLAYED)
    outcome_reason = models.TextField(blank=True)
    substitutions = models.JSONField(
        default=list,
        blank=True,
        help_text="Who left which seat for whom, from which deal: "
        "[{seat, left, joined, from_deal}] (player ids).",
    )
    void_players = models.JSONField(
        default=list,
        blank=True,
        help_text="Player ids a void table compensates under the event's void policy.",
    )
    #: The short code typed with the table number when a camera won't scan the keeper's QR;
    #: valid while this table's round is open, renewed by the organiser.
    pin = models.CharField(max_length=8, blank=True)

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
    #: What else this build counted, for its label ("after round 1 + 3 of 5 tables of round
    #: 2"): {"round": n, "tables": t, "settled": s} for a published round not yet closed,
    #: {} when there is none (bridge.open_round_counted).
    counted = models.JSONField(default=dict, blank=True)
    #: The event's results_version this build was made from: stale once the event's moves on.
    results_version = models.PositiveBigIntegerField(default=0)
    rows = models.JSONField(default=list)
    team_rows = models.JSONField(default=list, blank=True)  # standings.TeamRow's; []: no teams
    build_seconds = models.FloatField(default=0)
    #: What the phones poll, written out once when stored (tournaments.results.render), so no
    #: poll renders: the API's body here, per language the tables in standings_models.
    api_body = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-built_at", "-pk"]
        get_latest_by = "built_at"
        indexes = [NEWEST_SNAPSHOT]  # its head read from the index alone (standings_models)

    def __str__(self) -> str:
        return f"{self.event} standings at {self.built_at:%Y-%m-%d %H:%M}"

    def is_current(self, event: Event) -> bool:
        """Whether this build saw every change the event has had (event read fresh)."""
        return self.results_version == event.results_version


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


class ApiToken(models.Model):
    """An account's API token: what scripts send as ``Authorization: Bearer <token>``.
    Only a digest of the token is stored, as Django stores passwords, so a copy of the database
    (a backup, a leaked dump) lets nobody in. The token holds 256 random bits, so a plain SHA-256
    is enough: a slow password hash protects guessable secrets, and these cannot be guessed.
    One token per account: a new one replaces the old, which stops working at once."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token"
    )
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"API token of {self.user}"


# A club's life across its events (log, seasons, casual games, ratings) and an event's teams.
from tournaments.club_models import ClubGame, ClubLog, Rating, RatingStep, Season  # noqa: E402, F401
from tournaments.team_models import KeepApart, Team, TeamMember  # noqa: E402, F401
