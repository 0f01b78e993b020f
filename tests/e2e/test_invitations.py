"""Becoming an organiser on phones, with and without JavaScript and with no mail server: an
organiser makes an invitation link, a newcomer opens it on their own phone, chooses a username
and password and runs the club; the used link is refused at once; later, the first organiser
makes the newcomer a one-time link to set a new password after a forgotten one."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tournaments.events.services.event import club_create

from .checks import check_screen
from .organiser import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "petya's own password 358"


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_a_newcomer_joins_by_invitation_and_gets_back_in_by_a_password_link(
    live_server, new_phone, screenshot, django_user_model, settings, javascript
):
    settings.EMAIL_HOST = ""  # a venue laptop: no mail server
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    club = club_create(name="Sofia Blato Club", creator=olga)
    shoot = screenshot if javascript else None
    organiser = new_phone(javascript=javascript)
    home = f"{live_server.url}/organise/clubs/{club.slug}/"
    log_in(organiser, home)
    organiser.get_by_role("link", name="Invite someone new").click()
    check_screen(organiser, "organise-invitations", shoot)
    organiser.get_by_label("Whom it is for").fill("Петя")
    organiser.get_by_role("button", name="Make an invitation link").click()
    link = organiser.get_by_label("The link").input_value()
    assert link.startswith(live_server.url + "/join/")
    expect(organiser.locator(".handover-qr svg")).to_be_visible()
    check_screen(organiser, "organise-invitation-made", shoot)

    newcomer = new_phone(javascript=javascript, locale="bg")
    newcomer.goto(link)
    check_screen(newcomer, "invitation-accept", shoot)
    newcomer.locator("#id_username").fill("petya")
    newcomer.locator("#id_password1").fill(NEW_PASSWORD)
    newcomer.locator("#id_password2").fill(NEW_PASSWORD)
    newcomer.locator("form.login-form button").click()
    expect(newcomer).to_have_url(home)
    assert club.organisers.filter(username="petya").exists()

    stranger = new_phone(javascript=javascript)
    stranger.goto(link)
    expect(stranger.get_by_role("alert")).to_contain_text("This invitation has been used already")
    check_screen(stranger, "invitation-refused", shoot)

    # petya forgets the password: olga makes a link, petya sets a new one on their phone
    organiser.goto(home + "invitations/")
    organiser.get_by_label("The organiser who forgot it").select_option("petya")
    organiser.get_by_role("button", name="Make a password link").click()
    reset = organiser.get_by_label("The link").input_value()
    check_screen(organiser, "organise-password-link", shoot)
    forgetful = new_phone(javascript=javascript)
    forgetful.goto(reset)
    check_screen(forgetful, "password-reset-confirm", shoot)
    forgetful.get_by_label("New password", exact=True).fill("a brand new one 358")
    forgetful.get_by_label("New password confirmation").fill("a brand new one 358")
    forgetful.get_by_role("button", name="Set my password").click()
    expect(forgetful.get_by_role("status")).to_contain_text("Your password is set")
    forgetful.goto(reset)
    expect(forgetful.get_by_role("alert")).to_contain_text("This link no longer works")
