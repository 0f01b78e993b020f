"""The standings' rows are written once (the partial `standings_rows` of the public standings
page) and shared by the organiser's final standings to print: the same rows, ranked and not
ranked, withdrawn marks and figures; on paper the names carry no link and each tie's reason
is written out, where the wall shows a marker with the reason as its title."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_unplayed_standings import GHOSTS, LATE, PLAYERS, _night
from tournaments.events.services.event import club_create

pytestmark = pytest.mark.django_db(transaction=True)

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "tournaments"


def test_the_final_standings_write_no_row_of_their_own():
    final = (TEMPLATES / "organise" / "final_standings.html").read_text()
    public = (TEMPLATES / "public" / "standings.html").read_text()
    assert "{% for row in rows %}" not in final and "<tr>" not in final
    assert '"tournaments/public/standings.html#standings_rows"' in final
    assert public.count("{% for row in rows %}") == 1  # inside the partial, used once
    assert "{% partialdef standings_rows %}" in public
    assert "{% partial standings_rows %}" in public


def _rows(html: str) -> list[list[str]]:
    """Each row of the standings' body as its cells' words, the tie marks left out."""
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S).group(1)
    body = re.sub(
        r'<span class="tie"[^>]*>.*?</span>|<br><span class="tie-why">.*?</span>', "", body
    )
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        rows.append([" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in cells])
    return rows


def test_the_printed_rows_are_the_walls_rows():
    event = _night(club_create(name="Sofia Blato Club"))
    olga = get_user_model().objects.create_user(username="olga")
    event.organisers.add(olga)
    organiser = Client()
    organiser.force_login(olga)
    wall = Client().get(reverse("tournaments:standings", args=[event.slug])).text
    paper = organiser.get(reverse("tournaments:organise_event_final", args=[event.slug])).text
    rows = _rows(wall)
    assert rows == _rows(paper)
    names = [row[1] for row in rows if len(row) > 1]
    assert len(names) == len(PLAYERS) + len(GHOSTS) + 1
    assert any(LATE in name for name in names)
    assert ["Not ranked: no game played yet"] in rows
    # the wall links each name to the player's page; paper has no links
    assert 'class="player"><a href=' in wall and 'class="player"><a href=' not in paper
    # each tie the wall marks (its reason in the title) is written out in full on paper
    ties = wall.count('<span class="tie" title=')
    assert ties and paper.count('<span class="tie-why">') == ties
