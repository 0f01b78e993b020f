"""The one throttle: what a client did (a wrong secret, PIN or code, a new game, a seat claim)
counted per scope in a window, and whether a scope is past its limit.

A Throttle names what it counts, its window and, for each scope, how many the window allows:
``Throttle("pin-failures", 600, address=20, event=40)`` counts wrong PINs per client address
and per event. Each scope is its own count in config.window_count (the shared cache, each
process by itself while it is down), so every process counts together; asking is separate
from counting, so a right answer can pass while the wrong ones are counted. What a throttle
refuses, and what it logs, is its caller's: a wrong table secret is blocked per address or
game, a PIN per address or event; a new game is refused once its address is past its budget.

Callers give the client's address (config.client_ip.client_address, the one address rule),
never the request: the services that check a PIN or a code take plain values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from config.window_count import count, current, is_loopback

__all__ = ["Counted", "Throttle", "is_loopback"]


@dataclass(frozen=True)
class Counted:
    """The counts just made, by scope, beside their limits."""

    counts: Mapping[str, int]
    limits: Mapping[str, int]

    @property
    def within(self) -> bool:
        """No scope is past its limit (this one still counts as allowed)."""
        return all(n <= self.limits[scope] for scope, n in self.counts.items())

    @property
    def just_past(self) -> bool:
        """A scope went past its limit with this one: worth one line in the log a window."""
        return any(n == self.limits[scope] + 1 for scope, n in self.counts.items())

    def __getitem__(self, scope: str) -> int:
        return self.counts[scope]


class Throttle:
    """What is counted (`name`, the keys' prefix), its window, and each scope's limit."""

    def __init__(self, name: str, window_seconds: int, **limits: int) -> None:
        self.name = name
        self.window_seconds = window_seconds
        self.limits = dict(limits)

    def key(self, scope: str, value: object) -> str:
        parts = value if isinstance(value, tuple) else (value,)
        return ":".join([self.name, scope, *(str(part) for part in parts)])

    def _given(self, scopes: dict[str, object]) -> dict[str, object]:
        unknown = set(scopes) - set(self.limits)
        if unknown:
            raise ValueError(f"{self.name} has no scope {sorted(unknown)}")
        return {scope: value for scope, value in scopes.items() if value is not None}

    def blocked(self, **scopes: object) -> bool:
        """Whether any scope given (None: not asked) has reached its limit; counts nothing."""
        return any(
            current(self.key(scope, value)) >= self.limits[scope]
            for scope, value in self._given(scopes).items()
        )

    def count(self, **scopes: object) -> Counted:
        """Count one in each scope given (None: not counted); the counts."""
        counts = {
            scope: count(self.key(scope, value), self.window_seconds)
            for scope, value in self._given(scopes).items()
        }
        return Counted(counts, self.limits)

    @property
    def minutes(self) -> int:
        """The window in minutes, as the refusals say it."""
        return self.window_seconds // 60
