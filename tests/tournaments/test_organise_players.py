"""The players page: add one, paste a list (lines or CSV), late entries, check in and out
(one tap, with and without htmx), check in everyone, withdraw with a reason, filter."""

import pytest
from django.urls import reverse

from tournaments.events.csv_import import names_from_text
from tournaments.events.services.registration import entry_withdraw
from tournaments.models import Entry, EventLog, Player

from .conftest import register

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def url(event, name="organise_players", *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def names(event) -> list[str]:
    return sorted(Entry.objects.filter(event=event).values_list("player__name", flat=True))


# --- reading a pasted list --------------------------------------------------------------------


def test_one_name_per_line_with_blanks_and_repeats():
    parsed = names_from_text("\ufeffAna Petrova\n\n  Boris   Ivanov \nAna Petrova\r\nVera\n")
    assert parsed.names == ["Ana Petrova", "Boris Ivanov", "Vera"]
    assert parsed.duplicates == [(4, "Ana Petrova")]
    assert parsed.errors == []


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_a_csv_export_with_a_name_column(delimiter):
    rows = [["club", "Name", "rating"], ["A", "Ana", "1"], [], ["B", '"Boris Ivanov"', "2"]]
    pasted = "\n".join(delimiter.join(row) for row in rows)
    parsed = names_from_text(pasted)
    assert parsed.names == ["Ana", "Boris Ivanov"] and parsed.errors == []


def test_errors_name_their_line():
    parsed = names_from_text("name,club\nAna,A\n,B\n" + "x" * 81 + ",C\n")
    assert [error.message for error in parsed.errors] == [
        "Line 3: the name column is empty.",
        "Line 4: a name has at most 80 characters.",
    ]
    assert [error.message for error in names_from_text("Ana\n" + "y" * 81).errors] == [
        "Line 2: a name has at most 80 characters."
    ]
    assert names_from_text(" \n\n").names == []


# --- adding players ---------------------------------------------------------------------------


def test_adding_one_player_and_again(organiser_client, organised_event):
    response = organiser_client.post(url(organised_event, "organise_player_add"), {"name": "Ana"})
    assert response.status_code == 302 and response["Location"] == url(organised_event)
    assert "Ana entered." in text(organiser_client.get(response["Location"]))
    response = organiser_client.post(url(organised_event, "organise_player_add"), {"name": " Ana "})
    assert "Ana was already entered." in text(organiser_client.get(response["Location"]))
    assert names(organised_event) == ["Ana"]
    response = organiser_client.post(url(organised_event, "organise_player_add"), {"name": ""})
    assert response.status_code == 400 and "This field is required." in text(response)
    entry = EventLog.objects.filter(event=organised_event, action="player_entered").get()
    assert entry.actor == "olga"


def test_a_name_is_entered_and_announced_on_one_line(organiser_client, organised_event):
    add = url(organised_event, "organise_player_add")
    response = organiser_client.post(add, {"name": "  Ana \n  Petrova "})
    assert "Ana Petrova entered." in text(organiser_client.get(response["Location"]))
    assert names(organised_event) == ["Ana Petrova"]


def test_a_pasted_list_enters_everyone_once(organiser_client, organised_event):
    register(organised_event, 1, start=2)  # "Player 002" is already entered
    pasted = "Player 001\n\nPlayer 002\nPlayer 003\nPlayer 001\n"
    response = organiser_client.post(
        url(organised_event, "organise_players_paste"), {"names": pasted}
    )
    assert response.status_code == 302
    body = text(organiser_client.get(response["Location"]))
    assert "2 players entered. 1 was already entered. Repeated name skipped (line 5)." in body
    assert names(organised_event) == ["Player 001", "Player 002", "Player 003"]


def test_a_bad_line_enters_nobody_and_keeps_the_text(organiser_client, organised_event):
    pasted = "name;club\nAna;A\n;B\n"
    response = organiser_client.post(
        url(organised_event, "organise_players_paste"), {"names": pasted}
    )
    assert response.status_code == 400
    body = text(response)
    assert "Line 3: the name column is empty." in body
    assert "name;club\nAna;A\n;B" in body  # the textarea keeps what was pasted
    assert '<details class="paste" open>' in body
    assert not Player.objects.exists()
    response = organiser_client.post(
        url(organised_event, "organise_players_paste"), {"names": "\n"}
    )
    assert response.status_code == 400


def test_a_late_entry_joins_in_the_next_round(organiser_client, organised_event, build_round):
    register(organised_event, 6)
    build_round(organised_event)
    body = text(organiser_client.get(url(organised_event)))
    assert "Players added now are late entries" in body
    organiser_client.post(url(organised_event, "organise_player_add"), {"name": "Late Larry"})
    assert Entry.objects.get(player__name="Late Larry").joined_round == 2
    body = text(organiser_client.get(url(organised_event)))
    assert "joins in round 2" in body
    body = text(organiser_client.get(url(organised_event, "organise_log")))
    assert "Late Larry entered, joins in round 2." in body


# --- check-in, withdrawal, filter -------------------------------------------------------------


def test_check_in_and_out_without_javascript_keeps_the_filter(organiser_client, organised_event):
    entry = register(organised_event, 3, checked_in=False)[1]
    target = url(organised_event, "organise_check_in", entry.pk)
    response = organiser_client.post(target, {"checked_in": "1", "q": "002"})
    assert response.status_code == 302 and response["Location"] == url(organised_event) + "?q=002"
    entry.refresh_from_db()
    assert entry.checked_in
    organiser_client.post(target, {"checked_in": "0"})
    entry.refresh_from_db()
    assert not entry.checked_in
    assert organiser_client.post(target, {"checked_in": "maybe"}).status_code == 400
    actions = EventLog.objects.filter(event=organised_event).values_list("action", flat=True)
    assert {"checked_in", "checked_out"} <= set(actions)


def test_check_in_with_htmx_swaps_the_row_and_the_counts(organiser_client, organised_event):
    entry = register(organised_event, 3, checked_in=False)[0]
    response = organiser_client.post(
        url(organised_event, "organise_check_in", entry.pk),
        {"checked_in": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    body = text(response)
    assert body.lstrip().startswith(f'<li id="entry-{entry.pk}" class="player-row is-in">')
    assert 'name="checked_in" value="0"' in body and "Check out" in body
    assert '<div id="counts" data-hx-swap-oob="true">' in body
    assert "3 entered · 1 checked in · 0 withdrawn" in body
    assert "Build round 1" not in body  # one player in: not yet a table
    assert "<html" not in body


def test_everyone_is_checked_in_at_once(organiser_client, organised_event):
    entries = register(organised_event, 5, checked_in=False)
    Entry.objects.filter(pk=entries[0].pk).update(withdrawn=True)
    response = organiser_client.post(url(organised_event, "organise_check_in_all"))
    assert response.status_code == 302
    assert "4 players checked in." in text(organiser_client.get(response["Location"]))
    assert Entry.objects.filter(event=organised_event, checked_in=True).count() == 4
    assert EventLog.objects.get(event=organised_event, action="checked_in_all").data == {"count": 4}


def test_withdrawing_with_a_reason(organiser_client, organised_event):
    entry = register(organised_event, 3)[0]
    target = url(organised_event, "organise_withdraw", entry.pk)
    response = organiser_client.post(target, {"reason": "went home"}, HTTP_HX_REQUEST="true")
    body = text(response)
    assert response.status_code == 200 and '<span class="player-state">Withdrawn' in body
    assert "Check out" not in body and "Withdraw…" not in body
    entry.refresh_from_db()
    assert entry.withdrawn
    log = EventLog.objects.get(event=organised_event, action="withdrawn")
    assert (log.actor, log.reason) == ("olga", "went home")
    response = organiser_client.post(target, {"reason": ""})
    assert response.status_code == 409 and "has withdrawn" in text(response)
    checkin = url(organised_event, "organise_check_in", entry.pk)
    assert organiser_client.post(checkin, {"checked_in": "1"}).status_code == 409


def test_a_withdrawal_taken_back(organiser_client, organised_event):
    entry = register(organised_event, 3)[1]
    entry_withdraw(entry=entry, actor="olga", reason="went home")
    target = url(organised_event, "organise_reinstate", entry.pk)
    body = text(organiser_client.get(url(organised_event)))
    assert f'action="{target}"' in body and "Reinstate" in body
    response = organiser_client.post(target, {"reason": "back from dinner"}, HTTP_HX_REQUEST="true")
    body = text(response)
    assert response.status_code == 200 and '<span class="player-state">Checked in' in body
    assert "Check out" in body and "Withdraw…" in body and "Reinstate" not in body
    assert "3 entered · 3 checked in · 0 withdrawn" in body
    entry.refresh_from_db()
    assert not entry.withdrawn and entry.checked_in
    log = EventLog.objects.get(event=organised_event, action="reinstated")
    assert (log.actor, log.reason) == ("olga", "back from dinner")
    log_page = reverse("tournaments:organise_log", args=[organised_event.slug])
    assert "reinstated." in text(organiser_client.get(log_page))
    # Twice: nothing to take back; without JavaScript the list says so.
    response = organiser_client.post(target, {"q": "002"})
    assert response.status_code == 409 and "has not withdrawn" in text(response)
    assert EventLog.objects.filter(action="reinstated").count() == 1


def test_filtering_by_name(organiser_client, organised_event):
    register(organised_event, 12)
    body = text(organiser_client.get(url(organised_event) + "?q=player 01"))
    assert "Player 010" in body and "Player 012" in body and "Player 009" not in body
    assert 'value="player 01"' in body
    body = text(organiser_client.get(url(organised_event) + "?q=nobody"))
    assert "No player by that name." in body


@pytest.mark.parametrize("count", [9, 60])
def test_the_list_costs_the_same_few_queries_for_any_field(
    organiser_client, organised_event, count, django_assert_max_num_queries
):
    register(organised_event, count)
    # 11: the list, the counts, who has played (one query: deletable entries), whether the
    # organiser runs the club (merge offered) and the newcomers waiting (self check-in) among
    # them; never one a player
    with django_assert_max_num_queries(11):
        response = organiser_client.get(url(organised_event))
    assert text(response).count('class="player-row is-in"') == count


def test_once_a_table_is_checked_in_the_players_page_offers_to_build_the_round(
    organiser_client, organised_event
):
    entries = register(organised_event, 4, checked_in=False)
    for entry in entries[:3]:
        organiser_client.post(
            url(organised_event, "organise_check_in", entry.pk),
            {"checked_in": "1"},
            HTTP_HX_REQUEST="true",
        )
    body = text(organiser_client.get(url(organised_event, "organise_players")))
    build = reverse("tournaments:organise_round_create", args=[organised_event.slug])
    assert f'action="{build}"' in body and "Build round 1" in body
    assert "3 players checked in will be paired." in body


def test_no_build_button_on_the_players_page_while_a_round_is_under_way(
    organiser_client, organised_event, build_round
):
    register(organised_event, 6)
    build_round(organised_event)
    body = text(organiser_client.get(url(organised_event, "organise_players")))
    assert "Build round" not in body
