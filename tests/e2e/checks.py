"""Accessibility and layout checks run in the page: labels, headings, contrast, tap targets,
horizontal scrolling. Each returns a list of problems (empty when the screen is fine), so a
failing assertion says what and where.

`check_screen(page, name, screenshot)` runs them all on the screen as it is now and saves its
screenshot first, so a failure leaves the picture behind to look at.
"""

from __future__ import annotations

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


def check_screen(page, name: str, screenshot=None, *, phone: bool | None = None) -> None:
    """Save the screen's screenshot, then check labels, headings, contrast, and at phone
    width tap targets and horizontal scrolling."""
    if screenshot is not None:
        screenshot(page, name)
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
    found = {kind: items for kind, items in problems.items() if items}
    assert not found, f"{name} ({page.url}): {found}"
