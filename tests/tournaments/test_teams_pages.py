"""The teams page (tournaments.teams.views.organise_teams) without JavaScript: every form
posts and comes back; a refusal shows the page again with the words and what was typed."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments.events.services.registration import players_register
from tournaments.models import Event, EventLog, KeepApart, Team
from tournaments.teams.services import keep_apart_create, team_create

pytestmark = pytest.mark.django_db

NAMES = ["Ana Petrova", "Boris Ivanov", "Вера Колева", "Georgi Dimov"]


@pytest.fixture
def event(organised_event):
    players_register(event=organised_event, names=NAMES, checked_in=True)
    return organised_event


def url(event, name, *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def entry_pk(event, name):
    return event.entries.get(player__name=name).pk


def test_the_players_page_links_to_the_teams_page(event, organiser_client):
    page = organiser_client.get(url(event, "organise_players")).content.decode()
    assert url(event, "organise_teams") in page


def test_the_page_lists_teams_members_and_rules(event, organiser_client):
    team_create(event=event, name="Aces", entries=[event.entries.get(player__name="Ana Petrova")])
    pair = list(event.entries.filter(player__name__in=NAMES[1:3]))
    keep_apart_create(event=event, entries=pair, label="couple")
    page = organiser_client.get(url(event, "organise_teams"))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Aces" in html and "Ana Petrova" in html and "couple" in html
    assert 'name="viewport"' in html  # the phone's width (base template)
    assert html.count('type="checkbox"') == len(NAMES)  # every player can be picked


def test_making_a_team_posts_and_redirects(event, organiser_client):
    response = organiser_client.post(url(event, "organise_team_create"), {"name": "Aces"})
    team = Team.objects.get(event=event)
    assert response.status_code == 302
    assert response["Location"].endswith(f"#team-{team.pk}")
    page = organiser_client.get(response["Location"]).content.decode()
    assert "Team Aces made." in page


def test_a_taken_name_is_refused_with_the_name_kept(event, organiser_client):
    team_create(event=event, name="Aces")
    response = organiser_client.post(url(event, "organise_team_create"), {"name": "ACES"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "the event already has a team called ACES" in html
    assert 'value="ACES"' in html
    assert Team.objects.filter(event=event).count() == 1


def test_members_in_and_out_rename_and_delete(event, organiser_client):
    team = team_create(event=event, name="Aces")
    ana = entry_pk(event, "Ana Petrova")
    response = organiser_client.post(
        url(event, "organise_team_member_add", team.pk), {"entry": ana}
    )
    assert response.status_code == 302
    assert list(team.members.values_list("entry_id", flat=True)) == [ana]
    other = team_create(event=event, name="Kings")
    refused = organiser_client.post(
        url(event, "organise_team_member_add", other.pk), {"entry": ana}
    )
    assert refused.status_code == 409
    assert "Ana Petrova is already in the team Aces" in refused.content.decode()
    organiser_client.post(url(event, "organise_team_member_remove", team.pk, ana))
    assert not team.members.exists()
    organiser_client.post(url(event, "organise_team_rename", team.pk), {"name": "Jacks"})
    team.refresh_from_db()
    assert team.name == "Jacks"
    organiser_client.post(url(event, "organise_team_delete", team.pk))
    assert not Team.objects.filter(pk=team.pk).exists()
    assert EventLog.objects.filter(event=event, action="team_deleted").exists()


def test_another_events_team_is_not_found(event, organiser_client, organiser):
    from tournaments.events.services.event import event_create

    other = event_create(club=event.club, name="Saturday", organisers=[organiser])
    foreign = team_create(event=other, name="Theirs")
    response = organiser_client.post(url(event, "organise_team_delete", foreign.pk))
    assert response.status_code == 404
    assert Team.objects.filter(pk=foreign.pk).exists()


def test_a_pasted_list_of_teams(event, organiser_client):
    text = "Aces: ana petrova, Борис Иванов\n\nKings: Vera Koleva; Georgi Dimov\n"
    response = organiser_client.post(url(event, "organise_teams_paste"), {"text": text})
    assert response.status_code == 302
    teams = {
        t.name: sorted(t.members.values_list("entry__player__name", flat=True))
        for t in Team.objects.all()
    }
    assert teams == {
        "Aces": ["Ana Petrova", "Boris Ivanov"],
        "Kings": ["Georgi Dimov", "Вера Колева"],
    }


def test_a_bad_pasted_line_enters_nothing_and_keeps_the_text(event, organiser_client):
    text = "Aces: Ana Petrova\nKings: Nobody Known"
    response = organiser_client.post(url(event, "organise_teams_paste"), {"text": text})
    html = response.content.decode()
    assert response.status_code == 400
    assert "line 2: nobody entered is called Nobody Known" in html
    assert "Nobody Known</textarea>" in html
    assert not Team.objects.exists()
    response = organiser_client.post(url(event, "organise_teams_paste"), {"text": "no colon here"})
    assert response.status_code == 400
    assert "Line 1: write the team" in response.content.decode()


def test_keep_apart_from_the_page(event, organiser_client):
    chosen = [entry_pk(event, "Ana Petrova"), entry_pk(event, "Boris Ivanov")]
    response = organiser_client.post(
        url(event, "organise_apart_create"), {"entries": chosen, "label": "couple"}
    )
    assert response.status_code == 302 and response["Location"].endswith("#apart")
    rule = KeepApart.objects.get(event=event)
    assert rule.label == "couple" and sorted(rule.entries.values_list("pk", flat=True)) == sorted(
        chosen
    )
    one = organiser_client.post(url(event, "organise_apart_create"), {"entries": chosen[:1]})
    assert one.status_code == 400 and "Choose at least two players." in one.content.decode()
    organiser_client.post(url(event, "organise_apart_delete", rule.pk))
    assert not KeepApart.objects.exists()


def test_a_closed_event_shows_no_forms_and_refuses_posts(event, organiser_client):
    team = team_create(event=event, name="Aces")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)
    page = organiser_client.get(url(event, "organise_teams")).content.decode()
    assert url(event, "organise_team_create") not in page
    response = organiser_client.post(url(event, "organise_team_rename", team.pk), {"name": "X"})
    assert response.status_code == 409
    assert "the event is closed" in response.content.decode()


def test_the_page_in_bulgarian(event, organiser_client):
    organiser_client.cookies["django_language"] = "bg"
    with translation.override("bg"):
        html = organiser_client.get(
            url(event, "organise_teams"), HTTP_ACCEPT_LANGUAGE="bg"
        ).content.decode()
    assert "Отбори" in html and "Да не сядат заедно" in html


def test_strangers_are_refused(event, outsider_client, client):
    assert outsider_client.get(url(event, "organise_teams")).status_code == 403
    assert (
        outsider_client.post(url(event, "organise_team_create"), {"name": "X"}).status_code == 403
    )
    assert client.get(url(event, "organise_teams")).status_code == 302  # to the login
    assert not Team.objects.exists()


def test_the_draft_says_in_words_who_sits_together_against_a_rule(
    event, organiser_client, build_round
):
    round_ = build_round(event)
    table = round_.tables.order_by("number").first()
    a, b = sorted(table.seat_ids[:2])
    pair = list(event.entries.filter(player_id__in=[a, b]))
    keep_apart_create(event=event, entries=pair, label="couple")
    table.flags = [{"code": "apart", "players": [a, b]}, {"code": "teammates", "players": [a, b]}]
    table.save(update_fields=["flags"])
    names = dict(event.entries.values_list("player_id", "player__name"))
    page = organiser_client.get(reverse("tournaments:organise_round", args=[event.slug, 1]))
    html = page.content.decode()
    assert (
        f"{names[a]} and {names[b]} are seated together although they must be kept apart "
        "(reason: couple)."
    ) in html
    assert f"{names[a]} and {names[b]} are teammates." in html


@pytest.mark.parametrize(
    ("name", "said"),
    [("", "a team needs a name"), ("x" * 81, "a team&#x27;s name has at most 80 characters")],
)
def test_a_name_empty_or_too_long_is_said_in_the_sites_words(event, organiser_client, name, said):
    team = team_create(event=event, name="Aces")
    made = organiser_client.post(url(event, "organise_team_create"), {"name": name})
    assert made.status_code == 400 and said in made.content.decode()
    renamed = organiser_client.post(url(event, "organise_team_rename", team.pk), {"name": name})
    assert renamed.status_code == 400 and said in renamed.content.decode()
    assert list(Team.objects.values_list("name", flat=True)) == ["Aces"]
