"""What changed on a game since a phone last showed it, in words: the notice on the keeper's
page when another phone recorded, corrected or undid a hand, an organiser corrected one or
put a substitute in a seat, or the result moved on. Each such change bumps the game's
version, and the history stamps it with the version it made (scoring.services.base.log), so
"since version v" is the history's entries above v."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring import selectors
from scoring.models import Game, GameChange
from scoring.presenters.corrections import deal_record_words
from scoring.presenters.numbering import deal_title, hand_name, hand_of, hand_title, tricks_of
from scoring.words import actor_name

Action = GameChange.Action

#: What a phone's notice leaves out: changes that do not move the game's version (a seat
#: claimed, a player's word, a new secret), shown by the confirmations board or not at all.
QUIET = (
    Action.CREATED,
    Action.SECRET_REPLACED,
    Action.SEAT_CLAIMED,
    Action.CLAIM_RESET,
    Action.RESULT_AGREED,
    Action.RESULT_DISPUTED,
)


#: Who the history says a keeper's change was made by (scoring.web.keeper.ACTOR).
KEEPER = "table"


def _where(actor: str) -> str:
    if actor in (KEEPER, ""):
        return _("on another phone")
    return _("by %(name)s") % {"name": actor_name(actor)}


def changed_since(game: Game, version: int | None, *, own: int | None = None) -> list[str]:
    """The changes made to `game` after `version` (the one a phone showed), oldest first, in
    words; none when the phone is up to date. `own`: the version this phone's own write made,
    left out (the phone knows what it did)."""
    if version is None or version >= game.version:
        return []
    changes = game.changes.filter(version__gt=version).exclude(action__in=QUIET).order_by("pk")
    if own is not None:
        changes = changes.exclude(version=own)
    changes = list(changes)
    if not changes:
        return []
    entries = selectors.live_entries(game)
    names = list(game.players)
    return [_sentence(change, entries, names) for change in changes]


def _sentence(change: GameChange, entries: list, names: list[str]) -> str:
    data = change.data or {}
    where = _where(change.actor)
    number = change.deal_number or 0
    values = {"where": where}
    if change.action in (Action.DEAL_RECORDED, Action.DEAL_UNDONE, Action.DEAL_CORRECTED):
        values["deal"] = _named(entries, number, data)
    if change.action == Action.DEAL_RECORDED:
        values["what"] = deal_record_words(data, names)
        return _("%(deal)s was recorded %(where)s: %(what)s.") % values
    if change.action == Action.DEAL_UNDONE:
        return _("%(deal)s was undone %(where)s.") % values
    if change.action == Action.DEAL_CORRECTED:
        values["before"] = deal_record_words(data.get("before") or {}, names)
        values["after"] = deal_record_words(data.get("after") or {}, names)
        return _("%(deal)s was corrected %(where)s: %(before)s → %(after)s.") % values
    if change.action == Action.SEAT_SUBSTITUTED:
        values.update(
            before=data.get("before", "?"),
            after=data.get("after", "?"),
            hand=hand_name(hand_of(tricks_of(entries), number)),
        )
        return _("%(after)s plays in place of %(before)s from %(hand)s on (%(where)s).") % values
    if change.action == Action.LAST_TRICKS:
        return _("The winners of the last tricks were given %(where)s.") % values
    values["what"] = str(change.get_action_display())
    return _capital(values)


def _capital(values: dict) -> str:
    text = _("%(what)s %(where)s.") % values
    return text[:1].upper() + text[1:]


def _named(entries: list, number: int, data: dict) -> str:
    """A deal named as the players name it. One undone since is past the live ones: named
    from what it held (a redeal has no tricks)."""
    if number <= len(entries):
        return deal_title(entries, number)
    record = data.get("after") if "after" in data else data
    redeal = isinstance(record, dict) and record.get("tricks") is None
    return hand_title(hand_of(tricks_of(entries), number), redeal)
