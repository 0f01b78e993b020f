"""The organiser pages' one way from a posted form to a service and back.

Every organiser write goes the same way: the form must hold; then the service is called with
the form's data (and what the page fixes: the event, the table, the actor); a refusal (a
domain error of either app) is put on the form and worded in the reader's language, with the
status its kind answers (config.api.KIND_STATUS, the one map, also the API's). The view then
shows the page again with the form, or goes on. `submit` does the middle part; the views keep
what differs (which page, which message).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django import forms

from config.api import KIND_STATUS
from scoring.errors import ScoringError
from scoring.rule_words import refusal
from tournaments.common.errors import TournamentError

#: What a service may refuse with: the organiser pages word both apps' errors.
REFUSALS = (TournamentError, ScoringError)


def refusal_status(error: Exception) -> int:
    """The status a page answers a refusal with: the same as the API's for its kind."""
    return KIND_STATUS.get(getattr(error, "kind", None), 400)


@dataclass(frozen=True)
class Outcome:
    """What came of a submitted form: the service's result, or why not (`status` ≥ 400 and,
    for a refusal, its words in `error`; an invalid form has its own errors)."""

    result: object = None
    status: int = 200
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status < 400

    @property
    def invalid(self) -> bool:
        """The form did not hold (the service was not called)."""
        return self.status == 400 and not self.error


def submit(
    form: forms.Form | None,
    service: Callable[..., object],
    /,
    *,
    data: Callable[[], dict] | None = None,
    error_field: str | None = None,
    **fixed,
) -> Outcome:
    """Call `service(**fixed, **data)` if `form` holds (no form: nothing to check, no data).

    `data` gives the service's arguments from the form (default: its cleaned data, whose
    field names are the service's). A refusal is added to the form (on `error_field`, or
    above the fields) and returned worded, with its status.
    """
    values: dict = {}
    if form is not None:
        if not form.is_valid():
            return Outcome(status=400)
        values = data() if data is not None else dict(form.cleaned_data)
    try:
        result = service(**fixed, **values)
    except REFUSALS as error:
        message = refusal(error)  # an engine refusal behind it: worded by its code
        if form is not None:
            form.add_error(error_field, message)
        return Outcome(status=refusal_status(error), error=message)
    return Outcome(result)
