"""The Bulgarian catalogue keeps docs/glossary.md: one word for each thing and forms that fit
every player, checked here wherever a machine can tell (the rest is for whoever writes).

Every entry is translated (a missing msgstr shows English on a Bulgarian page), and the
words the glossary retired stay out: a placing is a позиция, never a място (a seat); a deal
is a раздаване, never an игра; a player who withdrew "се отказа" (the participle "отказал се"
says he, and half the club are she); no "който" right after a name.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "locale" / "bg" / "LC_MESSAGES" / "django.po"
GLOSSARY = ROOT / "docs" / "glossary.md"


@dataclass
class Entry:
    line: int
    flags: set[str] = field(default_factory=set)
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    msgstrs: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"line {self.line}: {self.msgid!r}"


def read_catalogue(path: Path = CATALOGUE) -> list[Entry]:
    """The entries of a .po file (the header left out), with their flags and every msgstr."""
    entries: list[Entry] = []
    entry, key = None, None
    values: dict[str, str] = {}

    def close():
        if entry is not None and "msgid" in values:
            entry.context = values.get("msgctxt")
            entry.msgid = values["msgid"]
            entry.plural = values.get("msgid_plural")
            entry.msgstrs = [v for k, v in sorted(values.items()) if k.startswith("msgstr")]
            if entry.msgid:
                entries.append(entry)

    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            close()
            entry, key, values = None, None, {}
            continue
        if entry is None:
            entry = Entry(number)
        if line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            values[key] += ast.literal_eval(line)
        else:
            key, _, text = line.partition(" ")
            values[key] = ast.literal_eval(text)
    close()
    return entries


ENTRIES = read_catalogue()
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


def offenders(check) -> list[str]:
    return [
        f"{entry}: {text!r}" for entry in ENTRIES for text in entry.msgstrs if check(entry, text)
    ]


def test_the_catalogue_is_read_whole():
    assert len(ENTRIES) > 1000
    assert any(entry.plural for entry in ENTRIES)
    assert GLOSSARY.exists()


def test_every_entry_is_translated_and_none_is_fuzzy():
    untranslated = [str(e) for e in ENTRIES if not all(s.strip() for s in e.msgstrs)]
    fuzzy = [str(e) for e in ENTRIES if "fuzzy" in e.flags]
    assert not untranslated and not fuzzy, untranslated + fuzzy


def test_every_plural_entry_has_both_bulgarian_forms():
    wrong = [str(e) for e in ENTRIES if e.plural is not None and len(e.msgstrs) != 2]
    assert not wrong, wrong


def test_each_translation_keeps_the_placeholders_of_its_english():
    def wrong(entry: Entry, text: str) -> bool:
        english = set(PLACEHOLDER.findall(entry.msgid)) | set(
            PLACEHOLDER.findall(entry.plural or "")
        )
        return not set(PLACEHOLDER.findall(text)) <= english

    assert not offenders(wrong)


# --- the words the glossary retired ---------------------------------------------------------

#: A Bulgarian form that never fits, wherever it stands: the glossary's word instead.
RETIRED = {
    r"\bотказал(?:а|и)? се\b": "a participle says he or she: 'се отказа', 'се отказаха'",
    r"\bоттегл": "withdraw is 'се отказа' (one word for one thing)",
    r"\bвзятк": "a trick is a 'ръка'",
    r"\bсъбити": "an event is a 'турнир'",
    r"[Тт]аблиц\w* с резултат": "a score sheet is a 'лист с резултатите'",
    r"\bизгра[дж]": "a round is 'съставен', not built",
    r"%\(\w+\)s-ата\b": "an ordinal of a number: 'ръка № 3', not '3-ата' (1-вата, 2-рата)",
}


def test_no_retired_word_is_left():
    found = {
        why: offenders(lambda entry, text, word=word: re.search(word, text) is not None)
        for word, why in RETIRED.items()
    }
    assert not any(found.values()), {why: hits for why, hits in found.items() if hits}


#: English that speaks of a placing (1st, 2nd, 3rd; a standing) and of no seat.
PLACING = re.compile(r"\b(?:places?|placings?|placed|standing|rank)\b", re.IGNORECASE)
SEAT_WORDS = re.compile(r"\b(?:място|места|мястото|местата)\b", re.IGNORECASE)


def test_a_placing_is_a_position_never_a_seat():
    def wrong(entry: Entry, text: str) -> bool:
        english = f"{entry.context or ''} {entry.msgid} {entry.plural or ''}"
        return (
            bool(PLACING.search(english))
            and "seat" not in english.lower()
            and bool(SEAT_WORDS.search(text))
        )

    assert not offenders(wrong)


def test_a_seat_is_a_place_at_the_table_never_a_position():
    def wrong(entry: Entry, text: str) -> bool:
        english = f"{entry.msgid} {entry.plural or ''}"
        return bool(re.search(r"\bseats?\b", english, re.IGNORECASE)) and "позици" in text

    assert not offenders(wrong)


#: English where "hand" is not a deal: a verb, an idiom, the export's column of hand numbers.
HAND_NOT_A_DEAL = re.compile(
    r"\bhand (?:it|them|the cards|the link)\b|\bby hand\b|^Hand$", re.IGNORECASE | re.MULTILINE
)


def test_a_hand_is_a_deal_never_a_game_nor_a_trick():
    def wrong(entry: Entry, text: str) -> bool:
        english = re.sub(r"%\(\w+\)\w", "", f"{entry.msgid} {entry.plural or ''}")  # not names
        if not re.search(r"\bhands?\b", english, re.IGNORECASE):
            return False
        if HAND_NOT_A_DEAL.search(entry.msgid):
            return False
        return "раздаван" not in text.lower()

    assert not offenders(wrong)


def test_a_deal_heading_never_counts_games():
    # "Раздаване 5 · игра 4 от 9" called a hand a game next to "after 9 раздавания".
    game_numbered = re.compile(r"\bигра\s+(?:№\s*)?%\(hand\)s")
    assert not offenders(lambda entry, text: game_numbered.search(text) is not None)


def test_no_relative_pronoun_right_after_a_name():
    # "…с Мария Димитрова, който…": the pronoun guesses the person's gender.
    after_name = re.compile(
        r"%\((?:name|names|other|user|username|you|kept|gone|player|above|below|joined|left"
        r"|who|first|second|giver|receiver|seat)\)s[“”\"»]?,?\s+(?:който|която)\b"
    )
    assert not offenders(lambda entry, text: after_name.search(text) is not None)


def test_a_count_in_the_english_singular_is_a_plural_entry():
    # "(редове 4)" for one line, "1 отказали се": a count formatted into a phrase with a
    # noun or verb that agrees with it must come through ngettext.
    count_words = re.compile(
        r"%\((?:n|count|entered|checked|withdrawn)\)s (?:entered|checked in|withdrawn)\b"
        r"|\(lines? %\(lines\)s\)"
    )
    singular = [str(e) for e in ENTRIES if count_words.search(e.msgid) and e.plural is None]
    assert not singular, singular
