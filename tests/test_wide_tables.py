"""Wide tables on a 390 px phone: they scroll inside their own box and show that they do, and
a label breaks between words, never inside one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CSS = ROOT / "static" / "css"


def rule(path: Path, selector: str) -> str:
    text = path.read_text()
    found = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", text)
    assert found, f"{selector} in {path.name}"
    return found.group(1)


def test_a_scroll_box_shows_a_shadow_where_more_columns_hide():
    box = rule(CSS / "site.css", ".scroll-box")
    assert "overflow-x: auto" in box
    assert box.count("local") == 2 and box.count("radial-gradient") == 2
    assert "\n.scroll-box {" not in (CSS / "public.css").read_text(), "one rule, in site.css"


def test_every_wide_public_table_sits_in_a_scroll_box():
    for name in ("public/standings.html", "club/ratings.html", "club/_season_table.html"):
        html = (ROOT / "templates" / "tournaments" / name).read_text()
        assert html.index('class="scroll-box"') < html.index("<table"), name


def test_a_facts_label_is_not_broken_inside_a_word():
    assert "overflow-wrap: normal" in rule(CSS / "public.css", ".facts dt")
