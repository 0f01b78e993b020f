"""The palette (static/css/palette.css) reaches every kind of page in a real browser.

Pages built on base.html and the projector, which has a head of its own, both get their
colours through var(--name): a page whose palette failed to load would fall back to the
browser's defaults, which the contrast checks of the other journeys might not notice.
"""

from tournaments.models import Club, Event

from .conftest import DESKTOP


def style(page, selector: str, prop: str) -> str:
    return page.locator(selector).first.evaluate(
        f"e => getComputedStyle(e).getPropertyValue({prop!r})"
    )


def test_the_colours_are_the_palettes_on_every_kind_of_page(live_server, new_phone):
    club = Club.objects.create(name="Palette club", slug="palette")
    Event.objects.create(club=club, name="Palette cup", slug="palette-cup")

    phone = new_phone()
    phone.goto(live_server.url + "/games/new/")
    assert style(phone, "body", "color") == "rgb(26, 26, 26)"  # --ink
    assert style(phone, "body", "background-color") == "rgb(250, 250, 250)"  # --page
    assert style(phone, ".site-header", "background-color") == "rgb(29, 59, 42)"  # --brand
    assert style(phone, ".site-header", "color") == "rgb(255, 255, 255)"  # --paper

    wall = new_phone(viewport=DESKTOP, mobile=False)
    wall.goto(live_server.url + "/events/palette-cup/projector/")
    assert style(wall, "body", "background-color") == "rgb(13, 17, 23)"  # --night
    assert style(wall, "body", "color") == "rgb(240, 243, 246)"  # --night-ink
