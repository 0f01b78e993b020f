"""The values going in and out: validation, normalisation, the JSON the bridge stores."""

import pytest

from tournaments.pairing import (
    MODES,
    Entrant,
    Flag,
    FlagCode,
    Mode,
    PairingError,
    Request,
    meetings,
    pair,
)


def field(n, first=1):
    return tuple(Entrant(first + i, rank=i + 1) for i in range(n))


@pytest.mark.parametrize("n", [0, 1, 2])
def test_fewer_than_three_players_is_a_clear_error(n):
    with pytest.raises(PairingError) as caught:
        Request(entrants=field(n))
    assert caught.value.code == "too_few_players"
    assert caught.value.data == {"count": n}
    assert "at least 3" in caught.value.message


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"entrants": field(3) + (Entrant(2),)}, "duplicate_player"),
        ({"mode": "knockout"}, "unknown_mode"),
        ({"round_number": 0}, "bad_request"),
        ({"budget": -1}, "bad_request"),
        ({"met": {(1, 1): (1,)}}, "bad_request"),
    ],
)
def test_malformed_requests_are_refused_with_a_code(changes, code):
    values = {"entrants": field(3), **changes}
    with pytest.raises(PairingError) as caught:
        Request(**values)
    assert caught.value.code == code


@pytest.mark.parametrize(
    "values",
    [
        {"id": 1, "rank": 0},
        {"id": 1, "byes": -1},
        {"id": 1, "seat_counts": (1, 2)},
        {"id": 1, "seat_counts": (1, 2, -1)},
        {"id": "1"},
        {"id": 1, "dealer_count": True},
    ],
)
def test_bad_entrants_are_refused(values):
    with pytest.raises(PairingError) as caught:
        Entrant(**values)
    assert caught.value.code == "bad_entrant"


def test_modes_are_named_as_events_store_them():
    assert MODES == ("random", "swiss", "no-repeat")
    assert Request(entrants=field(3), mode="no-repeat").mode is Mode.NO_REPEAT


def test_meetings_are_normalised_smaller_id_first_and_merged():
    request = Request(entrants=field(3), met={(2, 1): (3, 1), (1, 2): (2,), (3, 2): ()})
    assert request.met == {(1, 2): (1, 2, 3), (2, 3): ()}
    bare = Request(entrants=field(3), met=frozenset({(3, 1)}))
    assert bare.met == {(1, 3): ()}


def test_meetings_are_read_from_past_tables():
    met = meetings({1: [(5, 2, 9), (1, 3, 4)], 2: [(2, 9, 4)]})
    assert met[(2, 9)] == (1, 2)
    assert met[(2, 5)] == (1,)
    assert met[(2, 4)] == (2,)
    assert len(met) == 6 + 2


def test_a_request_does_not_see_later_changes_to_the_callers_history():
    history = {(1, 2): (1,)}
    request = Request(entrants=field(3), met=history)
    history[(1, 3)] = (1,)
    assert (1, 3) not in request.met


def test_the_draw_as_plain_data():
    request = Request(entrants=field(4, first=10), met={(10, 11): (1,)}, round_number=2)
    data = pair(request).as_dict()
    assert data["byes"] == [13]
    assert len(data["tables"]) == 1
    table = data["tables"][0]
    assert sorted(table["seats"]) == [10, 11, 12]
    assert table["first_dealer"] in (0, 1, 2)
    assert table["flags"] == [{"code": "repeat", "players": [10, 11], "rounds": [1]}]


def test_flags_keep_codes_and_ids_not_sentences():
    flag = Flag.spread((4, 9, 2), 12, 8)
    assert flag.as_dict() == {"code": "spread", "players": [4, 9, 2], "amount": 12, "limit": 8}
    assert Flag.repeat(9, 4, [2]).players == (4, 9)
    assert Flag.second_bye(7, 2).as_dict() == {"code": "second_bye", "players": [7], "amount": 2}
    assert FlagCode.SEARCH_LIMIT == "search_limit"
