"""A round through its page: the draft's tables, first dealers and flags, swapping two
players, publishing, each table's result (confirm, reopen with a reason), closing."""

import random
import re

import pytest
from django.urls import reverse

from scoring.models import Game
from tournaments.models import EventLog, Round, Table

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def url(event, name, *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def seats(round_) -> list[tuple[int, int, int]]:
    return [t.seat_ids for t in Table.objects.filter(round=round_).order_by("number")]


# --- the draft --------------------------------------------------------------------------------


def test_the_draft_shows_seats_first_dealers_flags_and_byes(
    organiser_client, organised_event, build_round
):
    register(organised_event, 7)
    round_ = build_round(organised_event)
    tables = list(round_.tables.select_related("seat_0", "seat_1", "seat_2").order_by("number"))
    a, b = tables[0].seat_0, tables[0].seat_1
    Table.objects.filter(pk=tables[0].pk).update(
        flags=[{"code": "repeat", "players": [a.pk, b.pk], "rounds": [1]}]
    )
    bye = round_.byes.get()
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    assert "Status: Draft" in body and "Publish round 1" in body
    assert "Friday night · Swiss</span></h1>" in body  # the pairing mode as a word, too
    for table in tables:
        assert f'id="table-{table.number}"' in body
        dealer = table.seats[table.first_dealer].name
        assert re.search(rf"{dealer}</span> <span class=\"badge\">deals first", body)
    assert f"{a.name} and {b.name} have met before (round 1)." in body
    assert 'class="table-card flagged"' in body
    assert "Sitting out (bye)" in body and bye.player.name in body
    assert "Table cards" not in body  # no keeper links before publishing
    assert url(organised_event, "organise_print_sheets", 1) in body


def test_swapping_two_players_through_the_page(organiser_client, organised_event, build_round):
    register(organised_event, 7)
    round_ = build_round(organised_event)
    before = seats(round_)
    first, second = before[0][0], before[1][2]
    response = organiser_client.post(
        url(organised_event, "organise_round_swap", 1), {"first": first, "second": second}
    )
    assert response.status_code == 302
    after = seats(round_)
    assert after[0][0] == second and after[1][2] == first
    log = EventLog.objects.get(event=organised_event, action="players_swapped")
    assert log.actor == "olga" and log.data["players"] == [first, second]
    assert "swapped." in text(organiser_client.get(response["Location"]))

    bye = round_.byes.get().player_id
    organiser_client.post(
        url(organised_event, "organise_round_swap", 1), {"first": bye, "second": first}
    )
    assert round_.byes.get().player_id == first

    response = organiser_client.post(
        url(organised_event, "organise_round_swap", 1), {"first": first, "second": first}
    )
    assert response.status_code == 400
    assert "Choose two different players." in text(response)
    response = organiser_client.post(
        url(organised_event, "organise_round_swap", 1), {"first": first, "second": 999999}
    )
    assert response.status_code == 400


def test_a_swap_into_a_repeat_is_flagged_on_the_page(
    organiser_client, organised_event, build_round
):
    register(organised_event, 6)
    first = build_round(organised_event, publish=True)
    rng = random.Random(4)
    for table in first.tables.select_related("game"):
        finish_game(table.game, rng)
        organiser_client.post(url(organised_event, "organise_result_confirm", 1, table.number))
    organiser_client.post(url(organised_event, "organise_round_close", 1))
    second = build_round(organised_event)
    met = first.tables.order_by("number")[0].seat_ids
    t1 = second.tables.order_by("number")[0]
    mover = next(p for p in met if p not in t1.seat_ids)
    partner = next(p for p in met if p in t1.seat_ids)
    out = next(p for p in t1.seat_ids if p != partner)
    organiser_client.post(
        url(organised_event, "organise_round_swap", 2), {"first": mover, "second": out}
    )
    body = text(organiser_client.get(url(organised_event, "organise_round", 2)))
    assert "have met before (round 1)." in body


def test_publishing_and_no_swaps_after(organiser_client, organised_event, build_round):
    register(organised_event, 6)
    round_ = build_round(organised_event)
    response = organiser_client.post(url(organised_event, "organise_round_publish", 1))
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    assert all(t.game_id for t in round_.tables.all())
    body = text(organiser_client.get(response["Location"]))
    assert "Round 1 published." in body and "0 of 2 confirmed" in body
    assert "Status: Published" in body and "Status: published" not in body
    assert url(organised_event, "organise_print_cards", 1) in body
    a, b = seats(round_)[0][:2]
    response = organiser_client.post(
        url(organised_event, "organise_round_swap", 1), {"first": a, "second": b}
    )
    # refused: back to the round page with the reason (a reload does not post again)
    assert response.status_code == 302
    assert response["Location"] == url(organised_event, "organise_round", 1)
    assert "players can only be swapped in a draft" in text(
        organiser_client.get(response["Location"])
    )
    response = organiser_client.post(url(organised_event, "organise_round_publish", 1))
    assert response.status_code == 302
    assert "only a draft can be published" in text(organiser_client.get(response["Location"]))


# --- results ----------------------------------------------------------------------------------


@pytest.fixture
def published(organised_event, build_round):
    register(organised_event, 6)
    round_ = build_round(organised_event, publish=True)
    tables = list(round_.tables.select_related("game").order_by("number"))
    finish_game(tables[0].game, random.Random(1))
    return round_, tables


def test_each_tables_result_state(organiser_client, organised_event, published):
    _round, tables = published
    game = Game.objects.get(pk=tables[0].game_id)
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    assert "Finished, waiting for confirmation" in body and "In play" in body
    first = game.players[game.placings[0]]
    assert re.search(rf'<span class="place">1\.</span> <span class="name">{first}</span>', body)
    assert reverse("scoring:manage", args=[game.pk]) in body
    assert body.count("Confirm the result") == 1


def test_confirming_without_and_with_htmx(
    organiser_client, organised_event, published, django_capture_on_commit_callbacks
):
    round_, tables = published
    target = url(organised_event, "organise_result_confirm", 1, 1)
    response = organiser_client.post(target)
    assert response.status_code == 302
    assert response["Location"] == url(organised_event, "organise_round", 1) + "#table-1"
    assert Game.objects.get(pk=tables[0].game_id).confirmed_by == "olga"
    log = EventLog.objects.get(event=organised_event, action="result_confirmed")
    assert (log.actor, log.data) == ("olga", {"round": 1, "table": 1})
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    assert "1 of 2 confirmed" in body and "Reopen for a correction" in body

    response = organiser_client.post(
        url(organised_event, "organise_result_confirm", 1, 2), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200  # htmx swaps the section with its message
    body = text(response)
    assert body.lstrip().startswith('<section id="results"')
    assert "only a finished game with settled placings can be confirmed" in body
    finish_game(tables[1].game, random.Random(2))
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(
            url(organised_event, "organise_result_confirm", 1, 2), HTTP_HX_REQUEST="true"
        )
    assert "2 of 2 confirmed" in text(response)
    assert organised_event.standings.exists()


def test_results_arriving_from_the_tables_show_up_by_themselves(
    organiser_client, organised_event, published
):
    _round, tables = published
    page = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    poll = url(organised_event, "organise_round", 1) + "?part=results"
    assert f'data-hx-get="{poll}" data-hx-trigger="every 10s"' in page
    finish_game(tables[1].game, random.Random(5))
    response = organiser_client.get(poll, HTTP_HX_REQUEST="true")
    body = text(response)
    assert body.lstrip().startswith('<section id="results"')
    assert body.count("Confirm the result") == 2  # table 2 has finished meanwhile


def test_a_result_is_reopened_only_with_a_reason(organiser_client, organised_event, published):
    _round, tables = published
    organiser_client.post(url(organised_event, "organise_result_confirm", 1, 1))
    target = url(organised_event, "organise_result_reopen", 1, 1)
    response = organiser_client.post(target, {"t1-reason": ""})
    assert response.status_code == 400
    assert "This field is required." in text(response)
    assert re.search(
        r'<details class="reopen" id="reopen-1" data-hx-preserve open>', text(response)
    )
    assert Game.objects.get(pk=tables[0].game_id).confirmed
    response = organiser_client.post(target, {"t1-reason": "wrong tricks in deal 4"})
    assert response.status_code == 302
    game = Game.objects.get(pk=tables[0].game_id)
    assert game.result == Game.Result.FINISHED
    assert game.changes.get(action="reopened").reason == "wrong tricks in deal 4"
    log = EventLog.objects.get(event=organised_event, action="result_reopened")
    assert (log.actor, log.reason) == ("olga", "wrong tricks in deal 4")
    response = organiser_client.post(target, {"t1-reason": "again"})
    assert response.status_code == 302  # refused: back to the round page with the reason
    assert "the result is not confirmed" in text(organiser_client.get(response["Location"]))


def test_closing_waits_for_every_result(organiser_client, organised_event, published):
    round_, tables = published
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    assert "0 of 2 tables confirmed" in body
    assert "A round closes once every table is confirmed or void." in body
    assert re.search(
        r'<button type="submit" class="secondary wide" disabled[^>]*>Close round 1', body
    )
    response = organiser_client.post(url(organised_event, "organise_round_close", 1))
    assert response.status_code == 302  # refused: back to the round page with the reason
    assert response["Location"] == url(organised_event, "organise_round", 1)
    body = text(organiser_client.get(response["Location"]))
    assert "2 tables are neither confirmed nor void yet" in body  # round_close's reason
    finish_game(tables[1].game, random.Random(3))
    for table in tables:
        organiser_client.post(url(organised_event, "organise_result_confirm", 1, table.number))
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    assert "2 of 2 tables confirmed" in body
    assert re.search(r'<button type="submit" class="primary wide">Close round 1', body)
    response = organiser_client.post(url(organised_event, "organise_round_close", 1))
    assert response.status_code == 302
    assert response["Location"] == url(organised_event, "organise_event")
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    body = text(organiser_client.get(response["Location"]))
    assert "Round 1 closed." in body and "Build round 2" in body


def test_a_published_round_with_no_tables_is_offered_the_close_it_may_take(
    organiser_client, organised_event
):
    """The page offers closing exactly when round_close allows it: a round with no tables
    has nothing to wait for (the event must not stay stuck on it)."""
    from django.utils import timezone

    round_ = Round.objects.create(
        event=organised_event,
        number=1,
        pairing_mode="random",
        status=Round.Status.PUBLISHED,
        published_at=timezone.now(),
    )
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    assert re.search(r'<button type="submit" class="primary wide">Close round 1', body)
    assert "A round closes once every table is confirmed or void." not in body
    response = organiser_client.post(url(organised_event, "organise_round_close", 1))
    assert response["Location"] == url(organised_event, "organise_event")
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED


def test_unknown_rounds_and_tables_are_404(organiser_client, organised_event, published):
    assert organiser_client.get(url(organised_event, "organise_round", 9)).status_code == 404
    target = url(organised_event, "organise_result_confirm", 1, 9)
    assert organiser_client.post(target).status_code == 404


@pytest.mark.parametrize("count", [9, 45])
def test_the_round_page_costs_the_same_few_queries_for_any_field(
    organiser_client, organised_event, build_round, count, django_assert_max_num_queries
):
    register(organised_event, count)
    round_ = build_round(organised_event, publish=True)
    with django_assert_max_num_queries(9):
        response = organiser_client.get(url(organised_event, "organise_round", 1))
    assert text(response).count('class="table-card') == round_.tables.count() == count // 3
