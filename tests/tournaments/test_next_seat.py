"""My next seat: the page a player's own phone keeps open (tournaments.rounds.views.public_next,
presenters.next_seat): its seat once a round is published, its last result and standing
between rounds, a phone that proved nobody asked who it is, a withdrawn player, and the
version the page polls: the same few bytes for every phone, a 304 that reads no database
while nothing changed, another version once a round is published."""

import html
import random

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import finish_game
from tournaments.events.selectors.identity import identity_cookie, identity_value
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import entry_withdraw, players_register
from tournaments.models import Entry
from tournaments.results.selectors import phone_state, standings_places
from tournaments.results.services import result_confirm, standings_build
from tournaments.rounds.presenters.next_seat import next_seat
from tournaments.rounds.presenters.seat import seat_map
from tournaments.rounds.services.rounds import round_close, round_create, round_publish
from tournaments.rounds.web import forget_phone_version, kept_phone_version, phone_version

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Boris", "Vera", "Dimitar", "Elena", "Filip"]


@pytest.fixture
def event(django_capture_on_commit_callbacks):
    """Six players entered and checked in; round 1 paired as a draft, not yet published."""
    event = event_create(club=club_create(name="Club"), name="Night", seed=3)
    players_register(event=event, names=NAMES, checked_in=True)
    with django_capture_on_commit_callbacks(execute=True):
        round_create(event=event)
    cache.clear()
    return event


def entry(event, name: str) -> Entry:
    return Entry.objects.select_related("player").get(event=event, player__name=name)


def phone(event, name: str) -> Client:
    client = Client()
    client.cookies[identity_cookie(event)] = identity_value(entry(event, name))
    return client


def publish(event, number: int = 1):
    round_ = event.rounds.get(number=number)
    round_publish(round_=round_, actor="olga")
    forget_phone_version(event.slug)
    return round_


def page(client: Client, event, name: str = "next_seat"):
    return client.get(reverse(f"tournaments:{name}", args=[event.slug]))


def text(response) -> str:
    return html.unescape(response.content.decode())


def play_round(event, round_) -> None:
    """Every table's game finished and confirmed, the standings built, the round closed."""
    rng = random.Random(5)
    for table in round_.tables.select_related("game"):
        finish_game(table.game, rng)
        result_confirm(table=table, actor="olga")
    standings_build(event_id=event.pk)
    round_close(round_=round_, actor="olga")
    forget_phone_version(event.slug)


# --- the page ---------------------------------------------------------------------------------


def test_a_phone_that_proved_nobody_is_asked_who_it_is(event):
    response = page(Client(), event)
    assert response.status_code == 200
    body = text(response)
    assert "Who are you?" in body
    assert reverse("tournaments:seat", args=[event.slug]) in body
    assert 'id="next-seat"' not in body  # nothing to poll
    assert "next_seat_page.js" not in body
    # A forged cookie proves nobody either.
    forged = Client()
    forged.cookies[identity_cookie(event)] = f"{entry(event, 'Ana').pk}.0000"
    assert "Who are you?" in text(page(forged, event))


def test_before_any_round_the_phone_waits_with_the_poll_in_place(event):
    response = page(phone(event, "Ana"), event)
    body = text(response)
    assert "No round is published yet" in body
    poll = reverse("tournaments:next_seat_version", args=[event.slug])
    assert f'data-version-url="{poll}"' in body
    assert "next_seat_page.js" in body
    # The ask is held at the door until the version moves (config.door, config.parking),
    # 25 s at most; where the server holds nothing, a plain poll every 12 s.
    assert 'data-wait-seconds="25"' in body
    assert 'data-poll-seconds="12"' in body
    # ... and at the standings' pace while the player's own game is played (next_seat.js).
    assert 'data-playing-poll-seconds="15"' in body
    # Inside <noscript>: no JavaScript, no poll; a whole page every 10 s.
    assert '<meta http-equiv="refresh" content="10">' in body
    assert "Refresh" in body
    assert "private" in response["Cache-Control"] and "no-store" in response["Cache-Control"]


def test_a_published_round_shows_table_seat_table_mates_and_pin(event):
    round_ = publish(event)
    table = next(t for t in round_.tables.all() if entry(event, "Ana").player_id in t.seat_ids)
    seat = table.seat_ids.index(entry(event, "Ana").player_id) + 1
    body = text(page(phone(event, "Ana"), event))
    assert f"Table {table.number}" in body and f"seat {seat}" in body
    mates = [p.name for p in table.seats if p.name != "Ana"]
    assert all(name in body for name in mates)
    assert "Keeping the score?" in body and table.pin in body
    assert 'data-kind="seat"' in body and 'data-round="1"' in body
    # Someone at another table sees neither this table's PIN nor its players as mates.
    other = next(p for p in NAMES if entry(event, p).player_id not in table.seat_ids)
    assert table.pin not in text(page(phone(event, other), event))


def test_between_rounds_the_last_result_and_the_place_in_the_standings(event):
    round_ = publish(event)
    play_round(event, round_)
    ana = entry(event, "Ana")
    body = text(page(phone(event, "Ana"), event))
    assert "waiting for the next round" in body
    assert "Your last game, table" in body and ", total " in body
    assert "Keeping the score?" not in body  # the round is closed: no PIN opens a table
    rank, ranked = standings_places(event.standings.first().pk)[ana.player_id]
    assert f"Standings: {rank} of {ranked} players." in body
    assert 'data-kind="played"' in body


def test_a_withdrawn_player_is_told_so(event):
    entry_withdraw(entry=entry(event, "Boris"), actor="olga")
    forget_phone_version(event.slug)
    body = text(page(phone(event, "Boris"), event))
    assert "You have withdrawn from this event" in body
    assert 'data-kind="withdrawn"' in body


def test_the_presenter_says_what_each_player_does_in_the_round(event):
    round_ = publish(event)
    seats = seat_map(event)
    kinds = {name: next_seat(event, entry(event, name), seats).kind for name in NAMES}
    assert set(kinds.values()) == {"seat"}
    shown = next_seat(event, entry(event, "Vera"), seats)
    assert shown.round_number == 1 and shown.pin and shown.me.name == "Vera"
    play_round(event, round_)
    seats = seat_map(event)
    assert {next_seat(event, entry(event, n), seats).kind for n in NAMES} == {"played"}


# --- the poll ---------------------------------------------------------------------------------


def version(client: Client, event, tag: str | None = None):
    headers = {"HTTP_IF_NONE_MATCH": tag} if tag else {}
    return client.get(reverse("tournaments:next_seat_version", args=[event.slug]), **headers)


def test_the_version_is_a_few_bytes_the_same_for_every_phone(event):
    first, second = version(Client(), event), version(phone(event, "Ana"), event)
    assert first.status_code == 200 and len(first.content) <= 32
    assert first.content == second.content
    assert first["ETag"] == f'"{first.content.decode()}"'
    assert "no-cache" in first["Cache-Control"]


def test_unchanged_the_poll_is_a_304_that_reads_no_database(event, django_assert_num_queries):
    tag = version(Client(), event)["ETag"]
    client = Client()
    with django_assert_num_queries(0):
        unchanged = version(client, event, tag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == tag


def test_the_version_moves_when_a_round_is_published_and_the_part_follows(event):
    ana = phone(event, "Ana")
    before = text(page(ana, event))
    known = version(ana, event)["ETag"]
    publish(event)
    moved = version(ana, event, known)
    assert moved.status_code == 200 and moved["ETag"] != known
    part = text(page(ana, event, "next_seat_live"))
    assert part.lstrip().startswith('<section id="next-seat"')
    assert f'data-version="{moved.content.decode()}"' in part
    assert "Table " in part and "Table " not in before.split('id="next-seat"')[1]
    assert "<html" not in part


def test_the_version_moves_when_the_round_closes_and_the_standings_are_built(event):
    round_ = publish(event)
    published = phone_version(event.slug)
    play_round(event, round_)
    assert phone_version(event.slug) != published


def test_within_its_two_seconds_the_version_is_read_once_for_every_phone(
    event, django_assert_num_queries
):
    with django_assert_num_queries(1):
        assert phone_version(event.slug) is not None
    publish(event)  # the organiser's publish is seen once the kept copy expires
    with django_assert_num_queries(1):
        for _ in range(20):
            phone_version(event.slug)


def test_a_publish_renews_the_kept_version_at_once(event, django_capture_on_commit_callbacks):
    """The waiting phones' poll (answered at the door from the kept version) learns of a
    publish at its next ask, not once the kept copy expires: the round's pre-render task,
    queued on the publish's commit, keeps the new version."""
    before = phone_version(event.slug)
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round_=event.rounds.get(number=1), actor="olga")
    kept = kept_phone_version(event.slug)
    assert kept is not None and kept != before
    forget_phone_version(event.slug)
    assert phone_version(event.slug) == kept  # the version of the state as it is now


def test_an_unknown_event_is_a_404_and_no_state(event):
    assert phone_state("no-such-event") is None
    assert version(Client(), type("E", (), {"slug": "no-such-event"})).status_code == 404


def test_a_phone_that_forgot_who_it_is_reloads_the_page(event):
    response = page(Client(), event, "next_seat_live")
    assert response.status_code == 204


def test_the_seat_page_of_a_proven_phone_links_to_its_next_seat(event):
    body = text(page(phone(event, "Ana"), event, "seat"))
    assert reverse("tournaments:next_seat", args=[event.slug]) in body


def test_in_bulgarian(event):
    publish(event)
    client = phone(event, "Ana")
    body = text(
        client.get(reverse("tournaments:next_seat", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="bg")
    )
    assert "Моето следващо място" in body and "Маса " in body and "място " in body
    assert "Водите резултата?" in body and 'data-words="Ново: кръг %(n)s"' in body
