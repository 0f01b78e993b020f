"""Find the quasi-difference matrices `tournaments.pairing.teams` stores: a seeded search.

    .venv/bin/python -m bench.latin           # every order teams.py stores a QDM for
    .venv/bin/python -m bench.latin 14 18     # just these team sizes m (n = m − 1)

Prints, for each m, the seed that found it and the `_QDM` entry of teams.py; running the same
command again prints the same entries. m = 14, 18, 22, 26 take 0.1–32 s (most of it building
the n³ candidate columns); for m = 34 (n = 33) it did not finish in minutes, so the larger
orders ≡ 2 mod 4 come from Wilson's construction (`teams._wilson_pair`) instead.

The normal form (`teams._qdm_pair`): row r's blank in column r, row 0 all zeros (each column
may be shifted by a constant), column 0 shifted to start (blank, 0). Rows 0 and r ≥ 1 are then
right exactly when row r is a permutation of Z_n on its n filled columns other than column 0.
The blank columns are

    column 0: (·, 0, a, b)  column 1: (0, ·, x, y)  column 2: (0, u, ·, v)  column 3: (0, p, q, ·)

and the n − 2 full columns (0, α, β, γ). Summing each of the six permutations of Z_n (rows 1..3
and the differences of rows 1–2, 1–3, 2–3; the sum of Z_n is 0 for n odd) forces

    a = x − u,   b = y − p,   v = q − x + u + y − p,

so only u, p, x, q, y are drawn (at random, from the seed); a draw that ignored this would
fail all but once in n³. The full columns are then an exact cover: each candidate (α, β, γ)
covers the row values α, β, γ and the differences α − β, α − γ, β − γ, and every value and
difference the blank columns leave must be covered once. Knuth's Algorithm X (the column with
the fewest candidates first, in the seed's random order) finds one or gives up after a budget
of steps, and the next seed is drawn.
"""

from __future__ import annotations

import random
import sys
import time

from tournaments.pairing.teams import _QDM, check_qdm, qdm_text

Item = tuple[str, int]


def search(n: int, seed: int, budget: int = 20_000) -> list[list[int | None]] | None:
    """An (n,4;1,1;1)-QDM over Z_n in the normal form above, from `seed`; None if this seed's
    blank columns clash or the cover is not found within `budget` steps."""
    rng = random.Random(seed)
    x, y, u, p, q = (rng.randrange(n) for _ in range(5))
    a, b, v = (x - u) % n, (y - p) % n, (q - x + u + y - p) % n
    taken = {
        "1": {u, p},
        "2": {x, q},
        "3": {y, v},
        "12": {-a % n, (p - q) % n},
        "13": {-b % n, (u - v) % n},
        "23": {(a - b) % n, (x - y) % n},
    }
    if any(len(values) < 2 for values in taken.values()):
        return None
    options: dict[tuple[int, int, int], list[Item]] = {}
    for al in range(n):
        for be in range(n):
            for ga in range(n):
                items = [
                    ("1", al),
                    ("2", be),
                    ("3", ga),
                    ("12", (al - be) % n),
                    ("13", (al - ga) % n),
                    ("23", (be - ga) % n),
                ]
                if not any(value in taken[kind] for kind, value in items):
                    options[al, be, ga] = items
    covering: dict[Item, set] = {
        (kind, value): set() for kind in taken for value in range(n) if value not in taken[kind]
    }
    for option, items in options.items():
        for item in items:
            covering[item].add(option)
    chosen = _cover(covering, options, rng, [budget])
    if chosen is None:
        return None
    blank = [(None, 0, a, b), (0, None, x, y), (0, u, None, v), (0, p, q, None)]
    columns = blank + [(0, *option) for option in chosen]
    return [list(row) for row in zip(*columns, strict=True)]


def _cover(covering: dict, options: dict, rng: random.Random, budget: list[int]):
    """Algorithm X on `covering` (item → the options covering it, changed in place and
    restored): the options chosen, or None."""
    if not covering:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    item = min(covering, key=lambda i: len(covering[i]))
    candidates = list(covering[item])
    rng.shuffle(candidates)
    for option in candidates:
        removed = _select(covering, options, option)
        rest = _cover(covering, options, rng, budget)
        if rest is not None:
            return [option, *rest]
        _deselect(covering, options, option, removed)
    return None


def _select(covering: dict, options: dict, option) -> list[set]:
    removed = []
    for item in options[option]:
        for other in covering[item]:
            for other_item in options[other]:
                if other_item != item:
                    covering[other_item].remove(other)
        removed.append(covering.pop(item))
    return removed


def _deselect(covering: dict, options: dict, option, removed: list[set]) -> None:
    for item in reversed(options[option]):
        covering[item] = removed.pop()
        for other in covering[item]:
            for other_item in options[other]:
                if other_item != item:
                    covering[other_item].add(other)


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or sorted(n + 1 for n in _QDM)
    for m in sizes:
        n, seed, started = m - 1, 0, time.perf_counter()
        while (found := search(n, seed)) is None:
            seed += 1
        assert check_qdm(found, n)
        seconds = time.perf_counter() - started
        print(f"# m = {m}: seed {seed}, {seconds:.1f} s")
        print(qdm_text(found, n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
