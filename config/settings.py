"""Django settings for the 3-5-8 site. Everything that differs between machines comes from
the environment (see README.md, "Settings"); the parsing lives in ``config.env``."""

import os
from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

from config import static_files
from config.env import (
    allowed_hosts_from_env,
    cache_from_env,
    database_from_env,
    debug_from_env,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_str,
    secret_key_from_env,
)
from config.parking import database_connections

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(mode=0o700, exist_ok=True)  # the database, the secret key: the owner's only

DEBUG = debug_from_env(os.environ)
# A development machine (DJANGO_DEBUG on), kept apart from DEBUG, which Django's test runner
# turns off: the production start-up checks (config/checks.py) ask this one.
DEVELOPMENT = DEBUG
# Behind our one reverse proxy (nginx as in docs/deploy.md), which terminates TLS and
# overwrites X-Forwarded-For with the client's address.
BEHIND_PROXY = env_bool(os.environ, "DJANGO_BEHIND_PROXY", default=False)
CLIENT_ADDRESS_HEADERS = (
    ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR") if BEHIND_PROXY else ("REMOTE_ADDR",)
)
SECRET_KEY = secret_key_from_env(os.environ, debug=DEBUG)
ALLOWED_HOSTS = allowed_hosts_from_env(os.environ, debug=DEBUG)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.forms",  # its templates, for SiteFormRenderer
    "django_htmx",
    "template_partials",
    "django_tables2",
    "axes",
    "ninja",  # the JSON API's docs page (/api/docs) serves Swagger UI from our static files
    "config.apps.SiteConfig",  # the production start-up checks (config/checks.py)
    "scoring",
    "tournaments",
]

MIDDLEWARE = [
    "config.api.ApiErrorMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # WhiteNoise serves the collected static files (gunicorn alone would not); after
    # SecurityMiddleware, so they get HSTS, nosniff and the referrer policy too (and the rest
    # from config.static_files.add_headers).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # NUL and lone surrogates: in the query or form fields → 400, in the path → 404, before
    # any view or the session (a cookie holding them is dropped).
    "config.input.UnstorableInputMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.csp.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.faults.DatabaseUnavailableMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out login into its own page
]

# Unchanged polls answered before the middleware above runs (config.door, config/wsgi.py):
# each names a feature's DoorAnswer, which the tests check against its view (tests/test_door.py).
DOOR_ANSWERS = [
    "scoring.views.watch.SHEET_AT_DOOR",
    "tournaments.rounds.views.public_next.NEXT_SEAT_VERSION_AT_DOOR",
    "tournaments.results.views.public_standings.STANDINGS_AT_DOOR",
    "tournaments.results.api.STANDINGS_API_AT_DOOR",
]
# A poll that asks to wait (long-poll, config.parking) is held at the door at most this long,
# and what it waits on is looked at this often. Only where the server has threads to spare
# (bin/serve); WORKING_THREADS of each process's threads do work at once, the others wait.
DOOR_WAIT_SECONDS = 25
DOOR_WAIT_TICK_SECONDS = 1.0
WORKING_THREADS = env_int(os.environ, "WEB_WORKING_THREADS", default=2)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

FORM_RENDERER = "config.forms.SiteFormRenderer"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # {% load offline %}: the keeper page's offline data (scoring/offline_tags.py).
            "libraries": {"offline": "scoring.offline_tags"},
        },
    },
]

DATABASES = {
    "default": database_from_env(
        os.environ,
        default_sqlite_path=VAR_DIR / "db.sqlite3",
        pool_size=database_connections(WORKING_THREADS),
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    # First: refuses logins for a while after repeated wrong passwords (and logs them).
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # An event's organisers may change that event and its tables' games (object permissions).
    "tournaments.common.permissions.EventOrganiserBackend",
]
# Five wrong passwords for one username from one address → locked for 15 minutes (429).
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# One rule for the client's address, shared with the site's throttles (config/client_ip.py):
# behind our proxy, the one address nginx writes into X-Forwarded-For; otherwise REMOTE_ADDR.
AXES_CLIENT_IP_CALLABLE = "config.client_ip.client_ip"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:organise_home"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("bg", _("Bulgarian")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str(os.environ, "DJANGO_STATIC_ROOT") or VAR_DIR / "static")
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_ADD_HEADERS_FUNCTION = static_files.add_headers
if not DEBUG:
    # Compressed files with content-hashed names, served far-future by WhiteNoise; needs
    # `manage.py collectstatic` once per release (bin/serve does it).
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

# --- Security. Production (DJANGO_DEBUG off) gets the strict values; each can be relaxed
# from the environment, e.g. DJANGO_SECURE_SSL_REDIRECT=0 when a proxy already redirects.
SECURE_SSL_REDIRECT = env_bool(os.environ, "DJANGO_SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env_bool(os.environ, "DJANGO_SECURE_COOKIES", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_HTTPONLY = True
# Django's database sessions, each read by one plain statement (config/sessions.py).
SESSION_ENGINE = "config.sessions"
SECURE_HSTS_SECONDS = env_int(os.environ, "DJANGO_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool(os.environ, "DJANGO_HSTS_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool(os.environ, "DJANGO_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if BEHIND_PROXY:
    # The proxy (nginx, Caddy) terminates TLS and says so in X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    USE_X_FORWARDED_HOST = True
CSRF_TRUSTED_ORIGINS = env_list(os.environ, "DJANGO_CSRF_TRUSTED_ORIGINS")
# Content Security Policy: scripts, styles and images from this site only, no inline code
# (htmx is served from here and told not to inject its indicator style: see base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# --- Mail: only password resets send any, and only through an SMTP server named here; with
# none the reset page says the site cannot send mail and what to do instead (config.accounts).
EMAIL_HOST = env_str(os.environ, "DJANGO_EMAIL_HOST")
EMAIL_PORT = env_int(os.environ, "DJANGO_EMAIL_PORT", default=587)
EMAIL_HOST_USER = env_str(os.environ, "DJANGO_EMAIL_USER")
EMAIL_HOST_PASSWORD = env_str(os.environ, "DJANGO_EMAIL_PASSWORD")
EMAIL_USE_TLS = env_bool(os.environ, "DJANGO_EMAIL_USE_TLS", default=True)
DEFAULT_FROM_EMAIL = env_str(os.environ, "DJANGO_EMAIL_FROM", default="webmaster@localhost")
EMAIL_TIMEOUT = 10

# --- Logs: one JSON object per line on stderr in production (DJANGO_LOG_FORMAT=text for
# people), so a log collector can read who did what without parsing prose.
LOG_LEVEL = env_str(os.environ, "DJANGO_LOG_LEVEL", default="INFO")
LOG_FORMAT = env_choice(
    os.environ, "DJANGO_LOG_FORMAT", ("json", "text"), default="text" if DEBUG else "json"
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        # Both redact keeper-link secrets and bearer tokens from every line (config/logs.py).
        "json": {
            "()": "config.logs.json_formatter",
            "format": "{asctime}{levelname}{name}{message}",
            "style": "{",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "text": {
            "()": "config.logs.text_formatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s: %(message)s",
        },
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT},
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"level": LOG_LEVEL, "propagate": True},
        # axes says "AXES: BEGIN version …" (INFO) each time a process starts, which reads
        # like an error to whoever starts the site; its lockouts are warnings and still show.
        "axes.apps": {"level": "WARNING"},
    },
}

# Celery: settings named CELERY_<setting> (see config/celery.py).
# Without CELERY_BROKER_URL the broker is a set of folders under var/celery/, which needs no
# server and is shared by every process on this machine (the site and `celery -A config worker`).
# The cache (secret-guess and new-game counters; login lockouts use the database): local memory
# per process in development; DJANGO_CACHE_URL=redis://… shares it between gunicorn workers and
# hosts, file:///folder between the processes of one machine. Production refuses local memory
# (config/checks.py): each worker would count on its own. A Redis that does not answer is a
# miss, never an error (config/shared_cache.py).
CACHES = {"default": cache_from_env(os.environ)}

CELERY_BROKER_URL = env_str(os.environ, "CELERY_BROKER_URL", default="filesystem://")
if CELERY_BROKER_URL == "filesystem://":
    _celery_dir = VAR_DIR / "celery"
    _celery_folders = {name: _celery_dir / name for name in ("queue", "processed", "control")}
    for _folder in _celery_folders.values():
        _folder.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_celery_folders["queue"]),
        "data_folder_out": str(_celery_folders["queue"]),
        "processed_folder": str(_celery_folders["processed"]),
        "control_folder": str(_celery_folders["control"]),
        "store_processed": False,
    }
    # A folder has no host: kombu warns "No hostname was supplied. Reverting to default
    # 'localhost'" at every connection, which means nothing here. Its errors still show.
    LOGGING["loggers"]["kombu.connection"] = {"level": "ERROR"}
# The folder broker is for one machine; production refuses it (config/checks.py) unless this
# says the deployment IS one machine (a venue laptop: site and worker side by side).
ALLOW_LOCAL_BROKER = env_bool(os.environ, "ALLOW_LOCAL_BROKER", default=False)
CELERY_RESULT_BACKEND = env_str(os.environ, "CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = env_bool(os.environ, "CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# `celery -A config beat` (or a worker started with -B) runs the sweep that redoes work a
# broker outage may have lost: stale standings and rounds still waiting for their tables.
CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "tournaments.tasks.sweep", "schedule": 60.0},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
