"""Players' names: how one is tidied, when two are the same, when two are only close.

One home for the rule, used by the table pages and the tournaments app alike (pure Python,
no Django, so callers word the refusals in the page's language). Two names are the *same*
when they differ only in case, spacing or accents ("ivan  petrov" = "Ivan Petrov" =
"Iván Petrov"): a game or an event never holds both, because nobody could tell from a score
sheet or a pairing list which one is meant. Two names are *near* when they are probably one
person spelt two ways: the same letters in another script ("Иван Петров" / "Ivan Petrov"),
the same words in another order, or one or two letters apart ("Ivan Petrof"). Near names are
allowed (two different people may well be called Ana and Ani) but worth a look.

Latin and Cyrillic are compared through `anyascii` (a maintained transliteration library)
plus a few folds for the spellings Bulgarian names take in Latin letters that the library's
choice does not ("Hristo" and "Khristo", "Maria" and "Mariya").
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from anyascii import anyascii

#: The longest player's name, on every page, in the API, in a pasted list.
MAX_NAME = 80
#: The longest name of a club, an event or a season (their columns hold 120).
MAX_TITLE = 120
#: What separates names in a list: never part of one name (see PlayerName).
SEPARATORS = ",;"

#: Bulgaria's official transliteration (the Streamlined System, law of 2009), letter by
#: letter; -ия at a word's end is -ia ("София" → "Sofia"). anyascii writes Cyrillic the
#: Russian way ("Shch", "Kh", "Yuliya", ъ as an apostrophe), which no Bulgarian reads.
_BULGARIAN = dict(
    zip(
        "абвгдежзийклмнопрстуфхцчшщъьюя",
        "a b v g d e zh z i y k l m n o p r s t u f h ts ch sh sht a y yu ya".split(),
        strict=True,
    )
)
_FINAL_IA = re.compile(r"([иИ])([яЯ])(?!\w)")
#: Runs of Bulgarian letters (ы, э, ё and other alphabets' letters are left to anyascii).
_CYRILLIC_WORD = re.compile(f"[{''.join(_BULGARIAN)}{''.join(_BULGARIAN).upper()}]+")

#: Spelling variants of one Cyrillic letter in Latin script, folded to one.
_VARIANTS = (("shch", "sht"), ("kh", "h"), ("j", "y"), ("y", "i"), ("w", "v"), ("ph", "f"))
_NOT_LETTERS = re.compile(r"[^a-z0-9 ]+")
_DOUBLES = re.compile(r"([a-z])\1+")
_DIGITS = re.compile(r"\d+")
#: Names' keys are kept per process: the seat search compares every name of an event (a
#: thousand names take ~90 ms to fold the first time, ~5 ms to search once kept).
_KEPT = 16_384


def _bulgarian_letter(char: str) -> str:
    latin = _BULGARIAN[char.lower()]
    return latin if char.islower() else latin.capitalize()


def _bulgarian_word(word: str) -> str:
    latin = "".join(_bulgarian_letter(char) for char in word)
    return latin.upper() if len(word) > 1 and word.isupper() else latin


def in_latin(text: str) -> str:
    """`text` in Latin letters, as a club's or an event's address is written: Bulgarian
    Cyrillic by the official system, anything else as anyascii spells it."""
    text = _FINAL_IA.sub(lambda m: m.group(1) + ("A" if m.group(2).isupper() else "a"), text)
    return anyascii(_CYRILLIC_WORD.sub(lambda m: _bulgarian_word(m.group()), text))


class NameProblem(ValueError):
    """A name that cannot be stored; `code` is "empty", "too_long" or "list" (a comma or a
    semicolon in it: two names pasted as one); the caller words it."""

    def __init__(self, code: str, text: str = ""):
        super().__init__(code)
        self.code = code
        self.text = text


def clean(text: str) -> str:
    """The name as it is stored and shown: runs of spaces and line breaks become one space."""
    return " ".join(str(text).split())


@lru_cache(maxsize=_KEPT)
def name_key(text: str) -> str:
    """What makes two names the same: no case, no accents, single spaces."""
    decomposed = unicodedata.normalize("NFKD", clean(text))
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.casefold().split())


@lru_cache(maxsize=_KEPT)
def _latin(text: str) -> str:
    """The name in Latin letters as Bulgarians write it (in_latin: "Димитър" is "Dimitar"),
    lower case, letters and digits only, one spelling of each variant."""
    plain = _NOT_LETTERS.sub("", in_latin(name_key(text)).lower())
    for variant, folded in _VARIANTS:
        plain = plain.replace(variant, folded)
    return " ".join(plain.split())


@lru_cache(maxsize=_KEPT)
def latin_key(text: str) -> str:
    """The name in plain Latin letters with common spelling variants and doubled letters
    folded: what a name sounds like, for comparing across scripts (never for refusing)."""
    return " ".join(_DOUBLES.sub(r"\1", word) for word in _latin(text).split())


def _distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, or limit + 1 once it is more: only the cells within `limit` of
    the diagonal are computed (a pasted list is compared with everyone already entered)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    beyond = limit + 1
    previous = [j if j <= limit else beyond for j in range(len(b) + 1)]
    for i, char_a in enumerate(a, start=1):
        low, high = max(1, i - limit), min(len(b), i + limit)
        current = [beyond] * (len(b) + 1)
        current[0] = i if i <= limit else beyond
        for j in range(low, high + 1):
            current[j] = min(
                previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != b[j - 1])
            )
        if min(current[low - 1 : high + 1]) > limit:
            return beyond
        previous = current
    return min(previous[-1], beyond)


def _allowed_typos(key: str) -> int:
    """One letter apart in a short name, two in a longer one ("Ana"/"Ani", "Petrov"/"Petrof")."""
    return 1 if len(key.replace(" ", "")) <= 6 else 2


@lru_cache(maxsize=_KEPT)
def _letters(text: str) -> Counter:
    return Counter(text.replace(" ", ""))


def _close(a: str, b: str, limit: int) -> bool:
    """Within `limit` edits. Each edit changes the letters' counts by at most two, so names
    whose letters differ more are not compared letter by letter (most pairs end here)."""
    if abs(len(a) - len(b)) > limit:
        return False
    bag_a, bag_b = _letters(a), _letters(b)
    if (bag_a - bag_b).total() + (bag_b - bag_a).total() > 2 * limit:
        return False
    return _distance(a, b, limit) <= limit


def near(a: str, b: str) -> bool:
    """Probably one person written two ways (but not the same name: see `same`). Names that
    differ in a number ("Player 1", "Player 2") are told apart on purpose."""
    key_a, key_b = name_key(a), name_key(b)
    if key_a == key_b or not key_a or not key_b:
        return False
    if _DIGITS.findall(key_a) != _DIGITS.findall(key_b):
        return False
    if _forms(a).whole[1] == _forms(b).whole[1] or _forms(a).latin == _forms(b).latin:
        return True
    limit = min(_allowed_typos(key_a), _allowed_typos(key_b))
    return _close(key_a, key_b, limit) or _close(latin_key(a), latin_key(b), limit)


def same(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)


@dataclass(frozen=True)
class PlayerName:
    """A player's name as stored: tidied, non-empty, at most MAX_NAME characters, with no
    comma or semicolon: a player typing "Гошо, Тошо" means two people, and every list of
    names on the site is written with commas, so such a name would read as two anyway."""

    text: str

    @classmethod
    def parse(cls, raw: object) -> PlayerName:
        if not isinstance(raw, str) or not raw.strip():
            raise NameProblem("empty")
        text = clean(raw)
        if len(text) > MAX_NAME:
            raise NameProblem("too_long", text)
        if any(separator in text for separator in SEPARATORS):
            raise NameProblem("list", text)
        return cls(text)

    @property
    def key(self) -> str:
        return name_key(self.text)

    def __str__(self) -> str:
        return self.text


def title(raw: object) -> str:
    """A club's, an event's or a season's name as stored: tidied as players' names are,
    non-empty, at most MAX_TITLE characters (commas are fine: "Пловдив, есен 2026")."""
    text = clean(raw) if isinstance(raw, str) else ""
    if not text:
        raise NameProblem("empty")
    if len(text) > MAX_TITLE:
        raise NameProblem("too_long", text)
    return text


def first_repeat(names: list[str]) -> tuple[int, int] | None:
    """(earlier, later) positions of the first two names that are the same, or None."""
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        key = name_key(name)
        if key in seen:
            return seen[key], index
        seen[key] = index
    return None


#: Up to this many comparisons, a list is compared name by name; beyond, through an index.
_PAIRWISE = 20_000


def _deletions(text: str, depth: int) -> set[str]:
    """`text` with up to `depth` letters left out."""
    found, edge = {text}, {text}
    for _ in range(depth):
        edge = {word[:i] + word[i + 1 :] for word in edge for i in range(len(word))}
        found |= edge
    return found


@lru_cache(maxsize=_KEPT)
def _probes(name: str) -> frozenset[tuple[str, str, str]]:
    """Where a name is filed in the index of near_pairs: two names within `depth` edits of
    each other share a string with `depth` letters left out ("symmetric delete"), and two
    names with the same words in another order share their sorted words; only names with
    the same numbers in them can be near, so the numbers are part of every entry."""
    key, latin = name_key(name), latin_key(name)
    depth, number = _allowed_typos(key), " ".join(_DIGITS.findall(key))
    probes = {("words", number, " ".join(_forms(name).whole[1]))}
    probes |= {("latin", number, variant) for variant in _deletions(latin, depth)}
    if not key.isascii():
        probes |= {("key", number, variant) for variant in _deletions(key, depth)}
    return frozenset(probes)


def near_pairs(new: list[str], known: list[str]) -> list[tuple[str, str]]:
    """(new name, known name) for each new name that is near a known one or an earlier new
    one; the same name is never listed (it was refused, or it is the same person). A long
    pasted list is compared through an index, so a thousand names take about a second."""
    pairs: list[tuple[str, str]] = []
    if len(new) * (len(known) + len(new)) <= _PAIRWISE:
        for index, name in enumerate(new):
            for other in [*known, *new[:index]]:
                if near(name, other) and (name, other) not in pairs:
                    pairs.append((name, other))
        return pairs
    filed: dict[tuple[str, str, str], list[str]] = {}
    for name in known:
        for probe in _probes(name):
            filed.setdefault(probe, []).append(name)
    for name in new:
        probes = _probes(name)
        candidates = dict.fromkeys(other for probe in probes for other in filed.get(probe, ()))
        pairs.extend((name, other) for other in candidates if near(name, other))
        for probe in probes:
            filed.setdefault(probe, []).append(name)
    return list(dict.fromkeys(pairs))


@dataclass(frozen=True)
class Matches:
    """Whom a typed name may mean: `exact` when it is someone's whole name (in any script),
    else everyone it partly fits, to choose from."""

    exact: tuple[int, ...]
    partial: tuple[int, ...]


@dataclass(frozen=True)
class _Forms:
    """A name's words as the search compares them (kept per name, see _KEPT)."""

    words: tuple[str, ...]  # by name_key
    latin: tuple[str, ...]  # by latin_key
    whole: tuple[tuple[str, ...], tuple[str, ...]]  # sorted name_key words, sorted _latin words


@lru_cache(maxsize=_KEPT)
def _forms(text: str) -> _Forms:
    words = tuple(name_key(text).split())
    spelt = tuple(_latin(text).split())
    return _Forms(
        words, tuple(latin_key(text).split()), (tuple(sorted(words)), tuple(sorted(spelt)))
    )


def search(typed: str, names: dict[int, str]) -> Matches:
    """The people among `names` (id → name) that `typed` may mean, in either script: every
    typed word lies inside a word of the name, or (compared in Latin letters) starts one.
    The whole name, its words in any order, is an exact match."""
    wanted = _forms(typed)
    if not wanted.words:
        return Matches((), ())
    exact, partial = [], []
    for pid, name in names.items():
        forms = _forms(name)
        if forms.whole[0] == wanted.whole[0] or (
            wanted.whole[1] and forms.whole[1] == wanted.whole[1]
        ):
            exact.append(pid)
        elif all(any(w in part for part in forms.words) for w in wanted.words) or (
            wanted.latin
            and all(any(part.startswith(w) for part in forms.latin) for w in wanted.latin)
        ):
            partial.append(pid)
    return Matches(tuple(exact), tuple(partial))
