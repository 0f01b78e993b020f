"""Club ratings: every confirmed game rated by its placings, rounds in order, each round's
games from the ratings before it; an older change re-rates from there; a rebuild equals the
incremental result. The expected numbers come from `openskill` itself, not through
tournaments.ratings."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scoring import autoplay
from scoring import services as scoring
from tests.tournaments.season_nights import MEMBERS, play_night
from tournaments.clubs.services import ratings as rate
from tournaments.events.services.event import event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Club, ClubGame, Rating, RatingStep, Round, Table
from tournaments.ratings import Batch, RatedGame, rate_batch, rate_batches
from tournaments.results.services import result_confirm
from tournaments.rounds.services import walkouts
from tournaments.rounds.services.rounds import round_create, round_pair, round_publish

pytestmark = pytest.mark.django_db


def expected(club: Club) -> dict[int, tuple[float, float, int]]:
    """The club's ratings computed from scratch with openskill: rounds by publication, each
    round's confirmed tables from the ratings before the round."""
    model = PlackettLuce()
    now: dict[int, tuple[float, float]] = {}
    games: dict[int, int] = {}
    rounds = Round.objects.filter(event__club=club).order_by("published_at", "event_id", "number")
    for round_ in rounds:
        before = dict(now)
        for table in round_.tables.select_related("game").order_by("number"):
            if table.game is None or not table.game.confirmed:
                continue
            seats = table.seat_ids
            teams = [[model.rating(*before.get(p, (model.mu, model.sigma)))] for p in seats]
            ranks = [table.game.placings.index(seat) + 1 for seat in range(3)]
            for player, (new,) in zip(seats, model.rate(teams, ranks=ranks), strict=True):
                now[player] = (new.mu, new.sigma)
                games[player] = games.get(player, 0) + 1
    return {p: (mu, sigma, games[p]) for p, (mu, sigma) in now.items()}


def stored(club: Club) -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.filter(player__club=club)}


def assert_close(got, want):
    assert got.keys() == want.keys()
    for player, (mu, sigma, games) in want.items():
        assert got[player][0] == pytest.approx(mu, abs=1e-9)
        assert got[player][1] == pytest.approx(sigma, abs=1e-9)
        assert got[player][2] == games


def nights(club, capture, count=3, names=MEMBERS, rounds=2):
    with capture(execute=True):
        return [
            play_night(club, f"Night {n}", names, seed=n, rounds=rounds)
            for n in range(1, count + 1)
        ]


@pytest.fixture
def club():
    return Club.objects.create(name="Club", slug="club")


def test_three_nights_are_rated_as_openskill_rates_them(club, django_capture_on_commit_callbacks):
    nights(club, django_capture_on_commit_callbacks)
    want = expected(club)
    assert len(want) == len(MEMBERS)
    assert_close(stored(club), want)
    for rating in Rating.objects.filter(player__club=club):
        assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)
    # six players, two tables a round, six rounds: 36 steps
    assert RatingStep.objects.filter(club=club).count() == 36


def test_a_rebuild_equals_the_incremental_result_exactly(club, django_capture_on_commit_callbacks):
    nights(club, django_capture_on_commit_callbacks, names=MEMBERS + ["Ivo", "Mila", "Pavel"])
    before = stored(club)
    steps = list(RatingStep.objects.values_list("game_id", "player_id", "mu", "sigma", "place"))
    rate.rebuild(club)
    assert stored(club) == before  # exactly: the same floats
    again = list(RatingStep.objects.values_list("game_id", "player_id", "mu", "sigma", "place"))
    assert sorted(again) == sorted(steps)


def test_a_reopened_result_rerates_from_its_round(club, django_capture_on_commit_callbacks):
    first, *_ = nights(club, django_capture_on_commit_callbacks)
    table = Table.objects.filter(round__event=first, round__number=1).order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        scoring.game_reopen(game_id=table.game_id, actor="test", reason="wrong tricks")
    assert not RatingStep.objects.filter(game_id=table.game_id).exists()
    assert_close(stored(club), expected(club))
    # corrected the other way round, and confirmed again
    game = table.game
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        scoring.game_adjust(
            game_id=game.pk,
            placings=list(reversed(game.placings)),
            totals=None,
            actor="test",
            reason="corrected",
        )
        scoring.game_confirm(game_id=game.pk, actor="test")
    assert RatingStep.objects.filter(game_id=game.pk).count() == 3
    assert_close(stored(club), expected(club))


def test_a_confirmation_in_an_older_round_rerates_after_it(
    club, django_capture_on_commit_callbacks
):
    """A table of an earlier round (another event's) confirmed after a later round was rated
    moves everything after it."""
    event = event_create(club=club, name="Late table", rounds_planned=1, seed=3)
    players_register(event=event, names=MEMBERS, checked_in=True)
    round_ = round_pair(round_id=round_create(event=event, actor="t").pk)
    round_publish(round_=round_, actor="t")
    late, on_time = round_.tables.select_related("game").order_by("number")
    rng = random.Random(3)
    with django_capture_on_commit_callbacks(execute=True):
        for table in (late, on_time):
            autoplay.play(table.game, rng, actor="t")
        result_confirm(table=on_time, actor="t")
    nights(club, django_capture_on_commit_callbacks, count=1)
    assert_close(stored(club), expected(club))
    with django_capture_on_commit_callbacks(execute=True):
        result_confirm(table=late, actor="t")
    assert RatingStep.objects.filter(game_id=late.game_id).count() == 3
    assert_close(stored(club), expected(club))


def test_a_substitute_is_rated_for_the_seat(club, django_capture_on_commit_callbacks):
    event = event_create(club=club, name="Walkout", rounds_planned=1, seed=5)
    players_register(event=event, names=MEMBERS + ["Sub"], checked_in=True)
    round_ = round_pair(round_id=round_create(event=event, actor="t").pk)
    round_publish(round_=round_, actor="t")
    table = round_.tables.order_by("number").first()
    bye = round_.byes.get().player
    leaver = table.seat_0
    walkouts.table_substitute(table=table, seat=0, player=bye, reason="ill", actor="t")
    rng = random.Random(5)
    with django_capture_on_commit_callbacks(execute=True):
        for t in round_.tables.select_related("game"):
            autoplay.play(t.game, rng, actor="t")
            result_confirm(table=t, actor="t")
    assert RatingStep.objects.filter(game_id=table.game_id, player=bye).exists()
    assert not RatingStep.objects.filter(player=leaver).exists()
    assert_close(stored(club), expected(club))


def test_void_tables_and_other_clubs_are_not_rated(club, django_capture_on_commit_callbacks):
    event = event_create(club=club, name="Void", rounds_planned=1, seed=8)
    players_register(event=event, names=MEMBERS, checked_in=True)
    round_ = round_pair(round_id=round_create(event=event, actor="t").pk)
    round_publish(round_=round_, actor="t")
    void, played = round_.tables.select_related("game").order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        walkouts.table_void(table=void, reason="left", actor="t")
        autoplay.play(played.game, random.Random(1), actor="t")
        result_confirm(table=played, actor="t")
    assert set(Rating.objects.values_list("player_id", flat=True)) == set(played.seat_ids)
    other = Club.objects.create(name="Other", slug="other")
    nights(other, django_capture_on_commit_callbacks, count=1, rounds=1)
    assert_close(stored(club), expected(club))
    assert_close(stored(other), expected(other))


def casual_game(club, players, rng, capture):
    game = scoring.game_create(ruleset="blato", players=[p.name for p in players], actor="t")
    ClubGame.objects.create(
        game=game, club=club, seat_0=players[0], seat_1=players[1], seat_2=players[2]
    )
    autoplay.play(game, rng, actor="t")
    with capture(execute=True):
        scoring.game_confirm(game_id=game.pk, actor="t")
    game.refresh_from_db()
    return game


def test_casual_games_count_only_when_the_club_says(club, django_capture_on_commit_callbacks):
    first, *_ = nights(club, django_capture_on_commit_callbacks, count=1, rounds=1)
    players = list(club.players.order_by("name")[:3])
    game = casual_game(club, players, random.Random(2), django_capture_on_commit_callbacks)
    assert not RatingStep.objects.filter(game=game).exists()
    club.rate_casual_games = True
    club.save()
    rate.rebuild(club)
    model = PlackettLuce()
    want = expected(club)  # the night first: the casual game was confirmed after it
    ranks = [game.placings.index(seat) + 1 for seat in range(3)]
    teams = [[model.rating(want[p.pk][0], want[p.pk][1])] for p in players]
    for player, (new,) in zip(players, model.rate(teams, ranks=ranks), strict=True):
        want[player.pk] = (new.mu, new.sigma, want[player.pk][2] + 1)
    assert_close(stored(club), want)


def test_rerate_club_command(club, django_capture_on_commit_callbacks):
    nights(club, django_capture_on_commit_callbacks, count=1)
    RatingStep.objects.all().delete()
    Rating.objects.all().delete()
    call_command("rerate_club", club.slug)
    assert_close(stored(club), expected(club))


@pytest.mark.django_db(transaction=True)
def test_simulate_event_rates_its_games(monkeypatch):
    """The simulator's games are rated as any event's (its tasks run in process here)."""
    from tournaments.management.commands import simulate_event

    monkeypatch.setattr(simulate_event, "WAIT_SECONDS", 20)
    call_command("simulate_event", "--players", "9", "--rounds", "2", "--seed", "4")
    club = Club.objects.get()
    want = expected(club)
    assert len(want) == 9
    assert_close(stored(club), want)


def test_round_one_of_a_swiss_event_is_seeded_by_rating(club, django_capture_on_commit_callbacks):
    nights(club, django_capture_on_commit_callbacks, count=2)
    by_rating = list(
        Rating.objects.filter(player__club=club)
        .order_by("-ordinal")
        .values_list("player_id", flat=True)
    )
    event = event_create(club=club, name="Seeded", rounds_planned=2, seed=9)
    event.seed_by_rating = True
    event.save()
    newcomers = ["Nia", "Oleg", "Rosa"]
    players_register(event=event, names=MEMBERS + newcomers, checked_in=True)
    round_ = round_pair(round_id=round_create(event=event, actor="t").pk)
    tables = [set(t.seat_ids) for t in round_.tables.order_by("number")]
    new_ids = set(club.players.filter(name__in=newcomers).values_list("pk", flat=True))
    assert tables == [set(by_rating[:3]), set(by_rating[3:6]), new_ids]


def test_without_the_setting_round_one_ignores_ratings(club, django_capture_on_commit_callbacks):
    from tournaments.common import bridge

    nights(club, django_capture_on_commit_callbacks, count=1)
    event = event_create(club=club, name="Unseeded", rounds_planned=1, seed=9)
    players_register(event=event, names=MEMBERS, checked_in=True)
    round_ = round_create(event=event, actor="t")
    request = bridge.pairing_request(round_)
    assert {e.rank for e in request.entrants} == {1}


# --- the pure module: the incremental path equals the batch rating, for any history -----------


@st.composite
def histories(draw):
    players = draw(st.integers(min_value=3, max_value=9))
    batches = []
    game = 0
    for key in range(draw(st.integers(min_value=1, max_value=6))):
        pool = draw(st.permutations(range(1, players + 1)))
        games = []
        for t in range(draw(st.integers(min_value=1, max_value=players // 3))):
            game += 1
            ranks = draw(st.sampled_from([(1, 2, 3), (3, 1, 2), (2, 3, 1), (1, 1, 3), (2, 1, 2)]))
            games.append(RatedGame(game, tuple(pool[3 * t : 3 * t + 3]), ranks))
        batches.append(Batch((key,), tuple(games)))
    return batches


@settings(max_examples=40, deadline=None)
@given(histories())
def test_rating_game_by_game_equals_rating_the_batches(batches):
    """As the service does on each confirmation: each game alone, from the ratings before its
    batch, gives the very same numbers as rating the whole history at once."""
    _, whole = rate_batches(batches)
    now: dict = {}
    for batch in batches:
        before = dict(now)
        for game in batch.games:
            for step in rate_batch(Batch(batch.key, (game,)), before):
                now[step.player] = step.skill
    assert {p: (s.mu, s.sigma) for p, s in now.items()} == {
        p: (s.mu, s.sigma) for p, s in whole.items()
    }
