"""The scoring app's errors: a code and its params, by kind; nothing about HTTP or language.

Services raise them (``Conflict("deal_not_next", n=3, next=4)``); the edge words them:
``error.message`` renders scoring/messages.py in the language active when it is read, and
``kind`` is what config/api.py turns into a status (invalid, rejected → 400; conflict → 409;
pages answer the same status). A refusal by the rules engine (code ``rules_refuse``) keeps the
engine's RuleError on ``error.rule``: its ``message`` is the engine's own English sentence,
which the API's contract promises (with ``rule.deal``); pages word ``error.rule`` in their
language instead (scoring.rule_words.refusal).
"""

from __future__ import annotations

import engine
from scoring import messages

#: The code of every refusal by the rules engine: its words are the engine's (``rule``).
RULES_REFUSE = "rules_refuse"


class ScoringError(Exception):
    """A refusal of a scoring service."""

    kind = "invalid"

    def __init__(self, code: str, *, rule: engine.RuleError | None = None, **params: object):
        if code not in messages.MESSAGES and not (code == RULES_REFUSE and rule is not None):
            raise ValueError(f"no message for the scoring error code {code!r}")
        super().__init__(code)
        self.code = code
        self.params = params
        #: The engine's RuleError behind this refusal, if any.
        self.rule = rule

    @property
    def message(self) -> str:
        """The catalogue's text in the active language; the engine's sentence for its refusal."""
        if self.rule is not None:
            return self.rule.message
        return messages.render(self.code, self.params)

    def __str__(self) -> str:
        return self.message


class InvalidInput(ScoringError):
    """The request itself is malformed (not a rules question)."""

    kind = "invalid"


class DealRejected(ScoringError):
    """The rules engine refuses the deal; `rule` says why."""

    kind = "rejected"


class Conflict(ScoringError):
    """The game has moved on: the number is taken, not next, or the result is locked."""

    kind = "conflict"


def rules_refuse(error: engine.RuleError, kind: type[ScoringError] = DealRejected) -> ScoringError:
    """The engine's refusal as a scoring error of this kind."""
    return kind(RULES_REFUSE, rule=error)


def names_alike(first: str, second: str) -> InvalidInput:
    """Two names at one table that the sheet could not tell apart (scoring.names decides
    which): the same text twice, or two spellings of one name."""
    if first == second:
        return InvalidInput("name_twice", name=first)
    return InvalidInput("names_same", first=first, second=second)
