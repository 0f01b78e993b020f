"""The site's session store (config.sessions): Django's database sessions read by one plain
statement. A session loads exactly as Django's own store loads it, live, expired, unknown or
tampered with, in one query, and the site runs on it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.sessions import SessionStore

pytestmark = pytest.mark.django_db


def saved(data: dict, expires_in: timedelta = timedelta(days=1)) -> str:
    """A session stored with `data`, expiring `expires_in` from now; its key."""
    store = db.SessionStore()
    store.update(data)
    store.save()
    Session.objects.filter(pk=store.session_key).update(expire_date=timezone.now() + expires_in)
    return store.session_key


def test_the_site_keeps_its_sessions_here():
    assert settings.SESSION_ENGINE == "config.sessions"


def test_a_live_session_is_read_as_djangos_store_reads_it():
    key = saved({"keeper-7": "mark", "n": 3, "nested": {"a": [1, 2]}})
    ours, djangos = SessionStore(key), db.SessionStore(key)
    assert ours.load() == djangos.load() == {"keeper-7": "mark", "n": 3, "nested": {"a": [1, 2]}}
    row, expected = ours._get_session_from_db(), Session.objects.get(pk=key)
    assert type(row) is Session
    assert (row.session_key, row.session_data, row.expire_date) == (
        expected.session_key,
        expected.session_data,
        expected.expire_date,
    )
    assert row.expire_date.tzinfo is not None
    assert ours.session_key == key


@pytest.mark.parametrize("expires_in", [timedelta(seconds=-1), timedelta(days=-30)])
def test_an_expired_session_is_empty_and_its_key_forgotten(expires_in):
    key = saved({"keeper-7": "mark"}, expires_in)
    for store in (SessionStore(key), db.SessionStore(key)):
        assert store.load() == {}
        assert store.session_key is None


def test_an_unknown_key_is_empty_and_forgotten():
    for store in (SessionStore("x" * 32), db.SessionStore("x" * 32)):
        assert store.load() == {}
        assert store.session_key is None


def test_a_tampered_session_is_empty_as_djangos_store_makes_it():
    key = saved({"_auth_user_id": "1"})
    Session.objects.filter(pk=key).update(session_data="not-signed:at-all")
    assert SessionStore(key).load() == db.SessionStore(key).load() == {}


def test_a_session_is_read_in_one_query():
    key = saved({"a": 1})
    with CaptureQueriesContext(connection) as queries:
        assert SessionStore(key).load() == {"a": 1}
    assert len(queries) == 1
    assert "ORDER BY" not in queries[0]["sql"].upper()


def test_a_session_carries_a_sign_in_across_pages(client, django_user_model):
    """Signed in through the login form, the next page finds the session (read here)."""
    django_user_model.objects.create_superuser("org", password="a long secret phrase 358")
    signed_in = client.post(
        "/accounts/login/",
        {"username": "org", "password": "a long secret phrase 358"},
        secure=True,
    )
    assert signed_in.status_code == 302
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert SessionStore(key).load()["_auth_user_id"]
    assert client.get("/admin/", secure=True).status_code == 200
    client.cookies[settings.SESSION_COOKIE_NAME] = "y" * 32
    assert client.get("/admin/", secure=True).status_code == 302
