"""Table PINs: made when a round is published, unique in the round, renewed
by the organiser, refused once the round is closed, throttled against guessing, and a right
one opens the keeper's page of its table's game."""

import random

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.web.keeper import keeper_key
from tournaments.common.errors import NotAllowed
from tournaments.models import EventLog
from tournaments.results.services import result_confirm
from tournaments.rounds.services import pins
from tournaments.rounds.services.rounds import round_close

from .conftest import finish_game, register


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def published(organised_event, build_round):
    register(organised_event, 9)
    round_ = build_round(organised_event, publish=True)
    return round_, list(round_.tables.select_related("game").order_by("number"))


def pin_url(event):
    return reverse("tournaments:table_pin", args=[event.slug])


def type_pin(client, event, table, pin, **extra):
    return client.post(pin_url(event), {"table": table, "pin": pin}, **extra)


def other_pin(pin: str) -> str:
    return f"{(int(pin) + 1) % 10**pins.PIN_LENGTH:0{pins.PIN_LENGTH}d}"


# --- making, uniqueness, renewing --------------------------------------------------------------


def test_publishing_gives_every_table_a_six_digit_pin_unique_in_its_round(published):
    _round, tables = published
    assert len(tables) == 3
    codes = [table.pin for table in tables]
    assert all(len(code) == pins.PIN_LENGTH and code.isdigit() for code in codes)
    assert len(set(codes)) == len(codes)


def test_a_draft_has_no_pins_yet(organised_event, build_round):
    register(organised_event, 6)
    round_ = build_round(organised_event)
    assert round_.is_draft and {table.pin for table in round_.tables.all()} == {""}


def test_new_pins_avoid_every_pin_taken():
    taken = {f"{n:06d}" for n in range(10**6) if n != 123456}
    assert pins.new_pin(taken) == "123456"


def test_renewing_replaces_the_pin_and_the_old_one_stops_working(organiser_client, published):
    round_, tables = published
    table = tables[0]
    old = table.pin
    response = organiser_client.post(
        reverse(
            "tournaments:organise_pin_renew", args=[round_.event.slug, round_.number, table.number]
        ),
        {"back": "table"},
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"/rounds/1/tables/{table.number}/")
    table.refresh_from_db()
    assert table.pin != old and len(table.pin) == pins.PIN_LENGTH
    assert table.pin not in {other.pin for other in tables[1:]}
    assert EventLog.objects.filter(action="pin_renewed").count() == 1
    phone = Client()
    assert type_pin(phone, round_.event, table.number, old).status_code == 403
    assert type_pin(phone, round_.event, table.number, table.pin).status_code == 302


def test_only_the_events_organisers_renew_a_pin(outsider_client, client, published):
    round_, tables = published
    address = reverse(
        "tournaments:organise_pin_renew", args=[round_.event.slug, 1, tables[0].number]
    )
    assert outsider_client.post(address).status_code == 403
    assert client.post(address).status_code == 302  # to the login page
    tables[0].refresh_from_db()
    assert tables[0].pin == published[1][0].pin


def test_the_round_page_and_the_table_page_show_the_pin(organiser_client, published):
    round_, tables = published
    body = organiser_client.get(
        reverse("tournaments:organise_round", args=[round_.event.slug, 1])
    ).content.decode()
    for table in tables:
        assert f'data-table="{table.number}">{table.pin}</code>' in body
    body = organiser_client.get(
        reverse("tournaments:organise_table", args=[round_.event.slug, 1, tables[1].number])
    ).content.decode()
    assert f">{tables[1].pin}</code>" in body and "New PIN for table 2" in body


def test_the_printed_cards_carry_pin_and_both_codes_said_apart(organiser_client, published):
    round_, tables = published
    body = organiser_client.get(
        reverse("tournaments:organise_print_cards", args=[round_.event.slug, 1])
    ).content.decode()
    for table in tables:
        assert f'<strong class="pin">{table.pin}</strong>' in body
    assert body.count("Score-keeper only") == len(tables)
    assert body.count("scan to follow the table and confirm the result.") == len(tables)
    assert "http://testserver" + pin_url(round_.event) in body


# --- the phone's side ----------------------------------------------------------------------------


def test_a_right_pin_grants_keeping_and_goes_to_the_keepers_page(published):
    round_, tables = published
    table = tables[1]
    phone = Client()
    assert phone.get(pin_url(round_.event)).status_code == 200
    response = type_pin(phone, round_.event, table.number, f" {table.pin[:3]} {table.pin[3:]} ")
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:table", args=[table.game_id])
    assert keeper_key(table.game_id) in phone.session
    page = phone.get(response["Location"]).content.decode()
    assert reverse("scoring:release", args=[table.game_id]) in page  # the keeper's page


def test_the_pin_of_another_table_is_refused(published):
    round_, tables = published
    phone = Client()
    response = type_pin(phone, round_.event, tables[0].number, tables[1].pin)
    assert response.status_code == 403
    assert "not the PIN of table 1" in response.content.decode()
    assert keeper_key(tables[0].game_id) not in phone.session
    assert keeper_key(tables[1].game_id) not in phone.session


def test_a_table_the_round_has_not_is_said_so(published):
    round_, tables = published
    response = type_pin(Client(), round_.event, 9, tables[0].pin)
    assert response.status_code == 409
    assert "Round 1 has no table 9" in response.content.decode()


def test_bad_input_keeps_what_was_typed(published):
    round_, _tables = published
    response = type_pin(Client(), round_.event, "x", "12 34")
    assert response.status_code == 400
    assert 'value="12 34"' in response.content.decode()


def test_a_closed_rounds_pin_is_refused_clearly(published):
    round_, tables = published
    rng = random.Random(3)
    for table in tables:
        finish_game(table.game, rng)
        result_confirm(table=table, actor="olga")
    round_close(round_=round_, actor="olga")
    response = type_pin(Client(), round_.event, tables[0].number, tables[0].pin)
    assert response.status_code == 409
    assert "Round 1 is closed" in response.content.decode()
    with pytest.raises(NotAllowed) as refused:
        pins.pin_renew(table=tables[0])
    assert refused.value.code == "pin_round_not_open"


def test_no_round_yet_is_said_so(organised_event):
    response = type_pin(Client(), organised_event, 1, "123456")
    assert response.status_code == 409
    assert "No round of this event is being played" in response.content.decode()


# --- guessing -----------------------------------------------------------------------------------


def test_wrong_pins_from_one_address_are_blocked_and_then_even_a_right_one(published):
    round_, tables = published
    table = tables[0]
    phone = Client()
    wrong = other_pin(table.pin)
    for _ in range(pins.ADDRESS_FAILURES_ALLOWED):
        assert type_pin(phone, round_.event, table.number, wrong).status_code == 403
    blocked = type_pin(phone, round_.event, table.number, table.pin)
    assert blocked.status_code == 429
    assert "Too many wrong PINs" in blocked.content.decode()
    # another address is not blocked: a club behind one router is not locked out by a stranger
    other = type_pin(Client(), round_.event, table.number, table.pin, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302


def test_a_right_pin_within_the_limits_is_accepted_after_typos(published):
    round_, tables = published
    phone = Client()
    for _ in range(pins.ADDRESS_FAILURES_ALLOWED - 1):
        type_pin(phone, round_.event, tables[0].number, other_pin(tables[0].pin))
    assert type_pin(phone, round_.event, tables[0].number, tables[0].pin).status_code == 302


def test_wrong_pins_for_one_event_from_many_addresses_are_blocked(published):
    round_, tables = published
    table = tables[2]
    wrong = other_pin(table.pin)
    for n in range(pins.EVENT_FAILURES_ALLOWED):
        address = f"10.1.{n // 200}.{n % 200 + 1}"
        type_pin(Client(), round_.event, table.number, wrong, REMOTE_ADDR=address)
    response = type_pin(Client(), round_.event, table.number, table.pin, REMOTE_ADDR="10.9.9.9")
    assert response.status_code == 429
    # the keeper's QR link is never blocked by PIN guessing
    keep = reverse("scoring:keep", args=[table.game_id, table.game.secret])
    assert Client().get(keep, REMOTE_ADDR="10.9.9.9").status_code == 302


def test_the_event_page_links_to_the_pin_page_while_a_round_is_played(published):
    round_, _tables = published
    body = Client().get(reverse("tournaments:event", args=[round_.event.slug])).content.decode()
    assert pin_url(round_.event) in body


def test_the_event_backup_carries_each_tables_pin(published):
    from tournaments.backup.export import event_export

    round_, tables = published
    exported = event_export(event=round_.event)
    saved = [table["pin"] for table in exported["rounds"][0]["tables"]]
    assert saved == [table.pin for table in tables]
