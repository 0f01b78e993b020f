"""Security headers on the static files WhiteNoise serves.

WhiteNoise answers /static/ itself, before the views' middleware: SecurityMiddleware (placed
before it) adds HSTS, nosniff and the referrer policy, but not the Content Security Policy or
X-Frame-Options, which django-csp and Django's clickjacking middleware add after the view.
A static file is CSS, a script or an image, so it gets the strictest policy: it may load
nothing and be framed by no one (an SVG opened on its own could otherwise run script).
"""

from __future__ import annotations

STATIC_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def add_headers(headers, path: str, url: str) -> None:
    """WHITENOISE_ADD_HEADERS_FUNCTION: called once per file when WhiteNoise indexes it."""
    for name, value in STATIC_HEADERS.items():
        headers[name] = value
