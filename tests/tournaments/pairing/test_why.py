"""Each swiss table's explanation: score groups, who floated and why, repeats kept apart."""

from tournaments.pairing import Entrant, Request, pair, review
from tournaments.pairing.why import WHY_CODE, Float, FloatReason, Why


def field(points, byes=None):
    """Entrants ranked 1..n in the order of `points` (best first); `byes` gives some a bye
    already had (the others then sit out first)."""
    byes = byes or {}
    return tuple(
        Entrant(i, rank=i, points=p, byes=byes.get(i, 0)) for i, p in enumerate(points, start=1)
    )


def whys(pairing):
    return [table.why for table in pairing.tables]


def test_groups_of_three_need_no_float():
    pairing = pair(Request(entrants=field([2, 2, 2, 1, 1, 1, 0, 0, 0]), round_number=2))
    assert whys(pairing) == [
        Why((1, 2, 3), (2, 2, 2)),
        Why((4, 5, 6), (1, 1, 1)),
        Why((7, 8, 9), (0, 0, 0)),
    ]
    assert not any(why.mixed for why in whys(pairing))


def test_groups_of_four_send_a_player_down_then_one_up():
    pairing = pair(Request(entrants=field([2] * 4 + [1] * 4 + [0] * 4), round_number=2))
    second, third = whys(pairing)[1:3]
    assert second == Why((4, 5, 6), (2, 1, 1), (Float(4, False, FloatReason.UNEVEN),))
    assert second.mixed
    assert third == Why((7, 8, 9), (1, 1, 0), (Float(9, True, FloatReason.UNEVEN),))


def test_a_bye_that_leaves_a_group_short_is_the_reason():
    # Everyone but 5 has had a bye, so 5 (1 point) sits out: the 1-point group is left
    # with two, and 7 comes up from the 0-point group to make their table.
    entrants = field([2, 2, 2, 1, 1, 1, 0, 0, 0, 0], byes={i: 1 for i in range(1, 11) if i != 5})
    pairing = pair(Request(entrants=entrants, round_number=2))
    assert pairing.byes == (5,)
    assert whys(pairing)[1] == Why((4, 6, 7), (1, 1, 0), (Float(7, True, FloatReason.BYE),))


def test_a_float_to_avoid_a_repeat_names_the_pair_kept_apart():
    pairing = pair(Request(entrants=field([2, 2, 2, 1, 1, 1, 0, 0, 0]), met={(1, 2): (1,)}))
    first, second, third = whys(pairing)
    assert first == Why((1, 3, 4), (2, 2, 1), (Float(4, True, FloatReason.REPEAT),), ((1, 2),))
    assert second == Why((2, 5, 6), (2, 1, 1), (Float(2, False, FloatReason.REPEAT),), ((1, 2),))
    assert third == Why((7, 8, 9), (0, 0, 0))


def test_stored_with_every_player_id_in_players_for_a_backup_to_renumber():
    pairing = pair(Request(entrants=field([2, 2, 2, 1, 1, 1, 0, 0, 0]), met={(1, 2): (1,)}))
    assert pairing.tables[1].why.as_dict() == {
        "code": WHY_CODE,
        "players": [2, 5, 6, 1],
        "points": [2, 1, 1],
        "floats": [[0, "down", "repeat"]],
        "avoided": [[3, 0]],
    }


def test_a_swap_by_hand_is_explained_again():
    request = Request(entrants=field([2, 2, 2, 1, 1, 1, 0, 0, 0]), round_number=2)
    _, _, explained = review(request, [(1, 2, 7), (4, 5, 6), (3, 8, 9)], ())
    assert explained[0] == Why((1, 2, 7), (2, 2, 0), (Float(7, True, FloatReason.MOVED),))
    assert explained[2] == Why((3, 8, 9), (2, 0, 0), (Float(3, False, FloatReason.MOVED),))
    # A swap that keeps a repeat apart is explained by it, as the draw would be.
    met = Request(entrants=request.entrants, met={(1, 2): (1,)})
    _, _, explained = review(met, [(1, 3, 4), (2, 5, 6), (7, 8, 9)], ())
    assert explained[0].floats == (Float(4, True, FloatReason.REPEAT),)


def test_only_swiss_is_explained():
    for mode in ("random", "no-repeat"):
        pairing = pair(Request(entrants=field([2, 2, 2, 1, 1, 1]), mode=mode))
        assert whys(pairing) == [None, None]
        assert "why" not in pairing.as_dict()["tables"][0]
