"""A count on a Bulgarian page agrees with its number (docs/glossary.md, "Counts"): one player
who withdrew "се отказа", three "се отказаха"; one repeated line is "ред 4", not "редове 4".
And a withdrawn player's badge fits a woman as well as a man."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.events.services.registration import entry_withdraw, players_register
from tournaments.models import Entry

from .conftest import register

pytestmark = pytest.mark.django_db


def _players_page(client, event) -> str:
    url = reverse("tournaments:organise_players", args=[event.slug])
    return client.get(url, HTTP_ACCEPT_LANGUAGE="bg").content.decode()


def test_the_counts_agree_with_one_and_with_many(organiser_client, organised_event):
    players_register(event=organised_event, names=["Мария Димитрова"], checked_in=True)
    register(organised_event, 1, checked_in=True)
    register(organised_event, 2, checked_in=False, start=2)
    maria = Entry.objects.get(event=organised_event, player__name="Мария Димитрова")
    entry_withdraw(entry=maria, actor="olga")

    page = _players_page(organiser_client, organised_event)
    assert "4 записани · 1 присъства · 1 се отказа" in page
    assert "отказал" not in page and "отказали се" not in page

    for entry in Entry.objects.filter(event=organised_event).exclude(pk=maria.pk):
        entry_withdraw(entry=entry, actor="olga")
    page = _players_page(organiser_client, organised_event)
    assert "4 записани · 0 присъстват · 4 се отказаха" in page


def test_one_repeated_line_is_one_line(organiser_client, organised_event):
    url = reverse("tournaments:organise_players_paste", args=[organised_event.slug])
    response = organiser_client.post(
        url, {"names": "Ана\nБорис\nВера\nана\n"}, HTTP_ACCEPT_LANGUAGE="bg"
    )
    page = organiser_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="bg").content.decode()
    assert "Повтореното име е пропуснато (ред 4)." in page

    response = organiser_client.post(
        url, {"names": "Гошо\nгошо\nГОШО\n"}, HTTP_ACCEPT_LANGUAGE="bg"
    )
    page = organiser_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="bg").content.decode()
    assert "Повторените имена са пропуснати (редове 2, 3)." in page
