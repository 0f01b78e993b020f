"""The Content-Security-Policy header, built once.

django-csp's middleware builds the policy string from the settings on every response: about
a third of the server's CPU for an unchanged poll answered at the door (docs/performance.md,
"Polls at the door"). The site has one policy: no view changes it (no ``csp_update``,
``csp_replace`` or per-view config) and no page uses a nonce. So this middleware builds each
policy once per settings and sets it as django-csp would; a response that does change it, or
a request that took a nonce, goes through django-csp's own ``process_response`` unchanged.
The tests compare both on the same responses (tests/test_csp.py).
"""

from __future__ import annotations

import functools
import http.client

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

#: The response attributes through which a view changes the policy (django-csp's decorators).
PER_RESPONSE = tuple(
    f"_csp_{part}{suffix}" for part in ("config", "update", "replace") for suffix in ("", "_ro")
)
_SETTINGS = ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY", "DEBUG")


@functools.cache
def site_policy(report_only: bool) -> str:
    """The site's one policy (or report-only policy) as django-csp builds it from the settings."""
    return build_policy(report_only=report_only)


@receiver(setting_changed)
def _settings_changed(setting: str, **kwargs) -> None:
    if setting in _SETTINGS:
        site_policy.cache_clear()


def _excluded(request, setting: str) -> bool:
    prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
    return request.path_info.startswith(tuple(prefixes))


class CSPMiddleware(DjangoCSPMiddleware):
    def process_response(self, request, response):
        own = getattr(request, "_csp_nonce", None) is not None
        if own or any(getattr(response, name, None) is not None for name in PER_RESPONSE):
            return super().process_response(request, response)
        debug_codes = (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND)
        if response.status_code in debug_codes and settings.DEBUG:
            return response
        for report_only, header, exempt, setting in (
            (False, HEADER, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
            (True, HEADER_REPORT_ONLY, "_csp_exempt_ro", "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
        ):
            policy = site_policy(report_only)
            if not policy or header in response or getattr(response, exempt, False):
                continue
            if not _excluded(request, setting):
                response[header] = policy
        # As django-csp: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
