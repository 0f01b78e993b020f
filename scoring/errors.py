"""The scoring app's own errors; views turn them into messages or JSON (status codes here)."""


class ScoringError(Exception):
    status = 400

    def __init__(self, message: str, *, rule=None):
        super().__init__(message)
        self.message = message
        #: The engine's RuleError behind this refusal, if any: pages word it in their own
        #: language (scoring.rule_words), the API answers its message and deal.
        self.rule = rule


class InvalidInput(ScoringError):
    """The request itself is malformed (not a rules question)."""


class DealRejected(ScoringError):
    """The rules engine refuses the deal; its message says why."""


class Conflict(ScoringError):
    """The game has moved on: the number is taken, not next, or the result is locked."""

    status = 409
