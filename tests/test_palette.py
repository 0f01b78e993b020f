"""The site's colours are named once (static/css/palette.css) and used by name everywhere.

A colour written out in a stylesheet is a second copy of the palette that drifts when one is
changed; the contrast checks of the browser journeys passed with the palette's values.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CSS = ROOT / "static" / "css"
PALETTE = CSS / "palette.css"
TEMPLATES = ROOT / "templates"

COLOUR = re.compile(
    r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(", re.IGNORECASE
)
#: Colour keywords a declaration could use instead of the palette (``transparent``,
#: ``inherit`` and ``currentColor`` are not colours of ours and stay allowed).
NAMED = re.compile(
    r":[^;{}]*(?<![-\w])(?:white|black|red|green|blue|gray|grey|silver|orange|yellow|navy|maroon)\b"
    r"(?![-\w])",
    re.IGNORECASE,
)
DEFINED = re.compile(r"^\s*--([a-z0-9-]+)\s*:", re.MULTILINE)
USED = re.compile(r"var\(--([a-z0-9-]+)\)")


def without_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)


def stylesheets() -> list[Path]:
    return sorted(path for path in CSS.glob("*.css") if path != PALETTE)


def palette() -> set[str]:
    return set(DEFINED.findall(without_comments(PALETTE.read_text())))


def test_no_stylesheet_writes_a_colour_of_its_own():
    found = {}
    for path in stylesheets():
        for number, line in enumerate(without_comments(path.read_text()).splitlines(), 1):
            if COLOUR.search(line) or NAMED.search(line):
                found.setdefault(path.name, []).append((number, line.strip()))
    assert found == {}, "use var(--name) from static/css/palette.css"


def test_every_colour_used_is_in_the_palette_and_every_one_is_used():
    used = set()
    for path in stylesheets():
        text = without_comments(path.read_text())
        assert not DEFINED.search(text), f"{path.name} defines a colour: add it to palette.css"
        used |= set(USED.findall(text))
    assert used - palette() == set(), "undefined colours"
    assert palette() - used == set(), "colours no stylesheet uses"


def test_the_palette_holds_only_colours():
    for line in without_comments(PALETTE.read_text()).splitlines():
        if DEFINED.match(line):
            assert re.fullmatch(r"\s*--[a-z0-9-]+: #[0-9a-f]{3,6};\s*", line), line


def test_every_page_head_loads_the_palette_before_its_stylesheets():
    """base.html and the pages with a head of their own (the projector) link palette.css."""
    heads = [path for path in TEMPLATES.rglob("*.html") if "<head" in path.read_text()]
    assert heads
    for path in heads:
        links = re.findall(r"css/([a-z_-]+\.css)", path.read_text())
        if links:
            assert links[0] == "palette.css", f"{path.relative_to(ROOT)}: {links}"
