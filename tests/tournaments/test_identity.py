"""One identity per player and event: the personal code, the phone's signed cookie, the
printed slip's link, the organiser renewing a code, the guessing throttle, and what scoring
is answered about a phone at a table (its person and seat, a substitute's seat included)."""

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.models import Game, Quorum, SeatClaim, Verdict
from scoring.signals import identity_at
from tests.scoring.test_manage import finish
from tournaments.backup.export import event_export
from tournaments.common.vocabulary import PERSONAL_CODE_LENGTH
from tournaments.events.selectors.identity import (
    identity_cookie,
    identity_value,
    person_key,
    proven_entry,
    slip_token,
)
from tournaments.events.services import identity
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry, EventLog
from tournaments.rounds.services import walkouts
from tournaments.rounds.services.rounds import round_create, round_publish

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Boris", "Vera", "Dimitar"]


@pytest.fixture
def night(django_capture_on_commit_callbacks):
    """An event asking all three players: four entered, three at the one table (the fourth
    has the bye), the round published and its game finished; the organiser's client."""
    club = club_create(name="Club")
    olga = get_user_model().objects.create_user(username="olga", password="pw")
    event = event_create(
        club=club, name="Night", organisers=[olga], seed=5, confirm_quorum=Quorum.ALL
    )
    players_register(event=event, names=NAMES, checked_in=True)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = round_create(event=event)
    round_.refresh_from_db()
    round_publish(round_=round_, actor="olga")
    organiser = Client()
    organiser.force_login(olga)
    return event, round_.tables.get(), organiser


def text(response) -> str:
    return html.unescape(response.content.decode())


def entry_of(event, player_id) -> Entry:
    return Entry.objects.select_related("player").get(event=event, player_id=player_id)


def proven_phone(event, entry: Entry) -> Client:
    phone = Client()
    phone.cookies[identity_cookie(event)] = identity_value(entry)
    return phone


def me(event, player_id: int, code: str, **extra):
    url = reverse("tournaments:seat_me", args=[event.slug])
    return Client().post(url, {"player": player_id, "code": code}, **extra)


def test_every_entry_has_its_own_code_of_digits(night):
    event, _table, _client = night
    codes = list(event.entries.values_list("code", flat=True))
    assert all(len(code) == PERSONAL_CODE_LENGTH and code.isdigit() for code in codes)
    assert len(set(codes)) == len(codes)


def test_the_cookie_proves_its_entry_only_and_cannot_be_made_up(night):
    event, table, _client = night
    ana = entry_of(event, table.seat_ids[0])
    value = identity_value(ana)
    assert proven_entry(event, value) == ana
    boris = entry_of(event, table.seat_ids[1])
    forged = f"{boris.pk}.{value.partition('.')[2]}"  # Ana's MAC on Boris's entry
    for made_up in (forged, str(boris.pk), f"{boris.pk}.", "x.y", "", None, "9" * 40 + ".a"):
        assert proven_entry(event, made_up) is None
    other = event_create(club=event.club, name="Other")
    assert proven_entry(other, value) is None  # another event's


def test_typing_the_code_proves_the_phone_and_spaces_are_ignored(night):
    event, table, _client = night
    vera = entry_of(event, table.seat_ids[2])
    typed = f"{vera.code[:4]} {vera.code[4:]}"
    answer = me(event, vera.player_id, typed)
    assert answer.status_code == 302
    assert answer.cookies[identity_cookie(event)].value == identity_value(vera)
    wrong = me(event, vera.player_id, "12345678" if vera.code != "12345678" else "87654321")
    assert wrong.status_code == 403 and identity_cookie(event) not in wrong.cookies
    assert f"not {vera.player.name}'s personal code" in text(wrong)
    assert me(event, vera.player_id, "").status_code == 400


def test_wrong_codes_are_throttled_and_then_even_the_right_one_is_refused(night):
    event, table, _client = night
    ana = entry_of(event, table.seat_ids[0])
    wrong = "0" * 8 if ana.code != "0" * 8 else "1" * 8
    address = {"REMOTE_ADDR": "10.1.2.3"}
    for _ in range(identity.ADDRESS_FAILURES_ALLOWED):
        assert me(event, ana.player_id, wrong, **address).status_code == 403
    blocked = me(event, ana.player_id, ana.code, **address)
    assert blocked.status_code == 429 and "too many wrong codes" in text(blocked).lower()
    assert me(event, ana.player_id, ana.code, REMOTE_ADDR="10.9.9.9").status_code == 302


def test_the_event_wide_limit_stops_guessing_from_many_addresses(night):
    event, table, _client = night
    ana = entry_of(event, table.seat_ids[0])
    wrong = "0" * 8 if ana.code != "0" * 8 else "1" * 8
    for n in range(identity.EVENT_FAILURES_ALLOWED):
        me(event, ana.player_id, wrong, REMOTE_ADDR=f"10.0.{n // 200}.{n % 200 + 1}")
    assert me(event, ana.player_id, ana.code, REMOTE_ADDR="10.8.8.8").status_code == 429


def test_the_slips_link_asks_once_then_proves_the_phone(night):
    event, table, _client = night
    boris = entry_of(event, table.seat_ids[1])
    url = reverse("tournaments:seat_slip", args=[event.slug, boris.pk, slip_token(boris)])
    phone = Client(enforce_csrf_checks=True)
    page = phone.get(url)
    assert page.status_code == 200 and identity_cookie(event) not in page.cookies
    body = text(page)
    assert f"Are you {boris.player.name}?" in body and boris.code not in body
    assert "no-store" in page["Cache-Control"]
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    form = {"entry": boris.pk, "token": slip_token(boris), "csrfmiddlewaretoken": csrf}
    answer = phone.post(reverse("tournaments:seat_me", args=[event.slug]), form)
    assert answer.status_code == 302
    assert answer.cookies[identity_cookie(event)].value == identity_value(boris)
    bad = reverse("tournaments:seat_slip", args=[event.slug, boris.pk, "0" * 24])
    assert Client().get(bad).status_code == 404


def test_a_new_code_ends_the_old_code_its_slip_and_every_phone_proven_with_it(night):
    event, table, organiser = night
    ana = entry_of(event, table.seat_ids[0])
    old_value, old_code, old_slip = identity_value(ana), ana.code, slip_token(ana)
    url = reverse("tournaments:organise_code_renew", args=[event.slug, ana.pk])
    answer = organiser.post(url)
    assert answer.status_code == 302 and answer["Location"].endswith(f"#entry-{ana.pk}")
    ana.refresh_from_db()
    assert ana.code != old_code
    assert proven_entry(event, old_value) is None
    assert me(event, ana.player_id, old_code).status_code == 403
    old = reverse("tournaments:seat_slip", args=[event.slug, ana.pk, old_slip])
    assert Client().get(old).status_code == 404
    assert EventLog.objects.filter(event=event, action="code_renewed").exists()
    assert Client().post(url).status_code == 302  # anonymous: sent to log in
    assert Entry.objects.get(pk=ana.pk).code == ana.code


def test_the_organiser_sees_the_codes_and_prints_the_slips(night):
    event, _table, organiser = night
    players = organiser.get(reverse("tournaments:organise_players", args=[event.slug]))
    page = players.content.decode()
    for entry in event.entries.all():
        assert f"{entry.code[:4]} {entry.code[4:]}" in page
    slips = organiser.get(reverse("tournaments:organise_player_slips", args=[event.slug]))
    body = slips.content.decode()
    assert slips.status_code == 200 and "no-store" in slips["Cache-Control"]
    assert body.count("<svg") == len(NAMES) and "Dimitar" in body
    anonymous = Client().get(reverse("tournaments:organise_player_slips", args=[event.slug]))
    assert anonymous.status_code == 302


def test_scoring_is_told_the_phones_person_and_seat_and_a_substitutes_seat(night):
    event, table, _client = night
    game = table.game
    assert identity_at(game, {}).person is None
    ana = entry_of(event, table.seat_ids[0])
    person = identity_at(game, {identity_cookie(event): identity_value(ana)}).person
    assert (person.key, person.name, person.seat) == (person_key(ana), ana.player.name, 0)
    bye = event.entries.select_related("player").exclude(player_id__in=table.seat_ids).get()
    walkouts.table_substitute(table=table, seat=0, player=bye.player, reason="left", actor="olga")
    cookies = {identity_cookie(event): identity_value(bye)}
    assert identity_at(game, cookies).person.seat == 0  # the substitute's seat is theirs
    assert identity_at(game, {identity_cookie(event): identity_value(ana)}).person.seat is None
    casual = Game.objects.create(ruleset="blato", players=["A", "B", "C"], first_dealer=0)
    assert identity_at(casual, cookies) is None
    # On the pages: the substitute claims the seat, the player who left claims none.
    game = finish(Game.objects.get(pk=game.pk))
    claim = reverse("scoring:claim", args=[game.pk])
    assert proven_phone(event, ana).post(claim, {"seat": 0}).status_code == 409
    assert proven_phone(event, bye).post(claim, {"seat": 0}).status_code == 302
    made = SeatClaim.objects.get(game=game)
    assert (made.seat, made.person) == (0, person_key(bye))


def test_the_keeper_page_records_whom_the_keepers_phone_proved_to_be(night):
    event, table, _client = night
    game = finish(table.game)
    ana = entry_of(event, table.seat_ids[0])
    keeper = proven_phone(event, ana)
    keeper.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    keeper.post(reverse("scoring:confirm", args=[game.pk]), {"player": "0"})
    assert Verdict.objects.get(game=game, seat=None).person == person_key(ana)


def test_the_organiser_confirms_for_a_seat_and_sees_how_each_was_proven(night):
    event, table, organiser = night
    game = finish(table.game)
    ana = entry_of(event, table.seat_ids[0])
    phone = proven_phone(event, ana)
    assert phone.post(reverse("scoring:claim", args=[game.pk]), {"seat": 0}).status_code == 302
    phone.post(reverse("scoring:verdict", args=[game.pk]), {"verdict": "agree"})
    url = reverse("scoring:seat_vouch", args=[game.pk, 1])
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    assert keeper.post(url).status_code == 403  # the keeper is not the organiser
    assert Client().post(url).status_code == 403
    assert not SeatClaim.objects.filter(game=game, seat=1).exists()
    page_url = reverse(
        "tournaments:organise_table", args=[event.slug, table.round.number, table.number]
    )
    answer = organiser.post(url, {"next": page_url})
    assert answer.status_code == 302 and answer["Location"] == page_url
    page = text(organiser.get(page_url))
    assert "(personal code)" in page and "(organiser's say-so)" in page
    assert "Confirm for" in page  # the seat not yet confirmed
    assert SeatClaim.objects.get(game=game, seat=1).proof == SeatClaim.Proof.ORGANISER


def test_a_backup_holds_no_personal_code(night):
    event, _table, _client = night
    document = event_export(event=event)
    assert document["entries"] and all("code" not in row for row in document["entries"])
