"""The rules of 3-5-8 (Blato, Sergeant Major, 9-5-2): pure Python, no Django.

The one source of truth for the game. The site, the API, the Celery tasks and
`python -m engine` all ask it. Start with `Rules.build` and `Game`, or `replay` a record.
"""

from .auction import Auction, CallMade
from .calls import ALL_CALLS, Call, call_named
from .cards import Card, Suit, format_cards, parse_cards
from .errors import RuleError
from .exchange import Transfer, card_to_return, cards_to_return, transfers
from .game import Deal, Game, GameState, NextDeal, points_of
from .placings import Outcome, Reason
from .play import legal_cards, trick_winner
from .record import game_from_record, replay, state_as_json
from .rulesets import RULESETS, ExchangeOrder, Options, Rules, Ruleset, ruleset_named

__all__ = [
    "ALL_CALLS",
    "RULESETS",
    "Auction",
    "Call",
    "CallMade",
    "Card",
    "Deal",
    "ExchangeOrder",
    "Game",
    "GameState",
    "NextDeal",
    "Options",
    "Outcome",
    "Reason",
    "RuleError",
    "Rules",
    "Ruleset",
    "Suit",
    "Transfer",
    "call_named",
    "card_to_return",
    "cards_to_return",
    "format_cards",
    "game_from_record",
    "legal_cards",
    "parse_cards",
    "points_of",
    "replay",
    "ruleset_named",
    "state_as_json",
    "transfers",
    "trick_winner",
]
