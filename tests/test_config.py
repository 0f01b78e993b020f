"""The foundation: settings from the environment, the home page in both languages, dates in
each language's order (day first in English too), checks and migrations."""

import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connection, transaction
from django.urls import reverse
from django.utils import formats, translation

from config.env import (
    DEVELOPMENT_ALLOWED_HOSTS,
    DEVELOPMENT_SECRET_KEY,
    allowed_hosts_from_env,
    cache_from_env,
    database_from_env,
    debug_from_env,
    env_bool,
    secret_key_from_env,
)

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_SQLITE = Path("/project/var/db.sqlite3")


# --- config.env ------------------------------------------------------------------------------


def test_database_defaults_to_sqlite_file():
    db = database_from_env({}, default_sqlite_path=DEFAULT_SQLITE)
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == str(DEFAULT_SQLITE)


def test_database_empty_url_means_default():
    db = database_from_env({"DATABASE_URL": "  "}, default_sqlite_path=DEFAULT_SQLITE)
    assert db["NAME"] == str(DEFAULT_SQLITE)


def test_database_sqlite_url():
    db = database_from_env(
        {"DATABASE_URL": "sqlite:////tmp/elsewhere.sqlite3"}, default_sqlite_path=DEFAULT_SQLITE
    )
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == "/tmp/elsewhere.sqlite3"
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_database_postgres_url(scheme):
    db = database_from_env(
        {"DATABASE_URL": f"{scheme}://ana:secret@db.example:6543/blato"},
        default_sqlite_path=DEFAULT_SQLITE,
    )
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"]) == ("blato", "ana", "secret")
    assert (db["HOST"], db["PORT"]) == ("db.example", 6543)
    assert db["CONN_HEALTH_CHECKS"] is True


def test_database_unknown_scheme_is_a_clear_error():
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        database_from_env({"DATABASE_URL": "nosuchdb://x/y"}, default_sqlite_path=DEFAULT_SQLITE)


@pytest.mark.parametrize("value", ["1", "true", "True", "YES", "on", " on "])
def test_truthy_values(value):
    assert env_bool({"X": value}, "X") is True
    assert debug_from_env({"DJANGO_DEBUG": value}) is True


@pytest.mark.parametrize("value", ["0", "false", "no", "off", "OFF", ""])
def test_falsy_values(value):
    assert env_bool({"X": value}, "X", default=True) is False
    assert debug_from_env({"DJANGO_DEBUG": value}) is False


def test_debug_defaults_to_off():
    assert debug_from_env({}) is False


def test_unrecognised_boolean_is_an_error():
    with pytest.raises(ImproperlyConfigured, match="DJANGO_DEBUG"):
        debug_from_env({"DJANGO_DEBUG": "maybe"})


def test_secret_key_required_when_debug_off():
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY"):
        secret_key_from_env({}, debug=False)


def test_secret_key_from_env_wins():
    assert secret_key_from_env({"DJANGO_SECRET_KEY": "s3cret"}, debug=False) == "s3cret"
    assert secret_key_from_env({"DJANGO_SECRET_KEY": "s3cret"}, debug=True) == "s3cret"


def test_development_secret_key_only_with_debug():
    assert secret_key_from_env({}, debug=True) == DEVELOPMENT_SECRET_KEY


def test_cache_from_env():
    assert cache_from_env({})["BACKEND"].endswith("LocMemCache")
    redis = cache_from_env({"DJANGO_CACHE_URL": " redis://10.0.0.5:6379/1 "})
    assert redis == {
        # Django's RedisCache, whose failures are misses (tests/tournaments/test_cache_outage.py)
        "BACKEND": "config.shared_cache.SharedRedisCache",
        "LOCATION": "redis://10.0.0.5:6379/1",
        "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 2.0},
    }
    folder = cache_from_env({"DJANGO_CACHE_URL": "file:///srv/358/var/cache"})
    assert folder["BACKEND"] == "config.folder_cache.FolderCache"  # tests/test_folder_cache.py
    assert folder["OPTIONS"]["MAX_ENTRIES"] >= 10_000  # an evening's sheets, not Django's 300
    assert folder["LOCATION"] == "/srv/358/var/cache"
    for bad in ("memcached://x", "file://relative/path", "nonsense"):
        with pytest.raises(ImproperlyConfigured, match="DJANGO_CACHE_URL"):
            cache_from_env({"DJANGO_CACHE_URL": bad})


def test_allowed_hosts():
    env = {"DJANGO_ALLOWED_HOSTS": "358.example, www.358.example,,"}
    assert allowed_hosts_from_env(env, debug=False) == ["358.example", "www.358.example"]
    assert allowed_hosts_from_env({}, debug=True) == list(DEVELOPMENT_ALLOWED_HOSTS)
    assert allowed_hosts_from_env({}, debug=False) == []


# --- settings as loaded by a fresh process ----------------------------------------------------


def _run_manage(*args, **env_overrides):
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_settings_refuse_to_start_without_secret_key_when_debug_off():
    result = _run_manage("check", DJANGO_DEBUG="0")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off" in result.stderr


def test_settings_start_with_secret_key_when_debug_off(tmp_path):
    result = _run_manage(
        "check",
        DJANGO_DEBUG="off",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_ALLOWED_HOSTS="358.example",
        # A production start needs a shared cache and a real broker (config/checks.py); this
        # is the one-machine shape: a cache folder, the folder broker explicitly allowed.
        DJANGO_CACHE_URL=f"file://{tmp_path}",
        ALLOW_LOCAL_BROKER="1",
    )
    assert result.returncode == 0, result.stderr


def test_starting_says_nothing_that_reads_like_an_error():
    """A site starting on the folder broker: axes' INFO banner and kombu's "No hostname was
    supplied" (a folder has none) are not shown; a real error of either still is."""
    script = (
        "import logging, django; django.setup();"
        "from config.celery import app;"
        "app.connection_for_write().info();"  # what enqueuing a task does first
        "logging.getLogger('kombu.connection').error('kombu trouble');"
        "logging.getLogger('axes.handlers').warning('axes lockout')"
    )
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.pop("CELERY_BROKER_URL", None)
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=BASE_DIR,
        env={**env, "DJANGO_DEBUG": "1", "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "AXES: BEGIN" not in result.stderr and "No hostname" not in result.stderr
    assert "kombu trouble" in result.stderr and "axes lockout" in result.stderr


def test_settings_in_this_process():
    assert settings.LANGUAGE_CODE == "en"
    assert [code for code, _name in settings.LANGUAGES] == ["en", "bg"]
    assert settings.TIME_ZONE == "UTC"
    assert settings.DEFAULT_AUTO_FIELD == "django.db.models.BigAutoField"
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE
    assert "django_htmx.middleware.HtmxMiddleware" in settings.MIDDLEWARE


def test_broker_defaults_to_folders_that_need_no_server():
    if os.environ.get("CELERY_BROKER_URL"):
        assert settings.CELERY_BROKER_URL == os.environ["CELERY_BROKER_URL"].strip()
        return
    assert settings.CELERY_BROKER_URL == "filesystem://"
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        assert Path(settings.CELERY_BROKER_TRANSPORT_OPTIONS[key]).is_dir()


# --- the project as a whole -------------------------------------------------------------------


def test_system_checks_pass():
    call_command("check", fail_level="WARNING")


@pytest.mark.django_db
def test_migrations_are_complete():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_translations_are_complete():
    """Every entry of each .po file has a translation and none is fuzzy."""
    po_files = sorted((BASE_DIR / "locale").glob("*/LC_MESSAGES/django.po"))
    assert po_files, "no .po files under locale/"
    for po in po_files:
        entries = re.split(r"\n\s*\n", po.read_text(encoding="utf-8").strip())
        for entry in entries[1:]:  # the first entry is the header
            assert "#, fuzzy" not in entry, f"{po}: fuzzy entry\n{entry}"
            msgstr = re.search(r'^msgstr(?:\[0\])? ((?:".*"\n?)+)', entry, re.M)
            assert msgstr, f"{po}: no msgstr\n{entry}"
            assert re.sub(r'"\s*"', "", msgstr.group(1)).strip() != '""', (
                f"{po}: untranslated\n{entry}"
            )
        mo = po.with_suffix(".mo")
        assert mo.exists(), f"{mo} is missing: run bin/setup (needs gettext's msgfmt)"


# --- the home page ----------------------------------------------------------------------------


def _assert_language_switch(html):
    assert f'action="{reverse("set_language")}"' in html
    assert 'method="post"' in html
    assert 'name="language"' in html
    assert 'value="en"' in html and 'value="bg"' in html


@pytest.mark.django_db
def test_home_page_in_english(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert 'name="viewport"' in html
    assert "Tournaments and score sheets for the three-player card game 3-5-8" in html
    _assert_language_switch(html)


@pytest.mark.django_db
def test_home_page_lists_the_events_being_played_and_the_ways_in(client):
    from tournaments.events.services.event import club_create, event_create
    from tournaments.models import Event

    club = club_create(name="Club")
    running = event_create(club=club, name="Tonight")
    Event.objects.filter(pk=running.pk).update(status=Event.Status.RUNNING)
    event_create(club=club, name="Next month")
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="/events/{running.slug}/"' in html and "Next month" not in html
    for url in ("/games/new/", "/events/", "/referee/", "/organise/"):
        assert f'href="{url}"' in html


@pytest.mark.django_db
def test_home_page_in_bulgarian_from_accept_language(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="bg")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="bg">' in html
    assert "Турнири и листове с резултати" in html
    _assert_language_switch(html)


@pytest.mark.django_db
def test_home_page_in_bulgarian_from_cookie(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "bg"
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="bg">' in response.content.decode()


@pytest.mark.django_db
def test_language_switch_works_without_javascript(client):
    response = client.post(reverse("set_language"), {"language": "bg", "next": "/"})
    assert response.status_code == 302
    assert response["Location"] == "/"
    response = client.get("/")
    assert '<html lang="bg">' in response.content.decode()


@pytest.mark.django_db
def test_the_favicon_is_linked_and_favicon_ico_finds_it(client):
    from django.templatetags.static import static

    icon = static("favicon.svg")
    html = client.get("/").content.decode()
    assert f'<link rel="icon" href="{icon}" type="image/svg+xml">' in html
    response = client.get("/favicon.ico")  # asked for by browsers whatever the page links
    assert response.status_code == 302 and response["Location"] == icon
    from django.contrib.staticfiles import finders

    assert finders.find("favicon.svg")


def test_no_form_label_ends_in_a_colon():
    """Every form of the site's draws its labels without Django's ":" (label_suffix), whether
    through the field template or label_tag (as form.as_p does)."""
    import inspect

    from django import forms

    import scoring.forms
    import tournaments.events.forms
    from config.forms import Form

    found = [
        cls
        for module in (scoring.forms, tournaments.events.forms)
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, forms.BaseForm) and cls.__module__ == module.__name__
    ]
    assert len(found) > 15
    assert [cls.__name__ for cls in found if not issubclass(cls, Form)] == []
    form = tournaments.events.forms.ClubForm()
    assert form.label_suffix == ""
    assert form["name"].label_tag() == '<label for="id_name">Club name</label>'
    assert "Club name:" not in form.as_p() and "Club name:" not in form.as_div()


# --- PostgreSQL ------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgresql_connection_and_transaction():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert "PostgreSQL" in cursor.fetchone()[0]

    user_model = get_user_model()
    with pytest.raises(RuntimeError), transaction.atomic():
        user_model.objects.create(username="rolled-back")
        raise RuntimeError("roll back")
    assert not user_model.objects.filter(username="rolled-back").exists()

    with transaction.atomic():
        user_model.objects.create(username="kept")
    assert user_model.objects.filter(username="kept").exists()


def test_english_dates_put_the_day_first():
    moment = datetime.datetime(2026, 11, 23, 18, 3)
    with translation.override("en"):
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "23 Nov 2026, 18:03"
        assert formats.date_format(moment, "SHORT_DATE_FORMAT") == "23 Nov 2026"
        assert formats.date_format(moment, "DATETIME_FORMAT") == "23 November 2026, 18:03"
    with translation.override("bg"):
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "23.11.2026 18:03"
