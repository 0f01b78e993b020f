"""What goes into a draw and what comes out, as small immutable values.

Everything here is plain data (ints, strings, tuples) so the Django bridge can build a
`Request` from its rows, store a `Pairing` as a draft (see `as_dict`) and show it back, and
so tests can build either by hand. Flags and errors carry codes and ids, never sentences:
the site words them in the reader's language.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .why import Why

#: A pair of player ids, smaller id first.
Pair = tuple[int, int]

#: Work units a search may spend on one round before it settles for what it has (see
#: `Request.budget`). Half a second or so of work on a 2-core machine.
DEFAULT_BUDGET = 400_000

#: A swiss table whose players stand more than this many places apart is flagged (about
#: three tables' width: neighbouring tables mixing is normal, more is worth a look).
DEFAULT_SPREAD_LIMIT = 8


class Mode(enum.StrEnum):
    """How the players of a round are put together."""

    RANDOM = "random"  # luck of the draw, reproducible from the event's seed
    SWISS = "swiss"  # similar standing together, no meeting twice while avoidable
    NO_REPEAT = "no-repeat"  # as many rounds as possible before anyone meets twice


#: The modes' names, as events store them.
MODES = tuple(mode.value for mode in Mode)


class FlagCode(enum.StrEnum):
    """What a flag is about. The site has one message per code."""

    #: `players` (x, y) have met before, in `rounds` (empty when the history has no rounds).
    REPEAT = "repeat"
    #: `players` (x,) gets a bye having had one already; `amount` is this bye's number (2, 3…).
    SECOND_BYE = "second_bye"
    #: The best and the worst at the table stand `amount` places apart (ties counted in their
    #: favour), more than `limit`; `players` are the table from best to worst. Swiss only.
    SPREAD = "spread"
    #: The search ran out of budget before it could prove the repeats it left unavoidable: an
    #: organiser's swap may still remove them. `amount` is the number of repeats left.
    SEARCH_LIMIT = "search_limit"
    #: `players` (x, y) must be kept apart (`Request.apart`) yet share this table; `reason`
    #: (a `RuleReason`) says why: no seating avoids it, the search found none, or by hand.
    APART = "apart"
    #: `players` (x, y) are of one team (`Request.teams`) yet share this table; `reason` as
    #: for APART (no seating keeps every teammate and keep-apart pair apart, …).
    TEAMMATES = "teammates"


class RuleReason(enum.StrEnum):
    """Why a keep-apart or teammate pair shares a table (`Flag.reason` of APART, TEAMMATES)."""

    #: No seating of this round's players (after the byes) keeps every such pair apart: the
    #: group is larger than the number of tables, say. Proven, not guessed.
    UNAVOIDABLE = "unavoidable"
    #: The draw's search ran out of budget before finding a seating without it; one may
    #: exist (an organiser's swap may remove it).
    NOT_FOUND = "not_found"
    #: Seated so by hand (`review` of an edited draft): a seating without it exists, or was
    #: not ruled out.
    BY_HAND = "by_hand"


@dataclass(frozen=True)
class Flag:
    """Something about a table or a round the organiser should see before publishing."""

    code: FlagCode
    players: tuple[int, ...] = ()
    rounds: tuple[int, ...] = ()
    amount: int | None = None
    limit: int | None = None
    reason: RuleReason | None = None

    @classmethod
    def repeat(cls, a: int, b: int, rounds: Sequence[int]) -> Flag:
        return cls(FlagCode.REPEAT, players=(min(a, b), max(a, b)), rounds=tuple(rounds))

    @classmethod
    def second_bye(cls, player: int, bye_number: int) -> Flag:
        return cls(FlagCode.SECOND_BYE, players=(player,), amount=bye_number)

    @classmethod
    def spread(cls, players: Sequence[int], spread: int, limit: int) -> Flag:
        return cls(FlagCode.SPREAD, players=tuple(players), amount=spread, limit=limit)

    @classmethod
    def search_limit(cls, repeats: int) -> Flag:
        return cls(FlagCode.SEARCH_LIMIT, amount=repeats)

    @classmethod
    def rule(cls, code: FlagCode, a: int, b: int, reason: RuleReason) -> Flag:
        """An APART or TEAMMATES flag: players (a, b), smaller id first, and why."""
        return cls(code, players=(min(a, b), max(a, b)), reason=RuleReason(reason))

    def as_dict(self) -> dict:
        data: dict = {"code": self.code.value}
        if self.players:
            data["players"] = list(self.players)
        if self.rounds:
            data["rounds"] = list(self.rounds)
        if self.amount is not None:
            data["amount"] = self.amount
        if self.limit is not None:
            data["limit"] = self.limit
        if self.reason is not None:
            data["reason"] = self.reason.value
        return data


class PairingError(ValueError):
    """A request no draw can answer. `code` is for the site's message, `data` for its ids."""

    def __init__(self, code: str, message: str, **data: object):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


@dataclass(frozen=True)
class Entrant:
    """One active player as the draw sees them: where they stand and what they have had.

    `rank` is the standing position, 1 = best; equal ranks are allowed (ties are broken by
    the round's seeded lot). `points` are what the standings rank by first (placing
    points, usually): players level on them are a score group, which only the explanation
    of a swiss table uses (`why.explain`). `seat_counts[s]` is how often they sat at seat
    s (seats are numbered in the direction of play, as in the engine) and `dealer_count`
    how often they dealt first; the draw evens both out over the event.
    """

    id: int
    rank: int = 1
    byes: int = 0
    seat_counts: tuple[int, int, int] = (0, 0, 0)
    dealer_count: int = 0
    points: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat_counts", tuple(self.seat_counts))
        if not _is_int(self.id):
            raise PairingError("bad_entrant", f"player id {self.id!r} is not an integer")
        checks = [
            ("rank", self.rank, 1),
            ("byes", self.byes, 0),
            ("dealer_count", self.dealer_count, 0),
            ("points", self.points, None),
        ]
        for name, value, least in checks:
            if not _is_int(value) or (least is not None and value < least):
                raise PairingError(
                    "bad_entrant",
                    f"player {self.id}: {name} must be an integer ≥ {least}, not {value!r}",
                    player=self.id,
                )
        counts = self.seat_counts
        if len(counts) != 3 or not all(_is_int(c) and c >= 0 for c in counts):
            raise PairingError(
                "bad_entrant",
                f"player {self.id}: seat_counts must be three integers ≥ 0, not {counts!r}",
                player=self.id,
            )


@dataclass(frozen=True, kw_only=True)
class Request:
    """Everything one round's draw depends on, and nothing else: same request, same draw.

    `met` maps each pair of players who have played together (smaller id first) to the
    rounds they met in; a bare collection of pairs is accepted too (rounds then unknown).
    Pairs involving players not in `entrants` (withdrawn) are ignored.

    `planned_field` is the round-1 field of a no-repeat event. While the active players are
    still exactly that field, the draw follows a whole-event plan (a resolvable design) so
    the event reaches the most rounds without repeats; round-by-round choices cannot.

    `seed` is the event's: keep it the same every round. The draw mixes in `round_number`
    itself, and the no-repeat plan is drawn from the seed alone, so a seed that changed from
    round to round would give a different plan each round and lose it.

    `apart` holds the pairs (smaller id first) that must never share a table (the organiser's
    keep-apart rules, groups already spread into pairs); `teams` maps a player to their team,
    and teammates share a table only when it cannot be avoided. Players not in `entrants`
    are ignored in both.

    `budget` caps the work (search steps, not seconds, so that a busy server gives the same
    draw as an idle one) spent looking for a better draw than the quick one.
    """

    entrants: tuple[Entrant, ...]
    mode: Mode = Mode.SWISS
    round_number: int = 1
    seed: int = 0
    met: Mapping[Pair, tuple[int, ...]] = field(default_factory=dict, hash=False)
    planned_field: tuple[int, ...] | None = None
    budget: int = DEFAULT_BUDGET
    spread_limit: int = DEFAULT_SPREAD_LIMIT
    apart: frozenset[Pair] = frozenset()
    teams: Mapping[int, int] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        entrants = tuple(self.entrants)
        object.__setattr__(self, "entrants", entrants)
        try:
            object.__setattr__(self, "mode", Mode(self.mode))
        except ValueError:
            known = ", ".join(m.value for m in Mode)
            raise PairingError(
                "unknown_mode", f"unknown pairing mode {self.mode!r} (modes are: {known})"
            ) from None
        if not all(isinstance(e, Entrant) for e in entrants):
            raise PairingError("bad_entrant", "entrants must be Entrant values")
        ids = [e.id for e in entrants]
        if len(set(ids)) != len(ids):
            twice = sorted({i for i in ids if ids.count(i) > 1})
            raise PairingError(
                "duplicate_player", f"players listed twice: {twice}", players=tuple(twice)
            )
        if len(entrants) < 3:
            raise PairingError(
                "too_few_players",
                f"a round needs at least 3 active players (tables are of three), "
                f"not {len(entrants)}",
                count=len(entrants),
            )
        for name in ("round_number", "budget", "spread_limit", "seed"):
            value = getattr(self, name)
            least = None if name == "seed" else (1 if name == "round_number" else 0)
            if not _is_int(value) or (least is not None and value < least):
                raise PairingError("bad_request", f"{name} must be an integer, not {value!r}")
        object.__setattr__(self, "met", _normalised_meetings(self.met))
        object.__setattr__(self, "apart", frozenset(_normalised_meetings(self.apart)))
        object.__setattr__(self, "teams", dict(self.teams))
        if self.planned_field is not None:
            object.__setattr__(self, "planned_field", tuple(self.planned_field))

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(e.id for e in self.entrants)


@dataclass(frozen=True)
class Table:
    """One table of a round.

    `seats` are player ids by seat (0, 1, 2 in the direction of play) and `first_dealer` is
    a seat, as `first_dealer` is everywhere else (engine, API). `why` explains a swiss
    table (score groups, floats, repeats kept apart: `why.Why`); None in the other modes.
    """

    number: int
    seats: tuple[int, int, int]
    first_dealer: int
    flags: tuple[Flag, ...] = ()
    why: Why | None = None

    @property
    def dealer(self) -> int:
        """The id of the player who deals first."""
        return self.seats[self.first_dealer]

    def as_dict(self) -> dict:
        return {
            "table": self.number,
            "seats": list(self.seats),
            "first_dealer": self.first_dealer,
            "flags": [flag.as_dict() for flag in self.flags],
            **({"why": self.why.as_dict()} if self.why else {}),
        }


@dataclass(frozen=True)
class Pairing:
    """A round's draw: tables numbered 1..T (best standing first), byes, and round flags.

    `rounds_without_repeat`: when the round follows a whole-event plan (a no-repeat design,
    or the triangular plan of three equal teams), how many rounds, this one included, the
    plan still gives with no repeat and no keep-apart or teammate pair at a table (the
    unplayed rounds of the plan that break no rule); None when no plan is followed (swiss,
    random, a searched round), where nothing can be promised beyond this round, only bounded
    (`outlook`).
    """

    tables: tuple[Table, ...]
    byes: tuple[int, ...]
    flags: tuple[Flag, ...] = ()
    rounds_without_repeat: int | None = None

    @property
    def all_flags(self) -> tuple[Flag, ...]:
        return self.flags + tuple(flag for table in self.tables for flag in table.flags)

    def repeats(self) -> int:
        """How many pairs at the tables have met before."""
        return sum(1 for flag in self.all_flags if flag.code is FlagCode.REPEAT)

    def as_dict(self) -> dict:
        return {
            "tables": [table.as_dict() for table in self.tables],
            "byes": list(self.byes),
            "flags": [flag.as_dict() for flag in self.flags],
            **(
                {"rounds_without_repeat": self.rounds_without_repeat}
                if self.rounds_without_repeat is not None
                else {}
            ),
        }


def meetings(rounds: Mapping[int, Iterable[Sequence[int]]]) -> dict[Pair, tuple[int, ...]]:
    """`Request.met` from past tables: {round number: [player ids of each table]}."""
    met: dict[Pair, list[int]] = {}
    for number in sorted(rounds):
        for table in rounds[number]:
            for a, b in combinations(sorted(table), 2):
                met.setdefault((a, b), []).append(number)
    return {pair: tuple(numbers) for pair, numbers in met.items()}


def _normalised_meetings(met: object) -> dict[Pair, tuple[int, ...]]:
    items = met.items() if isinstance(met, Mapping) else ((pair, ()) for pair in met)
    out: dict[Pair, tuple[int, ...]] = {}
    for pair, numbers in items:
        a, b = pair
        if a == b:
            raise PairingError("bad_request", f"player {a} cannot have met themselves")
        key = (a, b) if a < b else (b, a)
        out[key] = tuple(sorted({*out.get(key, ()), *numbers}))
    return out


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
