"""The dashboard leads to the public pages, and prints a QR poster for the players: an
organiser has a link to what the players see."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_dashboard_links_every_public_page_and_the_poster(organiser_client, organised_event):
    slug = organised_event.slug
    body = organiser_client.get(reverse("tournaments:organise_event", args=[slug])).content.decode()
    for name in ("event", "seat", "standings", "projector", "organise_poster"):
        assert f'href="{reverse(f"tournaments:{name}", args=[slug])}"' in body, name


def test_the_poster_is_one_big_qr_of_the_public_event_page(organiser_client, organised_event):
    response = organiser_client.get(
        reverse("tournaments:organise_poster", args=[organised_event.slug])
    )
    assert response.status_code == 200
    assert "private" in response["Cache-Control"]
    body = response.content.decode()
    public = "http://testserver" + reverse("tournaments:event", args=[organised_event.slug])
    assert body.count("<svg") == 1 and 'class="segno"' in body
    assert f'<p class="poster-url">{public}</p>' in body
    assert '<h1 class="poster-title">Friday night</h1>' in body
    assert "Where do I sit? Type your name" in body


def test_only_the_events_organisers_print_its_poster(outsider_client, client, organised_event):
    url = reverse("tournaments:organise_poster", args=[organised_event.slug])
    assert outsider_client.get(url).status_code == 403
    assert client.get(url).status_code == 302  # to the login page
