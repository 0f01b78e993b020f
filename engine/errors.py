"""The one error the engine raises for bad input.

Every rejection carries the 1-based index of the offending deal (or None when the
record as a whole is at fault), so the command line, the API and the pages can all
point at the same place.
"""


class RuleError(ValueError):
    """Input that the rules (or the record format) do not allow."""

    def __init__(self, message: str, deal: int | None = None):
        super().__init__(message)
        self.message = message
        self.deal = deal

    def at_deal(self, deal: int) -> "RuleError":
        """The same error, pinned to a deal (keeps a deal already set)."""
        return self if self.deal is not None else RuleError(self.message, deal)

    def as_json(self) -> dict:
        return {"error": {"deal": self.deal, "message": self.message}}


def shown(value: object, limit: int = 60) -> str:
    """A value as the JSON its sender wrote, shortened: for error messages."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
