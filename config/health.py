"""``/healthz``: can this process reach its database, its broker and its shared cache?

A load balancer or systemd watchdog polls it. 200 when all answer, 503 naming the one that
does not; never cached. (Without the cache the site still serves, from the database
(config.shared_cache), but slower and with each process counting the throttles alone: the
operator should hear of it.) Each check has a short timeout so a dead broker cannot hang the probe.
The probe is public, so a failure answers only "error": what failed and why (host names,
driver messages) goes to the log (logger ``config.health``), never to the visitor.
"""

from __future__ import annotations

import logging
import secrets
import time

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET

from config.celery import app as celery_app

log = logging.getLogger(__name__)

BROKER_TIMEOUT = 3.0


def database_status() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def broker_status() -> str:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT)
    return "ok"


def cache_status() -> str:
    """Redis asked itself (config.shared_cache.SharedRedisCache.probe, which a failure does
    not turn into a miss); any other cache, a value written and read back."""
    probe = getattr(cache, "probe", None)
    if probe is not None:
        probe()
        return "ok"
    value = secrets.token_hex(8)
    key = f"healthz:{value}"
    cache.set(key, value, 10)
    found = cache.get(key)
    cache.delete(key)
    if found != value:
        raise RuntimeError("the cache did not give back what was written")
    return "ok"


CHECKS = {"database": database_status, "broker": broker_status, "cache": cache_status}


@require_GET
def healthz(request):
    report, healthy = {}, True
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            status = check()
        except Exception:  # noqa: BLE001 - any failure is the answer to report
            log.exception("health check %s failed", name)
            status, healthy = "error", False
        report[name] = {"status": status, "ms": round((time.perf_counter() - started) * 1000, 1)}
    response = JsonResponse({"ok": healthy, **report}, status=200 if healthy else 503)
    add_never_cache_headers(response)
    return response
