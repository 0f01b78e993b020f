"""Enter your table: the table number and PIN from the table card, for a phone whose camera
won't scan the keeper's QR code. A right pair grants keeping the table's game, exactly as the
keeper link does (scoring.web.keeper.keep_grant), and goes to the keeper's page; the checking and
its throttle are tournaments.rounds.services.pins'. A plain POST form: no JavaScript needed."""

from __future__ import annotations

from django import forms
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from config.client_ip import client_address
from config.forms import Form
from scoring.web.keeper import keep_grant
from tournaments.common.errors import TournamentError
from tournaments.common.selectors import event_by_slug
from tournaments.common.web.public import MAX_ROUND, PAGES, no_such_event, query_id
from tournaments.models import Event
from tournaments.rounds.services import pins

PAGE = PAGES + "table_pin.html"

_NUMBER = {"inputmode": "numeric", "autocomplete": "off", "class": "pin-input"}


class TablePinForm(Form):
    table = forms.IntegerField(
        label=_("Table number"),
        min_value=1,
        max_value=MAX_ROUND,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    pin = forms.CharField(
        label=_("PIN"),
        max_length=20,
        widget=forms.TextInput(attrs={**_NUMBER, "pattern": "[0-9 -]*", "spellcheck": "false"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pin"].help_text = gettext(
            "The %(n)s digits after “PIN” on the table card."
        ) % {"n": pins.PIN_LENGTH}


def _page(request, event: Event, form: TablePinForm, status: int = 200, error: str = ""):
    context = {"event": event, "form": form, "error": error, "pin_length": pins.PIN_LENGTH}
    response = render(request, PAGE, context, status=status)
    add_never_cache_headers(response)
    return response


def _status(error: TournamentError) -> int:
    if isinstance(error, pins.PinBlocked):
        return 429
    if isinstance(error, pins.PinWrong):
        return 403
    return 409


@require_http_methods(["GET", "POST"])
def table_pin(request, slug: str):
    """GET: the form (the table number may come from ?table=); POST: check, grant, go."""
    try:
        event = event_by_slug(slug)
    except Event.DoesNotExist:
        return no_such_event(request)
    if request.method == "GET":
        table = query_id(request.GET.get("table"))
        return _page(request, event, TablePinForm(initial={"table": table}))
    form = TablePinForm(request.POST)
    if not form.is_valid():
        return _page(request, event, form, status=400)
    entry = pins.PinEntry.typed(form.cleaned_data["table"], form.cleaned_data["pin"])
    try:
        table = pins.pin_check(client_address(request), event, entry)
    except TournamentError as error:
        return _page(request, event, form, status=_status(error), error=error.message)
    keep_grant(request, table.game)
    return redirect("scoring:table", game_id=table.game_id)
