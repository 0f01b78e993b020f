"""Writes to a table's game. Every change goes through here, in one transaction.

Each service locks the game row, asks the engine to replay the stored deals plus the change,
and writes only if the engine accepts; the engine's answer is copied onto the game (result,
totals, placings) and the version goes up so watchers notice. Refusals are scoring.errors
(a code and its params; the edge words them). By job: creation (a new game, its secret),
recording (deals recorded, undone, corrected), results (confirm, reopen, and the walkout
changes); base holds what they share. Callers use ``from scoring import services``.
"""

from scoring.services.base import Recorded
from scoring.services.creation import game_create, secret_matches, secret_replace
from scoring.services.own_seat import keeper_confirm_as_player, own_seat_say
from scoring.services.recording import (
    calls_make,
    deal_correct,
    deal_record,
    deal_undo,
    last_tricks_add,
)
from scoring.services.results import (
    early_placings,
    game_adjust,
    game_confirm,
    game_end_early,
    game_reopen,
    game_void,
    seat_substitute,
)
from scoring.services.verdicts import (
    claim_reset,
    holder_digest,
    needs_proof,
    person_holder,
    quorum_met,
    result_agree,
    result_dispute,
    seat_claim,
    seat_vouch,
    still_to_confirm,
    waiting_for,
)

__all__ = [
    "Recorded",
    "calls_make",
    "claim_reset",
    "deal_correct",
    "deal_record",
    "deal_undo",
    "early_placings",
    "game_adjust",
    "game_confirm",
    "game_create",
    "game_end_early",
    "game_reopen",
    "game_void",
    "holder_digest",
    "keeper_confirm_as_player",
    "last_tricks_add",
    "needs_proof",
    "own_seat_say",
    "person_holder",
    "quorum_met",
    "result_agree",
    "result_dispute",
    "secret_matches",
    "secret_replace",
    "seat_claim",
    "seat_substitute",
    "seat_vouch",
    "still_to_confirm",
    "waiting_for",
]
