"""Password reset: a site with no mail server says so, plainly, and what to do instead; it
never answers "sent" for a mail it cannot send, nor logs an error for each try. With a mail
server named (DJANGO_EMAIL_HOST) the reset link is mailed as Django does it."""

from __future__ import annotations

import logging
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

SMTP = "django.core.mail.backends.smtp.EmailBackend"
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def olga(django_user_model):
    return django_user_model.objects.create_user(
        username="olga", email="olga@example.org", password="an old password"
    )


def words(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_without_mail_the_page_says_it_cannot_send_and_what_to_do(settings, olga, caplog):
    settings.EMAIL_BACKEND = SMTP  # as the site runs, with no mail server named
    settings.EMAIL_HOST = ""
    client = Client()
    page = client.get(reverse("password_reset"))
    assert page.status_code == 200
    said = words(page)
    assert "This site cannot send e-mail" in said
    assert "manage.py changepassword olga" not in said  # it does not know who asks
    assert "manage.py changepassword" in said and "another organiser" in said
    assert 'type="email"' not in page.content.decode()  # nothing to fill in that goes nowhere

    with caplog.at_level(logging.INFO):
        answer = client.post(reverse("password_reset"), {"email": "olga@example.org"})
    assert answer.status_code == 200  # not the "we've e-mailed you" page
    assert "This site cannot send e-mail" in words(answer)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert mail.outbox == []


def test_with_mail_the_link_is_sent_as_before(settings, olga):
    settings.EMAIL_BACKEND = LOCMEM
    settings.EMAIL_HOST = "mail.example.org"
    client = Client()
    page = client.get(reverse("password_reset"))
    assert 'type="email"' in page.content.decode()
    assert "cannot send" not in words(page)
    answer = client.post(reverse("password_reset"), {"email": "olga@example.org"})
    assert answer.status_code == 302 and answer["Location"] == reverse("password_reset_done")
    assert [message.to for message in mail.outbox] == [["olga@example.org"]]
    link = re.search(r"/accounts/reset/[^/\s]+/[^/\s]+/", mail.outbox[0].body).group(0)
    assert client.get(link, follow=True).status_code == 200


def test_the_login_page_says_where_to_go_for_a_forgotten_password():
    page = Client().get(reverse("login"))
    assert reverse("password_reset") in page.content.decode()
