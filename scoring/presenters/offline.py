"""What the keeper's phone is given to go on keeping the score offline: the engine's answers,
not a copy of its rules.

Offline, the page cannot ask the server what comes next, yet the players need it before each
hand (who deals, the targets, who calls, passes left, the card exchange). So the page carries
three things, each made here from the engine:

- `offline_rules`: the game's rules as the engine holds them (targets by position, the caller's
  position, the calls, passes, the exchange's timing and order, the ends), as data;
- `offline_state`: the engine's state after the live deals, as the phone steps on from it
  (the next deal, dealer, totals, passes left, calls made, the last hand's points);
- `offline_words`: every sentence the table page says about a deal, in the page's language,
  with the players' names in (a placeholder where a number goes).

`static/js/offline/rules.js` steps the state on over the hands kept on the phone and
`static/js/offline/deal_view.js` words it as the table page does (`presenters.table`);
`tests/js/engine_answers.json` holds the engine's and this presenter's answers for many
games, which both the node tests and `tests/scoring/test_offline_rules.py` check, so the
phone cannot drift from the engine.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

import engine
from engine.rulesets import ExchangeTiming
from scoring.presenters.numbering import hand_title
from scoring.presenters.table import _deal_heading
from scoring.words import RED_SUITS, SUIT_SYMBOLS, call_label, short_names


def offline_rules(rules: engine.Rules) -> dict:
    """The game's rules as the phone's script reads them (static/js/offline/rules.js)."""
    ruleset, options = rules.ruleset, rules.options
    return {
        "targets": list(options.targets),
        "tricks": rules.tricks_per_hand,
        "caller": ruleset.caller_position,
        "calls": [call.name for call in ruleset.calls],
        "inverting": [call.name for call in ruleset.calls if call.inverts_points],
        "passes": ruleset.passes_per_game,
        "pass_turns": options.pass_turns,
        "each_call_once": ruleset.each_call_once,
        "exchange": ruleset.exchange.value,
        "exchange_skipped_after": [call.name for call in ruleset.exchange_skipped_after],
        "exchange_order": options.exchange_order.value,
        "hands": options.hands,
        "goal": options.goal,
        "instant_win_tricks": options.instant_win_tricks,
    }


def offline_state(state: engine.GameState) -> dict:
    """The engine's state after the live deals, as the phone's script steps on from it."""
    called: list[list[str]] = [[], [], []]
    for deal in state.deals:
        for made in deal.calls:
            if not made.call.is_pass and made.call.name not in called[made.seat]:
                called[made.seat].append(made.call.name)
    hands = state.hands
    last = hands[-1] if hands else None
    upcoming = state.next
    return {
        "deal": len(state.deals) + 1,
        "hand": len(hands) + 1,
        "dealer": upcoming.dealer if upcoming else None,
        "totals": list(state.totals),
        "passes_left": list(state.passes_left),
        "called": [sorted(names) for names in called],
        "last": None
        if last is None
        else {"points": list(last.points), "targets": list(last.targets)},
        "end": state.end,
    }


def _passes_word(count: int) -> str:
    if count == 0:
        return _("pass used")
    return ngettext("%(n)s pass left", "%(n)s passes left", count) % {"n": count}


def _transfer_word(count: int) -> str:
    """The exchange sentence for `count` cards ({giver} and {receiver} to fill in), as
    presenters.sentences.exchange_sentence words it."""
    return ngettext(
        "%(giver)s gives %(count)s card to %(receiver)s; for it, %(receiver)s returns "
        "their strongest card of that suit if it is higher, otherwise the same card.",
        "%(giver)s gives %(count)s cards to %(receiver)s; for each, %(receiver)s returns "
        "their strongest card of that suit if it is higher, otherwise the same card.",
        count,
    ) % {"giver": "{giver}", "receiver": "{receiver}", "count": count}


def offline_words(rules: engine.Rules, names: list[str]) -> dict:
    """Everything the table page says about a deal, in the active language, for the phone to
    say the same offline (static/js/offline/deal_view.js). Placeholders: {deal}, {hand},
    {n}, {giver}, {receiver}, {sum}, {total}, {name}, {count}.

    The sentences are translated once per language and rules (`_phrases`, kept in this
    process: every table of a club's evening shares them) and only the players' names are
    put in here. The parts that name nobody are shared between answers: read them, never
    change them."""
    phrases = _phrases(get_language(), rules)
    words = phrases["words"]
    exchange = phrases["exchange"]
    names = list(names)

    def each(sentence: str) -> list[str]:
        return [sentence % {"name": player} for player in names]

    def each_call(sentences: dict[str, str]) -> list[dict[str, str]]:
        return [
            {call: sentence % {"name": player} for call, sentence in sentences.items()}
            for player in names
        ]

    return {
        "names": names,
        "shorts": short_names(names),
        "heading": words["heading"],
        "hand_title": words["hand_title"],
        "calls": words["calls"],
        "made": each_call(phrases["made"]),
        "to_call": each(phrases["to_call"]),
        "passes": words["passes"],
        "exchange": {
            "first": exchange["first"],
            "skipped": each_call(phrases["skipped"]),
            **{key: exchange[key] for key in EXCHANGE_AFTER_SKIPPED},
        },
        **{key: words[key] for key in WORDS_BEFORE_ROW},
        "row": {
            "call": each_call(phrases["row_call"]),
            "redeal_one": each(phrases["redeal_one"]),
            "redeal_all": phrases["redeal_all"],
            "dealer": each(phrases["dealer"]),
            "waiting": phrases["waiting"],
        },
        "result": words["result"],
        "over": words["over"],
    }


#: offline_words' keys in the order the page has always carried them (the JSON's order).
EXCHANGE_AFTER_SKIPPED = (
    "nobody",
    "before_play",
    "before_call",
    "only_if",
    "after_call",
    "transfer",
)
WORDS_BEFORE_ROW = (
    "heading_exchange", "target", "total", "deals", "calls_first", "tricks_taken", "pad_target",
    "rest", "sum", "sum_live", "sum_fill", "keep", "change_call",
)  # fmt: skip


@lru_cache(maxsize=64)
def _phrases(language: str | None, rules: engine.Rules) -> dict:
    """offline_words' sentences in `language` (the active one, which the key only names) for
    games played by `rules`, with %(name)s where a player's name goes. Rules are frozen
    values: equal rules share an entry."""
    ruleset = rules.ruleset
    call_names = ruleset.call_names
    skipped = [call.name for call in ruleset.exchange_skipped_after]
    calls = {}
    for name in call_names:
        call = engine.call_named(name)
        calls[name] = {
            "label": call_label(name),
            "symbol": SUIT_SYMBOLS[call.trump] if call.trump else "",
            "red": call.trump in RED_SUITS,
            "is_pass": call.is_pass,
        }
    only_if = ""
    if skipped:
        only_if = _("Only if a suit is called, not after %(calls)s:") % {
            "calls": ", ".join(call_label(name) for name in skipped)
        }
    name = "%(name)s"
    return {
        "words": {
            "heading": _deal_heading("{hand}", rules.options),
            # a kept hand as the players name it, in the clash and a refusal (numbering.hand_title)
            "hand_title": {"played": hand_title("{n}"), "again": hand_title("{n}", redeal=True)},
            "calls": calls,
            "passes": {
                str(count): _passes_word(count) for count in range(ruleset.passes_per_game + 1)
            },
            "heading_exchange": _("Card exchange"),
            "target": _("target"),
            "total": _("total"),
            "deals": pgettext("badge: this player deals", "deals"),
            "calls_first": pgettext("badge: this player calls first", "calls first"),
            "tricks_taken": _("Tricks taken"),
            "pad_target": _("target %(n)s") % {"n": "{n}"},
            "rest": _("the rest, filled in"),
            "sum": _("The three add up to %(total)s.") % {"total": rules.tricks_per_hand},
            "sum_live": _("Together {sum} of {total}."),
            "sum_fill": _("{name}: filled in with {count}."),
            "keep": _("Keep this hand on the phone"),
            "change_call": _("Start the calls again"),
            "result": _("Result"),
            "over": _(
                "The game is over with the hands kept on this phone: the result shows once "
                "they are sent."
            ),
        },
        # Each with %(name)s for the player's name, filled in by offline_words.
        "made": {
            call: (
                _("%(name)s passed.") % {"name": name}
                if call == "pass"
                else _("%(name)s called %(call)s.") % {"name": name, "call": _percent(call)}
            )
            for call in call_names
        },
        "to_call": _("%(name)s calls") % {"name": name},
        "skipped": {
            call: _("%(name)s called %(call)s: no card exchange this hand.")
            % {"name": name, "call": _percent(call)}
            for call in skipped
        },
        "row_call": {
            call: _("%(call)s · %(name)s") % {"call": _percent(call), "name": name}
            for call in call_names
            if call != "pass"
        },
        "redeal_one": _("Redeal: %(name)s passed.") % {"name": name},
        "dealer": _("dealer: %(name)s") % {"name": name},
        "exchange": {
            "first": _("No card exchange in the first hand."),
            "nobody": _("No card exchange: nobody was up in the last hand."),
            "before_play": _("Before the play:"),
            "before_call": _("Before the call:")
            if ruleset.exchange is ExchangeTiming.BEFORE_CALL
            else "",
            "only_if": only_if,
            "after_call": _("After the call:"),
            "transfer": {
                str(count): _transfer_word(count) for count in range(1, rules.tricks_per_hand + 1)
            },
        },
        "redeal_all": _("Redeal: everyone passed."),
        "waiting": _("waiting to send"),
    }


def _percent(call: str) -> str:
    """A call's label inside a sentence that is %-formatted once more with the name: a % in
    the label stays a %."""
    return call_label(call).replace("%", "%%")
