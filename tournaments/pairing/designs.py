"""Whole-event plans for no-repeat events: resolvable designs of triples.

A no-repeat event of N players can last at most ⌊(N−1)/2⌋ rounds (each round a player meets
two new people). Reaching that bound is a property of the whole schedule, not of any one
round: a round-by-round search that happens to choose badly early runs out of fresh tables
rounds before the bound. So for field sizes where we hold a design, no-repeat follows it.

A *design* here is a list of rounds, each round a partition of the points 0..N−1 into
triples, no two triples of any rounds sharing a pair. When every pair occurs (N ≡ 3 mod 6,
(N−1)/2 rounds) it is a Kirkman triple system, KTS(N).

Every N divisible by 3 from 3 to 99 has a design with the most rounds possible: ⌊(N−1)/2⌋
(a Kirkman triple system for N ≡ 3 mod 6; a *nearly* Kirkman one for N ≡ 0 mod 6, N ≥ 18,
whose pairs that never meet form a perfect matching), except 1 round for 6 players and 4 for
12 (an exhaustive search shows a fifth is impossible: the test below).

- N = 3, 9, 27, 81 (3^k): the affine geometry AG(k, 3), built here. Its lines are the
  triples; the lines of one direction are a round. (3^k − 1)/2 rounds.
- N = 6: one round. N = 12, 15, 18, 21: stored below (12, 15, 18 found by a tabu search over
  swaps within rounds; 21 cyclic: points (i, x), i in Z_7, x in Z_3, as 3i + x, three rounds
  fixed by i ↦ i + 1 and the seven translates of one base round).
- N = 45, 63, 99: three times KTS(15), KTS(21), KTS(33) (`tripled`).
- N = 39, 75, 87: Ray-Chaudhuri & Wilson's KTS(2q + 1), q = 19, 37, 43 prime
  (`ray_chaudhuri_wilson`).
- Every other N from 24 to 96: one base round found by the cyclic search of `kirkman`
  (developed over Z_n, with fixed rounds for the Kirkman systems), stored in
  `design_data/N.txt` and rebuilt by `python -m bench.kirkman`.

The constructions are the textbook ones (C. J. Colbourn & J. H. Dinitz, Handbook of
Combinatorial Designs, 2nd ed., 2007); the code is ours, written from the mathematics. No
library's code was copied (SageMath, GPL, builds some of the same systems) and none is used
at run time.

`tests/tournaments/pairing/test_designs.py` checks every design here: a partition each round,
no pair twice, and the promised number of rounds.
"""

from __future__ import annotations

from functools import cache

from .kirkman import stored

Triple = tuple[int, int, int]
Design = tuple[tuple[Triple, ...], ...]

#: Stored designs, one line a round, a triple written a-b-c.
_STORED: dict[int, tuple[str, ...]] = {
    12: (
        "0-1-2 3-4-5 6-7-8 9-10-11",
        "0-5-10 1-6-11 2-4-7 3-8-9",
        "0-6-9 1-5-7 2-3-11 4-8-10",
        "0-7-11 1-4-9 2-5-8 3-6-10",
    ),
    15: (
        "0-1-2 3-4-5 6-7-8 9-10-11 12-13-14",
        "0-3-13 1-7-10 2-4-12 5-8-11 6-9-14",
        "0-4-9 1-5-14 2-3-6 7-11-13 8-10-12",
        "0-5-10 1-6-12 2-11-14 3-7-9 4-8-13",
        "0-6-11 1-3-8 2-10-13 4-7-14 5-9-12",
        "0-7-12 1-4-11 2-8-9 3-10-14 5-6-13",
        "0-8-14 1-9-13 2-5-7 3-11-12 4-6-10",
    ),
    18: (
        "0-1-2 3-4-5 6-7-8 9-10-11 12-13-14 15-16-17",
        "0-3-6 1-10-14 2-5-11 4-8-15 7-12-16 9-13-17",
        "0-4-13 1-11-16 2-8-12 3-14-17 5-7-9 6-10-15",
        "0-5-8 1-7-13 2-3-16 4-10-17 6-9-12 11-14-15",
        "0-7-15 1-3-9 2-10-13 4-11-12 5-6-17 8-14-16",
        "0-9-14 1-4-6 2-7-17 3-12-15 5-10-16 8-11-13",
        "0-10-12 1-8-17 2-6-14 3-7-11 4-9-16 5-13-15",
        "0-11-17 1-5-12 2-9-15 3-8-10 4-7-14 6-13-16",
    ),
    21: (
        "0-1-2 3-4-5 6-7-8 9-10-11 12-13-14 15-16-17 18-19-20",
        "0-3-9 1-6-20 2-7-18 4-11-12 5-13-15 8-14-17 10-16-19",
        "0-4-8 1-5-18 2-15-19 3-7-11 6-10-14 9-13-17 12-16-20",
        "0-5-10 1-13-19 2-4-9 3-6-12 7-14-15 8-16-18 11-17-20",
        "0-6-18 1-8-9 2-10-12 3-17-19 4-15-20 5-11-14 7-13-16",
        "0-7-17 1-11-15 2-6-13 3-10-20 4-14-18 5-9-16 8-12-19",
        "0-11-19 1-4-16 2-14-20 3-8-13 5-7-12 6-9-15 10-17-18",
        "0-12-15 1-7-10 2-3-16 4-6-17 5-8-20 9-14-19 11-13-18",
        "0-13-20 1-3-14 2-5-17 4-7-19 6-11-16 8-10-15 9-12-18",
        "0-14-16 1-12-17 2-8-11 3-15-18 4-10-13 5-6-19 7-9-20",
    ),
}

#: AG(k, 3) is built for 3^k points up to this many (3^7 = 2187, 1093 rounds).
_LARGEST_AFFINE = 3**7


#: The most rounds without a repeat for these sizes, below ⌊(N−1)/2⌋ (see `best_rounds`).
_EXCEPTIONS = {6: 1, 12: 4}


def design_for(n: int) -> Design | None:
    """The design for `n` players, or None when we hold none."""
    if n in _STORED:
        return _parsed(n)
    k = _log3(n)
    if k is not None and k >= 1 and n <= _LARGEST_AFFINE:
        return affine_design(k)
    if n == 6:
        return (((0, 1, 2), (3, 4, 5)),)
    if n in _TRIPLED:
        return tripled(design_for(n // 3))
    if n in _RAY_CHAUDHURI_WILSON:
        return ray_chaudhuri_wilson((n - 1) // 2)
    return _searched(n)


#: Kirkman systems KTS(2q + 1) for a prime q ≡ 1 mod 6 (`ray_chaudhuri_wilson`): q = 19, 37,
#: 43. (15 = 2·7 + 1 is stored, 27 and 63 built otherwise; 51 and 99 need GF(25) and GF(49).)
_RAY_CHAUDHURI_WILSON = (39, 75, 87)


@cache
def ray_chaudhuri_wilson(q: int) -> Design:
    """A KTS(2q + 1) for a prime q = 6t + 1 (D. K. Ray-Chaudhuri & R. M. Wilson, "Solution
    of Kirkman's schoolgirl problem", Proc. Symp. Pure Math. 19, AMS 1971; as in Colbourn &
    Dinitz, Handbook of Combinatorial Designs, §II.2, and Stinson's survey of Kirkman
    triple systems, 1991).

    Points: (x, 1) as x and (x, 2) as q + x for x in GF(q) = Z_q, and ∞ as 2q. With a a
    primitive root and m the exponent with 2·a^m = a^t + 1, the base round is
    {∞, (0,1), (0,2)}; {(a^i, 1), (a^(i+t), 1), (a^(i+m), 2)} for i in [0, t) ∪ [2t, 3t) ∪
    [4t, 5t); and {(a^(m+t+i), 2), (a^(m+3t+i), 2), (a^(m+5t+i), 2)} for i in [0, t). Its
    pairs use every difference of GF(q) once (within level 1, within level 2, and from 1 to
    2), so it and its translates by every g in GF(q) are q rounds meeting every pair once.
    """
    t = (q - 1) // 6
    a = next(g for g in range(2, q) if all(pow(g, (q - 1) // f, q) != 1 for f in _primes(q - 1)))

    def power(k: int) -> int:
        return pow(a, k % (q - 1), q)

    m = next(k for k in range(q - 1) if 2 * power(k) % q == (power(t) + 1) % q)
    base = [(0, q, 2 * q)]
    for i in (*range(t), *range(2 * t, 3 * t), *range(4 * t, 5 * t)):
        base.append((power(i), power(i + t), q + power(i + m)))
    for i in range(t):
        base.append(tuple(q + power(m + k * t + i) for k in (1, 3, 5)))

    def shift(p: int, g: int) -> int:
        return p if p == 2 * q else p - p % q + (p % q + g) % q

    return tuple(
        tuple(sorted(tuple(sorted(shift(p, g) for p in triple)) for triple in base))
        for g in range(q)
    )


def _primes(n: int) -> list[int]:
    """The prime factors of n."""
    found, p = [], 2
    while p * p <= n:
        if n % p == 0:
            found.append(p)
            while n % p == 0:
                n //= p
        p += 1
    return [*found, n] if n > 1 else found


#: Kirkman systems built as three times a smaller one (`tripled`) rather than searched.
_TRIPLED = (45, 63, 99)


@cache
def tripled(design: Design) -> Design:
    """A KTS(3v) from a KTS(v): the points (x, i), x a point of the design, i in Z_3, as
    3x + i. For each round of the design and each s in Z_3 a round of the tables
    {(a, i), (b, i + s), (c, i − s)}, i in Z_3, for each table {a, b, c} of that round
    (a < b < c); and one more round of the tables {(x, 0), (x, 1), (x, 2)}. Two points
    (a, i), (b, j) of different tables meet once: in the round s = j − i of the round of
    the design where a meets b (the standard tripling of a resolvable design, e.g. Colbourn &
    Dinitz, Handbook of Combinatorial Designs, §II.2). (3v − 1)/2 rounds: the bound."""
    rounds = []
    for round_ in design:
        for s in range(3):
            rounds.append(
                tuple(
                    sorted(
                        tuple(sorted((3 * a + i, 3 * b + (i + s) % 3, 3 * c + (i - s) % 3)))
                        for a, b, c in round_
                        for i in range(3)
                    )
                )
            )
    v = sum(len(t) for t in design[0])
    rounds.append(tuple((3 * x, 3 * x + 1, 3 * x + 2) for x in range(v)))
    return tuple(rounds)


@cache
def _searched(n: int) -> Design | None:
    rounds = stored(n)
    if rounds is not None:
        return tuple(tuple(sorted(r)) for r in rounds)
    smaller = design_for(n // 3) if n % 9 == 0 else None
    # no stored design: three times a smaller one, one round short for N ≡ 0 mod 6
    return tripled(smaller) if smaller is not None else None


def best_rounds(n: int) -> int:
    """The most rounds `n` players (n ≡ 0 mod 3) can play without a repeat: ⌊(N−1)/2⌋
    (Kirkman and nearly Kirkman triple systems reach it), except 1 for 6 and 4 for 12."""
    return _EXCEPTIONS.get(n, upper_bound(n))


def sizes_stored() -> tuple[int, ...]:
    return tuple(sorted(_STORED))


def upper_bound(n: int) -> int:
    """No schedule of `n` players (n ≡ 0 mod 3) has more rounds without a repeat."""
    return (n - 1) // 2


@cache
def affine_design(k: int) -> Design:
    """The lines of AG(k, 3), a round per direction.

    Points are the vectors of Z_3^k, numbered by their base-3 digits. A direction is a
    non-zero vector whose first non-zero digit is 1 (one per line through the origin), and
    the lines {x, x+d, x+2d} with direction d partition the space.
    """
    n = 3**k

    def add(x: int, y: int) -> int:
        total, place = 0, 1
        for _ in range(k):
            total += ((x // place + y // place) % 3) * place
            place *= 3
        return total

    rounds = []
    for d in range(1, n):
        digits = [(d // 3**i) % 3 for i in range(k)]
        leading = next(digit for digit in reversed(digits) if digit)
        if leading != 1:
            continue
        seen: set[int] = set()
        lines = []
        for x in range(n):
            if x in seen:
                continue
            line = (x, add(x, d), add(add(x, d), d))
            seen.update(line)
            lines.append(tuple(sorted(line)))
        rounds.append(tuple(sorted(lines)))
    return tuple(rounds)


def problems(n: int, design: Design) -> list[str]:
    """What is wrong with `design` as a resolvable packing of triples on 0..n−1 (empty: fine)."""
    found = []
    seen: dict[tuple[int, int], int] = {}
    for number, round_ in enumerate(design, 1):
        points = sorted(p for triple in round_ for p in triple)
        if points != list(range(n)) or any(len(set(t)) != 3 for t in round_):
            found.append(f"round {number} is not a partition of 0..{n - 1} into triples")
        for a, b, c in round_:
            for pair in ((a, b), (a, c), (b, c)):
                pair = (min(pair), max(pair))
                if pair in seen:
                    found.append(f"pair {pair} in rounds {seen[pair]} and {number}")
                seen[pair] = number
    return found


def is_kirkman(n: int, design: Design) -> bool:
    """A resolvable packing in which every pair meets exactly once: a KTS(n)."""
    pairs = sum(3 * len(round_) for round_ in design)
    return not problems(n, design) and pairs == n * (n - 1) // 2


@cache
def _parsed(n: int) -> Design:
    return tuple(
        tuple(tuple(int(p) for p in triple.split("-")) for triple in line.split())
        for line in _STORED[n]
    )


def _log3(n: int) -> int | None:
    k = 0
    while n > 1 and n % 3 == 0:
        n //= 3
        k += 1
    return k if n == 1 else None
