"""Which addresses are the JSON API's: one answer for every middleware that treats them apart.

Its own module, so that config.input (which must leave API bodies alone) and config.api (which
answers under this prefix) both ask it without importing each other.
"""

API_PREFIX = "/api"


def is_api_path(path: str) -> bool:
    """Whether a request path is under the JSON API (``/api`` or ``/api/...``)."""
    return path == API_PREFIX or path.startswith(API_PREFIX + "/")
