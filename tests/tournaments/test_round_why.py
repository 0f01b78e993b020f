"""A swiss draft explains each table in one line and says what a bye scores, in English and
Bulgarian: round 2 of ten players, after a round 1 played and confirmed."""

import random

import pytest
from django.urls import reverse

from tournaments.models import Round, Table
from tournaments.results.services import result_confirm
from tournaments.rounds.services.rounds import round_close

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_draft(organised_event, build_round, django_capture_on_commit_callbacks):
    register(organised_event, 10)
    first = build_round(organised_event, publish=True)
    rng = random.Random(5)
    for table in first.tables.all():
        finish_game(table.game, rng)
        with django_capture_on_commit_callbacks(execute=True):
            result_confirm(table=table, actor="olga")
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round_=first, actor="olga")
    second = build_round(organised_event)
    assert second.status == Round.Status.DRAFT
    return second


def page(client, event, language):
    url = reverse("tournaments:organise_round", args=[event.slug, 2])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_each_table_of_a_swiss_draft_is_explained_and_the_bye_scoring_said(
    organiser_client, organised_event, second_draft
):
    tables = list(Table.objects.filter(round=second_draft).order_by("number"))
    stored = [next(f for f in t.flags if f["code"] == "why") for t in tables]
    # After round 1: three winners on 2 points; three seconds and the bye on 1; the
    # thirds on 0 (one of them has this round's bye).
    assert stored[0]["points"] == [2, 2, 2]
    assert any(len(set(why["points"])) > 1 for why in stored)
    body = page(organiser_client, organised_event, "en")
    lines = [line.strip() for line in body.splitlines() if 'class="why hint"' in line]
    assert len(lines) == len(tables)
    assert lines[0] == '<p class="why hint">All three have 2 points.</p>'
    # Players 001 and 003 met in round 1 and would share the 1-point table: Player 004
    # goes down a group to keep them apart, and the line says so.
    assert lines[2] == (
        '<p class="why hint">Score groups mixed: 1, 0, 0. Player 004 plays down a score group:'
        " to keep apart players who have met. Kept apart, having met before: Player 001 and"
        " Player 003.</p>"
    )
    assert "A bye scores: as a second place." in body
    assert 'class="table-card flagged"' not in body  # an explanation is not a flag

    bg = page(organiser_client, organised_event, "bg")
    lines = [line.strip() for line in bg.splitlines() if 'class="why hint"' in line]
    assert lines[0] == '<p class="why hint">И тримата са с 2 точки.</p>'
    assert lines[2] == (
        '<p class="why hint">Смесени групи по точки: 1, 0, 0. Player 004 играе в по-долна група'
        " по точки: за да не играят отново играчи, които вече са се срещали. Разделени, защото"
        " вече са играли заедно: Player 001 и Player 003.</p>"
    )
    assert "Почивката носи: като втора позиция." in bg
