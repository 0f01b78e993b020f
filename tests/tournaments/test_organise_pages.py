"""The organiser's home, a new club and event, the event's dashboard, settings, organisers
and log, driven through the Django test client as a phone without JavaScript drives them."""

import re

import pytest
from django.urls import reverse

from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import entry_check_in, entry_withdraw
from tournaments.models import Club, Event, EventLog, Round
from tournaments.rounds.services.rounds import round_publish

from .conftest import register

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def event_url(event, name="organise_event", *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


EVENT_FORM = {
    "name": "Spring Open",
    "ruleset": "blato",
    "rounds_planned": "4",
    "pairing_mode": "swiss",
    "pairing_list": "",
    "placing_first": "3",
    "placing_second": "1",
    "placing_third": "0",
    "bye_policy": "average",
    "precedence_1": "placing_points",
    "precedence_2": "firsts",
    "precedence_3": "score",
}


# --- home, clubs, new events ------------------------------------------------------------------


def test_home_lists_only_my_events_and_a_superuser_sees_all(
    organiser_client, outsider_client, superuser_client, organised_event
):
    other = event_create(club=club_create(name="Another club"), name="Somebody else's")
    # a night of olga's club she is not listed on is hers all the same: she runs the club
    ours = event_create(club=organised_event.club, name="Club night")
    body = text(organiser_client.get(reverse("tournaments:organise_home")))
    assert "Friday night" in body and "Somebody else&#x27;s" not in body
    assert event_url(organised_event) in body and event_url(ours) in body
    assert "You do not organise any event yet." in text(
        outsider_client.get(reverse("tournaments:organise_home"))
    )
    body = text(superuser_client.get(reverse("tournaments:organise_home")))
    assert "Friday night" in body and event_url(other) in body


def test_before_any_club_the_home_offers_the_club_first(organiser_client, organiser):
    """An event belongs to a club the user runs: until they run one the home's next step is
    the club (the primary button), not a "New event" that could not be filled in. Another's
    club does not count: only its organisers make events in it."""
    home = reverse("tournaments:organise_home")
    new_event = reverse("tournaments:organise_event_new")
    body = text(organiser_client.get(home))
    assert f'href="{new_event}"' not in body
    assert "Create a club first; its first event comes next." in body
    assert '<button type="submit" class="primary">Create the club</button>' in body
    # Come to the new event's page all the same: it says why, and where to go.
    body = text(organiser_client.get(new_event))
    assert "You run no club yet." in body and f'href="{home}#club-heading"' in body
    club_create(name="Someone else's club")
    assert f'href="{new_event}"' not in text(organiser_client.get(home))
    club_create(name="Varna Club", creator=organiser)
    body = text(organiser_client.get(home))
    assert f'href="{new_event}"' in body and "Create a club first" not in body
    assert '<button type="submit">Create the club</button>' in body
    assert "You run no club yet." not in text(organiser_client.get(new_event))


def test_the_organiser_navigation_marks_the_page_it_is_on(organiser_client, organised_event):
    pages = [
        (reverse("tournaments:organise_home"), ["Organise", "My events"]),
        (event_url(organised_event), ["Dashboard"]),
        (event_url(organised_event, "organise_players"), ["Players"]),
        (event_url(organised_event, "organise_settings"), ["Settings"]),
        (event_url(organised_event, "organise_log"), ["Log"]),
    ]
    for address, current in pages:
        body = text(organiser_client.get(address))
        assert re.findall(r'aria-current="page">([^<]+)<', body) == current, address


def test_a_club_is_created_and_the_new_event_form_offers_it(organiser_client):
    response = organiser_client.post(
        reverse("tournaments:organise_club_create"), {"name": "  Varna   Club "}
    )
    club = Club.objects.get()
    assert club.name == "Varna Club"
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:organise_event_new") + f"?club={club.pk}"
    body = text(organiser_client.get(response["Location"]))
    assert f'<option value="{club.pk}" selected>Varna Club</option>' in body
    for ruleset in ("blato", "three-five-eight", "sergeant-major", "nine-five-two"):
        assert f'<option value="{ruleset}"' in body
    for metric in ("placing_points", "score", "firsts", "opponents", "head_to_head", "lot"):
        assert f'<option value="{metric}"' in body
    response = organiser_client.post(reverse("tournaments:organise_club_create"), {"name": ""})
    assert response.status_code == 400
    assert "This field is required." in text(response)
    assert Club.objects.count() == 1


def test_creating_an_event_makes_the_creator_an_organiser(organiser, organiser_client):
    club = club_create(name="Club", creator=organiser)
    data = {**EVENT_FORM, "club": club.pk, "pairing_list": "random, Swiss", "hands": "6"}
    response = organiser_client.post(reverse("tournaments:organise_event_new"), data)
    event = Event.objects.get()
    assert response.status_code == 302
    assert response["Location"] == event_url(event)
    assert list(event.organisers.all()) == [organiser]
    assert (event.name, event.ruleset, event.options) == ("Spring Open", "blato", {"hands": 6})
    assert event.pairing_modes == ["random", "swiss"]
    assert event.placing_points == [3, 1, 0] and event.bye_policy == "average"
    assert event.precedence == ["placing_points", "firsts", "score"]
    assert EventLog.objects.get(event=event, action="event_created").actor == "olga"
    body = text(organiser_client.get(response["Location"]))
    assert "Event Spring Open created." in body and "Build round 1" in body


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"pairing_list": "swiss, fast"}, "unknown pairing mode &#x27;fast&#x27;"),
        ({"precedence_1": "lot", "precedence_3": ""}, "lots must be the last tie-break"),
        ({"precedence_2": "placing_points"}, "A tie-break is chosen twice"),
        ({"placing_first": "0", "placing_second": "2"}, "cannot get more placing points"),
        ({"ruleset": "three-five-eight", "hands": "0"}, "Ensure this value is greater than"),
        ({"placing_first": "100"}, "Ensure this value is less than or equal to 99."),
        ({"placing_third": "-100"}, "Ensure this value is greater than or equal to -99."),
    ],
)
def test_invalid_settings_come_back_with_the_services_message(
    organiser, organiser_client, change, message
):
    club = club_create(name="Club", creator=organiser)
    data = {**EVENT_FORM, "club": club.pk, **change}
    response = organiser_client.post(reverse("tournaments:organise_event_new"), data)
    assert response.status_code == 400
    body = text(response)
    assert message in body
    assert 'value="Spring Open"' in body  # nothing typed is lost
    assert not Event.objects.exists()


# --- the dashboard ----------------------------------------------------------------------------


def test_the_dashboard_counts_players_and_says_each_rounds_next_step(
    organiser_client, organised_event, build_round
):
    entries = register(organised_event, 8)
    entry_check_in(entry=entries[0], checked_in=False)
    entry_withdraw(entry=entries[1], reason="ill")
    body = text(organiser_client.get(event_url(organised_event)))
    assert "<dt>entered</dt><dd>8</dd>" in body
    assert "<dt>checked in</dt><dd>6</dd>" in body
    assert "<dt>withdrawn</dt><dd>1</dd>" in body
    assert "No round yet." in body and "Build round 1" in body
    round_ = build_round(organised_event)
    body = text(organiser_client.get(event_url(organised_event)))
    # States and steps read as words, capitalised: never a raw value such as "draft".
    assert '<span class="round-status">Draft · Swiss</span>' in body
    assert "Review the draft and publish" in body and "Build round 2" not in body
    round_publish(round_=round_)
    body = text(organiser_client.get(event_url(organised_event)))
    assert "Published · Swiss" in body and "Results 0/2 in, 0 confirmed" in body
    assert event_url(organised_event, "organise_round", 1) in body
    assert event_url(organised_event, "organise_export", "standings", "csv") in body
    # A closed round says so once: no next step repeating "closed".
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
    body = text(organiser_client.get(event_url(organised_event)))
    assert '<span class="round-status">Closed · Swiss</span>' in body
    assert 'class="next-step"' not in body and ">closed<" not in body


def test_building_the_next_round_and_a_refusal(
    organiser_client, organised_event, django_capture_on_commit_callbacks
):
    register(organised_event, 6)
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(event_url(organised_event, "organise_round_create"))
    assert response.status_code == 302
    assert response["Location"] == event_url(organised_event, "organise_round", 1)
    assert Round.objects.get(event=organised_event).status == Round.Status.DRAFT
    response = organiser_client.post(event_url(organised_event, "organise_round_create"))
    assert response.status_code == 302  # refused: back to the dashboard with the reason
    assert response["Location"] == event_url(organised_event)
    assert "round 1 is a draft: publish it or delete it first" in text(
        organiser_client.get(response["Location"])
    )
    assert Round.objects.filter(event=organised_event).count() == 1


def test_a_pending_round_polls_and_a_failed_one_offers_a_retry(
    organiser_client, organised_event, django_capture_on_commit_callbacks
):
    register(organised_event, 6)
    round_ = Round.objects.create(event=organised_event, number=1, pairing_mode="swiss")
    body = text(organiser_client.get(event_url(organised_event)))
    assert "Building tables…" in body
    assert 'hx-trigger="every 2s"' in body and 'http-equiv="refresh"' in body
    partial = organiser_client.get(event_url(organised_event), HTTP_HX_REQUEST="true")
    assert text(partial).lstrip().startswith('<section id="rounds"')
    assert "<html" not in text(partial)
    body = text(organiser_client.get(event_url(organised_event, "organise_round", 1)))
    assert "Building tables…" in body and 'hx-trigger="every 2s"' in body
    partial = organiser_client.get(
        event_url(organised_event, "organise_round", 1), HTTP_HX_REQUEST="true"
    )
    assert text(partial).lstrip().startswith('<div id="round-body" data-hx-get=')

    Round.objects.filter(pk=round_.pk).update(status="failed", build_error="too few players")
    body = text(organiser_client.get(event_url(organised_event)))
    assert "too few players" in body
    assert "Could not be built: build it again or delete it" in body
    assert 'hx-trigger="every 2s"' not in body
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(event_url(organised_event, "organise_round_retry", 1))
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT and round_.tables.count() == 2
    assert EventLog.objects.filter(event=organised_event, action="round_rebuilt").exists()


@pytest.mark.parametrize("count", [9, 60])
def test_the_dashboard_query_count_does_not_grow_with_the_field(
    organiser_client, organised_event, build_round, count, django_assert_max_num_queries
):
    register(organised_event, count)
    build_round(organised_event, publish=True)
    with django_assert_max_num_queries(10):
        assert organiser_client.get(event_url(organised_event)).status_code == 200


# --- settings, organisers, the log ------------------------------------------------------------


def _settings_form(event, **change):
    data = {
        "name": event.name,
        "rounds_planned": "3",
        "pairing_mode": "no-repeat",
        "pairing_list": "",
        "placing_first": "2",
        "placing_second": "1",
        "placing_third": "0",
        "bye_policy": "zero",
        "precedence_1": "score",
        "precedence_2": "placing_points",
    }
    data.update(change)
    return data


def test_settings_are_shown_changed_and_logged(organiser_client, organised_event):
    url = event_url(organised_event, "organise_settings")
    body = text(organiser_client.get(url))
    assert 'value="Friday night"' in body and 'name="rounds_planned" value="2"' in body
    response = organiser_client.post(url, _settings_form(organised_event, name="Friday night II"))
    assert response.status_code == 302
    organised_event.refresh_from_db()
    assert organised_event.name == "Friday night II" and organised_event.rounds_planned == 3
    assert organised_event.pairing_modes == ["no-repeat"]
    assert organised_event.precedence == ["score", "placing_points"]
    assert organised_event.bye_policy == "zero"
    entry = EventLog.objects.get(event=organised_event, action="event_updated")
    assert entry.actor == "olga" and "precedence" in entry.data["changed"]
    body = text(organiser_client.get(event_url(organised_event, "organise_log")))
    assert "Settings changed:" in body and "standings precedence" in body


def test_settings_refusals(organiser_client, organised_event, build_round):
    register(organised_event, 3)
    build_round(organised_event)
    url = event_url(organised_event, "organise_settings")
    response = organiser_client.post(url, _settings_form(organised_event, rounds_planned="0"))
    assert response.status_code == 400
    assert "Ensure this value is greater than or equal to 1." in text(response)
    response = organiser_client.post(
        url, _settings_form(organised_event, precedence_1="lot", precedence_2="score")
    )
    assert response.status_code == 400
    assert "The drawing of lots must be the last tie-break" in text(response)
    Event.objects.filter(pk=organised_event.pk).update(status=Event.Status.CLOSED)
    response = organiser_client.post(url, _settings_form(organised_event))
    assert response.status_code == 409
    assert "the event is closed" in text(response)
    assert "The event is closed: its settings can no longer change." in text(
        organiser_client.get(url)
    )
    assert not EventLog.objects.filter(action="event_updated").exists()


def test_another_organiser_is_added_by_username(
    organiser_client, outsider_client, organised_event, make_user
):
    url = event_url(organised_event, "organise_organiser_add")
    dashboard = event_url(organised_event)
    assert outsider_client.get(dashboard).status_code == 403
    response = organiser_client.post(url, {"username": "nobody"})
    assert response.status_code == 400
    assert "there is no active user" in text(response)
    response = organiser_client.post(url, {"username": "otto"})
    assert response.status_code == 302
    assert outsider_client.get(dashboard).status_code == 200
    response = organiser_client.post(url, {"username": "otto"})
    assert response.status_code == 400 and "otto already organises this event" in text(response)
    entry = EventLog.objects.get(event=organised_event, action="organiser_added")
    assert (entry.actor, entry.data) == ("olga", {"username": "otto"})
    body = text(organiser_client.get(event_url(organised_event, "organise_settings")))
    assert "<li>olga</li>" in body and "<li>otto</li>" in body


def test_the_log_says_who_what_when_and_why(organiser_client, organised_event):
    entries = register(organised_event, 3)
    organiser_client.post(
        event_url(organised_event, "organise_withdraw", entries[2].pk), {"reason": "flu"}
    )
    body = text(organiser_client.get(event_url(organised_event, "organise_log")))
    assert "Player 003 withdrew." in body and "Why: flu" in body
    assert "Player 001 entered." in body and "Event created." in body
    assert "· olga" in body and "<time datetime=" in body
