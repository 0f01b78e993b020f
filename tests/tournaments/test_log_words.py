"""The audit trails speak the reader's language: every action a service writes to an event's
log is worded on the log page (never its stored code), and a game's history names who entered
a deal by role, as the rest of that page does, not by the code the row keeps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import services as scoring
from tests.scoring.test_manage import event_game  # noqa: F401  (a fixture)
from tournaments.clubs.services import members
from tournaments.events.services import identity
from tournaments.events.services.registration import players_register
from tournaments.models import Entry, EventLog, Player
from tournaments.rounds.presenters.organise import log_lines

pytestmark = pytest.mark.django_db

TOURNAMENTS = Path(__file__).resolve().parents[2] / "tournaments"
#: A call that writes an event's log, up to the action's code: log_action(event, actor, "x"
#: in the services, _log(table, actor, "x" in the walkouts (the services' own _log is the
#: club's log, worded by its template).
LOGGED = re.compile(r"\blog_action\(\s*[\w.]+,\s*\w+,\s*\"([a-z_]+)\"")
WALKOUT_LOGGED = re.compile(r"\b_log\(\s*table,\s*actor,\s*\"([a-z_]+)\"")


def _logged_actions() -> set[str]:
    found = set()
    for path in TOURNAMENTS.rglob("*.py"):  # every feature's services
        if "services" not in path.parts and path.stem != "services":
            continue
        text = path.read_text(encoding="utf-8")
        found.update(LOGGED.findall(text))
        found.update(WALKOUT_LOGGED.findall(text))
    return found | {"checked_in", "checked_out"}  # chosen by a flag in entry_check_in


def test_every_logged_action_has_its_own_words():
    actions = _logged_actions()
    assert {"members_merged", "code_renewed", "round_closed", "table_voided"} <= actions
    unknown = "some_future_action"
    with translation.override("bg"):  # English words may hold a code's word ("reinstated")
        fallback = log_lines([EventLog(action=unknown, data={})], {})[0].what
        for action in sorted(actions):
            what = log_lines([EventLog(action=action, data={})], {})[0].what
            assert action not in what, action
            assert what != fallback.replace(unknown, action), action


def test_the_log_page_in_bulgarian_words_a_merge_and_a_new_code(organised_event, organiser_client):
    club = organised_event.club
    keep = Player.objects.create(club=club, name="Мария Димитрова")
    players_register(event=organised_event, names=["Мария Д."], checked_in=True)
    gone = Player.objects.get(club=club, name="Мария Д.")
    members.members_merge(club=club, keep=keep, gone=gone, actor="olga")
    identity.code_renew(entry=Entry.objects.get(event=organised_event, player=keep), actor="olga")

    url = reverse("tournaments:organise_log", args=[organised_event.slug])
    page = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="bg").content.decode()

    assert "members_merged" not in page and "code_renewed" not in page
    assert f"Втори запис на Мария Димитрова (№{gone.pk}) е обединен с този." in page
    assert "Мария Димитрова: нов личен код." in page


def test_who_entered_a_deal_is_named_in_the_readers_language(event_game):  # noqa: F811
    game, client = event_game
    scoring.deal_record(
        game_id=game.pk, number=1, calls=["spades"], tricks=[5, 8, 3], actor="table"
    )
    scoring.deal_undo(game_id=game.pk, number=1, actor="api")
    scoring.deal_record(
        game_id=game.pk, number=1, calls=["hearts"], tricks=[5, 8, 3], actor="table"
    )

    page = client.get(
        reverse("scoring:manage", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="bg"
    ).content.decode()

    assert ", table<" not in page and ", api<" not in page
    assert ", водещия резултата</td>" in page
    assert ", API</td>" in page  # the undo, by a script
