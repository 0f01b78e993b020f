"""Browser tests: Playwright drives Debian's Chromium against the live test server.

Every test here is marked ``e2e`` (deselected with a reason when Chromium is missing, see
tests/conftest.py). Phones are 390×844 touch screens; screenshots of each main screen are
saved under SCREENSHOTS_DIR (default var/screenshots; `SCREENSHOTS_DIR=docs/screenshots`
refreshes the committed ones).
"""

import os
from pathlib import Path

import pytest

from ..conftest import CHROMIUM

# Playwright's sync API keeps an event loop in this thread; the ORM calls the tests make
# between browser steps are ordinary synchronous calls all the same.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS_DIR") or ROOT / "var" / "screenshots")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        yield browser
        browser.close()


# How each open page was made (id(page) -> new_context's options), so checks.py can open
# the same screen in the other language on a like device.
PAGE_OPTIONS: dict[int, dict] = {}


def new_context(
    browser, *, viewport, javascript=True, locale="en-GB", mobile=True, storage_state=None
):
    return browser.new_context(
        viewport=viewport,
        device_scale_factor=2 if mobile else 1,
        is_mobile=mobile,
        has_touch=mobile,
        java_script_enabled=javascript,
        locale=locale,
        storage_state=storage_state,
    )


@pytest.fixture(scope="session", autouse=True)
def _valid_html(request):
    """After the browser tests, the Nu HTML checker reads every distinct screen they saw
    (checks.SEEN_HTML), in one java run: an error fails the session."""
    from . import checks, every_screen

    with every_screen.installed():
        yield
    documents = {
        f"{name} [{language}] {url}": html
        for (_, name, language), (url, html) in sorted(checks.SEEN_HTML.items())
    }
    errors = checks.nu_errors(documents)
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    (reporter.write_line if reporter else print)(
        f"\nchecks: axe ran on {checks.COUNTS['axe']} screens "
        f"({checks.COUNTS['other language']} of them reopened in the other language, "
        f"{checks.COUNTS['other language not reopened']} not reopenable by a GET; "
        f"{every_screen.COUNTS['states']} screens checked as journeys passed them); "
        f"the Nu HTML checker read {len(documents)} distinct screens"
    )
    assert not errors, "the Nu HTML checker found errors:\n" + "\n".join(errors)


@pytest.fixture
def new_phone(browser):
    """Open as many phones as a test needs: new_phone(javascript=False, locale="bg")."""

    def make(*, javascript=True, locale="en-GB", viewport=PHONE, mobile=True):
        options = {
            "viewport": viewport,
            "javascript": javascript,
            "locale": locale,
            "mobile": mobile,
        }
        context = new_context(browser, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        PAGE_OPTIONS[id(page)] = options
        pages.append(page)
        return page

    contexts, pages = [], []
    yield make
    from . import every_screen

    for page in pages:  # the screen each phone was left on is a screen the journey saw
        every_screen.check_if_new(page)
    for page in pages:
        PAGE_OPTIONS.pop(id(page), None)
    for context in contexts:
        context.close()


@pytest.fixture
def phone(new_phone):
    return new_phone()


@pytest.fixture
def screenshot():
    """Save a full-page screenshot named for the screen it shows."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def shoot(page, name: str):
        # caret="initial": hiding the caret leaves style="" on every input, which htmx then
        # copies on its next swap, and the Content Security Policy refuses (console errors).
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, caret="initial")

    return shoot


def no_horizontal_scroll(page) -> bool:
    """Nothing wider than the layout viewport. (Not window.innerWidth: on a phone a too-wide
    page is zoomed out to fit, and innerWidth grows with it.)"""
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
    )


def small_tap_targets(page) -> list[str]:
    """Visible buttons and button-like links smaller than 44 px in either direction."""
    return page.evaluate(
        """() => [...document.querySelectorAll('button, .button-link, input[type=submit]')]
            .filter(el => el.offsetParent !== null)
            .filter(el => { const r = el.getBoundingClientRect();
                            return r.width < 44 || r.height < 44; })
            .map(el => (el.innerText || el.value || el.outerHTML).trim().slice(0, 60))"""
    )
