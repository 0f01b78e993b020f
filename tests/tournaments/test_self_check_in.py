"""Players check themselves in (tournaments.events.services.check_in): the organiser opens and
closes it, a proven phone checks in its own player and no one else, a newcomer asks to be
entered and the organiser accepts or declines, the requests are throttled, and each step is
in the event's log."""

from __future__ import annotations

import pytest

from tournaments.club_models import NewcomerRequest
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.events.services import check_in
from tournaments.events.services.registration import (
    entries_check_in_all,
    entry_check_in,
    entry_withdraw,
    players_register,
)
from tournaments.models import Entry, Event, EventLog

pytestmark = pytest.mark.django_db


def actions(event) -> list[str]:
    return list(
        EventLog.objects.filter(event=event).order_by("pk").values_list("action", flat=True)
    )


@pytest.fixture
def door(organised_event, organiser):
    """The organised event with three players entered, none checked in, self check-in open."""
    players_register(event=organised_event, names=["Ana", "Борис", "Vera"], by=organiser)
    check_in.self_check_in_set(event=organised_event, open=True, actor="olga")
    organised_event.refresh_from_db()
    return organised_event


def entry(event, name) -> Entry:
    return Entry.objects.select_related("player").get(event=event, player__name=name)


def test_opening_and_closing_are_logged_once(organised_event):
    assert not organised_event.self_check_in
    check_in.self_check_in_set(event=organised_event, open=True, actor="olga")
    check_in.self_check_in_set(event=organised_event, open=True, actor="olga")  # nothing new
    assert Event.objects.get(pk=organised_event.pk).self_check_in
    check_in.self_check_in_set(event=organised_event, open=False, actor="olga")
    assert not Event.objects.get(pk=organised_event.pk).self_check_in
    assert actions(organised_event)[-2:] == ["self_check_in_opened", "self_check_in_closed"]
    assert actions(organised_event).count("self_check_in_opened") == 1


def test_a_closed_event_does_not_open_self_check_in(organised_event):
    Event.objects.filter(pk=organised_event.pk).update(status=Event.Status.CLOSED)
    organised_event.refresh_from_db()
    with pytest.raises(NotAllowed):
        check_in.self_check_in_set(event=organised_event, open=True)


def test_a_proven_phone_checks_in_its_own_player(door):
    ana = entry(door, "Ana")
    checked = check_in.self_check_in(event=door, entry=ana, proven=ana)
    checked.refresh_from_db()
    assert checked.checked_in and checked.checked_in_by == "phone"
    assert checked.checked_in_at is not None
    assert actions(door)[-1] == "self_checked_in"
    again = check_in.self_check_in(event=door, entry=ana, proven=ana)  # a second tap
    assert again.checked_in and actions(door).count("self_checked_in") == 1


def test_a_phone_proven_as_one_player_cannot_check_in_another(door):
    ana, boris = entry(door, "Ana"), entry(door, "Борис")
    with pytest.raises(check_in.NotThisPhone) as refused:
        check_in.self_check_in(event=door, entry=boris, proven=ana)
    assert refused.value.kind == "forbidden"
    with pytest.raises(check_in.NotThisPhone):
        check_in.self_check_in(event=door, entry=boris, proven=None)
    assert not entry(door, "Борис").checked_in


def test_self_check_in_closed_refuses_a_proven_phone(door):
    check_in.self_check_in_set(event=door, open=False)
    ana = entry(door, "Ana")
    with pytest.raises(NotAllowed) as refused:
        check_in.self_check_in(event=door, entry=ana, proven=ana)
    assert refused.value.code == "self_check_in_closed"
    assert not entry(door, "Ana").checked_in


def test_a_withdrawn_player_does_not_check_in(door):
    vera = entry(door, "Vera")
    entry_withdraw(entry=vera, actor="olga")
    with pytest.raises(NotAllowed) as refused:
        check_in.self_check_in(event=door, entry=vera, proven=vera)
    assert refused.value.code == "player_withdrawn"


def test_the_organiser_sees_how_and_undoes_a_phone_check_in(door):
    ana = entry(door, "Ana")
    check_in.self_check_in(event=door, entry=ana, proven=ana)
    entry_check_in(entry=entry(door, "Ana"), checked_in=False, actor="olga")
    undone = entry(door, "Ana")
    assert not undone.checked_in and undone.checked_in_by == "" and undone.checked_in_at is None
    assert actions(door)[-1] == "check_in_undone"
    entry_check_in(entry=entry(door, "Vera"), checked_in=True, actor="olga")
    assert entry(door, "Vera").checked_in_by == "organiser"
    entry_check_in(entry=entry(door, "Vera"), checked_in=False, actor="olga")
    assert actions(door)[-1] == "checked_out"  # the organiser's own check-in: a check-out


def test_checking_in_everyone_is_by_the_organiser(door):
    ana = entry(door, "Ana")
    check_in.self_check_in(event=door, entry=ana, proven=ana)
    entries_check_in_all(event=door, actor="olga")
    by = dict(door.entries.values_list("player__name", "checked_in_by"))
    assert by == {"Ana": "phone", "Борис": "organiser", "Vera": "organiser"}


def test_a_newcomer_asks_and_the_organiser_accepts(door, organiser):
    asked = check_in.newcomer_ask(event=door, name="  Dimitar   Ivanov ", address="10.0.0.1")
    assert asked.name == "Dimitar Ivanov"
    same = check_in.newcomer_ask(event=door, name="dimitar ivanov", address="10.0.0.2")
    assert same.pk == asked.pk and door.newcomers.count() == 1
    entered = check_in.newcomer_accept(request=asked, actor="olga", by=organiser)
    entered.refresh_from_db()
    assert entered.player.name == "Dimitar Ivanov"
    assert entered.checked_in and entered.checked_in_by == "organiser"
    assert not NewcomerRequest.objects.filter(entry__isnull=True).exists()  # none waits
    assert actions(door)[-3:] == ["newcomer_asked", "player_entered", "newcomer_accepted"]
    with pytest.raises(NotAllowed):  # answered already (a second tap)
        check_in.newcomer_accept(request=asked, actor="olga", by=organiser)


def test_the_organiser_declines_a_request(door):
    asked = check_in.newcomer_ask(event=door, name="Joke Name", address="10.0.0.1")
    assert check_in.newcomer_decline(request=asked, actor="olga") == "Joke Name"
    assert not door.newcomers.exists()
    assert not door.entries.filter(player__name="Joke Name").exists()
    assert actions(door)[-1] == "newcomer_declined"


def test_only_an_outsider_of_the_event_accepts_nobody(door, make_user):
    asked = check_in.newcomer_ask(event=door, name="Dimitar", address="10.0.0.1")
    with pytest.raises(TournamentError):
        check_in.newcomer_accept(request=asked, actor="x", by=make_user("mallory"))
    assert door.newcomers.count() == 1


def test_a_name_on_the_list_is_found_not_asked_for(door):
    with pytest.raises(TournamentError) as refused:
        check_in.newcomer_ask(event=door, name="ana", address="10.0.0.1")
    assert refused.value.code == "newcomer_entered"


def test_requests_are_refused_while_closed(door):
    check_in.self_check_in_set(event=door, open=False)
    with pytest.raises(NotAllowed):
        check_in.newcomer_ask(event=door, name="Dimitar", address="10.0.0.1")


def test_one_phone_cannot_flood_the_organiser_with_requests(door):
    for n in range(check_in.ADDRESS_REQUESTS_ALLOWED):
        check_in.newcomer_ask(event=door, name=f"Newcomer {n}", address="10.0.0.9")
    with pytest.raises(check_in.RequestsBlocked) as refused:
        check_in.newcomer_ask(event=door, name="One more", address="10.0.0.9")
    assert refused.value.kind == "rejected"
    other = check_in.newcomer_ask(event=door, name="One more", address="10.0.0.10")
    assert other.name == "One more"


def test_no_more_than_max_waiting_requests_wait(door, monkeypatch):
    monkeypatch.setattr(check_in, "MAX_WAITING", 2)
    check_in.newcomer_ask(event=door, name="First", address="10.0.0.1")
    check_in.newcomer_ask(event=door, name="Second", address="10.0.0.2")
    with pytest.raises(check_in.RequestsBlocked):
        check_in.newcomer_ask(event=door, name="Third", address="10.0.0.3")


def test_a_request_under_a_withdrawn_players_name_is_not_accepted(door, organiser):
    entry_withdraw(entry=entry(door, "Vera"), actor="olga")
    asked = check_in.newcomer_ask(event=door, name="vera", address="10.0.0.1")
    with pytest.raises(NotAllowed) as refused:
        check_in.newcomer_accept(request=asked, actor="olga", by=organiser)
    assert refused.value.code == "player_withdrawn"
    assert door.newcomers.count() == 1 and not entry(door, "Vera").checked_in


def test_a_flood_is_logged_once_a_window(door, caplog):
    for n in range(check_in.ADDRESS_REQUESTS_ALLOWED):
        check_in.newcomer_ask(event=door, name=f"Newcomer {n}", address="10.0.0.9")
    for n in range(3):
        with pytest.raises(check_in.RequestsBlocked):
            check_in.newcomer_ask(event=door, name=f"Flood {n}", address="10.0.0.9")
    refused = [r for r in caplog.records if r.name == "tournaments.check_in"]
    assert len(refused) == 1 and "10.0.0.9" not in refused[0].getMessage()


def test_the_organisers_check_in_of_a_player_in_already_keeps_how_they_came(door):
    ana = entry(door, "Ana")
    check_in.self_check_in(event=door, entry=ana, proven=ana)
    entry_check_in(entry=entry(door, "Ana"), checked_in=True, actor="olga")
    assert entry(door, "Ana").checked_in_by == "phone"
