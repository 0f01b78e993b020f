"""Becoming an organiser from the site, and a way back after a forgotten password, with no mail
server and no internet: an organiser's one-time invitation link (a QR code on the screen,
e-mailed too when the site can send mail), and a one-time password link one organiser of a
club issues for another."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from tournaments.club_models import ClubInvitation
from tournaments.clubs.services import invitations
from tournaments.events.services.event import club_create
from tournaments.models import ClubLog

pytestmark = pytest.mark.django_db

LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def club(organised_event):
    return organised_event.club


def page(club) -> str:
    return reverse("tournaments:organise_club_invitations", args=[club.slug])


def words(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def invite(client, club, **form) -> str:
    """The link the organiser is shown (a path: the test client's host is testserver)."""
    response = client.post(page(club), form)
    assert response.status_code == 201, response.content
    html = response.content.decode()
    assert "<svg" in html  # its QR code, to scan from the organiser's screen
    return re.search(r'value="http://testserver(/join/[^/"]+/)"', html).group(1)


def new_account(client, link, username="petya", password="a long new pass 358"):
    return client.post(link, {"username": username, "password1": password, "password2": password})


def log_in(username, password):
    from django.contrib.auth import authenticate

    return authenticate(
        RequestFactory().post("/accounts/login/"), username=username, password=password
    )


def test_an_invitation_makes_a_new_person_an_organiser_of_the_club(club, organiser_client):
    link = invite(organiser_client, club, note="Petya")
    stranger = Client()
    form = stranger.get(link)
    assert form.status_code == 200 and "olga invites you to run Sofia Blato Club" in words(form)
    joined = new_account(stranger, link)
    assert joined.status_code == 302 and joined["Location"] == reverse(
        "tournaments:organise_club", args=[club.slug]
    )
    petya = get_user_model().objects.get(username="petya")
    assert list(club.organisers.order_by("username").values_list("username", flat=True)) == [
        "olga",
        "petya",
    ]
    assert stranger.get(joined["Location"]).status_code == 200  # logged in, runs the club
    assert log_in("petya", "a long new pass 358") == petya
    actions = list(ClubLog.objects.filter(club=club).values_list("actor", "action"))
    assert ("olga", "invitation_made") in actions and ("petya", "invitation_accepted") in actions
    # the club's log says it in words
    home = words(organiser_client.get(reverse("tournaments:organise_club", args=[club.slug])))
    assert "joined the organisers by an invitation from olga" in home


def test_a_link_is_used_once_and_refused_at_once_after(club, organiser_client):
    link = invite(organiser_client, club)
    assert new_account(Client(), link).status_code == 302
    again = Client().get(link)
    assert again.status_code == 410 and "This invitation has been used already" in words(again)
    second = new_account(Client(), link, username="someone")
    assert second.status_code == 410
    assert not get_user_model().objects.filter(username="someone").exists()


def test_an_expired_or_withdrawn_link_is_refused_in_words(club, organiser_client):
    expired = invite(organiser_client, club)
    ClubInvitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    answer = Client().get(expired)
    assert answer.status_code == 410 and "This invitation has expired" in words(answer)

    withdrawn = invite(organiser_client, club, note="Boris")
    invitation = ClubInvitation.objects.get(note="Boris")
    listed = words(organiser_client.get(page(club)))
    assert "Boris" in listed and "Withdraw" in listed
    revoke = reverse("tournaments:organise_club_invitation_revoke", args=[club.slug, invitation.pk])
    assert organiser_client.post(revoke).status_code == 302
    answer = new_account(Client(), withdrawn)
    assert answer.status_code == 410 and "This invitation was withdrawn" in words(answer)
    assert get_user_model().objects.count() == 1 and "Boris" not in words(
        organiser_client.get(page(club))
    )
    assert Client().get("/join/not-a-token/").status_code == 404


def test_the_refusal_is_in_bulgarian_for_a_bulgarian_reader(club, organiser_client):
    link = invite(organiser_client, club)
    ClubInvitation.objects.update(revoked_at=timezone.now())
    answer = Client(headers={"accept-language": "bg"}).get(link)
    assert answer.status_code == 410 and "This invitation" not in words(answer)


def test_someone_logged_in_accepts_with_their_account(club, organiser_client, make_user):
    link = invite(organiser_client, club)
    ivan = make_user("ivan")
    client = Client()
    client.force_login(ivan)
    assert "Accept as ivan" in words(client.get(link))
    assert client.post(link).status_code == 302
    assert ivan.has_perm("tournaments.change_club", club)
    assert ClubInvitation.objects.get().used_by == ivan


def test_an_organiser_of_the_club_leaves_the_invitation_unused(club, organiser_client):
    link = invite(organiser_client, club)
    assert "already run this club" in words(organiser_client.get(link))
    assert organiser_client.post(link).status_code == 409
    assert ClubInvitation.objects.get().used_at is None
    assert new_account(Client(), link).status_code == 302  # still good for someone else


def test_a_weak_password_is_refused_and_the_invitation_stays_good(club, organiser_client):
    link = invite(organiser_client, club)
    refused = new_account(Client(), link, password="1234")
    assert refused.status_code == 400 and not get_user_model().objects.filter(username="petya")
    assert new_account(Client(), link).status_code == 302


def test_only_the_token_digest_is_kept(club, organiser):
    invitation, token = invitations.invitation_create(club=club, actor="olga", by=organiser)
    assert token not in invitation.digest and len(token) >= 32
    assert invitations.invitation_of(token) == invitation


def test_the_invitation_is_e_mailed_when_the_site_can_send_mail(settings, club, organiser_client):
    settings.EMAIL_BACKEND = LOCMEM
    settings.EMAIL_HOST = "mail.example.org"
    assert 'type="email"' in organiser_client.get(page(club)).content.decode()
    link = invite(organiser_client, club, email="petya@example.org")
    assert [m.to for m in mail.outbox] == [["petya@example.org"]]
    assert link in mail.outbox[0].body


def test_without_mail_nothing_is_offered_nor_sent(settings, club, organiser_client):
    settings.EMAIL_BACKEND = LOCMEM
    settings.EMAIL_HOST = ""
    assert 'type="email"' not in organiser_client.get(page(club)).content.decode()
    invite(organiser_client, club, email="petya@example.org")
    assert mail.outbox == []


def test_only_the_clubs_organisers_invite_or_withdraw(club, organiser, outsider_client):
    assert outsider_client.get(page(club)).status_code == 403
    assert outsider_client.post(page(club)).status_code == 403
    invitation, _token = invitations.invitation_create(club=club, by=organiser)
    revoke = reverse("tournaments:organise_club_invitation_revoke", args=[club.slug, invitation.pk])
    assert outsider_client.post(revoke).status_code == 403
    assert ClubInvitation.objects.get().revoked_at is None
    assert ClubInvitation.objects.count() == 1


# --- a forgotten password --------------------------------------------------------------------


def reset(client, club, username):
    return client.post(
        reverse("tournaments:organise_club_reset_link", args=[club.slug]), {"username": username}
    )


def test_an_organiser_gives_another_a_one_time_password_link(club, organiser_client, make_user):
    petya = make_user("petya", password="forgotten long ago 1")
    club.organisers.add(petya)
    answer = reset(organiser_client, club, "petya")
    assert answer.status_code == 201 and "<svg" in answer.content.decode()
    link = re.search(
        r'value="http://testserver(/accounts/reset/[^"]+)"', answer.content.decode()
    ).group(1)
    phone = Client()
    form = phone.get(link, follow=True)
    assert "For petya" in words(form)
    new = "a new password 358"
    done = phone.post(form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    assert log_in("petya", new) is not None
    # used once: the same link is refused after
    assert "no longer works" in words(Client().get(link, follow=True))
    assert ClubLog.objects.filter(club=club, action="reset_link_issued").count() == 1


def test_a_password_link_is_refused_for_someone_who_runs_more_than_you(
    club, organiser, organiser_client, make_user, django_user_model
):
    """A reset hands the account over: refused when it runs another club or event, or is the
    site's staff, so no organiser gains what they did not already run."""
    petya = make_user("petya")
    club.organisers.add(petya)
    club_create(name="Varna", creator=petya)
    refused = reset(organiser_client, club, "petya")
    assert refused.status_code == 403 and "manage.py changepassword petya" in words(refused)

    staff = django_user_model.objects.create_superuser(username="root", password=None)
    club.organisers.add(staff)
    assert reset(organiser_client, club, "root").status_code == 403
    assert reset(organiser_client, club, "nobody").status_code == 400
    assert not ClubLog.objects.filter(action="reset_link_issued").exists()


def test_without_mail_the_forgotten_password_page_points_to_the_club(settings):
    settings.EMAIL_HOST = ""
    said = words(Client().get(reverse("password_reset")))
    assert "password link" in said and "manage.py changepassword" in said
