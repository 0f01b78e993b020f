"""The site's CSP middleware (config.csp) sets exactly what django-csp's own would, building the
policy once: the same headers on the same responses, whatever a view or the settings change."""

from __future__ import annotations

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from config import csp


def both(path: str = "/", status: int = 200, nonce: bool = False, **attributes):
    """The response headers each middleware gives one response (made anew for each)."""
    answers = []
    for middleware_class in (csp.CSPMiddleware, DjangoCSPMiddleware):
        request = RequestFactory().get(path)
        middleware = middleware_class(lambda request: None)
        middleware.process_request(request)
        if nonce:
            str(request.csp_nonce)
        response = HttpResponse(status=status)
        for name, value in attributes.items():
            setattr(response, name, value)
        middleware.process_response(request, response)
        answers.append(dict(response.items()))
    return answers


def test_the_site_policy_is_django_csps_own():
    mine, theirs = both()
    assert mine == theirs and HEADER in mine and "default-src 'self'" in mine[HEADER]


@pytest.mark.parametrize(
    "attributes",
    [
        {"_csp_exempt": True},
        {"_csp_update": {"img-src": ["https://example.org"]}},
        {"_csp_replace": {"script-src": ["'none'"]}},
        {"_csp_config": {"default-src": ["'none'"]}},
    ],
)
def test_a_view_that_changes_or_drops_the_policy_is_answered_as_django_csp_does(attributes):
    mine, theirs = both(**attributes)
    assert mine == theirs


def test_a_nonce_taken_goes_through_django_csp():
    mine, theirs = both(nonce=True)
    assert mine == theirs


def test_a_nonce_asked_for_after_the_header_is_refused():
    request = RequestFactory().get("/")
    middleware = csp.CSPMiddleware(lambda request: None)
    middleware.process_request(request)
    middleware.process_response(request, HttpResponse())
    with pytest.raises(Exception, match="not available after the CSP header"):
        str(request.csp_nonce)


def test_the_settings_changing_change_the_policy_and_the_report_only_one():
    policy = {"DIRECTIVES": {"default-src": ["'none'"]}, "EXCLUDE_URL_PREFIXES": ["/skip"]}
    with override_settings(
        CONTENT_SECURITY_POLICY=policy, CONTENT_SECURITY_POLICY_REPORT_ONLY=policy
    ):
        mine, theirs = both()
        assert mine == theirs and mine[HEADER] == "default-src 'none'"
        assert mine[HEADER_REPORT_ONLY] == "default-src 'none'"
        assert both("/skip/this") == [{"Content-Type": "text/html; charset=utf-8"}] * 2
    mine, theirs = both()
    assert mine == theirs and "'self'" in mine[HEADER]


@pytest.mark.parametrize("status", [404, 500])
def test_debug_error_pages_are_left_alone_as_django_csp_leaves_them(status, settings):
    settings.DEBUG = True
    mine, theirs = both(status=status)
    assert mine == theirs and HEADER not in mine
