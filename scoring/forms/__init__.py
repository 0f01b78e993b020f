"""The table pages' forms. They check the shape of what was typed (and say so in the page's
language); the rules themselves are the engine's, asked through scoring.services."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

import engine
from config.forms import Form
from scoring.errors import names_alike
from scoring.forms.referee import LegalCardsForm, ReturnCardForm  # noqa: F401 (the referee page imports them here)
from scoring.names import MAX_NAME, clean, first_repeat
from scoring.presenters.rulesets import ruleset_choices
from scoring.rule_words import rule_text
from scoring.words import calls_from_text, ruleset_label, trick_label

RANDOM = "random"

#: A hidden field that does not hold what the page put in it: the page is an old one.
STALE_PAGE = _("This page is out of date: open the score sheet again.")


def tricks_words(per_hand: int) -> str:
    """The one refusal of a trick count that is not a count of this hand."""
    return _("Tricks are whole numbers from 0 to %(n)s.") % {"n": per_hand}


def _django_defaults(field: forms.Field) -> dict:
    defaults: dict = {}
    for cls in reversed(type(field).__mro__):
        defaults.update(getattr(cls, "default_error_messages", {}))
    return defaults


def _own_words(field: forms.Field) -> dict:
    """The product's words for each way `field` can be refused (Django's are generic, and
    name no value a player would recognise)."""
    if field.widget.is_hidden:
        kinds = ("required", "invalid", "invalid_choice", "min_value", "max_value", "max_length")
        return dict.fromkeys(kinds, STALE_PAGE)
    words = {
        "required": _("Fill this in."),
        "invalid_choice": _("Choose one of the options shown."),
        "max_length": _("At most %(limit_value)s characters."),
    }
    if isinstance(field, forms.IntegerField):
        low, high = field.min_value, field.max_value
        if low is not None and high is not None:
            number = _("A whole number from %(min)s to %(max)s.") % {"min": low, "max": high}
        elif low is not None:
            number = _("A whole number, %(min)s or more.") % {"min": low}
        else:
            number = _("A whole number.")
        words.update(dict.fromkeys(("invalid", "min_value", "max_value", "step_size"), number))
    return words


class TableForm(Form):
    """A form of the table's pages: every refusal of a field in the product's own words and
    the page's language (a field's own ``error_messages`` stay first), and a hidden field
    that comes back wrong says the page is out of date, above the form."""

    def full_clean(self):
        for field in self.fields.values():
            defaults = _django_defaults(field)
            own = {k: v for k, v in field.error_messages.items() if defaults.get(k) is not v}
            field.error_messages = {**field.error_messages, **_own_words(field), **own}
        super().full_clean()
        if any(self[name].is_hidden and self.has_error(name) for name in self.fields):
            if str(STALE_PAGE) not in self.non_field_errors():
                self.add_error(None, str(STALE_PAGE))


def _radio(**kwargs):
    return forms.RadioSelect(attrs={"class": "choice"}, **kwargs)


class GameNewForm(TableForm):
    ruleset = forms.ChoiceField(label=_("Game"), widget=_radio(), initial="blato")
    player_0 = forms.CharField(label=_("Player 1"), max_length=MAX_NAME)
    player_1 = forms.CharField(label=_("Player 2"), max_length=MAX_NAME)
    player_2 = forms.CharField(label=_("Player 3"), max_length=MAX_NAME)
    first_dealer = forms.ChoiceField(
        label=_("First dealer"),
        choices=[
            (RANDOM, _("Draw at random")),
            ("0", _("Player 1")),
            ("1", _("Player 2")),
            ("2", _("Player 3")),
        ],
        widget=_radio(),
        initial=RANDOM,
    )
    hands = forms.IntegerField(
        label=_("Number of hands"),
        required=False,
        min_value=1,
        max_value=99,
        help_text=_("Leave empty for the game's own rule."),
    )
    goal = forms.IntegerField(
        label=_("Points to win"),
        required=False,
        min_value=1,
        max_value=999,
        help_text=_("Leave empty for the game's own rule."),
    )
    pass_turns = forms.BooleanField(
        label=_(
            "After a pass, the next player may call (a redeal only when the dealer passes too)"
        ),
        required=False,
        help_text=_("Blato only."),
    )
    exchange_order = forms.ChoiceField(
        label=_("With two givers, who gives first"),
        choices=[
            ("target", _("the higher target in the last hand")),
            ("points", _("more points in the last hand")),
        ],
        widget=_radio(),
        initial="target",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [(choice.id, choice.name) for choice in ruleset_choices()]
        for seat in range(3):
            self.fields[f"player_{seat}"].widget.attrs.update(
                autocomplete="off", autocapitalize="words", spellcheck="false"
            )
        for name in ("hands", "goal"):
            self.fields[name].widget.attrs.update(inputmode="numeric")

    def clean(self):
        data = super().clean()
        ruleset = engine.RULESETS.get(data.get("ruleset"))
        if ruleset is None:
            return data
        defaults = ruleset.defaults
        options = {}
        for name in ("hands", "goal"):
            value = data.get(name)
            if value is not None and value != getattr(defaults, name):
                options[name] = value
        if data.get("pass_turns"):
            if ruleset.passes_per_game:
                options["pass_turns"] = True
            else:
                self.add_error(
                    "pass_turns",
                    _("%(game)s has no pass.") % {"game": ruleset_label(ruleset.id)},
                )
        order = data.get("exchange_order")
        if order and order != defaults.exchange_order.value:
            options["exchange_order"] = order
        try:
            engine.Rules.build(ruleset.id, options)
        except engine.RuleError as error:
            raise forms.ValidationError(rule_text(error)) from None
        data["options"] = options
        data["players"] = [data.get(f"player_{seat}", "") for seat in range(3)]
        repeat = first_repeat([clean(name) for name in data["players"]])
        if repeat is not None and all(data["players"]):
            first, second = (clean(data["players"][seat]) for seat in repeat)
            self.add_error(f"player_{repeat[1]}", names_alike(first, second).message)
        dealer = data.get("first_dealer")
        data["dealer"] = None if dealer in (None, RANDOM) else int(dealer)
        return data


def version_field():
    """The game's version the page was shown at (a hidden field of every form that changes a
    deal or confirms): a form sent late (a page left open, Back, a retry) whose deal changed
    since is refused by the service instead of overwriting it. Optional: a page kept from
    before (the phone's offline copy) posts without it, and is taken as it always was."""
    return forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class CallForm(TableForm):
    deal = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    calls = forms.CharField(required=False, max_length=100, widget=forms.HiddenInput)
    version = version_field()
    call = forms.ChoiceField(choices=[(call.name, call.name) for call in engine.ALL_CALLS])

    def clean_calls(self):
        return calls_from_text(self.cleaned_data["calls"])


class TricksForm(TableForm):
    """A played deal's tricks: a pad of chips (0 to the tricks of a hand) for each seat but the
    last, whose count is the rest, since the three add up to the tricks of a hand (the engine's
    rule). The page's script fills the rest in; sent empty, it is worked out here. A count
    typed into it is checked with the others."""

    deal = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    calls = forms.CharField(max_length=100, widget=forms.HiddenInput)
    version = version_field()

    def __init__(self, *args, names: list[str], per_hand: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.per_hand = per_hand
        for seat, name in enumerate(names):
            counted = seat == COUNTED_SEAT
            field = _tricks_field if counted else _chips_field
            self.fields[f"tricks_{seat}"] = field(name, per_hand, seat, required=not counted)

    def seat_fields(self):
        return [self[f"tricks_{seat}"] for seat in range(3)]

    def clean_calls(self):
        return calls_from_text(self.cleaned_data["calls"])

    def clean(self):
        data = super().clean()
        tricks = [data.get(f"tricks_{seat}") for seat in range(3)]
        if tricks[COUNTED_SEAT] is None and not self.has_error(f"tricks_{COUNTED_SEAT}"):
            tricks[COUNTED_SEAT] = max(self.per_hand - sum(t or 0 for t in tricks), 0)
        if None not in tricks:
            try:
                check_tricks_add_up(tricks, self.per_hand)
            except forms.ValidationError:
                # The three counts are wrong together: each one says so, and points at the
                # message above them (id "tricks-error" in the table page).
                for seat in range(3):
                    self.fields[f"tricks_{seat}"].widget.attrs.update(
                        {"aria-invalid": "true", "aria-describedby": "tricks-error"}
                    )
                raise
            data["tricks"] = tricks
        return data


class LastTricksForm(TableForm):
    """Who won the last tricks of the last hand, the most recent first."""

    deal = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    version = version_field()

    def __init__(self, *args, names: list[str], per_hand: int, count: int, given=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.count = count
        for index in range(count):
            field = forms.ChoiceField(
                label=trick_label(per_hand - index, per_hand),
                choices=[(str(seat), name) for seat, name in enumerate(names)],
                widget=_radio(),
            )
            if index < len(given):
                field.initial = str(given[index])
            self.fields[f"trick_{index}"] = field

    def trick_fields(self):
        return [self[f"trick_{index}"] for index in range(self.count)]

    def clean(self):
        data = super().clean()
        winners = [data.get(f"trick_{index}") for index in range(self.count)]
        if None not in winners:
            data["winners"] = [int(seat) for seat in winners]
        return data


class ConfirmForm(TableForm):
    player = forms.ChoiceField(label=_("Who confirms?"), widget=_radio())
    version = version_field()

    def __init__(self, *args, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.names = names
        self.fields["player"].choices = [(str(seat), name) for seat, name in enumerate(names)]

    def clean_player(self):
        return self.names[int(self.cleaned_data["player"])]


class UndoForm(TableForm):
    """The undo confirmation is bound to the deal it names and the game's version when it was
    shown: a stale one (Back after an undo, a second tap) is refused instead of undoing the
    deal before."""

    deal = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


def check_tricks_add_up(tricks: list[int], per_hand: int) -> None:
    """A hand's three counts must add up to its tricks: said before the engine is asked, in
    the words the keeper needs to find the wrong count."""
    if sum(tricks) != per_hand:
        raise forms.ValidationError(
            _("The tricks add up to %(sum)s; they must add up to %(total)s.")
            % {"sum": sum(tricks), "total": per_hand}
        )


#: The seat whose tricks the pad works out (the rest of the hand) instead of asking for them.
COUNTED_SEAT = 2


def _chips_field(name: str, per_hand: int, seat: int, required: bool = True):
    """A seat's tricks as a row of chips to tap, 0 to the tricks of a hand (radio buttons)."""
    return forms.TypedChoiceField(
        label=name,
        coerce=int,
        choices=[(count, str(count)) for count in range(per_hand + 1)],
        widget=forms.RadioSelect(attrs={"class": "chip-input", "data-seat": seat}),
        required=required,
        empty_value=None,
        error_messages={
            "required": _("Tap the tricks of %(name)s.") % {"name": name},
            "invalid_choice": tricks_words(per_hand),
        },
    )


def _tricks_field(name: str, per_hand: int, seat: int, required: bool = True):
    return forms.IntegerField(
        label=name,
        min_value=0,
        max_value=per_hand,
        required=required,
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value", "step_size"), tricks_words(per_hand)
        ),
        widget=forms.NumberInput(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "off",
                "class": "tricks-input",
                "data-seat": seat,
            }
        ),
    )


class CorrectForm(TableForm):
    """A recorded deal as it should have been: how the calls went (one of the ways the rules
    allow at that deal) and, unless they ended in a redeal, each player's tricks on the same
    pad as a hand's entry (TricksForm): chips for each seat but the last, whose count is the
    rest. For a redeal the tricks are left as they are: a redeal has none."""

    calls = forms.ChoiceField(label=_("The calls"), widget=_radio())
    version = version_field()

    def __init__(self, *args, names: list[str], per_hand: int, choices: list, **kwargs):
        super().__init__(*args, **kwargs)
        self.per_hand = per_hand
        self.redeals = {choice.value for choice in choices if choice.redeal}
        self.fields["calls"].choices = [(choice.value, choice.label) for choice in choices]
        for seat, name in enumerate(names):
            field = _tricks_field if seat == COUNTED_SEAT else _chips_field
            self.fields[f"tricks_{seat}"] = field(name, per_hand, seat, required=False)

    def seat_fields(self):
        return [self[f"tricks_{seat}"] for seat in range(3)]

    def clean(self):
        data = super().clean()
        value = data.get("calls")
        if value is None:
            return data
        data["call_list"] = calls_from_text(value)
        if value in self.redeals:
            data["tricks"] = None
            return data
        tricks = [data.get(f"tricks_{seat}") for seat in range(3)]
        if any(self.has_error(f"tricks_{seat}") for seat in range(3)):
            return data
        if None in tricks[:COUNTED_SEAT] + tricks[COUNTED_SEAT + 1 :]:
            raise forms.ValidationError(_("Tap each player's tricks."))
        if tricks[COUNTED_SEAT] is None:
            tricks[COUNTED_SEAT] = max(self.per_hand - sum(t or 0 for t in tricks), 0)
        check_tricks_add_up(tricks, self.per_hand)
        data["tricks"] = tricks
        return data


class ReasonForm(TableForm):
    """Why an organiser changes a game; the history keeps it next to who and when."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, required: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = required
