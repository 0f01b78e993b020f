"""The teams page's forms: they check the shape of what was typed; whether a name is free or
a player may join is the services' question (tournaments.teams.services)."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from config.forms import Form
from scoring.names import SEPARATORS
from tournaments.teams.services import MAX_REASON, MAX_TEAM_NAME, PastedTeam

MAX_PASTE = 20_000
_BETWEEN_NAMES = re.compile(f"[{re.escape(SEPARATORS)}]")


class TeamForm(Form):
    """A new team's name, or a team's new name."""

    # Empty or too long is the service's to refuse, in its words (teams.services.team_name).
    name = forms.CharField(label=_("Team name"), required=False, strip=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs.update(
            autocomplete="off", spellcheck="false", maxlength=MAX_TEAM_NAME, required=True
        )


class MemberForm(Form):
    """A player to put into a team: one of the event's players in no team yet."""

    entry = forms.TypedChoiceField(label=_("Add a player"), coerce=int)

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [("", "—"), *choices]


def teams_from_text(text: str) -> tuple[list[PastedTeam], list[str]]:
    """The teams of a pasted list, one a line: "Team name: player, player, player" (names
    between commas or semicolons); blank lines are skipped. Returns the teams and, for a
    line without a colon, its problem in words (then nothing is written)."""
    teams, problems = [], []
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        if not line.strip():
            continue
        name, colon, rest = line.partition(":")
        if not colon:
            problems.append(
                _("Line %(line)s: write the team's name, a colon, then its players.")
                % {"line": number}
            )
            continue
        players = [part.strip() for part in _BETWEEN_NAMES.split(rest) if part.strip()]
        teams.append(PastedTeam(line=number, name=name.strip(), players=players))
    return teams, problems


class TeamPasteForm(Form):
    text = forms.CharField(
        label=_("Paste a list of teams"),
        max_length=MAX_PASTE,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text=_(
            "One team a line: its name, a colon, then its players between commas, e.g. "
            "“Aces: Ana Petrova, Boris Ivanov, Вера Колева”. Names in Latin or Cyrillic "
            "letters; the players must be entered already."
        ),
    )

    def clean_text(self) -> list[PastedTeam]:
        teams, problems = teams_from_text(self.cleaned_data["text"])
        if problems:
            raise forms.ValidationError(problems)
        if not teams:
            raise forms.ValidationError(_("No teams found: put one team on each line."))
        return teams


class KeepApartForm(Form):
    """Two or more of the event's players, and the organiser's reason (optional)."""

    entries = forms.TypedMultipleChoiceField(
        label=_("Players to keep apart"), coerce=int, widget=forms.CheckboxSelectMultiple
    )
    label = forms.CharField(label=_("Reason (optional)"), required=False, max_length=MAX_REASON)

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entries"].choices = list(choices)
        self.fields["label"].widget.attrs.update(list="apart-reasons", autocomplete="off")

    def clean_entries(self) -> list[int]:
        chosen = self.cleaned_data["entries"]
        if len(set(chosen)) < 2:
            raise forms.ValidationError(_("Choose at least two players."))
        return chosen
