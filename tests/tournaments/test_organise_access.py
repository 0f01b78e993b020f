"""Who may open the organiser pages: anonymous visitors are sent to log in, a logged-in user
who does not organise THIS event gets a 403 (and learns no secret), an organiser and a
superuser get in. Every page and every write is checked, GET and POST."""

import pytest
from django.urls import reverse

from tournaments.events.services.event import event_create

from .conftest import register

pytestmark = pytest.mark.django_db

# (url name, extra args after the slug, method)
EVENT_PAGES = [
    ("organise_event", [], "get"),
    ("organise_settings", [], "get"),
    ("organise_settings", [], "post"),
    ("organise_organiser_add", [], "post"),
    ("organise_log", [], "get"),
    ("organise_players", [], "get"),
    ("organise_player_add", [], "post"),
    ("organise_players_paste", [], "post"),
    ("organise_check_in_all", [], "post"),
    ("organise_check_in", ["entry"], "post"),
    ("organise_withdraw", ["entry"], "post"),
    ("organise_round_create", [], "post"),
    ("organise_round", [1], "get"),
    ("organise_round_retry", [1], "post"),
    ("organise_round_swap", [1], "post"),
    ("organise_round_publish", [1], "post"),
    ("organise_round_close", [1], "post"),
    ("organise_result_confirm", [1, 1], "post"),
    ("organise_result_reopen", [1, 1], "post"),
    ("organise_print_cards", [1], "get"),
    ("organise_print_sheets", [1], "get"),
    ("organise_print_pairings", [1], "get"),
    ("organise_export", ["standings", "csv"], "get"),
    ("organise_export", ["pairings", "xlsx"], "get"),
    ("organise_export", ["hands", "json"], "get"),
]


@pytest.fixture
def running(organised_event, build_round):
    entries = register(organised_event, 7)
    build_round(organised_event, publish=True)
    return organised_event, entries[0]


def _url(event, entry, name, extra):
    args = [entry.pk if arg == "entry" else arg for arg in extra]
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def _call(client, method, url):
    return client.get(url) if method == "get" else client.post(url, {})


@pytest.mark.parametrize(("name", "extra", "method"), EVENT_PAGES)
def test_only_this_events_organisers_and_superusers_get_in(
    client,
    outsider_client,
    organiser_client,
    superuser_client,
    django_user_model,
    running,
    name,
    extra,
    method,
):
    event, entry = running
    otto = django_user_model.objects.get(username="otto")
    event_create(club=event.club, name="Otto's own", organisers=[otto])
    url = _url(event, entry, name, extra)
    secrets = [t.game.secret for t in event.rounds.get(number=1).tables.select_related("game")]

    response = _call(client, method, url)  # anonymous: log in first
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")

    response = _call(outsider_client, method, url)  # organises another event, not this one
    assert response.status_code == 403
    body = response.content.decode()
    assert "Not your event" in body and not any(secret in body for secret in secrets)
    assert event.log.filter(actor="otto").count() == 0

    for insider in (superuser_client, organiser_client):
        response = _call(insider, method, url)
        assert response.status_code not in (403, 404, 500)
        if response.status_code == 302:
            assert not response["Location"].startswith(reverse("login"))


def test_the_home_page_and_new_event_need_a_login(client, organiser_client):
    for name in ("organise_home", "organise_event_new"):
        response = client.get(reverse(f"tournaments:{name}"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
        assert organiser_client.get(reverse(f"tournaments:{name}")).status_code == 200
    assert (
        client.post(reverse("tournaments:organise_club_create"), {"name": "X"}).status_code == 302
    )


def test_an_unknown_event_is_404_for_the_logged_in(organiser_client):
    response = organiser_client.get(reverse("tournaments:organise_event", args=["no-such"]))
    assert response.status_code == 404


def test_writes_are_posts_with_csrf(running, organiser):
    from django.test import Client

    event, entry = running
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    url = reverse("tournaments:organise_check_in", args=[event.slug, entry.pk])
    assert client.post(url, {"checked_in": "0"}).status_code == 403
    assert client.get(url).status_code == 405
    entry.refresh_from_db()
    assert entry.checked_in


def test_organiser_pages_are_private(organiser_client, running):
    event, _entry = running
    response = organiser_client.get(reverse("tournaments:organise_event", args=[event.slug]))
    assert "private" in response["Cache-Control"]


def test_the_login_page_and_logging_out(client, make_user):
    from .conftest import PASSWORD

    make_user("vera", password=PASSWORD)
    body = client.get(reverse("login")).content.decode()
    assert '<label for="id_username">' in body and '<label for="id_password">' in body
    response = client.post(reverse("login"), {"username": "vera", "password": "wrong"})
    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()
    next_url = reverse("tournaments:organise_home")
    response = client.post(
        reverse("login"), {"username": "vera", "password": PASSWORD, "next": next_url}
    )
    assert response.status_code == 302 and response["Location"] == next_url
    body = client.get(next_url).content.decode()
    assert f'action="{reverse("logout")}"' in body and "vera" in body
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(next_url).status_code == 302
