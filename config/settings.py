"""Django settings for the 3-5-8 site. Everything that differs between machines comes from
the environment (see README.md, "Settings"); the parsing lives in ``config.env``."""

import importlib.util
import os
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from config.env import (
    allowed_hosts_from_env,
    database_from_env,
    debug_from_env,
    env_bool,
    secret_key_from_env,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

DEBUG = debug_from_env(os.environ)
SECRET_KEY = secret_key_from_env(os.environ, debug=DEBUG)
ALLOWED_HOSTS = allowed_hosts_from_env(os.environ, debug=DEBUG)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "django_tables2",
    "scoring",
    "tournaments",
]

MIDDLEWARE = [
    "config.api.ApiErrorMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]
# A deployment installs whitenoise (requirements/prod.txt) to serve the collected static files.
if importlib.util.find_spec("whitenoise") is not None:
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
        },
    },
]

DATABASES = {"default": database_from_env(os.environ, default_sqlite_path=VAR_DIR / "db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

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
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]

# Celery: settings named CELERY_<setting> (see config/celery.py).
# Without CELERY_BROKER_URL the broker is a set of folders under var/celery/, which needs no
# server and is shared by every process on this machine (the site and `celery -A config worker`).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "").strip() or "filesystem://"
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
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "").strip() or None
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
