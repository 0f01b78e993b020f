"""The season's counting, by hand and by properties: best N of M, attendance, ties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.seasons import SHARED, Counting, Night, SeasonError, season_standings

POINTS = (10, 8, 6, 5, 4, 3, 2, 1)


def night(key, *order):
    """A night whose players finished in `order`, first to last."""
    return Night(key, {player: place for place, player in enumerate(order, start=1)})


def by_player(rows):
    return {row.player: row for row in rows}


def test_default_points_and_every_night_counted():
    rows = season_standings([night(1, 7, 8, 9), night(2, 8, 7, 9)], Counting())
    got = by_player(rows)
    assert got[7].score == 18 and got[8].score == 18 and got[9].score == 12
    # 7 and 8 level on points and on nights won (one each) and on best place (1st): shared.
    assert [(r.rank, r.player, r.decided_by) for r in rows] == [
        (1, 7, None),
        (1, 8, SHARED),
        (3, 9, None),
    ]


def test_best_two_of_three_drops_the_worst_night():
    nights = [night(1, 1, 2, 3, 4), night(2, 2, 1, 3, 4), night(3, 4, 3, 2, 1)]
    rows = season_standings(nights, Counting(POINTS, best_nights=2))
    got = by_player(rows)
    # player 1: 10, 8, 5 -> best two 18; player 2: 8, 10, 6 -> 18; 3: 6, 6, 8 -> 14;
    # player 4: 5, 5, 10 -> 15
    assert [got[p].score for p in (1, 2, 3, 4)] == [18, 18, 14, 15]
    assert [s.counted for s in got[1].per_night] == [True, True, False]
    assert got[1].counted == 2 and got[1].nights == 3
    # 1 and 2 level on 18 points, one night won each, best place 1st each: shared first.
    assert [(r.rank, r.player) for r in rows] == [(1, 1), (1, 2), (3, 4), (4, 3)]


def test_equal_nights_count_the_earlier_one():
    rows = season_standings([night(1, 5), night(2, 5)], Counting((3,), best_nights=1))
    assert [s.counted for s in rows[0].per_night] == [True, False]


def test_more_nights_won_breaks_a_tie_then_best_place():
    # A: 1st, 5th = 10 + 4 = 14; B: 2nd, 3rd = 8 + 6 = 14; A won a night, B did not.
    nights = [night(1, "A", "B", "x", "y", "z"), night(2, "x", "y", "B", "z", "A")]
    rows = season_standings(nights, Counting(POINTS))
    got = by_player(rows)
    assert got["A"].score == got["B"].score == 14
    assert got["A"].rank < got["B"].rank and got["B"].decided_by == "wins"
    # all on 0 points: H and J each won a night; I (2nd, 3rd) and K (4th, 2nd) did not.
    level = [night(1, "H", "I", "J", "K"), night(2, "J", "K", "I", "H")]
    got = by_player(season_standings(level, Counting((0, 0, 0, 0))))
    assert got["H"].rank == got["J"].rank == 1
    assert got["I"].decided_by == "wins" and got["I"].rank == 3
    assert got["K"].rank == 3 and got["K"].decided_by == SHARED


def test_best_place_breaks_a_tie_without_wins():
    # P: 2nd and 4th; Q: 3rd and 3rd; points 5-4-3-2-1 -> P 4 + 2 = 6, Q 3 + 3 = 6.
    nights = [night(1, "a", "P", "Q", "b"), night(2, "b", "a", "Q", "P")]
    got = by_player(season_standings(nights, Counting((5, 4, 3, 2))))
    assert got["P"].score == got["Q"].score == 6
    assert got["P"].rank < got["Q"].rank and got["Q"].decided_by == "best_place"


def test_attendance_minimum_lists_the_rest_unranked_below():
    nights = [night(1, "once", "twice"), night(2, "twice")]
    rows = season_standings(nights, Counting(POINTS, min_nights=2))
    assert [(r.player, r.rank) for r in rows] == [("twice", 1), ("once", None)]
    assert rows[1].score == 10  # shown, though not ranked


def test_places_beyond_the_list_score_nothing():
    rows = season_standings([night(1, *range(10))], Counting((3, 2, 1)))
    assert by_player(rows)[9].score == 0 and by_player(rows)[3].score == 0
    # level on nothing, they are still told apart by their best place
    assert by_player(rows)[9].rank == 10 and by_player(rows)[9].decided_by == "best_place"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"place_points": (1, 2)},
        {"place_points": (3, -1)},
        {"best_nights": 0},
        {"min_nights": -1},
    ],
)
def test_counting_refuses_what_cannot_be_meant(kwargs):
    with pytest.raises(SeasonError):
        Counting(**kwargs)


def test_a_night_counted_twice_is_refused():
    with pytest.raises(SeasonError):
        season_standings([night(1, 1), night(1, 2)], Counting())


seasons = st.lists(
    st.permutations(list(range(8))).flatmap(
        lambda order: st.integers(min_value=3, max_value=8).map(lambda n: order[:n])
    ),
    min_size=1,
    max_size=6,
)


@given(
    seasons,
    st.one_of(st.none(), st.integers(min_value=1, max_value=6)),
    st.integers(min_value=0, max_value=4),
)
def test_properties(orders, best, minimum):
    nights = [night(k, *order) for k, order in enumerate(orders)]
    counting = Counting(POINTS, best_nights=best, min_nights=minimum)
    rows = season_standings(nights, counting)
    # every player once; the ranked ones first, ranks from 1, never going down the table
    assert sorted(r.player for r in rows) == sorted({p for o in orders for p in o})
    ranked = [r for r in rows if r.rank is not None]
    assert rows[: len(ranked)] == ranked
    assert all(r.nights < minimum for r in rows[len(ranked) :])
    assert all(r.nights >= minimum for r in ranked)
    if ranked:
        assert ranked[0].rank == 1
    for above, row in zip(ranked, ranked[1:], strict=False):
        assert above.score >= row.score
        assert (row.rank == above.rank) == (row.decided_by == SHARED)
        # a tie-break is named exactly when the scores are level, and it is the first that differs
        assert (row.decided_by is None) == (above.score != row.score)
        if row.decided_by == "wins":
            assert above.wins > row.wins
        if row.decided_by == "best_place":
            assert above.wins == row.wins and above.best_place < row.best_place
        if row.rank != above.rank:
            assert row.rank == ranked.index(row) + 1
    for row in rows:
        # the score is the sum of the best N nights' points, whichever those are
        points = sorted((counting.points_for(s.place) for s in row.per_night), reverse=True)
        assert row.score == sum(points[:best] if best else points)
        assert row.counted == min(row.nights, best or row.nights)
