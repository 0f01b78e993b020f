"""The client's address: one rule, for django-axes (logins) and the site's own throttles.

Behind our one proxy (``DJANGO_BEHIND_PROXY=1``) every request comes from nginx, so
``REMOTE_ADDR`` is nginx's own address and says nothing about the client. nginx therefore
*overwrites* ``X-Forwarded-For`` with the address it saw (``proxy_set_header X-Forwarded-For
$remote_addr;`` in docs/deploy.md): the header then holds exactly one address, the client's,
and whatever the client sent in its own ``X-Forwarded-For`` is gone. django-ipware reads it
with ``proxy_count=0`` (strict: exactly one address, no proxies listed after it); a header of
any other shape did not come from our nginx and is ignored in favour of ``REMOTE_ADDR``.

Without a proxy (development, a venue laptop) only ``REMOTE_ADDR`` is read: a client's
``X-Forwarded-For`` is never trusted. The one setting is ``CLIENT_ADDRESS_HEADERS``.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from ipware.ip import get_client_ip

UNKNOWN = "unknown"


def client_ip(request: HttpRequest) -> str | None:
    """The client's address, or None when no header names a valid one (django-axes'
    ``AXES_CLIENT_IP_CALLABLE``)."""
    address, _routable = get_client_ip(
        request,
        proxy_order="right-most",
        proxy_count=0,
        request_header_order=list(settings.CLIENT_ADDRESS_HEADERS),
        strict=True,
    )
    return address


def client_address(request: HttpRequest) -> str:
    """The same address as text for keys and logs; "unknown" when there is none."""
    return client_ip(request) or UNKNOWN
