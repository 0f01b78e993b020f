"""One source of "the standings are stale": the event's results_version, moved by
every write that changes what the standings are built from, against the version the newest
snapshot was built from. Pages, polls, the API, the worker's wait and the sweep all ask it.

Before, two rules said it (bridge.results_stamp, a fingerprint, and
selectors.results_newer_than, a query on times), and they had to be kept in agreement."""

import pytest

from scoring import services as scoring
from tournaments import tasks
from tournaments.common import event_settings
from tournaments.events.services.event import club_create, event_create, event_update
from tournaments.events.services.registration import entry_check_in, players_register
from tournaments.models import Event, Round
from tournaments.results.selectors import standings_head, standings_latest
from tournaments.results.services import result_reopen, standings_build
from tournaments.results.sweep import events_with_stale_standings
from tournaments.rounds.services import walkouts
from tournaments.rounds.services.rounds import round_close, round_create, round_publish

from .test_services import _rotate, play_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hold_builds(monkeypatch):
    """Standings builds are enqueued but never run, as with a broker down."""
    monkeypatch.setattr(tasks.build_standings, "delay", lambda *args, **kwargs: None)


def make_event(count: int) -> Event:
    event = event_create(club=club_create(name="Club"), name="Open", rounds_planned=3, seed=5)
    names = [f"Player {n}" for n in range(1, count + 1)]
    players_register(event=event, names=names, checked_in=True)
    return event


def publish_round(event) -> Round:
    return round_publish(round_=round_create(event=event))


def stale(event) -> bool:
    return standings_head(event).stale


def test_every_change_to_what_the_standings_count_makes_them_stale_and_a_build_fresh(
    hold_builds,
):
    event = make_event(7)
    assert stale(event)  # no snapshot yet
    round_ = publish_round(event)  # with a bye
    assert stale(event)
    standings_build(event_id=event.pk)
    tables = list(round_.tables.select_related("game").order_by("number"))
    changes = [
        ("a confirmed result", lambda: play_table(tables[0])),
        (
            "a reopened result",
            lambda: result_reopen(table=tables[0], actor="o", reason="x"),
        ),
        ("a new player", lambda: players_register(event=event, names=["Late"])),
        ("a void table", lambda: walkouts.table_void(table=tables[1], reason="left", actor="o")),
    ]
    for what, change in changes:
        assert not stale(event), what
        change()
        assert stale(event), what
        standings_build(event_id=event.pk)
        assert not stale(event), what


def test_what_the_standings_do_not_count_leaves_them_fresh(hold_builds):
    event = make_event(6)
    round_ = publish_round(event)
    standings_build(event_id=event.pk)
    table = round_.tables.select_related("game").first()
    game = table.game
    scoring.deal_record(
        game_id=game.pk,
        number=1,
        calls=["spades"],
        tricks=list(_rotate((3, 8, 5), game.first_dealer, 1)),
    )  # a deal in play
    event_update(event=event, name="Renamed")  # a name is not a result
    entry_check_in(entry=event.entries.first(), checked_in=False)
    assert not stale(event)
    assert standings_build(event_id=event.pk) == event.standings.first()  # nothing new


def test_closing_a_round_and_a_standings_setting_make_them_stale(hold_builds):
    event = make_event(6)
    round_ = publish_round(event)
    for table in round_.tables.all():
        play_table(table)
    standings_build(event_id=event.pk)
    round_close(round_=round_)
    assert stale(event)
    standings_build(event_id=event.pk)
    for setting, value in [
        ("precedence", ["score", "placing_points"]),
        ("placing_points", [3, 1, 0]),
        ("bye_policy", "zero"),
        ("void_policy", "none"),
    ]:
        assert setting in event_settings.STANDINGS_SETTINGS
        event_update(event=event, **{setting: value})
        assert stale(event), setting
        standings_build(event_id=event.pk)
        assert not stale(event), setting


def test_an_old_copy_of_the_event_never_writes_an_older_version_back(hold_builds):
    event = make_event(6)
    old_copy = Event.objects.get(pk=event.pk)
    publish_round(event)
    standings_build(event_id=event.pk)
    old_copy.name = "Saved from an old copy"
    old_copy.save()
    assert not stale(event)  # the build saw the round; the old copy did not undo that
    assert Event.objects.get(pk=event.pk).results_version > old_copy.results_version


def test_the_sweep_pages_and_the_snapshot_agree(hold_builds):
    event = make_event(6)
    round_ = publish_round(event)
    snapshot = standings_build(event_id=event.pk)
    assert events_with_stale_standings() == []
    assert standings_latest(event).stale is False
    play_table(round_.tables.first())
    event.refresh_from_db()
    assert not snapshot.is_current(event)
    assert events_with_stale_standings() == [event.pk]
    assert standings_latest(event).stale is True  # read fresh, not off `event`
    assert stale(event)


def test_a_result_confirmed_in_a_transaction_that_rolls_back_moves_nothing(hold_builds):
    """Scoring tells the standings inside its transaction: a result that never commits
    never marks them stale (nor is a build enqueued for it)."""
    from django.db import transaction

    event = make_event(3)
    round_ = publish_round(event)
    standings_build(event_id=event.pk)
    table = round_.tables.select_related("game").get()
    with pytest.raises(RuntimeError), transaction.atomic():
        play_table(table)
        assert stale(event)
        raise RuntimeError("rolled back")
    assert not stale(event)
