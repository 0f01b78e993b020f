"""Three teams of equal size: a triangular match, one player of each team at every table.

With teams A, B, C of m players each (N = 3m, everyone in a team), a player can meet at most
the 2m players of the other two teams, two a round, so m rounds at most without a repeat; a
plan reaching m rounds is a *resolvable transversal design* RTD(3, m): m rounds, each
seating every player once at a table of one A, one B and one C player, every pair of
players of different teams at one table exactly once. It exists exactly when there are two
orthogonal Latin squares of order m, which is every m but 2 and 6 (Bose, Shrikhande &
Parker, 1960); round s seats A_i, B_j, C_L1[i][j] for the cells (i, j) where L2[i][j] = s.

Built here (`latin_pair`):

- m odd: L1[i][j] = i + j, L2[i][j] = i + 2j (mod m); round r seats A_i, B_{i+r}, C_{i+2r}
  (up to the naming of the rounds);
- m a power of 2 from 4 up: L_k[x][y] = k·x + y in the field GF(m), k = 1, 2;
- any product of those (MacNeish: the Kronecker product of two pairs of orthogonal squares
  is one), which covers every m not ≡ 2 mod 4;
- m ≡ 2 mod 4: a stored pair (`_STORED`, found by a search for an orthogonal mate of a
  random Latin square: its m disjoint transversals, an exact cover; order 10 took a second),
  and its products with the odd orders: 10, 30, 50, …

2 and 6 have no pair at all (6: Euler's 36 officers, proven by Tarry), and 14, 18, 22, 26 no
pair here yet: each round is then searched like any no-repeat round, with teammates weighted
above repeats (`rules`), so tables stay triangular and repeats as few as the search finds.
`tests/tournaments/pairing/test_teams.py` checks every m from 1 to 33.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

Square = tuple[tuple[int, ...], ...]
Design = tuple[tuple[tuple[int, int, int], ...], ...]

#: Orthogonal pairs of Latin squares of orders ≡ 2 mod 4, each square its rows written in
#: base 36 and separated by spaces (checked by the tests like every other pair).
_STORED = {
    10: (
        "6425973081 4152897603 7214530869 3091286475 9537628140"
        " 8963015724 2346709518 0789164352 5870341296 1608452937",
        "5176408293 2780354916 9413025678 7692180435 3901267584"
        " 1269743850 8354691702 0547836129 4028579361 6835912047",
    ),
}

#: Irreducible polynomials over GF(2), as bit masks, for the fields GF(2^k) (k = 2..7).
_IRREDUCIBLE = {2: 0b111, 3: 0b1011, 4: 0b10011, 5: 0b100101, 6: 0b1000011, 7: 0b10000011}


def three_teams(teams: Mapping[int, int], players: Sequence[int]) -> list[list[int]] | None:
    """The three teams' players (teams by id, players by id) when `players` are exactly
    three teams of equal size; None otherwise."""
    members: dict[int, list[int]] = {}
    for player in players:
        if player not in teams:
            return None
        members.setdefault(teams[player], []).append(player)
    if len(members) != 3 or len({len(ps) for ps in members.values()}) != 1:
        return None
    return [sorted(members[team]) for team in sorted(members)]


def most_rounds(m: int) -> int:
    """The most rounds three teams of m can play, triangular, without a repeat: m (a player
    meets 2 of the other teams' 2m players a round), except 1 for m = 2 (the second round
    would need an A and a B player who met to sit apart from a C player they both met:
    checked by brute force in the tests) and 6 (no RTD(3, 6): Tarry's 36 officers; fewer
    than 6 rounds, how many fewer not worked out here, so 6 stands as the bound)."""
    return 1 if m == 2 else m


@cache
def triangular_design(m: int) -> Design | None:
    """m rounds on points 0..3m−1 (team A = 0..m−1, B = m..2m−1, C = 2m..3m−1), each table
    one point of each team, no pair twice; None when `latin_pair` has no squares for m."""
    squares = latin_pair(m)
    if squares is None:
        return None
    first, second = squares
    rounds: list[list[tuple[int, int, int]]] = [[] for _ in range(m)]
    for i in range(m):
        for j in range(m):
            rounds[second[i][j]].append((i, m + j, 2 * m + first[i][j]))
    return tuple(tuple(sorted(r)) for r in rounds)


def latin_pair(m: int) -> tuple[Square, Square] | None:
    """Two orthogonal Latin squares of order m (every pair of symbols once when laid one
    over the other), or None where there is none here (see the module's docstring)."""
    if m < 1:
        return None
    if m % 4 == 2:
        stored = next((d for d in sorted(_STORED) if m % d == 0 and (m // d) % 2), None)
        if stored is None:
            return None
        first, second = _parsed(stored)
        if m > stored:
            odd = _cyclic_pair(m // stored)
            first, second = _product(first, odd[0]), _product(second, odd[1])
        return first, second
    if m % 256 == 0:
        return None  # no field of that order here (three teams of 256 and more)
    two = 1
    while m % (2 * two) == 0:
        two *= 2
    odd = m // two
    pairs = []
    if two > 1:
        pairs.append(_field_pair(two))
    if odd > 1 or not pairs:
        pairs.append(_cyclic_pair(odd))
    first, second = pairs[0]
    for other in pairs[1:]:
        first, second = _product(first, other[0]), _product(second, other[1])
    return first, second


def _parsed(m: int) -> tuple[Square, Square]:
    first, second = (
        tuple(tuple(int(c, 36) for c in row) for row in text.split()) for text in _STORED[m]
    )
    return first, second


def _cyclic_pair(m: int) -> tuple[Square, Square]:
    """m odd: i + j and i + 2j mod m."""
    return (
        tuple(tuple((i + j) % m for j in range(m)) for i in range(m)),
        tuple(tuple((i + 2 * j) % m for j in range(m)) for i in range(m)),
    )


def _field_pair(q: int) -> tuple[Square, Square]:
    """q = 2^k ≥ 4: x + y and 2·x + y in GF(q) (addition is exclusive or)."""
    k = q.bit_length() - 1
    if k not in _IRREDUCIBLE:
        raise ValueError(f"no field of order {q} here")
    poly = _IRREDUCIBLE[k]

    def times(a: int, b: int) -> int:
        out = 0
        while b:
            if b & 1:
                out ^= a
            b >>= 1
            a <<= 1
            if a & q:
                a ^= poly
        return out

    return (
        tuple(tuple(x ^ y for y in range(q)) for x in range(q)),
        tuple(tuple(times(2, x) ^ y for y in range(q)) for x in range(q)),
    )


def _product(a: Square, b: Square) -> Square:
    """The Kronecker product: cell ((i, k), (j, h)) holds (a[i][j], b[k][h])."""
    n, m = len(a), len(b)
    return tuple(
        tuple(a[i][j] * m + b[k][h] for j in range(n) for h in range(m))
        for i in range(n)
        for k in range(m)
    )
