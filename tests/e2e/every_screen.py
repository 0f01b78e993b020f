"""Every screen a browser journey passes through is checked, not only the ones it names:
before each action a test takes on a page (a click, a fill, a goto, ...) and when
its phones are put away, the screen as it stands is checked by checks.check_screen — our own
checks, axe in this language and the other, the Nu HTML checker — once per distinct state.

A state is the route the URL matched, the page's language, and the shape of what is shown:
the ids of the visible elements, the forms' targets, the alerts and open disclosures (digits
made '#', so deal 3 and deal 4 of the same page are one state). Counting states rather than
URLs checks a table page in play, finished, confirmed and in a clash each once; counting
shapes rather than contents keeps the run short.

`paused()` turns it off for screens a test breaks on purpose (the checkers' own tests).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from urllib.parse import urlparse

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

#: What a screen is made of, digits folded (see the module's docstring).
_SHAPE = """() => {
  const fold = s => String(s || '').replace(/\\d+/g, '#');
  const shown = el => el.getClientRects().length > 0;
  const parts = new Set();
  for (const el of document.querySelectorAll('body [id]'))
    if (shown(el)) parts.add('#' + fold(el.id));
  for (const form of document.forms)
    if (shown(form)) parts.add('form ' + fold(new URL(form.action, location.href).pathname));
  for (const el of document.querySelectorAll(
      '[role=alert], [role=status], .alert, .error, details[open], dialog[open]'))
    if (shown(el)) parts.add(el.tagName + '.' + fold(el.className) + (el.open ? ' open' : ''));
  return [...parts].sort().join('|');
}"""

#: htmx at rest: no request in flight, nothing being swapped or settled.
_HTMX_IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"

#: Pages that are not ours to check: the JSON API and its third-party docs, Django's admin.
_NOT_OURS = ("/api/", "/admin/")

PAGE_ACTIONS = (
    "goto", "reload", "go_back", "go_forward", "click", "dblclick", "tap", "fill", "type",
    "press", "check", "uncheck", "select_option", "set_input_files",
)  # fmt: skip
LOCATOR_ACTIONS = (
    "click", "dblclick", "tap", "fill", "type", "press", "press_sequentially", "clear",
    "check", "uncheck", "set_checked", "select_option", "set_input_files",
)  # fmt: skip

SEEN_STATES: set[tuple[str, str, str]] = set()
COUNTS = {"states": 0}
_quiet = {"depth": 0}


def enabled() -> bool:
    return os.environ.get("E2E_EVERY_SCREEN", "1") != "0"


@contextlib.contextmanager
def paused():
    """No automatic checks inside (the checks' own pages and copies, broken pages on purpose)."""
    _quiet["depth"] += 1
    try:
        yield
    finally:
        _quiet["depth"] -= 1


def state_of(page: Page) -> tuple[str, str, str] | None:
    """The screen's state (route, language, shape), or None for what is not ours to check:
    not a page of the site, not HTML, or navigating away right now."""
    from . import checks

    url = page.url
    if page.is_closed() or not url.startswith("http"):
        return None
    if urlparse(url).path.startswith(_NOT_OURS):
        return None
    try:
        # A click that navigates does not wait for the next page: measured before its
        # stylesheets apply, its links are bare text (tap targets of 20 px).
        page.wait_for_load_state("load", timeout=5_000)
        page.wait_for_function(_HTMX_IDLE, timeout=2_000)
        if page.evaluate("document.contentType") != "text/html":
            return None
        shape = page.evaluate(_SHAPE)
        language = page.evaluate("document.documentElement.lang") or "?"
    except PlaywrightError:  # the next action sees the new screen
        return None
    return (checks.url_pattern(url), language, shape)


def remember(page: Page) -> None:
    """A screen a test checked by name: the automatic check need not see it again."""
    state = state_of(page)
    if state is not None:
        SEEN_STATES.add(state)


def check_if_new(page: Page) -> None:
    """Check the screen as it stands, unless this state was checked before. A failure
    leaves its screenshot behind (var/screenshots/auto-....png)."""
    from . import checks
    from .conftest import SCREENSHOTS

    if _quiet["depth"] or not enabled():
        return
    state = state_of(page)
    if state is None or state in SEEN_STATES:
        return
    SEEN_STATES.add(state)
    COUNTS["states"] += 1
    name = "auto-" + hashlib.sha1(repr(state).encode()).hexdigest()[:8]
    try:
        checks.check_screen(page, name)
    except AssertionError as failure:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        picture = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(picture), full_page=True, caret="initial")
        raise AssertionError(
            f"a screen the journey passed through: {failure} ({picture})"
        ) from None


def _checked_first(action):
    def run(self, *args, **kwargs):
        check_if_new(self if isinstance(self, Page) else self.page)
        return action(self, *args, **kwargs)

    run.__wrapped__ = action
    return run


@contextlib.contextmanager
def installed():
    """Wrap the actions of Playwright's pages and locators for the session."""
    kept = []
    for cls, names in ((Page, PAGE_ACTIONS), (Locator, LOCATOR_ACTIONS)):
        for name in names:
            original = getattr(cls, name)
            kept.append((cls, name, original))
            setattr(cls, name, _checked_first(original))
    try:
        yield
    finally:
        for cls, name, original in kept:
            setattr(cls, name, original)
