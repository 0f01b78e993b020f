"""The referee's help: a player's cards, typed as text, checked here; what the rules say of
them is the engine's (scoring.views.referee)."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

import engine
from config.forms import Form
from scoring.presenters.card_picker import CardsInput
from scoring.words import call_label

_WORDS = re.compile(r"[\s,]+")


def _cards(text: str, *, at_most: int | None = None) -> tuple[engine.Card, ...]:
    for word in _WORDS.split(text.strip()):
        if not word:
            continue
        try:
            engine.Card.parse(word)
        except engine.RuleError:
            raise forms.ValidationError(
                _("“%(word)s” is not a card: write the rank, then the suit, e.g. 10H or AS.")
                % {"word": word[:20]}
            ) from None
    try:
        cards = engine.parse_cards(text)
    except engine.RuleError:
        raise forms.ValidationError(_("A card is written twice: a deck has one of each.")) from None
    if at_most is not None and len(cards) > at_most:
        raise forms.ValidationError(
            _("At most %(n)s cards can be already in the trick.") % {"n": at_most}
        )
    return cards


def _hand(text: str) -> tuple[engine.Card, ...]:
    cards = _cards(text)
    if not cards:
        raise forms.ValidationError(_("Write at least one card."))
    return cards


_CARD_ATTRS = {
    "autocomplete": "off",
    "autocapitalize": "characters",
    "spellcheck": "false",
    "placeholder": "AS KH 10H 7C",
}


def _hand_field() -> forms.CharField:
    """A player's cards, typed as text: the same field wherever the referee asks for them."""
    return forms.CharField(
        label=_("Your cards"),
        max_length=200,
        help_text=_("Rank then suit (S H D C), separated by spaces, e.g. AS KH 10H 7C."),
        widget=CardsInput(attrs=_CARD_ATTRS),
    )


class ReturnCardForm(Form):
    hand = _hand_field()
    given = forms.CharField(
        label=_("The card you were given"),
        max_length=10,
        widget=CardsInput(attrs={**_CARD_ATTRS, "placeholder": "QH"}),
    )

    def clean_hand(self):
        return _hand(self.cleaned_data["hand"])

    def clean_given(self):
        cards = _cards(self.cleaned_data["given"])
        if len(cards) != 1:
            raise forms.ValidationError(_("Write one card."))
        return cards[0]


class LegalCardsForm(Form):
    contract = forms.ChoiceField(label=_("Contract"))
    hand = _hand_field()
    trick = forms.CharField(
        label=_("Cards already in the trick, in the order played"),
        max_length=20,
        required=False,
        help_text=_("Leave empty if you lead."),
        widget=forms.TextInput(attrs={**_CARD_ATTRS, "placeholder": "9H JH"}),
    )

    def __init__(self, *args, ruleset: engine.Ruleset, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        self.fields["contract"].choices = [
            (call.name, call_label(call.name)) for call in ruleset.calls
        ]

    def clean_hand(self):
        return _hand(self.cleaned_data["hand"])

    def clean_trick(self):
        return _cards(self.cleaned_data["trick"], at_most=2)

    def clean(self):
        data = super().clean()
        hand, trick = data.get("hand"), data.get("trick")
        if hand and trick:
            shared = [card for card in hand if card in trick]
            if shared:
                raise forms.ValidationError(
                    _("%(card)s is both in your cards and in the trick.") % {"card": str(shared[0])}
                )
        return data
