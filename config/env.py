"""Reading settings from the environment, as pure functions of a mapping.

``config.settings`` calls these with ``os.environ``; tests call them with plain dicts.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUTHY = frozenset({"1", "true", "yes", "on"})
FALSY = frozenset({"", "0", "false", "no", "off"})

# Only ever used with DJANGO_DEBUG on; a deployment must set DJANGO_SECRET_KEY.
DEVELOPMENT_SECRET_KEY = "django-insecure-development-only-3-5-8-do-not-deploy"
DEVELOPMENT_ALLOWED_HOSTS = ("localhost", "127.0.0.1", "[::1]", "testserver")


def env_bool(environ: Mapping[str, str], name: str, *, default: bool = False) -> bool:
    """The variable ``name`` as a boolean: 1/true/yes/on or 0/false/no/off (any case)."""
    raw = environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUTHY:
        return True
    if value in FALSY:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean: use one of 1, true, yes, on or 0, false, no, off."
    )


def env_int(environ: Mapping[str, str], name: str, *, default: int) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None


def env_choice(environ: Mapping[str, str], name: str, choices: tuple[str, ...], *, default: str):
    value = environ.get(name, "").strip().lower() or default
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r}: use one of {', '.join(choices)}.")
    return value


def debug_from_env(environ: Mapping[str, str]) -> bool:
    return env_bool(environ, "DJANGO_DEBUG", default=False)


def secret_key_from_env(environ: Mapping[str, str], *, debug: bool) -> str:
    key = environ.get("DJANGO_SECRET_KEY", "").strip()
    if key:
        return key
    if debug:
        return DEVELOPMENT_SECRET_KEY
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off. "
        "For local development, set DJANGO_DEBUG=1 instead."
    )


def allowed_hosts_from_env(environ: Mapping[str, str], *, debug: bool) -> list[str]:
    raw = environ.get("DJANGO_ALLOWED_HOSTS")
    if raw is not None and raw.strip():
        return [host.strip() for host in raw.split(",") if host.strip()]
    return list(DEVELOPMENT_ALLOWED_HOSTS) if debug else []


def database_from_env(environ: Mapping[str, str], *, default_sqlite_path: Path) -> dict:
    """The default database from DATABASE_URL, or a SQLite file at ``default_sqlite_path``."""
    url = environ.get("DATABASE_URL", "").strip() or f"sqlite:///{default_sqlite_path}"
    try:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL could not be read: {exc}") from exc
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["CONN_MAX_AGE"] = 0
        config.setdefault("OPTIONS", {}).update(
            {
                # Wait for a writer instead of failing at once, take the write lock when a
                # transaction starts, and let readers and one writer work side by side.
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            }
        )
    return config


LOCAL_MEMORY_CACHE = "django.core.cache.backends.locmem.LocMemCache"


def cache_from_env(environ: Mapping[str, str]) -> dict:
    """The default cache from DJANGO_CACHE_URL: ``redis://``, ``rediss://`` or ``unix://`` (a
    Redis server, shared by every process and host), ``file:///absolute/folder`` (shared by the
    processes of one machine: a venue laptop without Redis), or local memory per process when
    unset (development only: config.checks refuses it with DJANGO_DEBUG off)."""
    url = environ.get("DJANGO_CACHE_URL", "").strip()
    if not url:
        return {"BACKEND": LOCAL_MEMORY_CACHE}
    scheme, _, rest = url.partition("://")
    scheme = scheme.lower()
    if scheme in ("redis", "rediss", "unix"):
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    if scheme == "file" and rest.startswith("/"):
        return {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": rest}
    raise ImproperlyConfigured(
        f"DJANGO_CACHE_URL={url!r}: use redis://host:port/db, rediss://…, unix://…"
        " or file:///an/absolute/folder."
    )
