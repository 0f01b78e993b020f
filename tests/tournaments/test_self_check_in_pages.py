""" "I'm here" on the players' phones and the organiser's side of self check-in: the search as
on "Where do I sit?", the personal code or the phone's identity as proof, one phone for one
person, refusals (closed, another's phone, withdrawn, a wrong code), the newcomers' requests,
the door poster, the players page's arrivals and the token API."""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.common import tokens
from tournaments.events.selectors.identity import identity_cookie, identity_value
from tournaments.events.services import check_in
from tournaments.events.services.registration import entry_withdraw, players_register
from tournaments.models import Entry, EventLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def door(organised_event, organiser):
    players_register(
        event=organised_event, names=["Ana Petrova", "Борис Иванов", "Vera"], by=organiser
    )
    check_in.self_check_in_set(event=organised_event, open=True, actor="olga")
    organised_event.refresh_from_db()
    return organised_event


def entry(event, name) -> Entry:
    return Entry.objects.select_related("player").get(event=event, player__name=name)


def text(response) -> str:
    return html.unescape(response.content.decode())


def here(event) -> str:
    return reverse("tournaments:check_in_here", args=[event.slug])


def post_url(event) -> str:
    return reverse("tournaments:check_in_here_post", args=[event.slug])


def test_a_player_finds_their_name_in_latin_letters_and_checks_in_with_their_code(door):
    phone = Client()
    boris = entry(door, "Борис Иванов")
    page = phone.get(here(door), {"name": "boris ivanov"})
    assert page.status_code == 200
    assert "I'm here: check in Борис Иванов" in text(page)
    assert page["Cache-Control"].count("no-store")

    answer = phone.post(post_url(door), {"player": boris.player_id, "code": boris.code})
    assert answer.status_code == 302
    boris.refresh_from_db()
    assert boris.checked_in and boris.checked_in_by == "phone"
    assert phone.cookies[identity_cookie(door)].value == identity_value(boris)  # proven now
    again = phone.get(here(door))
    assert "You are checked in." in text(again) and "Борис Иванов" in text(again)
    assert EventLog.objects.filter(event=door, action="self_checked_in").count() == 1


def test_a_part_of_a_name_offers_the_names_it_may_mean(door):
    players_register(event=door, names=["Ana Ivanova"])
    page = text(Client().get(here(door), {"name": "ana"}))
    assert "Which one are you?" in page
    assert "Ana Petrova" in page and "Ana Ivanova" in page


def test_a_remembered_phone_checks_in_with_one_tap(door):
    ana = entry(door, "Ana Petrova")
    phone = Client()
    phone.cookies[identity_cookie(door)] = identity_value(ana)
    page = text(phone.get(here(door)))
    assert "I'm here: check in Ana Petrova" in page
    assert phone.post(post_url(door), {"player": ana.player_id}).status_code == 302
    assert entry(door, "Ana Petrova").checked_in


def test_a_phone_proven_as_one_player_cannot_check_in_another(door):
    ana, vera = entry(door, "Ana Petrova"), entry(door, "Vera")
    phone = Client()
    phone.cookies[identity_cookie(door)] = identity_value(ana)
    page = text(phone.get(here(door), {"name": "Vera"}))
    assert "This phone is Ana Petrova's: one phone checks in one person." in page
    refused = phone.post(post_url(door), {"player": vera.player_id, "code": vera.code})
    assert refused.status_code == 403
    assert "one phone checks in one person" in text(refused)
    assert not entry(door, "Vera").checked_in


def test_a_phone_that_checked_someone_in_checks_in_no_one_else(door):
    ana, vera = entry(door, "Ana Petrova"), entry(door, "Vera")
    phone = Client()
    phone.post(post_url(door), {"player": ana.player_id, "code": ana.code})
    del phone.cookies[identity_cookie(door)]  # "Not you?" on the seat page
    refused = phone.post(post_url(door), {"player": vera.player_id, "code": vera.code})
    assert refused.status_code == 403
    assert not entry(door, "Vera").checked_in


def test_a_wrong_code_is_refused_and_counted(door):
    vera = entry(door, "Vera")
    wrong = "0" * 8 if vera.code != "0" * 8 else "1" * 8
    refused = Client().post(post_url(door), {"player": vera.player_id, "code": wrong})
    assert refused.status_code == 403
    assert "not Vera's personal code" in text(refused)
    assert not entry(door, "Vera").checked_in


def test_closed_self_check_in_is_said_and_refused(door):
    check_in.self_check_in_set(event=door, open=False)
    vera = entry(door, "Vera")
    page = text(Client().get(here(door)))
    assert "Self check-in is not open now: check in with the organiser." in page
    refused = Client().post(post_url(door), {"player": vera.player_id, "code": vera.code})
    assert refused.status_code == 409
    assert not entry(door, "Vera").checked_in


def test_a_withdrawn_player_is_not_found_and_not_checked_in(door):
    vera = entry(door, "Vera")
    entry_withdraw(entry=vera, actor="olga")
    page = text(Client().get(here(door), {"name": "Vera"}))
    assert "No player of this event is called “Vera”" in page
    phone = Client()
    phone.cookies[identity_cookie(door)] = identity_value(vera)
    refused = phone.post(post_url(door), {"player": vera.player_id})
    assert refused.status_code == 409
    assert not entry(door, "Vera").checked_in


def test_a_newcomer_asks_and_the_organiser_accepts_with_one_tap(door, organiser_client):
    phone = Client()
    page = text(phone.get(here(door), {"name": "Dimitar"}))
    assert "No player of this event is called “Dimitar”" in page
    asked = phone.post(reverse("tournaments:check_in_ask", args=[door.slug]), {"name": "Dimitar"})
    assert asked.status_code == 200
    assert "the organiser will enter you as “Dimitar”" in text(asked)

    players = organiser_client.get(reverse("tournaments:organise_players", args=[door.slug]))
    assert "Asking to be entered" in text(players) and "Dimitar" in text(players)
    request = door.newcomers.get()
    accept = reverse("tournaments:organise_newcomer_accept", args=[door.slug, request.pk])
    assert organiser_client.post(accept).status_code == 302
    dimitar = entry(door, "Dimitar")
    assert dimitar.checked_in and dimitar.checked_in_by == "organiser"
    assert organiser_client.post(accept).status_code == 404  # answered already


def test_the_newcomers_own_phone_is_proven_as_them_once_accepted(door, organiser_client):
    """The phone that asked waits on the page (it reloads itself); once the organiser accepts,
    its next load proves it as the newcomer: checked in, "My next seat" knows them."""
    phone = Client()
    asked = phone.post(reverse("tournaments:check_in_ask", args=[door.slug]), {"name": "Dimitar"})
    refresh = f'http-equiv="refresh" content="15;url={here(door)}"'
    assert refresh in asked.content.decode()
    waiting = text(phone.get(here(door)))
    assert "the organiser will enter you as “Dimitar”" in waiting and refresh in waiting

    request = door.newcomers.get()
    accept = reverse("tournaments:organise_newcomer_accept", args=[door.slug, request.pk])
    assert organiser_client.post(accept).status_code == 302
    assert door.newcomers.filter(entry__isnull=True).count() == 0  # nothing waits any more
    dimitar = entry(door, "Dimitar")

    back = phone.get(here(door))
    assert "this phone now speaks for you" in text(back) and "You are checked in." in text(back)
    assert phone.cookies[identity_cookie(door)].value == identity_value(dimitar)
    assert not door.newcomers.exists()  # collected: once
    nxt = phone.get(reverse("tournaments:next_seat", args=[door.slug]))
    assert "Dimitar" in text(nxt)
    again = text(phone.get(here(door)))
    assert "You are checked in." in again and "now speaks for you" not in again


def test_only_the_phone_that_asked_collects_the_newcomer(door, organiser_client):
    phone, other = Client(), Client()
    phone.post(reverse("tournaments:check_in_ask", args=[door.slug]), {"name": "Dimitar"})
    request = door.newcomers.get()
    forged = other.cookies
    forged[f"asked-{door.pk}"] = str(request.pk)  # unsigned: not the asking phone's cookie
    check_in.newcomer_accept(request=request, actor="olga")
    page = text(other.get(here(door)))
    assert "now speaks for you" not in page
    assert (
        identity_cookie(door) not in other.cookies or not other.cookies[identity_cookie(door)].value
    )
    assert door.newcomers.filter(entry__isnull=False).exists()  # still the asking phone's


def test_a_renewed_code_ends_a_newcomers_phone_not_back_yet(door, organiser_client):
    from tournaments.events.services.identity import code_renew

    phone = Client()
    phone.post(reverse("tournaments:check_in_ask", args=[door.slug]), {"name": "Dimitar"})
    dimitar = check_in.newcomer_accept(request=door.newcomers.get(), actor="olga")
    code_renew(entry=dimitar, actor="olga")
    page = text(phone.get(here(door)))
    assert "no longer waiting" in page and "now speaks for you" not in page


def test_a_declined_newcomers_phone_is_told_and_asks_no_more(door, organiser_client):
    phone = Client()
    phone.post(reverse("tournaments:check_in_ask", args=[door.slug]), {"name": "Joke"})
    check_in.newcomer_decline(request=door.newcomers.get(), actor="olga")
    page = phone.get(here(door))
    assert "no longer waiting" in text(page) and "http-equiv" not in page.content.decode()
    assert phone.cookies[f"asked-{door.pk}"].value == ""  # forgotten


def test_the_organiser_declines_with_htmx_and_gets_the_arrivals_back(door, organiser_client):
    request = check_in.newcomer_ask(event=door, name="Joke", address="10.0.0.1")
    decline = reverse("tournaments:organise_newcomer_decline", args=[door.slug, request.pk])
    answer = organiser_client.post(decline, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    part = text(answer)
    assert 'id="arrivals"' in part and "Joke" not in part
    assert 'id="counts" data-hx-swap-oob="true"' in part
    assert not door.newcomers.exists()


def test_a_newcomer_flood_is_refused(door):
    phone = Client(REMOTE_ADDR="10.9.9.9")
    ask = reverse("tournaments:check_in_ask", args=[door.slug])
    for n in range(check_in.ADDRESS_REQUESTS_ALLOWED):
        assert phone.post(ask, {"name": f"Newcomer {n}"}).status_code == 200
    assert phone.post(ask, {"name": "One too many"}).status_code == 429
    assert door.newcomers.count() == check_in.ADDRESS_REQUESTS_ALLOWED


def test_the_players_page_shows_how_each_checked_in_and_polls_while_open(door, organiser_client):
    ana = entry(door, "Ana Petrova")
    check_in.self_check_in(event=door, entry=ana, proven=ana)
    url = reverse("tournaments:organise_players", args=[door.slug])
    page = text(organiser_client.get(url))
    assert "Checked in from their phone at" in page
    assert "Undo check-in" in page
    assert "Not checked in yet (2)" in page
    assert reverse("tournaments:organise_arrivals", args=[door.slug]) in page  # polled

    part = organiser_client.get(
        reverse("tournaments:organise_arrivals", args=[door.slug]), HTTP_HX_REQUEST="true"
    )
    assert "1 checked in from a phone." in text(part)
    undo = reverse("tournaments:organise_check_in", args=[door.slug, ana.pk])
    organiser_client.post(undo, {"checked_in": "0"})
    assert not entry(door, "Ana Petrova").checked_in
    assert EventLog.objects.filter(event=door, action="check_in_undone").exists()


def test_the_organiser_opens_and_closes_self_check_in(organised_event, organiser_client):
    url = reverse("tournaments:organise_self_check_in", args=[organised_event.slug])
    organiser_client.post(url, {"open": "1"})
    organised_event.refresh_from_db()
    assert organised_event.self_check_in
    page = text(
        organiser_client.get(reverse("tournaments:organise_players", args=[organised_event.slug]))
    )
    assert "Close self check-in" in page and "Print the door poster" in page
    organiser_client.post(url, {"open": "0"})
    organised_event.refresh_from_db()
    assert not organised_event.self_check_in


def test_the_door_poster_has_the_qr_of_im_here(door, organiser_client):
    page = organiser_client.get(reverse("tournaments:organise_door_poster", args=[door.slug]))
    assert page.status_code == 200
    body = text(page)
    assert "<svg" in body and "http://testserver" + here(door) in body


def test_the_token_api_opens_self_check_in_and_answers_newcomers(door, organiser):
    token = tokens.token_issue(user=organiser)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")

    def post(path):
        return api.post(f"/api/events/{door.slug}/{path}", "{}", content_type="application/json")

    assert post("self-check-in/close").json() == {"event": door.slug, "self_check_in": False}
    assert post("self-check-in/open").json()["self_check_in"] is True
    first = check_in.newcomer_ask(event=door, name="Dimitar", address="10.0.0.1")
    second = check_in.newcomer_ask(event=door, name="Elena", address="10.0.0.2")
    listed = api.get(f"/api/events/{door.slug}/newcomers").json()["newcomers"]
    assert [row["name"] for row in listed] == ["Dimitar", "Elena"]
    accepted = post(f"newcomers/{first.pk}/accept")
    assert accepted.status_code == 200
    assert accepted.json()["name"] == "Dimitar" and accepted.json()["status"] == "checked_in"
    declined = post(f"newcomers/{second.pk}/decline")
    assert declined.json() == {"newcomers": []}
    gone = post(f"newcomers/{second.pk}/decline")
    assert gone.status_code == 404 and json.loads(gone.content)


def test_the_event_page_leads_to_im_here_while_self_check_in_is_open(door):
    home = reverse("tournaments:event", args=[door.slug])
    assert here(door) in text(Client().get(home))
    check_in.self_check_in_set(event=door, open=False)
    assert here(door) not in text(Client().get(home))


def test_the_polled_arrivals_bring_the_rows_of_those_who_checked_in_since(door, organiser_client):
    """The players page's list shows who checked in from a phone without a reload: the polled
    arrivals carry, out of band, the row of each player checked in since the page (or the
    last poll) was shown, and only those; the next poll asks from its own time."""
    page = text(organiser_client.get(reverse("tournaments:organise_players", args=[door.slug])))
    polled = re.search(r'data-hx-get="([^"]*/arrivals/\?since=[^"]+)"', page).group(1)
    ana, vera = entry(door, "Ana Petrova"), entry(door, "Vera")
    check_in.self_check_in(event=door, entry=ana, proven=ana)

    part = text(organiser_client.get(polled, HTTP_HX_REQUEST="true"))
    rows = re.findall(r'<li id="entry-(\d+)"[^>]*data-hx-swap-oob="true"', part)
    assert rows == [str(ana.pk)]
    assert "Checked in from their phone at" in part and str(vera.pk) not in rows
    later = re.search(r'data-hx-get="([^"]*/arrivals/\?since=[^"]+)"', part).group(1)
    assert later != polled
    Entry.objects.filter(pk=ana.pk).update(
        checked_in_at=timezone.now() - timedelta(minutes=1)
    )  # checked in before the last poll: not sent again
    again = text(organiser_client.get(later, HTTP_HX_REQUEST="true"))
    assert 'data-hx-swap-oob="true"' not in again.replace('id="counts" data-hx-swap-oob', "")
    nonsense = reverse("tournaments:organise_arrivals", args=[door.slug]) + "?since=soon"
    assert organiser_client.get(nonsense, HTTP_HX_REQUEST="true").status_code == 200
