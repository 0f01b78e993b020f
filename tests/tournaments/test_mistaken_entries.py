"""A name entered by mistake: an entry that never played (no table, no bye) is deleted,
logged, with the member record made for it; one that played is refused at once. The
players page names the names that look alike and offers both ways out: delete the mistake,
or merge the two records, side by side with their history, the one with more preselected."""

import random
import re

import pytest
from django.urls import reverse

from tournaments.common.errors import NotAllowed
from tournaments.events.services.registration import entry_delete, players_register
from tournaments.models import Entry, EventLog, Player
from tournaments.results.services import result_confirm
from tournaments.rounds.services.rounds import round_close

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def entry_of(event, name) -> Entry:
    return Entry.objects.select_related("player").get(event=event, player__name=name)


# --- the service --------------------------------------------------------------------------------


def test_an_entry_that_never_played_is_deleted_and_logged(organised_event):
    players_register(event=organised_event, names=["Ivan Petrov", "Ivan Petrof"])
    typo = entry_of(organised_event, "Ivan Petrof")
    entry_delete(entry=typo, actor="olga", reason="entered by mistake")
    assert not Entry.objects.filter(pk=typo.pk).exists()
    assert not Player.objects.filter(pk=typo.player_id).exists()  # nothing else was his
    log = EventLog.objects.get(event=organised_event, action="entry_deleted")
    assert log.data["name"] == "Ivan Petrof" and log.reason == "entered by mistake"


def test_the_member_stays_when_another_event_has_them(organised_event, make_user):
    from tournaments.events.services.event import event_create

    other = event_create(club=organised_event.club, name="Saturday")
    players_register(event=organised_event, names=["Vera"])
    players_register(event=other, names=["Vera"])
    entry_delete(entry=entry_of(organised_event, "Vera"), actor="olga")
    assert Player.objects.filter(name="Vera").exists()
    assert entry_of(other, "Vera")


def test_an_entry_that_played_or_sits_in_a_draft_is_refused(organised_event, build_round):
    register(organised_event, 6)
    build_round(organised_event)  # a draft seats everyone checked in
    seated = organised_event.entries.select_related("player").first()
    with pytest.raises(NotAllowed) as refused:
        entry_delete(entry=seated, actor="olga")
    assert refused.value.message == (
        f"{seated.player.name} has a seat in this event: withdraw them instead"
    )
    assert Entry.objects.filter(pk=seated.pk).exists()


# --- the players page ---------------------------------------------------------------------------


def test_names_alike_offer_delete_and_merge(organiser_client, organised_event):
    players_register(event=organised_event, names=["Ivan Petrov", "Ivan Petrof", "Ana"])
    typo = entry_of(organised_event, "Ivan Petrof")
    real = entry_of(organised_event, "Ivan Petrov")
    players = reverse("tournaments:organise_players", args=[organised_event.slug])
    page = text(organiser_client.get(players))
    assert "Names that look alike" in page
    delete = reverse("tournaments:organise_entry_delete", args=[organised_event.slug, typo.pk])
    assert f'action="{delete}"' in page
    merge = reverse(
        "tournaments:organise_member_merge", args=[organised_event.club.slug, typo.player_id]
    )
    assert f"{merge}?other={real.player_id}" in page

    answer = organiser_client.post(delete)
    assert answer.status_code == 302 and answer["Location"] == players
    page = text(organiser_client.get(players))
    assert "Ivan Petrof deleted." in page and "Names that look alike" not in page


def test_the_warning_after_adding_a_near_name_points_to_both_ways_out(
    organiser_client, organised_event
):
    players_register(event=organised_event, names=["Ivan Petrov"])
    add = reverse("tournaments:organise_player_add", args=[organised_event.slug])
    page = text(organiser_client.post(add, {"name": "Ivan Petrof"}, follow=True))
    assert "withdraw one entry" not in page
    assert "delete the one entered by mistake, or merge the two" in page


def test_the_merge_page_shows_both_records_and_keeps_the_one_with_more_history(
    organiser_client, organised_event, build_round
):
    register(organised_event, 5)
    players_register(event=organised_event, names=["Player 01x"], checked_in=False)
    round_ = build_round(organised_event, publish=True)
    rng = random.Random(2)
    for table in round_.tables.all():
        finish_game(table.game, rng)
        result_confirm(table=table, actor="olga")
    round_close(round_=round_, actor="olga")
    played = organised_event.entries.get(player=round_.tables.first().seat_0)
    typo = entry_of(organised_event, "Player 01x")
    # coming from the typo, as the players page links it
    club = organised_event.club.slug
    url = reverse("tournaments:organise_member_merge", args=[club, typo.player_id])
    page = text(organiser_client.get(url, {"other": played.player_id}))
    assert "Friday night" in page  # the events of each, side by side
    assert re.search(rf'value="{played.player_id}"[^>]*checked', page), "more history stays"
    assert not re.search(rf'value="{typo.player_id}"[^>]*checked', page)
    games = re.findall(r'class="history-games">([^<]*)<', page)
    assert games == ["0 games", "1 game"] or games == ["1 game", "0 games"]


def test_a_merge_from_the_players_page_returns_to_that_page(organiser_client, organised_event):
    """Reached from the near-name warning on an event's players page, the merge returns
    there (the event named by its slug, never an address), not to the club's page."""
    players_register(event=organised_event, names=["Ivan Petrov", "Ivan Petrof"])
    typo = entry_of(organised_event, "Ivan Petrof")
    real = entry_of(organised_event, "Ivan Petrov")
    slug, club = organised_event.slug, organised_event.club.slug
    players = reverse("tournaments:organise_players", args=[slug])
    merge = reverse("tournaments:organise_member_merge", args=[club, typo.player_id])
    page = text(organiser_client.get(players))
    link = f"{merge}?other={real.player_id}&amp;event={slug}"
    assert link in page  # the warning's link says where it came from
    side_by_side = text(organiser_client.get(merge, {"other": real.player_id, "event": slug}))
    assert '<input type="hidden" name="event" value="' + slug + '">' in side_by_side
    assert f'href="{players}"' in side_by_side  # and offers the way back
    done = organiser_client.post(
        merge, {"other": real.player_id, "keep": real.player_id, "event": slug}
    )
    assert done.status_code == 302 and done["Location"] == players
    assert not Player.objects.filter(pk=typo.player_id).exists()
    assert "Ivan Petrof merged into Ivan Petrov." in text(organiser_client.get(players))


@pytest.mark.parametrize(
    "came_from", ["https://evil.example/", "//evil.example/x", "/organise/", "no-such-event", ""]
)
def test_a_merge_goes_back_to_no_other_place_than_the_clubs_own_event(
    organiser_client, organised_event, came_from
):
    players_register(event=organised_event, names=["Ivan Petrov", "Ivan Petrof"])
    typo = entry_of(organised_event, "Ivan Petrof")
    real = entry_of(organised_event, "Ivan Petrov")
    club = organised_event.club.slug
    merge = reverse("tournaments:organise_member_merge", args=[club, typo.player_id])
    done = organiser_client.post(
        merge, {"other": real.player_id, "keep": real.player_id, "event": came_from}
    )
    assert done.status_code == 302
    assert done["Location"] == reverse("tournaments:organise_club", args=[club])


def test_a_merge_returns_to_no_event_of_another_club(organiser_client, organised_event, organiser):
    from tournaments.events.services.event import club_create, event_create

    elsewhere = event_create(
        club=club_create(name="Elsewhere"), name="Their night", organisers=[organiser]
    )
    players_register(event=organised_event, names=["Ivan Petrov", "Ivan Petrof"])
    typo = entry_of(organised_event, "Ivan Petrof")
    real = entry_of(organised_event, "Ivan Petrov")
    club = organised_event.club.slug
    merge = reverse("tournaments:organise_member_merge", args=[club, typo.player_id])
    done = organiser_client.post(
        merge, {"other": real.player_id, "keep": real.player_id, "event": elsewhere.slug}
    )
    assert done["Location"] == reverse("tournaments:organise_club", args=[club])
