"""Building the no-repeat designs that are not formulas: a seeded search for a base round.

Run `python -m bench.kirkman` to (re)build the files in
`tournaments/pairing/design_data/` that `designs` reads. Each file's first line is the
command that wrote it (sizes, and `--steps` when not the default) and the seed that found
it: the same command finds the same design again. Most sizes take seconds; NKTS(66), (90)
and (96) took about five minutes each on a busy machine (90 and 96 with `--steps 2000`:
many short searches found them much sooner than a few long ones).

The method is the textbook one for these designs (the "cyclic" or "base block" method, see
C. J. Colbourn & J. H. Dinitz (eds.), *Handbook of Combinatorial Designs*, 2nd ed., 2007,
§II.2 on triple systems and §VI.16 on difference families): put the points on the cyclic
group Z_n, a few "levels" of it and a few fixed points ∞; find ONE round, the *base round*,
whose pairs use every *difference* exactly once; then adding 1, 2, …, n−1 to every point
(∞ stays) gives n rounds in which no pair meets twice. The code here is our own.

- Kirkman triple system KTS(3n), n odd (N ≡ 3 mod 6): points Z_n × {0, 1, 2}. The (n−1)/2
  *fixed* rounds are the orbits of triples {(0,0), (a,1), (b,2)} (adding g to each triple of
  one such orbit gives the same round back); the base round developed gives the other n.
  (n−1)/2 + n = (3n−1)/2 rounds: every pair meets exactly once.
- Nearly Kirkman triple system NKTS(2n+2) (N ≡ 0 mod 6, N ≥ 18): points Z_n × {0, 1} and
  ∞0, ∞1; the base round developed gives n = (N−2)/2 rounds. The pairs that never meet are
  a perfect matching: {∞0, ∞1} and, for n odd, {(x,0), (x,1)}; for n even, the pairs
  {(x,l), (x+n/2,l)}.

A pair of points has a *difference*: for two points of one level l, the distance
min(d, n−d) between them (d = y − x mod n), for levels l < m the signed y − x mod n. Adding g
to both points keeps it, so if the base round uses each wanted difference once, every pair
with that difference meets in exactly one of the developed rounds.

The search for the base round is a randomised backtracking (the lowest free point, then two
partners whose three differences are all still unused), restarted with the next seed when it
spends its step limit.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

Triple = tuple[int, int, int]
Round = tuple[Triple, ...]

DATA = Path(__file__).resolve().parent / "design_data"


class _Frame:
    """Points Z_n × levels, then the fixed points; a point (x, l) is l·n + x."""

    def __init__(self, n: int, levels: int, fixed: int):
        self.n, self.levels, self.fixed = n, levels, fixed
        self.size = n * levels + fixed

    def level(self, p: int) -> int:
        return p // self.n if p < self.n * self.levels else -1

    def difference(self, p: int, q: int) -> tuple | None:
        n = self.n
        lp, lq = self.level(p), self.level(q)
        if lp < 0 or lq < 0:
            return None  # a pair with a fixed point: met once over the n translates
        if lp > lq:
            p, q, lp, lq = q, p, lq, lp
        d = (q % n - p % n) % n
        if lp == lq:
            return ("pure", lp, min(d, n - d))
        return ("mixed", lp, lq, d)

    def shift(self, p: int, g: int) -> int:
        if p >= self.n * self.levels:
            return p
        return (p // self.n) * self.n + (p % self.n + g) % self.n

    def develop(self, base: Round) -> list[Round]:
        return [
            tuple(sorted(tuple(sorted(self.shift(p, g) for p in t)) for t in base))
            for g in range(self.n)
        ]


def _search_base(
    frame: _Frame, wanted: set, start: list[Triple], rng: random.Random, steps: int
) -> list[Triple] | None:
    """A round containing `start` whose other pairs use distinct differences of `wanted`
    (each at most once; counting makes it exactly once), or None within `steps`."""
    size = frame.size
    ids = {d: i for i, d in enumerate(sorted(wanted, key=repr))}
    diff = [[-1] * size for _ in range(size)]
    for p in range(size):
        for q in range(size):
            if p != q:
                d = frame.difference(p, q)
                if d is not None and d in ids:
                    diff[p][q] = ids[d]
    used = [False] * len(ids)
    free = [True] * size
    for t in start:
        for p in t:
            free[p] = False
        for p, q in ((t[0], t[1]), (t[0], t[2]), (t[1], t[2])):
            d = frame.difference(p, q)
            if d is not None:
                if d not in ids or used[ids[d]]:
                    return None
                used[ids[d]] = True
    chosen: list[Triple] = []
    budget = [steps]

    def extend() -> bool:
        p = next((x for x in range(size) if free[x]), None)
        if p is None:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        free[p] = False
        row = diff[p]
        partners = [q for q in range(size) if free[q] and row[q] >= 0 and not used[row[q]]]
        rng.shuffle(partners)
        for i, q in enumerate(partners):
            dq = row[q]
            used[dq] = True
            free[q] = False
            for r in partners[i + 1 :]:
                dr, dqr = row[r], diff[q][r]
                if used[dr] or dqr < 0 or used[dqr] or dr == dqr:
                    continue
                used[dr] = used[dqr] = True
                free[r] = False
                chosen.append((p, q, r))
                if extend():
                    return True
                chosen.pop()
                free[r] = True
                used[dr] = used[dqr] = False
                if budget[0] < 0:
                    break
            used[dq] = False
            free[q] = True
            if budget[0] < 0:
                break
        free[p] = True
        return False

    return [*start, *chosen] if extend() else None


class Found:
    """What a search found: enough to build every round (`rounds`), and to store."""

    def __init__(self, v: int, fixed: list[tuple[int, int]], base: list[Triple]):
        self.v, self.fixed, self.base = v, fixed, base

    def frame(self) -> _Frame:
        return _Frame(self.v // 3, 3, 0) if self.v % 6 == 3 else _Frame((self.v - 2) // 2, 2, 2)

    def rounds(self) -> list[Round]:
        """The fixed rounds (KTS: the orbit of {(0,0), (a,1), (b,2)} for each (a, b)), then the
        base round and its n − 1 translates."""
        frame = self.frame()
        n = frame.n
        fixed = [
            tuple(sorted((x, n + (x + a) % n, 2 * n + (x + b) % n) for x in range(n)))
            for a, b in self.fixed
        ]
        return fixed + frame.develop(tuple(self.base))

    def text(self, seed: int, steps: int = 200_000) -> str:
        kind = "KTS" if self.v % 6 == 3 else "NKTS"
        option = "" if steps == 200_000 else f" --steps {steps}"
        lines = [
            f"# {kind}({self.v}) from tournaments.pairing.kirkman (python -m bench.kirkman"
            f"{option} {self.v}), seed {seed}.",
            "# fixed: the (a, b) of each fixed round; base: the base round (see kirkman.py).",
            "fixed " + " ".join(f"{a}-{b}" for a, b in self.fixed),
            "base " + " ".join("-".join(map(str, t)) for t in self.base),
        ]
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, v: int, text: str) -> Found:
        fixed: list[tuple[int, int]] = []
        base: list[Triple] = []
        for line in text.splitlines():
            word, _, rest = line.partition(" ")
            if word == "fixed":
                fixed = [tuple(map(int, pair.split("-"))) for pair in rest.split()]  # type: ignore[misc]
            elif word == "base":
                base = [tuple(map(int, t.split("-"))) for t in rest.split()]  # type: ignore[misc]
        return cls(v, fixed, base)


def stored(v: int) -> list[Round] | None:
    """The rounds of the design for `v` kept in `design_data`, or None."""
    path = DATA / f"{v}.txt"
    if not path.exists():
        return None
    return Found.parse(v, path.read_text()).rounds()


def kts_cyclic(v: int, seed: int, steps: int = 200_000) -> Found | None:
    """A KTS(v), v ≡ 3 mod 6, on Z_n × {0,1,2} (n = v/3), from `seed`; None if this seed's
    search gave up."""
    n = v // 3
    t = (n - 1) // 2
    rng = random.Random(seed)
    frame = _Frame(n, 3, 0)
    # t fixed rounds: orbits of {(0,0),(a,1),(b,2)} with a, b − a and b all distinct.
    for _ in range(1000):
        a_s = rng.sample(range(n), t)
        c_s = rng.sample(range(n), t)  # the 1→2 differences
        b_s = [(a + c) % n for a, c in zip(a_s, c_s, strict=True)]
        if len(set(b_s)) == t:
            break
    else:
        return None
    wanted = {("pure", lvl, d) for lvl in range(3) for d in range(1, t + 1)}
    wanted |= {("mixed", 0, 1, d) for d in range(n) if d not in a_s}
    wanted |= {("mixed", 1, 2, d) for d in range(n) if d not in c_s}
    wanted |= {("mixed", 0, 2, d) for d in range(n) if d not in b_s}
    base = _search_base(frame, wanted, [], rng, steps)
    if base is None:
        return None
    return Found(v, list(zip(a_s, b_s, strict=True)), base)


def nkts_cyclic(v: int, seed: int, steps: int = 200_000) -> Found | None:
    """An NKTS(v), v ≡ 0 mod 6, v ≥ 18, on Z_n × {0,1} ∪ {∞0, ∞1} (n = (v−2)/2), from `seed`;
    None if this seed's search gave up."""
    n = (v - 2) // 2
    rng = random.Random(seed)
    frame = _Frame(n, 2, 2)
    if n % 2:
        wanted = {("pure", lvl, d) for lvl in range(2) for d in range(1, (n - 1) // 2 + 1)}
        wanted |= {("mixed", 0, 1, d) for d in range(1, n)}
    else:
        wanted = {("pure", lvl, d) for lvl in range(2) for d in range(1, n // 2)}
        wanted |= {("mixed", 0, 1, d) for d in range(n)}
    mixed = [d[3] for d in wanted if d[0] == "mixed"]
    d0, d1 = rng.sample(sorted(mixed), 2)
    a, c = rng.sample(range(n), 2)
    start = [(a, n + (a + d0) % n, 2 * n), (c, n + (c + d1) % n, 2 * n + 1)]
    start = [tuple(sorted(t)) for t in start]
    if len({p for t in start for p in t}) != 6:
        return None
    base = _search_base(frame, wanted, start, rng, steps)
    return None if base is None else Found(v, [], base)


def find(v: int, steps: int, budget_seconds: float = 3600.0) -> tuple[int, Found] | None:
    """The first seed (0, 1, 2, …) whose search finds a design for `v` within `steps`, and the
    design. (A seed's design does not depend on `steps`, only whether it is found in time:
    many short searches are often quicker than a few long ones.)"""
    build = kts_cyclic if v % 6 == 3 else nkts_cyclic
    started = time.monotonic()
    seed = 0
    while time.monotonic() - started < budget_seconds:
        found = build(v, seed, steps)
        if found is not None:
            return seed, found
        seed += 1
    return None


def write(v: int, seed: int, found: Found, steps: int) -> Path:
    DATA.mkdir(exist_ok=True)
    path = DATA / f"{v}.txt"
    path.write_text(found.text(seed, steps))
    return path


#: The sizes this module builds; the others are formulas in `designs`.
SEARCHED = tuple(v for v in range(24, 100, 3) if v not in (27, 39, 45, 63, 75, 81, 87, 99))


def main(argv: list[str]) -> int:
    """`python -m bench.kirkman [--steps N] [sizes…]`: all of SEARCHED by
    default; --steps is the step limit of each seed's search (200 000 unless given)."""
    steps = 200_000
    if argv[:1] == ["--steps"]:
        steps, argv = int(argv[1]), argv[2:]
    sizes = [int(a) for a in argv] or list(SEARCHED)
    for v in sizes:
        started = time.monotonic()
        found = find(v, steps)
        if found is None:
            print(f"{v}: not found", flush=True)
            continue
        seed, design = found
        path = write(v, seed, design, steps)
        print(f"{v}: seed {seed}, {time.monotonic() - started:.1f} s -> {path.name}", flush=True)
    return 0
