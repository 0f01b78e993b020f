"""The round clock's fields (docs/round-clock.md), kept apart from tournaments.models: what an
event sets (its round length and its rule at time) and where a round's clock is. Event and
Round take them from these abstract models; tournaments.rounds.services.clock writes them.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.common import vocabulary

CLOCK_AT_TIME = vocabulary.choices(vocabulary.CLOCK_AT_TIME_LABELS)


class EventClock(models.Model):
    #: The round clock (tournaments.rounds.services.clock): a round's length in minutes, 0
    #: for no clock; whether it starts by itself when a round is published; what happens at
    #: time (vocabulary.CLOCK_AT_TIME_LABELS) and, for "more", how many deals more.
    clock_minutes = models.PositiveSmallIntegerField(_("round length (minutes)"), default=0)
    clock_autostart = models.BooleanField(
        _("start the clock when the round is published"), default=False
    )
    clock_at_time = models.CharField(
        _("at time"),
        max_length=10,
        choices=CLOCK_AT_TIME,
        default=vocabulary.DEFAULT_CLOCK_AT_TIME,
    )
    clock_more_deals = models.PositiveSmallIntegerField(_("deals more at time"), default=2)

    class Meta:
        abstract = True


class RoundClock(models.Model):
    #: The round clock (tournaments.rounds.services.clock): started (and not stopped), it
    #: runs to `clock_deadline`, or is paused with `clock_remaining` seconds left.
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_deadline = models.DateTimeField(null=True, blank=True)
    clock_remaining = models.PositiveIntegerField(null=True, blank=True)
    clock_stopped_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True


class TableClock(models.Model):
    #: Seconds this table has beyond its round's time: one slow table's "+5 minutes"
    #: (tournaments.rounds.services.clock.table_clock_extend); 0 for the round's own time.
    clock_extra = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True
