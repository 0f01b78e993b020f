"""Start-up checks: a production process (DJANGO_DEBUG off) refuses to start on settings meant
for one development machine.

- A per-process cache (local memory): with several gunicorn workers or hosts each would count
  wrong table secrets and new games on its own, so every limit is multiplied by the number of
  processes, and the rendered fragments are kept once per process. → DJANGO_CACHE_URL.
- The folder broker (``filesystem://`` under var/celery/): only processes on this machine see
  the folders, so a worker elsewhere never gets a task. → CELERY_BROKER_URL, or
  ALLOW_LOCAL_BROKER=1 where the deployment really is one machine (a venue laptop).

They are Django system checks (errors), so `manage.py check`, `migrate` (the web unit's
ExecStartPre and the Procfile's release) and config.wsgi (``refuse_unsafe_start``, when gunicorn
loads the site) all stop with the message. With DJANGO_DEBUG on (bin/demo, bin/setup, the
tests) they say nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

TAG = "production"
PER_PROCESS_CACHES = frozenset(
    {
        "django.core.cache.backends.locmem.LocMemCache",
        "django.core.cache.backends.dummy.DummyCache",
    }
)


@checks.register(TAG)
def shared_cache(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if settings.DEVELOPMENT or backend not in PER_PROCESS_CACHES:
        return []
    return [
        checks.Error(
            "The cache is per process (local memory), so each gunicorn worker and host would "
            "count wrong secrets and new games on its own.",
            hint="Set DJANGO_CACHE_URL=redis://host:6379/1 (or file:///folder on one machine).",
            id="site_config.E001",
        )
    ]


@checks.register(TAG)
def real_broker(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    broker = str(getattr(settings, "CELERY_BROKER_URL", ""))
    if (
        settings.DEVELOPMENT
        or settings.ALLOW_LOCAL_BROKER
        or not broker.startswith("filesystem://")
    ):
        return []
    return [
        checks.Error(
            "The Celery broker is the folder broker (var/celery/), which only this machine's "
            "processes can see.",
            hint="Set CELERY_BROKER_URL=redis://… (or amqp://…); on a single machine that runs "
            "the site and the worker side by side, ALLOW_LOCAL_BROKER=1 allows the folders.",
            id="site_config.E002",
        )
    ]


def refuse_unsafe_start() -> None:
    """Raise when a production check fails: config.wsgi calls it as gunicorn loads the site,
    which does not run Django's system checks by itself."""
    errors = [m for m in checks.run_checks(tags=[TAG]) if m.is_serious()]
    if errors:
        raise ImproperlyConfigured("\n".join(str(message) for message in errors))
