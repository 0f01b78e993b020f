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
- m ≡ 2 mod 4 (no such product of fields and odd orders):
  - 10: a stored pair (`_STORED`, found by a search for an orthogonal mate of a random Latin
    square: its m disjoint transversals, an exact cover; it took a second);
  - 14, 18, 22, 26: a quasi-difference matrix over Z_{m−1} (`_QDM`, found by `bench.latin`,
    see `_qdm_pair`), the squares developed from it;
  - their products with the odd orders (30, 42, 50, 54, 66, 70, …);
  - every other m ≡ 2 mod 4 from 34 up: Wilson's construction (`_wilson_pair`) with
    m = k·t + u, from pairs of orders k, k + 1 and u (k = 3 so far: 34 = 3·11 + 1,
    38 = 3·11 + 5, …, 94 = 3·25 + 19).

So every m but 2 and 6, which have no pair at all (2 trivially; 6: Euler's 36 officers,
proven by Tarry), up to 255 (from 256 the fields run out; three teams that large do not
sit at one event). The tests check every pair up to 99 (Latin, orthogonal), the stored
matrices and the design's rounds. For 2 and 6 each round is searched like any no-repeat round, with
teammates weighted above repeats (`rules`), so tables stay triangular and repeats as few as
the search finds.
"""

from __future__ import annotations

import textwrap
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

#: Quasi-difference matrices (n,4;1,1;1)-QDM over Z_n, each giving two orthogonal squares of
#: order n + 1 (`_qdm_pair`): rows 1..3 of the matrix separated by "|" (row 0 is all zeros, its
#: blank in column 0), entries in decimal, "." a blank; found by `bench.latin` (which prints
#: these entries) and checked by the tests.
_QDM: dict[int, str] = {
    13: (
        "0 . 6 0 11 7 9 2 10 12 5 8 1 3 4 | 0 6 . 4 5 9 12 10 7 8 11 0 2 1 3 | 12 12 3 . 1 7 2 "
        "11 4 10 6 0 9 5 8 "
    ),
    17: (
        "0 . 1 8 6 9 14 16 11 3 12 4 15 7 0 5 2 13 10 | 11 12 . 16 1 10 0 4 8 7 14 11 13 6 9 5 "
        "15 2 3 | 5 13 10 . 3 7 15 16 0 14 5 11 1 2 8 9 4 12 6 "
    ),
    21: (
        "0 . 2 8 3 5 14 13 19 18 11 10 7 9 12 20 0 16 4 1 17 6 15 | 2 4 . 3 12 11 6 18 19 16 8 "
        "1 10 2 20 9 7 17 15 5 13 0 14 | 10 18 11 . 2 9 19 7 10 0 12 16 5 4 8 6 13 3 15 1 14 20 "
        "17 "
    ),
    25: (
        "0 . 24 2 0 18 6 17 11 23 9 3 16 10 1 4 5 12 13 19 22 14 8 20 21 7 15 | 5 4 . 8 10 13 7 "
        "14 19 16 9 17 12 2 3 15 20 6 0 18 1 23 21 11 24 5 22 | 16 18 19 . 11 0 23 7 15 8 12 5 "
        "14 24 1 22 10 6 9 3 21 2 20 17 4 13 16 "
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
        base = _base(m)
        if base is None:
            split = _wilson_split(m)
            return None if split is None else _wilson_pair(*split)
        first, second = _parsed(base) if base in _STORED else _qdm_pair(base - 1)
        if m > base:
            odd = _cyclic_pair(m // base)
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


def _base(m: int) -> int | None:
    """m ≡ 2 mod 4: the stored order (a pair or a QDM) that m is an odd multiple of, if any."""
    bases = sorted({*_STORED, *(n + 1 for n in _QDM)})
    return next((d for d in bases if m % d == 0 and (m // d) % 2), None)


@cache
def _has_pair(m: int) -> bool:
    """Whether `latin_pair(m)` builds a pair, without building it."""
    if m < 1 or m % 256 == 0:
        return False
    return m % 4 != 2 or _base(m) is not None or _wilson_split(m) is not None


@cache
def _wilson_split(m: int) -> tuple[int, int, int] | None:
    """m = k·t + u for Wilson's construction (`_wilson_pair`): t ≥ 5 prime to 6, 0 ≤ u ≤ t,
    and pairs of orders k, k + 1 and u (none needed for u = 0); the smallest k, then t."""
    for k in range(3, m // 5 + 1):
        if not (_has_pair(k) and _has_pair(k + 1)):
            continue
        for t in range(5, m // k + 1):
            u = m - k * t
            if t % 2 and t % 3 and u <= t and (u == 0 or _has_pair(u)):
                return k, t, u
    return None


def _wilson_pair(k: int, t: int, u: int) -> tuple[Square, Square]:
    """Two orthogonal squares of order k·t + u by Wilson's construction (R. M. Wilson,
    "Concerning the number of mutually orthogonal Latin squares", Discrete Math. 9 (1974);
    Colbourn & Dinitz, Handbook of Combinatorial Designs, III.3), on transversal designs
    TD(4, s) (blocks (i, j, L1[i][j], L2[i][j]) of a pair of order s).

    Start from the TD(5, t) with blocks (x, y, x + y, 2x + y, 3x + y) over Z_t (t prime to 6:
    1, 2, 3 and their differences are units, so any two coordinates fix x and y) and keep of
    its fifth group only the points below u. Each point g of the first four groups becomes k
    points (g, 0..k−1); each kept point x of the fifth group, one new point x in each of the
    four new groups. A block with no kept fifth point gets a TD(4, k) on its points' copies; a
    block with fifth point x, a TD(4, k + 1) on the copies and the four new points x, less the
    one block made of those four; the new points get a TD(4, u) of their own. Two copies meet
    in the sub-design of the one block through their points; a copy and a new point x in that
    of the one block through the copy's point and x; two new points only in the TD(4, u)."""
    size = k * t + u
    small, large, extra = _blocks(k), _blocks(k + 1), _blocks(u)
    corner = large[0]  # the block whose points become the new ones

    def copy(i: int, g: int, c: int) -> int:
        return g * k + c - (c > corner[i])

    first = [[0] * size for _ in range(size)]
    second = [[0] * size for _ in range(size)]
    blocks = [tuple(k * t + c for c in block) for block in extra]
    for x in range(t):
        for y in range(t):
            points, fifth = (x, y, (x + y) % t, (2 * x + y) % t), (3 * x + y) % t
            if fifth >= u:
                blocks += [tuple(g * k + c for g, c in zip(points, b, strict=True)) for b in small]
                continue
            blocks += [
                tuple(
                    k * t + fifth if c == corner[i] else copy(i, g, c)
                    for i, (g, c) in enumerate(zip(points, b, strict=True))
                )
                for b in large
                if b != corner
            ]
    for x0, x1, x2, x3 in blocks:
        first[x0][x1], second[x0][x1] = x2, x3
    return tuple(map(tuple, first)), tuple(map(tuple, second))


def _blocks(m: int) -> list[tuple[int, int, int, int]]:
    """The TD(4, m) of `latin_pair(m)`: one block (i, j, L1[i][j], L2[i][j]) a cell."""
    if m == 0:
        return []
    first, second = latin_pair(m)
    return [(i, j, first[i][j], second[i][j]) for i in range(m) for j in range(m)]


def _parsed(m: int) -> tuple[Square, Square]:
    first, second = (
        tuple(tuple(int(c, 36) for c in row) for row in text.split()) for text in _STORED[m]
    )
    return first, second


def qdm_rows(n: int) -> list[list[int | None]]:
    """The stored QDM over Z_n as 4 rows of n + 2 entries, None for a blank."""
    rows: list[list[int | None]] = [[None] + [0] * (n + 1)]
    for text in _QDM[n].split("|"):
        rows.append([None if e == "." else int(e) for e in text.split()])
    return rows


def qdm_text(rows: Sequence[Sequence[int | None]], n: int) -> str:
    """The `_QDM` entry for `rows` (how `bench.latin` prints what it found)."""
    text = " | ".join(" ".join("." if e is None else str(e) for e in row) for row in rows[1:])
    lines = textwrap.wrap(text, 86, break_on_hyphens=False)
    return f"    {n}: (\n" + "".join(f'        "{line} "\n' for line in lines) + "    ),"


def check_qdm(rows: Sequence[Sequence[int | None]], n: int) -> bool:
    """Whether `rows` is an (n,4;1,1;1)-QDM over Z_n: 4 rows of n + 2 entries, one blank in each
    row and at most one in each column, and for any two rows the differences over the columns
    where both are filled hold every element of Z_n exactly once."""
    if len(rows) != 4 or any(len(row) != n + 2 for row in rows):
        return False
    blanks = [[c for c, e in enumerate(row) if e is None] for row in rows]
    if any(len(b) != 1 for b in blanks) or len({b[0] for b in blanks}) != 4:
        return False
    if any(not 0 <= e < n for row in rows for e in row if e is not None):
        return False
    for a in range(4):
        for b in range(a + 1, 4):
            differences = sorted(
                (x - y) % n
                for x, y in zip(rows[a], rows[b], strict=True)
                if x is not None and y is not None
            )
            if differences != list(range(n)):
                return False
    return True


def _qdm_pair(n: int) -> tuple[Square, Square]:
    """Two orthogonal squares of order n + 1 from the stored (n,4;1,1;1)-QDM over Z_n (Colbourn &
    Dinitz, Handbook of Combinatorial Designs, 2nd ed., III.3, quasi-difference matrices: a QDM
    gives a TD(4, n + 1)). The transversal design's groups are Z_n ∪ {∞} (∞ written n), one for
    each row; its blocks are the columns developed over Z_n (column c and g in Z_n: row r's
    point d[r][c] + g, or ∞ where d[r][c] is a blank) and the block of the four ∞. Any two
    points of different groups lie in exactly one block: two finite ones because each
    difference occurs once, a finite and an ∞ because each row is filled once where the other
    is blank, two ∞ in the last block. Block (x0, x1, x2, x3) is the cell (x0, x1) of the two
    squares, holding x2 and x3."""
    rows = qdm_rows(n)
    first = [[0] * (n + 1) for _ in range(n + 1)]
    second = [[0] * (n + 1) for _ in range(n + 1)]
    blocks = [(n, n, n, n)]
    for column in zip(*rows, strict=True):
        for g in range(n):
            blocks.append(tuple(n if d is None else (d + g) % n for d in column))
    for x0, x1, x2, x3 in blocks:
        first[x0][x1], second[x0][x1] = x2, x3
    return tuple(map(tuple, first)), tuple(map(tuple, second))


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
