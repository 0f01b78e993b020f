"""The score sheet fits a 390 px phone whatever the players' names: all three columns in view,
no sideways scroll, no word split mid-word, no cell's content wider than its column, in
English and in Bulgarian, with long names and with wide letters."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .checks import check_screen
from .test_table import game_of, record, start_game

pytestmark = pytest.mark.django_db(transaction=True)

LONG = [
    "Александра Константинова-Петрова",
    "Maximilian Alexander Hohenberg",
    "Борислав Христофоров",
]
# First names as long as the sheet shows whole (ten letters: presenters.SHORT_NAME), wide ones.
WIDE = ["Светослава Жекова", "Константин Шишманов-Щерев", "Александър Мишев"]


def right_edges_fit(page) -> list[str]:
    """The score sheet's cells whose right edge is beyond the viewport."""
    return page.evaluate(
        """() => { const width = document.documentElement.clientWidth;
            return [...document.querySelectorAll('table.sheet th, table.sheet td')]
              .filter(el => el.getBoundingClientRect().right > width + 0.5)
              .map(el => el.textContent.trim().slice(0, 40)); }"""
    )


def words_broken_inside(page, selector: str) -> list[str]:
    """Text in `selector` laid out on more lines than its words allow: a word split
    mid-word shows as a line that starts without a space or hyphen before it."""
    return page.evaluate(
        """(selector) => {
          const broken = [];
          for (const el of document.querySelectorAll(selector)) {
            const text = el.textContent;
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const range = document.createRange();
              let lastTop = null;
              for (let i = 0; i < node.length; i++) {
                range.setStart(node, i); range.setEnd(node, i + 1);
                const rect = range.getClientRects()[0];
                if (!rect) continue;
                if (lastTop !== null && rect.top > lastTop + 2) {
                  const before = node.data[i - 1];
                  if (!/[\\s\\-‐]/.test(before) && !/\\s/.test(node.data[i]))
                    broken.push(text.trim().slice(0, 40));
                }
                lastTop = rect.top;
              }
            }
          }
          return broken;
        }""",
        selector,
    )


@pytest.mark.parametrize(
    ("locale", "names"), [("en-GB", LONG), ("bg-BG", LONG), ("bg-BG", WIDE), ("en-GB", WIDE)]
)
def test_all_three_columns_fit_a_phone_with_long_names(
    live_server, new_phone, screenshot, locale, names
):
    page = new_phone(locale=locale)
    start_game(page, live_server, names=names)
    record(game_of(page), [(["hearts"], [4, 7, 5]), (["no-trump"], [5, 3, 8]), (["pass"], None)])
    page.reload()
    expect(page.locator("table.sheet tbody tr.deal-row")).to_have_count(3)
    check_screen(page, f"table-long-names-{locale[:2]}-{names is LONG}", screenshot)
    assert right_edges_fit(page) == []
    assert page.evaluate(
        "(() => { const s = document.querySelector('.sheet-scroll');"
        " return s.scrollWidth <= s.clientWidth + 1; })()"
    ), "the sheet scrolls sideways"
    assert words_broken_inside(page, "table.sheet th.seat, table.sheet td.call") == []
    overflowing = page.evaluate(
        """() => [...document.querySelectorAll('table.sheet th, table.sheet td, .seat-card')]
            .filter(el => el.scrollWidth > el.clientWidth + 1)
            .map(el => el.textContent.trim().slice(0, 40))"""
    )
    assert overflowing == [], "content wider than its column"
    headings = page.locator("table.sheet thead th.seat")
    expect(headings.nth(1).locator(".visually-hidden")).to_have_text(names[1])
