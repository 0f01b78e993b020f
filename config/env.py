"""Reading settings from the environment with environs, as pure functions of a mapping.

``config.settings`` calls these with ``os.environ``; tests call them with plain dicts. Each
variable is read by an environs ``Env`` over that mapping (``MappingEnv``) with this site's own
parsers, so the accepted values and the messages stay as the deploy docs and checks expect:
any refusal is an ``ImproperlyConfigured`` naming the variable and its value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import environs
from django.core.exceptions import ImproperlyConfigured

from config.shared_cache import OPTIONS as REDIS_OPTIONS

TRUTHY = frozenset({"1", "true", "yes", "on"})
FALSY = frozenset({"", "0", "false", "no", "off"})

# Only ever used with DJANGO_DEBUG on; a deployment must set DJANGO_SECRET_KEY.
DEVELOPMENT_SECRET_KEY = "django-insecure-development-only-3-5-8-do-not-deploy"
DEVELOPMENT_ALLOWED_HOSTS = ("localhost", "127.0.0.1", "[::1]", "testserver")


class MappingEnv(environs.Env):
    """environs reading one mapping rather than the process's environment."""

    def __init__(self, environ: Mapping[str, str]):
        super().__init__(eager=True, expand_vars=False)
        self.mapping = environ

    def _get_value(self, env_key: str, default):
        return self.mapping.get(env_key, default)


def read(environ: Mapping[str, str], name: str, parse: Callable, default, **kwargs):
    """The variable `name` through `parse` (which raises environs.EnvError with the reason,
    worded to follow ``NAME='value'``), or `default` (given to `parse` too) when it is not set."""
    env = MappingEnv(environ)
    env.add_parser("site_value", parse)
    try:
        return env.site_value(name, default, **kwargs)
    except environs.EnvValidationError as error:
        reason = error.error_messages[0] if error.error_messages else str(error)
        raise ImproperlyConfigured(f"{name}={environ.get(name)!r}{reason}") from None


def _text(raw) -> str:
    return raw.strip()


def env_str(environ: Mapping[str, str], name: str, *, default: str = "") -> str:
    """The variable as text without surrounding spaces; unset or blank is `default`."""
    return read(environ, name, _text, "") or default


def _items(raw) -> list[str]:
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_list(environ: Mapping[str, str], name: str) -> list[str]:
    """A comma-separated list (spaces and empty items dropped); unset is empty."""
    return read(environ, name, _items, "")


def _flag(raw) -> bool:
    if isinstance(raw, bool):
        return raw
    value = raw.strip().lower()
    if value in TRUTHY:
        return True
    if value in FALSY:
        return False
    raise environs.EnvError(" is not a boolean: use one of 1, true, yes, on or 0, false, no, off.")


def env_bool(environ: Mapping[str, str], name: str, *, default: bool = False) -> bool:
    """The variable ``name`` as a boolean: 1/true/yes/on or 0/false/no/off (any case)."""
    return read(environ, name, _flag, default)


def _whole(raw) -> int:
    if isinstance(raw, int):
        return raw
    try:
        return int(raw)
    except ValueError:
        raise environs.EnvError(" is not a whole number.") from None


def env_int(environ: Mapping[str, str], name: str, *, default: int) -> int:
    """A whole number; unset or blank is `default`."""
    return read(environ, name, lambda raw: _whole(str(raw).strip() or default), default)


def env_choice(environ: Mapping[str, str], name: str, choices: tuple[str, ...], *, default: str):
    """One of `choices` (any case); unset or blank is `default`."""

    def choose(raw: str) -> str:
        value = raw.strip().lower() or default
        if value not in choices:
            raise environs.EnvError(f": use one of {', '.join(choices)}.")
        return value

    return read(environ, name, choose, default)


def debug_from_env(environ: Mapping[str, str]) -> bool:
    return env_bool(environ, "DJANGO_DEBUG", default=False)


def secret_key_from_env(environ: Mapping[str, str], *, debug: bool) -> str:
    key = env_str(environ, "DJANGO_SECRET_KEY")
    if key:
        return key
    if debug:
        return DEVELOPMENT_SECRET_KEY
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off. "
        "For local development, set DJANGO_DEBUG=1 instead."
    )


def allowed_hosts_from_env(environ: Mapping[str, str], *, debug: bool) -> list[str]:
    hosts = env_list(environ, "DJANGO_ALLOWED_HOSTS")
    if hosts:
        return hosts
    return list(DEVELOPMENT_ALLOWED_HOSTS) if debug else []


def database_from_env(
    environ: Mapping[str, str], *, default_sqlite_path: Path, pool_size: int | None = None
) -> dict:
    """The default database from DATABASE_URL, or a SQLite file at ``default_sqlite_path``.
    `pool_size`: on PostgreSQL, the process's connections are a pool of at most this many,
    shared by its threads, instead of one kept by each thread (config.parking's
    database_connections says when and why); SQLite has no pool and ignores it."""
    url = env_str(environ, "DATABASE_URL", default=f"sqlite:///{default_sqlite_path}")
    try:  # environs' dj_db_url parser (dj-database-url)
        config = MappingEnv({"DATABASE_URL": url}).dj_db_url(
            "DATABASE_URL", conn_max_age=60, conn_health_checks=True
        )
    except environs.EnvValidationError as exc:
        detail = exc.__cause__.__cause__ if exc.__cause__ is not None else None
        raise ImproperlyConfigured(f"DATABASE_URL could not be read: {detail or exc}") from exc
    if pool_size is not None and config["ENGINE"] == "django.db.backends.postgresql":
        # Django's psycopg pool: a request takes a connection at its first query and gives it
        # back at its end; a pool keeps its connections, so none is kept besides (age 0).
        config["CONN_MAX_AGE"] = 0
        config.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": pool_size,
            "timeout": POOL_WAIT_SECONDS,
        }
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # Connections are kept (conn_max_age above), as on PostgreSQL: opening one per request
        # costs Django's setup of the connection (its SQL functions, the pragmas below) and,
        # when it was the last one open, SQLite's checkpoint of the WAL at closing - time a
        # venue laptop's phones and keepers wait for (docs/performance.md, the venue laptop).
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


#: How long a request waits for a pooled connection before it fails (a 500, logged): never
#: in practice, as a pool has a connection for every thread that may work at once.
POOL_WAIT_SECONDS = 10

LOCAL_MEMORY_CACHE = "django.core.cache.backends.locmem.LocMemCache"
SHARED_REDIS_CACHE = "config.shared_cache.SharedRedisCache"
FOLDER_CACHE = "config.folder_cache.FolderCache"
#: The file cache's size (config.folder_cache, where it is explained).
FOLDER_MAX_ENTRIES = 10_000


def cache_from_env(environ: Mapping[str, str]) -> dict:
    """The default cache from DJANGO_CACHE_URL: ``redis://``, ``rediss://`` or ``unix://`` (a
    Redis server, shared by every process and host), ``file:///absolute/folder`` (shared by the
    processes of one machine: a venue laptop without Redis), or local memory per process when
    unset (development only: config.checks refuses it with DJANGO_DEBUG off)."""
    url = env_str(environ, "DJANGO_CACHE_URL")
    if not url:
        return {"BACKEND": LOCAL_MEMORY_CACHE}
    scheme, _, rest = url.partition("://")
    scheme = scheme.lower()
    if scheme in ("redis", "rediss", "unix"):
        # Django's RedisCache, its failures made misses (docs/deploy.md, "When the cache is
        # down"), with short time limits.
        return {"BACKEND": SHARED_REDIS_CACHE, "LOCATION": url, "OPTIONS": dict(REDIS_OPTIONS)}
    if scheme == "file" and rest.startswith("/"):
        # Django's file cache, sized for an evening and culled without listing the folder on
        # every write (config.folder_cache).
        return {
            "BACKEND": FOLDER_CACHE,
            "LOCATION": rest,
            "OPTIONS": {"MAX_ENTRIES": FOLDER_MAX_ENTRIES, "CULL_FREQUENCY": 3},
        }
    raise ImproperlyConfigured(
        f"DJANGO_CACHE_URL={url!r}: use redis://host:port/db, rediss://…, unix://…"
        " or file:///an/absolute/folder."
    )
