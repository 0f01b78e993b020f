"""Every refusal of the scoring app, by code: the one catalogue its errors are worded from.

Services raise ``Conflict("deal_taken", n=4, hand=3, redeal=False)`` and know neither
gettext nor HTTP; ``error.message`` renders the text below in the language active when it
is read, so the edge (a page, the API) decides the language. Each text names its values
``%(name)s`` as the error's params do. A deal is named to people as the players count it,
"hand 3" (redeals not counted: scoring.presenters.numbering), never by the deal's number,
which only the API's fields keep. The engine's own refusals are not here: they are worded by
scoring/rule_words.py from the RuleError an error carries on ``error.rule``.
tests/scoring/test_messages.py runs every code through Bulgarian.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

MESSAGES: dict[str, Promise] = {
    # --- a new game, and names at a table
    "players_not_three": _("players must be three names, by seat"),
    "name_too_long": _("a name has at most %(n)s characters"),
    "name_missing": _("each player needs a name"),
    "name_is_a_list": _(
        "“%(name)s” looks like several names: one name in each box, without commas or semicolons"
    ),
    "name_twice": _(
        "“%(name)s” is written twice: add an initial or a surname so the sheet tells "
        "the players apart"
    ),
    "names_same": _(
        "“%(first)s” and “%(second)s” are the same name: add an initial or a surname so "
        "the sheet tells the players apart"
    ),
    # --- recording, undoing and correcting deals
    "call_not_open": _("That call is not open now: start the calls again."),
    "deal_number": _("deal must be the positive number of the deal being entered"),
    "deal_taken": _("%(hand)s is already recorded with other values"),
    "deal_not_next": _("that is not the next hand to record: the next is %(next_hand)s"),
    "confirmed_no_deals": _("the result is confirmed: no more deals"),
    "void_no_deals": _("the game is void (set aside by the organisers): no more deals"),
    "undo_stale": _(
        "This confirmation is out of date: %(hand)s changed after version %(yours)s of the "
        "game, the one it was shown with (the game is at version %(current)s now). "
        "Nothing was undone."
    ),
    "deal_stale": _(
        "%(hand)s changed on another phone after version %(yours)s of the game, the one "
        "this was entered against (the game is at version %(current)s now): nothing was changed"
    ),
    "version_invalid": _("version must be the game's version you saw, a whole number from 0"),
    "age_invalid": _("age must be the seconds since the hand was entered, a whole number from 0"),
    "undo_confirmed": _("the result is confirmed: reopen it before undoing a deal"),
    "undo_not_last": _("only the last hand on the score sheet (%(hand)s) can be undone"),
    "confirmed": _("the result is confirmed"),
    "last_tricks_not_last": _("trick winners can only be added to the last deal, a played hand"),
    "last_tricks_not_list": _("last_tricks must be a list of seats, the most recent first"),
    "correct_number": _("deal must be the positive number of a recorded deal"),
    "correct_confirmed": _("the result is confirmed: an organiser must reopen it first"),
    "void": _("the game is void (set aside by the organisers)"),
    "deal_not_recorded": _("%(hand)s is not on the score sheet yet"),
    "result_by_hand": _("the organisers set this game's result by hand: ask them to change it"),
    # --- the result
    "not_confirmable": _("only a finished game with settled placings can be confirmed"),
    "confirm_stale": _(
        "the game changed after version %(yours)s, the one this phone showed (it is at "
        "version %(current)s now): check the score sheet, then confirm again"
    ),
    "reopen_reason": _("say why the result is reopened"),
    "not_confirmed": _("the result is not confirmed"),
    # --- the players' own confirmations (scoring.services.verdicts)
    "seat_taken": _(
        "%(name)s's seat was already claimed on another phone: "
        "if that was not you, ask the organiser to reset it"
    ),
    "phone_has_seat": _("this phone already speaks for %(name)s"),
    "no_seat_here": _("claim your seat first: say which player you are"),
    "dispute_reason": _("say what is wrong"),
    "claim_not_found": _("that seat is not claimed"),
    "seat_prove_first": _(
        "prove who you are first: tap “This is me” with your personal code on “Where do I "
        "sit?”, or scan the code on your slip; then you can speak for %(name)s"
    ),
    "seat_not_at_table": _("this phone is %(you)s's, who does not play at this table"),
    "seat_not_yours": _("this phone is %(you)s's: it cannot speak for %(name)s"),
    # --- a walkout: substitute, end early, void, adjust
    "reason_missing": _("say why"),
    "reopen_first": _("the result is confirmed: reopen it first"),
    "seat_invalid": _("seat must be 0, 1 or 2"),
    "finished_no_deal_left": _("the game is finished: no deal is left to play"),
    "no_hand_played": _("no hand has been played yet: void the table or enter a result by hand"),
    "level_needs_last_tricks": _(
        "the totals are level and only the winners of the last hand's tricks can "
        "separate them: add them on the score sheet, or enter a result by hand"
    ),
    "needs_last_tricks": _("the game needs the winners of the last tricks to be placed"),
    "placings_invalid": _("placings must be the three seats (0, 1, 2), first to last"),
    "totals_invalid": _("totals must be three whole numbers, by seat"),
}


#: A deal named as the players count it, inside a sentence (scoring.presenters.numbering).
HAND = _("hand %(n)s")
HAND_AGAIN = _("hand %(n)s (dealt again)")


def hand_words(hand: object, redeal: bool = False) -> str:
    """ "hand 3", or "hand 3 (dealt again)" for a deal that was redealt, in the active
    language: the one numbering the players see, redeals not counted."""
    return str(HAND_AGAIN if redeal else HAND) % {"n": hand}


def render(code: str, params: Mapping[str, object]) -> str:
    """The message of `code` in the active language, its params filled in. A refusal about a
    deal carries the deal's number `n` (the API's) and `hand`, the hand the players know it
    as (`redeal`: it was dealt again), worded "hand 3"; `next_hand` likewise."""
    text = str(MESSAGES[code])
    if not params:
        return text
    values = dict(params)
    if "hand" in values:
        values["hand"] = hand_words(values["hand"], bool(values.get("redeal")))
    if "next_hand" in values:
        values["next_hand"] = hand_words(values["next_hand"])
    return text % values
