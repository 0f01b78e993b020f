"""Seeded randomness: every random choice of a draw comes from here.

Each use gets its own generator, derived from the event's seed and a label (and usually the
round), so that adding a random choice in one place never shifts the draws of another, and
no draw ever touches the global `random` state. The derivation hashes `repr`, which unlike
`hash()` is the same in every process.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable


def rng_for(seed: int, *labels: object) -> random.Random:
    """A generator for one purpose: the same seed and labels give the same sequence."""
    digest = hashlib.sha256(repr((seed, *labels)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def lots(ids: Iterable[int], seed: int, *labels: object) -> dict[int, int]:
    """A seeded order of the players (0 = first drawn), independent of the input order."""
    order = sorted(ids)
    rng_for(seed, "lot", *labels).shuffle(order)
    return {player: position for position, player in enumerate(order)}
