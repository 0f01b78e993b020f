"""Names a club player types: Cyrillic clubs and events get readable addresses (Bulgaria's
official transliteration), a pasted "Гошо, Тошо" is two players, and a name too long is
refused in words, its limit the same on every page and in the API."""

import json

import pytest
from django.urls import reverse

from scoring.names import MAX_NAME, MAX_TITLE, in_latin
from tournaments.common import tokens
from tournaments.common.errors import TournamentError
from tournaments.events.csv_import import names_from_text
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


# --- addresses --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cyrillic", "latin"),
    [
        ("Клуб „Блато“ Пловдив", 'Klub "Blato" Plovdiv'),
        ("Щастливец", "Shtastlivets"),
        ("Жечо Чавдаров Шумен", "Zhecho Chavdarov Shumen"),
        ("Юлия Янкова", "Yulia Yankova"),  # -ия at a word's end is -ia
        ("България, Йордан Христов", "Balgaria, Yordan Hristov"),
        ("ЩАСТИЕ", "SHTASTIE"),
        ("Iván 3", "Ivan 3"),  # not Cyrillic: anyascii
        ("Эрик Ёлкин", "Erik Elkin"),  # not Bulgarian letters: anyascii
    ],
)
def test_cyrillic_is_written_by_the_bulgarian_official_system(cyrillic, latin):
    assert in_latin(cyrillic) == latin


def test_a_cyrillic_club_and_its_events_get_readable_addresses(organiser):
    club = club_create(name="Клуб „Блато“ Пловдив", creator=organiser)
    assert club.slug == "klub-blato-plovdiv"
    again = club_create(name="Клуб Блато – Пловдив", creator=organiser)
    assert again.slug == "klub-blato-plovdiv-2"  # unique, as before
    first = event_create(club=club, name="Турнир 26", by=organiser)
    second = event_create(club=club, name="Вечер на щастието", by=organiser)
    assert (first.slug, second.slug) == ("turnir-26", "vecher-na-shtastieto")
    assert reverse("tournaments:club", args=[club.slug]) == "/clubs/klub-blato-plovdiv/"


def test_a_name_with_no_letters_at_all_is_named_by_its_kind(organiser):
    club = club_create(name="!!!", creator=organiser)
    assert club.slug == "club"
    assert event_create(club=club, name="…", by=organiser).slug == "event"


# --- a pasted list ----------------------------------------------------------------------------


def test_commas_and_semicolons_separate_pasted_names():
    parsed = names_from_text("Гошо, Тошо\nАна;Вера ;\nГошо")
    assert parsed.names == ["Гошо", "Тошо", "Ана", "Вера"]
    assert parsed.duplicates == [(3, "Гошо")] and parsed.errors == []


def test_pasting_gosho_and_tosho_enters_two_players(organiser_client, organised_event):
    paste = reverse("tournaments:organise_players_paste", args=[organised_event.slug])
    response = organiser_client.post(paste, {"names": "Гошо, Тошо"})
    assert response.status_code == 302
    entered = Entry.objects.filter(event=organised_event).values_list("player__name", flat=True)
    assert sorted(entered) == ["Гошо", "Тошо"]


def test_a_name_holding_a_comma_is_refused_in_words_everywhere(organiser, organised_event):
    with pytest.raises(TournamentError) as refused:
        players_register(event=organised_event, names=["Гошо, Тошо"], by=organiser)
    assert refused.value.code == "name_is_a_list"
    assert "Гошо, Тошо" in refused.value.message and "one name" in refused.value.message
    csv_cell = names_from_text('name,club\n"Ivanov, Boris",A\n')
    assert [error.code for error in csv_cell.errors] == ["line_name_is_a_list"]


def test_the_api_refuses_a_names_item_holding_two_names(client, organiser, organised_event):
    token = tokens.token_issue(user=organiser)
    response = client.post(
        f"/api/events/{organised_event.slug}/players",
        json.dumps({"names": ["Гошо; Тошо"]}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 400
    assert "Гошо; Тошо" in response.json()["error"]["message"]
    assert not Entry.objects.filter(event=organised_event).exists()


# --- one limit, refused in words --------------------------------------------------------------


def test_the_limits_come_from_one_place():
    from tournaments.clubs.views import organise_seasons
    from tournaments.common import event_settings
    from tournaments.events import forms

    assert event_settings.MAX_EVENT_NAME == MAX_TITLE
    assert forms.ClubForm().fields["name"].max_length == MAX_TITLE
    assert forms.EventSettingsForm().fields["name"].max_length == MAX_TITLE
    assert organise_seasons.SeasonForm().fields["name"].max_length == MAX_TITLE
    assert forms.PlayerForm().fields["name"].max_length == MAX_NAME


def test_a_club_name_too_long_is_refused_by_the_service_in_words(organiser):
    with pytest.raises(TournamentError) as refused:
        club_create(name="Клуб " * 40, creator=organiser)
    assert str(MAX_TITLE) in refused.value.message


def test_the_name_boxes_of_the_pages_take_their_limit_from_the_rule(
    monkeypatch, organiser, organiser_client, organised_event, client
):
    """A box's maxlength is the rule's limit, never a number of its own that could disagree
    with the server's refusal (the rule moved to 70 here, so a written-in 80 shows)."""
    players_register(event=organised_event, names=["Ана"], by=organiser)
    monkeypatch.setattr("scoring.names.MAX_NAME", 70)
    club, event = organised_event.club.slug, organised_event.slug
    pages = [
        (organiser_client, reverse("tournaments:organise_club", args=[club])),
        (organiser_client, reverse("tournaments:organise_casual_game", args=[club])),
        (organiser_client, reverse("tournaments:organise_members_pick", args=[event])),
        (client, reverse("tournaments:seat", args=[event])),
    ]
    for who, page in pages:
        body = who.get(page).content.decode()
        assert 'maxlength="70"' in body and 'maxlength="80"' not in body, page


def test_a_casual_game_name_too_long_is_refused_in_words(organiser_client, organised_event):
    page = reverse("tournaments:organise_casual_game", args=[organised_event.club.slug])
    seats = {"seat_0": "А" * (MAX_NAME + 1), "seat_1": "Боби", "seat_2": "Вера"}
    response = organiser_client.post(page, seats)
    assert response.status_code == 400
    assert f"at most {MAX_NAME} characters" in response.content.decode()


def test_an_event_name_too_long_is_refused_in_words_not_cut(organiser):
    from django.utils import translation

    from tournaments.events.forms import EventSettingsForm

    long_name = "Турнир " * 20  # 140 characters, pasted into the box
    with translation.override("bg"):
        errors = EventSettingsForm({"name": long_name}).errors["name"]
    assert errors and str(MAX_TITLE) in errors[0]
    with pytest.raises(TournamentError) as refused:
        event_create(club=club_create(name="Клуб", creator=organiser), name=long_name, by=organiser)
    assert refused.value.code == "event_name_too_long"


def test_a_backup_made_before_the_comma_rule_still_restores(organiser, organised_event):
    """A name stored before a comma was refused ("Ivanov, Boris") stays restorable: the rule
    is for names typed from now on, and a backup brings back what was."""
    from tournaments import backup
    from tournaments.models import Player

    older = Player.objects.create(club=organised_event.club, name="Ivanov, Boris")
    Entry.objects.create(event=organised_event, player=older)
    data = json.loads(json.dumps(backup.event_export(event=organised_event)))
    organised_event.delete()
    older.delete()
    imported = backup.event_import(data=data)
    assert imported.event.entries.get().player.name == "Ivanov, Boris"


def test_a_seat_taken_over_at_a_game_with_an_older_comma_name_is_judged_alone():
    from scoring import services as scoring
    from scoring.errors import ScoringError
    from scoring.models import Game

    game = scoring.game_create(ruleset="blato", players=["Ана", "Боби", "Вера"], actor="t")
    Game.objects.filter(pk=game.pk).update(players=["Иванов, Борис", "Боби", "Вера"])
    taken = scoring.seat_substitute(game_id=game.pk, seat=1, name="Гошо", actor="t", reason="ill")
    assert taken.players == ["Иванов, Борис", "Гошо", "Вера"]
    with pytest.raises(ScoringError) as refused:
        scoring.seat_substitute(game_id=game.pk, seat=2, name="Гошо; Тошо", actor="t", reason="x")
    assert refused.value.code == "name_is_a_list"
