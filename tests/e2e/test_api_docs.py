"""The API's OpenAPI docs page (/api/docs) works in a real browser under the site's Content
Security Policy: Swagger UI comes from our own static files and draws every route."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_docs_page_draws_the_api_under_the_csp(live_server, phone):
    refusals = []
    phone.on(
        "console",
        lambda message: (
            refusals.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    phone.goto(live_server.url + "/api/docs")
    expect(phone.get_by_text("/api/games/{game_id}/deals/{number}").first).to_be_visible()
    expect(phone.get_by_text("/api/events/{slug}/standings").first).to_be_visible()
    assert not [text for text in refusals if "script" in text], refusals
