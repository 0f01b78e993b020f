"""An organiser logging in, as the journeys do it: open an organiser page, be sent to the
login form, type the name and password, and land back on the page asked for."""

from __future__ import annotations

import re

from playwright.sync_api import expect

PASSWORD = "a long enough password 358"


def log_in(page, url: str, username: str = "olga") -> None:
    """Open `url`, log in as `username` on the form it leads to, and arrive at `url`."""
    page.goto(url)
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("form button[type=submit]").last.click()
    expect(page).to_have_url(url)
