"""The browser can reach the live site at phone size, htmx loads under the CSP."""


def test_the_new_game_page_at_phone_size(live_server, phone, screenshot):
    from .conftest import no_horizontal_scroll

    errors = []
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    phone.goto(live_server.url + "/games/new/")
    assert phone.get_by_role("heading", level=1).is_visible()
    assert phone.evaluate("typeof window.htmx") == "object"
    assert no_horizontal_scroll(phone)
    screenshot(phone, "game-new")
    assert not [e for e in errors if "Content Security Policy" in e], errors
    # The icon the page links, and the one browsers ask for by themselves.
    icon = phone.locator("link[rel=icon]").get_attribute("href")
    assert phone.request.get(live_server.url + icon).ok
    favicon = phone.request.get(live_server.url + "/favicon.ico")
    assert favicon.ok and favicon.headers["content-type"] == "image/svg+xml"
