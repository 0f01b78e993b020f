"""The organiser pages' forms. They check only the shape of what was typed; whether the
settings make an event (a known pairing mode, a precedence the standings can follow, rules
the engine accepts) is the services' question, and their answer becomes the form's error."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from config.forms import Form
from scoring import presenters as scoring_presenters
from scoring.models import Quorum
from scoring.names import MAX_NAME, MAX_TITLE, clean
from tournaments.clock_models import CLOCK_AT_TIME
from tournaments.common import event_settings, vocabulary
from tournaments.models import (
    BYE_POLICIES,
    PAIRING_MODES,
    VOID_POLICIES,
    Club,
    Event,
)

PLACES = (
    ("first", pgettext_lazy("place", "1st")),
    ("second", pgettext_lazy("place", "2nd")),
    ("third", pgettext_lazy("place", "3rd")),
)
PLACING_FIELDS = tuple(f"placing_{name}" for name, _label in PLACES)
#: One field per standings metric: the first ranks, each next one breaks the ties left.
PRECEDENCE_FIELDS = tuple(f"precedence_{n}" for n in range(1, len(vocabulary.METRICS) + 1))
#: The team standings' tie-breaks after the total (docs/team-standings.md), one field each.
TEAM_PRECEDENCE_FIELDS = tuple(
    f"team_precedence_{n}" for n in range(1, len(vocabulary.TEAM_TIE_BREAK_LABELS) + 1)
)
MAX_ROUNDS = event_settings.MAX_ROUNDS
#: A new event's settings (tournaments.common.event_settings), the fields' initial values.
DEFAULTS = event_settings.defaults()
MAX_PLACING = 99
MAX_PASTE = 100_000


class OneLineName(forms.CharField):
    """A name as it is stored: runs of spaces (or line breaks) become one space, so the
    length is checked, and the name shown back, as the services keep it."""

    def to_python(self, value):
        return clean(super().to_python(value))


def _numeric(field: forms.Field) -> forms.Field:
    field.widget.attrs.update(inputmode="numeric")
    return field


def _placing_field(place: int, initial: int) -> forms.IntegerField:
    return _numeric(
        forms.IntegerField(
            label=PLACES[place][1], min_value=-MAX_PLACING, max_value=MAX_PLACING, initial=initial
        )
    )


def _game_option(label, max_value: int) -> forms.IntegerField:
    """A number that, when given, overrides the game's own rule."""
    return _numeric(
        forms.IntegerField(
            label=label,
            required=False,
            min_value=1,
            max_value=max_value,
            help_text=_("Leave empty for the game's own rule."),
        )
    )


def _padded(precedence, fields=PRECEDENCE_FIELDS) -> list[str]:
    """A precedence as one value per field, the fields beyond it empty."""
    return [*precedence, *[""] * (len(fields) - len(precedence))]


def _precedence_field(position: int, initial: str) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=_("Tie-break %(n)s") % {"n": position - 1} if position > 1 else _("Ranked first by"),
        choices=[("", _("(none)")), *vocabulary.choices(vocabulary.METRIC_LABELS)],
        required=False,
        initial=initial,
    )


def _team_precedence_field(position: int, initial: str) -> forms.ChoiceField:
    """A team tie-break: the team's total always ranks first, these break its ties."""
    return forms.ChoiceField(
        label=_("Tie-break %(n)s") % {"n": position},
        choices=[("", _("(none)")), *vocabulary.choices(vocabulary.TEAM_TIE_BREAK_LABELS)],
        required=False,
        initial=initial,
    )


class ClubForm(Form):
    name = OneLineName(label=_("Club name"), max_length=MAX_TITLE)


class EventSettingsForm(Form):
    """What an organiser may set when creating an event and change while it runs."""

    name = OneLineName(label=_("Event name"), max_length=MAX_TITLE)
    rounds_planned = _numeric(
        forms.IntegerField(
            label=_("Rounds"),
            min_value=1,
            max_value=MAX_ROUNDS,
            initial=DEFAULTS["rounds_planned"],
        )
    )
    pairing_mode = forms.ChoiceField(
        label=_("Pairing of every round"),
        choices=PAIRING_MODES,
        initial=vocabulary.DEFAULT_PAIRING_MODE,
    )
    pairing_list = forms.CharField(
        label=_("Or round by round"),
        required=False,
        max_length=400,
        help_text=_(
            'Modes separated by commas, e.g. "random, swiss": round 1 random, the rest swiss. '
            "Rounds beyond the list use the last one. Modes: random, swiss, no-repeat."
        ),
    )
    placing_first = _placing_field(0, initial=vocabulary.DEFAULT_PLACING_POINTS[0])
    placing_second = _placing_field(1, initial=vocabulary.DEFAULT_PLACING_POINTS[1])
    placing_third = _placing_field(2, initial=vocabulary.DEFAULT_PLACING_POINTS[2])
    bye_policy = forms.ChoiceField(
        label=_("A bye scores"), choices=BYE_POLICIES, initial=vocabulary.DEFAULT_BYE_POLICY
    )
    void_policy = forms.ChoiceField(
        label=_("A void table scores"),
        choices=VOID_POLICIES,
        initial=vocabulary.DEFAULT_VOID_POLICY,
        required=False,  # left out: unchanged (a new event: "bye")
        help_text=_("For the players of a table set aside after a walkout."),
    )
    confirm_quorum = forms.ChoiceField(
        label=_("Who confirms a table's result"),
        choices=Quorum.choices,
        initial=Quorum.KEEPER,
        required=False,  # left out: unchanged (a new event: the score-keeper alone)
        help_text=_(
            "The players confirm on their own phones from the table's public QR code; "
            "the result locks once these have confirmed. An organiser's confirmation always locks."
        ),
    )

    seed_by_rating = forms.BooleanField(
        label=_("Seed round 1 by rating"),
        required=False,
        help_text=_(
            "A swiss round 1 seats players of like club rating together; players not yet "
            "rated come after them, drawn by lot."
        ),
    )

    clock_minutes = _numeric(
        forms.IntegerField(
            label=_("Round length (minutes)"),
            min_value=0,
            max_value=event_settings.MAX_CLOCK_MINUTES,
            required=False,
            help_text=_("Leave empty for no round clock."),
        )
    )
    clock_autostart = forms.BooleanField(
        label=_("Start the clock when the round is published"), required=False
    )
    clock_at_time = forms.ChoiceField(
        label=_("At time"),
        choices=CLOCK_AT_TIME,
        initial=vocabulary.DEFAULT_CLOCK_AT_TIME,
        required=False,  # left out: unchanged
        widget=forms.RadioSelect,
    )
    clock_more_deals = _numeric(
        forms.IntegerField(
            label=_("How many more deals (N)"),
            min_value=1,
            max_value=event_settings.MAX_CLOCK_MORE_DEALS,
            initial=2,
            required=False,  # left out: unchanged
            help_text=_("After the deal being played at time."),
        )
    )
    team_scoring = forms.ChoiceField(
        label=_("A team scores in each round"),
        choices=vocabulary.choices(vocabulary.TEAM_SCORING_LABELS),
        initial=vocabulary.DEFAULT_TEAM_SCORING,
        required=False,  # left out: unchanged
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        defaults = _padded(vocabulary.DEFAULT_PRECEDENCE)
        for position, name in enumerate(PRECEDENCE_FIELDS, start=1):
            self.fields[name] = _precedence_field(position, initial=defaults[position - 1])
        team = _padded(vocabulary.DEFAULT_TEAM_PRECEDENCE, TEAM_PRECEDENCE_FIELDS)
        for position, name in enumerate(TEAM_PRECEDENCE_FIELDS, start=1):
            self.fields[name] = _team_precedence_field(position, initial=team[position - 1])

    @property
    def precedence_fields(self):
        return [self[name] for name in PRECEDENCE_FIELDS]

    @property
    def team_precedence_fields(self):
        return [self[name] for name in TEAM_PRECEDENCE_FIELDS]

    @property
    def placing_fields(self):
        return [self[name] for name in PLACING_FIELDS]

    def clean(self):
        data = super().clean()
        listed = [mode.strip().lower() for mode in data.get("pairing_list", "").split(",")]
        listed = [mode for mode in listed if mode]
        data["pairing_modes"] = listed or [
            data.get("pairing_mode") or vocabulary.DEFAULT_PAIRING_MODE
        ]
        data["precedence"] = [data[name] for name in PRECEDENCE_FIELDS if data.get(name)]
        data["placing_points"] = [data.get(name) for name in PLACING_FIELDS]
        if any(name in self.data for name in TEAM_PRECEDENCE_FIELDS):  # else: unchanged
            data["team_precedence"] = [
                data[name] for name in TEAM_PRECEDENCE_FIELDS if data.get(name)
            ]
        if "clock_minutes" in data:
            data["clock_minutes"] = data["clock_minutes"] or 0  # empty: no clock
        return data

    def settings(self) -> dict:
        """The cleaned data as the services take it (event_settings.SETTING_NAMES; a void
        policy left out stays as it is)."""
        data = self.cleaned_data
        given = {name: data.get(name) for name in event_settings.SETTING_NAMES}
        return {name: value for name, value in given.items() if value not in (None, "")}

    @classmethod
    def initial_from(cls, event: Event) -> dict:
        settings = event_settings.settings_of(event)
        modes = settings["pairing_modes"] or list(vocabulary.DEFAULT_PAIRING_MODES)
        initial = {
            **settings,
            "pairing_mode": modes[-1],
            "pairing_list": ", ".join(modes) if len(set(modes)) > 1 else "",
        }
        points = settings["placing_points"] or vocabulary.DEFAULT_PLACING_POINTS
        initial.update(zip(PLACING_FIELDS, points, strict=True))
        precedence = settings["precedence"] or vocabulary.DEFAULT_PRECEDENCE
        initial.update(zip(PRECEDENCE_FIELDS, _padded(precedence), strict=True))
        team = settings["team_precedence"] or vocabulary.DEFAULT_TEAM_PRECEDENCE
        team = _padded(team, TEAM_PRECEDENCE_FIELDS)
        initial.update(zip(TEAM_PRECEDENCE_FIELDS, team, strict=True))
        return initial


class EventCreateForm(EventSettingsForm):
    """A new event: its club and the rules of play (which stay fixed once it exists)."""

    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none())
    ruleset = forms.ChoiceField(label=_("Game"), initial="blato")
    hands = _game_option(_("Number of hands"), max_value=99)
    goal = _game_option(_("Points to win"), max_value=999)

    field_order = ["club", "name", "ruleset", "hands", "goal"]

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs if clubs is not None else Club.objects.all()
        self.fields["ruleset"].choices = [
            (choice.id, choice.name) for choice in scoring_presenters.ruleset_choices()
        ]

    def clean(self):
        data = super().clean()
        data["options"] = {
            name: data[name] for name in ("hands", "goal") if data.get(name) is not None
        }
        return data


class PlayerForm(Form):
    name = OneLineName(label=_("Player's name"), max_length=MAX_NAME)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs.update(
            autocomplete="off", autocapitalize="words", spellcheck="false"
        )


class PasteForm(Form):
    names = forms.CharField(
        label=_("Paste a list of players"),
        max_length=MAX_PASTE,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_(
            "One name per line or between commas, or a CSV export with a “name” column. "
            "Blank lines and repeated names are skipped."
        ),
    )


class CheckInForm(Form):
    checked_in = forms.TypedChoiceField(
        choices=[("1", _("check in")), ("0", _("check out"))],
        coerce=lambda value: value == "1",
    )


class OptionalReasonForm(Form):
    """A withdrawal's or a reinstatement's reason, for the log."""

    reason = forms.CharField(label=_("Reason (optional)"), required=False, max_length=500)


class ReasonForm(Form):
    reason = forms.CharField(label=_("Why is the result reopened?"), max_length=500)


class NoteForm(Form):
    """The organiser's answer to a disputed result, confirmed with it (optional elsewhere)."""

    note = forms.CharField(
        label=_("Your answer to the player (shown on their phone)"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class SwapForm(Form):
    """Two players of a draft round, by id; the service says whether they can swap."""

    first = forms.TypedChoiceField(label=_("Swap"), coerce=int)
    second = forms.TypedChoiceField(label=pgettext_lazy("swap … with …", "with"), coerce=int)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("Choose a player")), *players]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


class OrganiserForm(Form):
    username = forms.CharField(label=_("Username"), max_length=150)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(
            autocomplete="off", autocapitalize="none", spellcheck="false"
        )
