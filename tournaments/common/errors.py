"""The tournaments app's refusals: a code and plain params, worded only when read.

A service raises ``NotAllowed("round_draft", n=2)``: the code names the refusal and the
params are plain values (numbers, names), nothing else. No HTTP and no gettext here: the
words live in one catalogue, tournaments.common.messages, and `message` renders them in the
language active when it is read, so the edge (a page, the API) decides the language and
config.api turns `kind` into a status.
"""

from __future__ import annotations


class TournamentError(Exception):
    """Input a service cannot take (the API answers 400)."""

    kind = "invalid"

    def __init__(self, code: str, /, **params):
        super().__init__(code)
        self.code = code
        self.params = params

    @property
    def message(self) -> str:
        """The refusal in the active language (tournaments.common.messages)."""
        # the catalogue needs Django's gettext; errors do not
        from tournaments.common.messages import render

        return render(self.code, self.params)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, **{self.params!r})"


class NotAllowed(TournamentError):
    """The round or event is not in a state that allows this (the API answers 409)."""

    kind = "not_allowed"


class Forbidden(TournamentError):
    """The acting account does not run the club or event this touches
    (tournaments.common.permissions): the API answers 403, the pages a 403 too."""

    kind = "forbidden"


class RulesRefused(TournamentError):
    """The rules engine refuses an event's game options; `rule` is its RuleError, which pages
    may word in their language and the API answers in the engine's English."""

    def __init__(self, rule):
        super().__init__("rules_refused", why=str(rule.message))
        self.rule = rule


class ScoringRefused(TournamentError):
    """A scoring service refused a table's change (rounds.services.walkouts): the scoring error
    is kept as `cause` and words the refusal (and `rule`, an engine refusal behind it).
    Made by `scoring_refusal`, which keeps a conflict a conflict (ScoringConflict)."""

    def __init__(self, cause: Exception):
        super().__init__("scoring_refused", scoring=getattr(cause, "code", ""))
        self.cause = cause
        self.rule = getattr(cause, "rule", None)

    @property
    def message(self) -> str:
        return str(self.cause.message)


class ScoringConflict(ScoringRefused, NotAllowed):
    """The game has moved on (scoring's Conflict): the state does not allow this (409)."""

    kind = "not_allowed"


def scoring_refusal(cause: Exception) -> ScoringRefused:
    """This app's error for a scoring error: a conflict stays one, anything else is invalid."""
    kind = getattr(cause, "kind", None)
    if kind is None:  # a scoring error without a kind yet: its status says it
        kind = "conflict" if getattr(cause, "status", 400) == 409 else "invalid"
    return ScoringConflict(cause) if kind == "conflict" else ScoringRefused(cause)
