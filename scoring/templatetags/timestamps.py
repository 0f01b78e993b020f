"""Times as machines read them, for `<time datetime="...">`.

Django's `|date:"c"` writes microseconds ("2026-05-01T18:30:12.345678+00:00"); HTML allows at
most three digits of fractions of a second, so the Nu HTML checker refuses it. Every
`datetime` attribute goes through `machine_time`, which keeps whole seconds.
"""

from datetime import datetime

from django import template
from django.utils import timezone

register = template.Library()


@register.filter
def machine_time(value):
    """`value` (a datetime) as a valid HTML global date and time string, to the second;
    anything else as an empty string, so a missing time never breaks the page."""
    if not isinstance(value, datetime):
        return ""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return value.replace(microsecond=0).isoformat()


@register.simple_tag
def machine_now() -> str:
    """The server's time now, as `machine_time` writes it: what a page's script measures the
    phone's clock against (static/js/built/page.js)."""
    return machine_time(timezone.now())
