"""The public event pages, as a phone without a login sees them: events, an event's home,
where do I sit, a round's tables, the standings (and their poll), a player, the projector."""

import random
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring import autoplay
from scoring import services as scoring
from scoring.models import Game
from tournaments import tasks
from tournaments.events.selectors.entries import player_names
from tournaments.events.services.event import club_create, event_create, event_end
from tournaments.events.services.registration import players_register
from tournaments.models import Event, Round
from tournaments.results.services import result_confirm, result_reopen, standings_build
from tournaments.rounds.services.rounds import round_close, round_create, round_publish

from .test_services import _rotate, play_table

pytestmark = pytest.mark.django_db(transaction=True)

EVIL = '<script>alert("x")</script>'


# --- building events ----------------------------------------------------------------------------


def make_event(names, *, rounds_planned=3, precedence=None, name="Friday open", seed=5):
    club = club_create(name="Sofia Blato Club")
    event = event_create(
        club=club, name=name, rounds_planned=rounds_planned, precedence=precedence, seed=seed
    )
    players_register(event=event, names=names, checked_in=True)
    return event


def numbered(count):
    return [f"Player {n}" for n in range(1, count + 1)]


def publish_round(event) -> Round:
    round_ = round_create(event=event)
    return round_publish(round_=round_)


def play_deals(table, count, first=1):
    """Deals `first`.. of play_table's game, `count` of them: the game stays in play."""
    game = table.game
    for number in range(first, first + count):
        scoring.deal_record(
            game_id=game.pk,
            number=number,
            calls=["spades"],
            tricks=list(_rotate((3, 8, 5), game.first_dealer, number)),
        )


def running(names, **options):
    """Round 1 published; every table confirmed except the last, which has two deals."""
    event = make_event(names, **options)
    round_ = publish_round(event)
    tables = list(round_.tables.select_related("game").order_by("number"))
    for table in tables[:-1]:
        play_table(table)
    play_deals(tables[-1], 2)
    return event, round_, tables


@pytest.fixture
def hold_builds(monkeypatch):
    """Standings builds are enqueued but never run, as with a broker down."""
    monkeypatch.setattr(tasks.build_standings, "delay", lambda *args, **kwargs: None)


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def text(response) -> str:
    return response.content.decode()


def get(client, name, *args, status=200, **extra):
    response = client.get(url(name, *args), **extra)
    assert response.status_code == status, text(response)[:2000]
    return text(response)


def squash(html: str) -> str:
    """The page's text with tags dropped and spaces collapsed, for reading sentences."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


# --- the events list and an event's home -------------------------------------------------------


def test_events_list_running_first_then_taking_entries_then_closed(client):
    club = club_create(name="Plovdiv Club")
    closed = event_create(club=club, name="Last year")
    Event.objects.filter(pk=closed.pk).update(status=Event.Status.CLOSED)
    registering = event_create(club=club, name="Next week")
    started = make_event(numbered(3), name="Tonight")
    publish_round(started)
    page = get(client, "events")
    order = [page.index(name) for name in ("Tonight", "Next week", "Last year")]
    assert order == sorted(order)
    assert page.index("Being played") < page.index("Taking entries") < page.index("Over")
    assert "Sofia Blato Club" in page and "Plovdiv Club" in page
    assert f'href="{url("event", registering.slug)}"' in page


def test_event_home_says_how_far_the_event_has_come(client):
    event, round_, tables = running(numbered(9))
    page = get(client, "event", event.slug)
    words = squash(page)
    assert "Friday open" in words and "Sofia Blato Club" in words and "Blato" in words
    assert "Status Being played" in words and "0 of 3 played" in words
    assert "Round 1 is being played: 2 of 3 tables have a confirmed result." in words
    for link in (
        url("seat", event.slug),
        url("round", event.slug, 1),
        url("standings", event.slug),
        url("projector", event.slug),
    ):
        assert f'href="{link}"' in page
    assert 'http-equiv="refresh"' not in page


def test_event_home_before_a_round_and_while_one_is_drawn(client):
    event = make_event(numbered(6))
    words = squash(get(client, "event", event.slug))
    assert "No round has been drawn yet." in words and "Status Taking entries" in words
    round_create(event=event)  # a draft: not public
    page = get(client, "event", event.slug)
    assert "Round 1 is being drawn." in squash(page)
    assert url("round", event.slug, 1) not in page
    get(client, "round", event.slug, 1, status=404)


def test_event_home_after_the_last_round(client):
    event = make_event(numbered(3), rounds_planned=1)
    round_ = publish_round(event)
    play_table(round_.tables.get())
    round_close(round_=round_)
    words = squash(get(client, "event", event.slug))
    assert "Round 1, the last planned round, is over." in words and "1 of 1 played" in words
    event_end(event=event)  # the organiser ends it: closing the last round does not
    words = squash(get(client, "event", event.slug))
    assert "Round 1 is over, and so is the event." in words and "1 of 1 played" in words


# --- where do I sit? ----------------------------------------------------------------------------

SEAT_NAMES = ["Zoë Ångström", "Ivan Petrov", "Ivana Petrova", "Йордан Илиев", "Maria Stoyanova"]


def test_where_do_i_sit_forgives_case_accents_and_spaces(client):
    event = make_event([*SEAT_NAMES, "Georgi Ivanov"])
    round_ = publish_round(event)
    page = get(client, "seat", event.slug, data={"name": "  zoe   ANGSTROM "})
    zoe = next(t for t in round_.tables.all() if "Zoë Ångström" in [p.name for p in t.seats])
    seat = [p.name for p in zoe.seats].index("Zoë Ångström")
    words = squash(page)
    assert f"Table {zoe.number} seat {seat + 1}" in words
    others = [(n + 1, p.name) for n, p in enumerate(zoe.seats) if n != seat]
    for number, name in others:
        assert f"seat {number} {name}" in words
    dealer = zoe.seats[zoe.first_dealer].name
    if zoe.first_dealer == seat:
        assert "You deal first." in words
    else:
        assert f"{dealer} (seat {zoe.first_dealer + 1}) deals first." in words
    assert f'href="{reverse("scoring:table", args=[zoe.game_id])}"' in page
    assert 'value="zoe ANGSTROM"' in page  # what was typed stays in the box (spaces tidied)
    # Cyrillic without its breve, and part of the name
    assert "Йордан Илиев" in squash(get(client, "seat", event.slug, data={"name": "иордан"}))


def test_several_matches_are_listed_to_pick_from(client):
    event = make_event(SEAT_NAMES + ["Georgi Ivanov"])
    publish_round(event)
    page = get(client, "seat", event.slug, data={"name": "ivan"})
    assert "Which one are you?" in page
    for name in ("Ivan Petrov", "Ivana Petrova", "Georgi Ivanov"):
        assert name in page
    assert "Table " not in squash(page)
    petrova = event.entries.get(player__name="Ivana Petrova").player_id
    link = f"{url('seat', event.slug)}?name=ivan&amp;player={petrova}"
    assert f'href="{link}"' in page
    picked = get(client, "seat", event.slug, data={"name": "ivan", "player": petrova})
    assert "Ivana Petrova" in picked and "Table " in squash(picked)
    # every typed word must be in the name, in any order; an exact name wins outright
    assert "Which one" not in get(client, "seat", event.slug, data={"name": "petrova ivana"})
    exact = get(client, "seat", event.slug, data={"name": "ivan petrov"})
    assert "Which one" not in exact and "Table " in squash(exact)
    # a pick that is not among the matches is ignored
    stranger = event.entries.get(player__name="Maria Stoyanova").player_id
    assert "Which one" in get(client, "seat", event.slug, data={"name": "ivan", "player": stranger})
    assert "Which one" in get(client, "seat", event.slug, data={"name": "ivan", "player": "²"})


def test_no_match_an_empty_name_and_no_round_yet(client):
    event = make_event(SEAT_NAMES)
    plain = get(client, "seat", event.slug)
    assert '<label for="seat-name">' in plain and 'method="get"' in plain
    assert "No player of this event" not in plain
    response = client.get(url("seat", event.slug), {"name": "   "})
    assert response.status_code == 400
    assert "Type your name" in text(response)
    words = squash(get(client, "seat", event.slug, data={"name": "Nobody"}))
    assert "No player of this event is called “Nobody”." in words
    words = squash(get(client, "seat", event.slug, data={"name": "maria stoyanova"}))
    assert "You are not in a published round yet" in words
    round_create(event=event)  # drafts do not count
    words = squash(get(client, "seat", event.slug, data={"name": "maria stoyanova"}))
    assert "You are not in a published round yet" in words


def test_a_bye_and_a_player_who_joined_after_the_round(client):
    event = make_event(numbered(7))
    round_ = publish_round(event)
    bye = round_.byes.select_related("player").get().player
    words = squash(get(client, "seat", event.slug, data={"name": bye.name}))
    assert "You have a bye this round (round 1)." in words
    players_register(event=event, names=["Late Comer"], checked_in=True)
    words = squash(get(client, "seat", event.slug, data={"name": "late comer"}))
    assert "You are not in round 1." in words


def test_a_closed_round_is_still_answered_until_the_next_is_published(client):
    event = make_event(numbered(3))
    round_ = publish_round(event)
    play_table(round_.tables.get())
    round_close(round_=round_)
    round_create(event=event)  # round 2: a draft
    words = squash(get(client, "seat", event.slug, data={"name": "player 2"}))
    assert "Round 1 · this round is over" in words and "Table 1" in words


# --- a round's tables ----------------------------------------------------------------------------


def test_a_round_shows_its_tables_games_and_byes(client):
    event, round_, tables = running(numbered(10))
    reopened = tables[1]
    result_reopen(table=reopened, actor="org", reason="check the sheet")
    page = get(client, "round", event.slug, 1)
    words = squash(page)
    for table in tables:
        assert f"Table {table.number}" in words
        for player in table.seats:
            assert f'href="{url("player", event.slug, player.pk)}">{player.name}<' in page
        assert f'href="{reverse("scoring:table", args=[table.game_id])}"' in page
    assert "Table 1 Confirmed" in words
    assert f"Table {reopened.number} Finished, waiting for confirmation" in words
    assert f"Table {tables[-1].number} In play: 2 deals" in words
    assert words.count("deals first") == len(tables)
    first = tables[0]
    game = Game.objects.get(pk=first.game_id)
    winner = first.seats[game.placings[0]].name
    assert re.search(
        rf"{re.escape(winner)} (deals first )?1st {game.totals[game.placings[0]]}", words
    )
    bye = round_.byes.select_related("player").get().player
    assert "Byes" in words and f'href="{url("player", event.slug, bye.pk)}"' in page


def test_unknown_and_unpublished_things_are_404_pages(client):
    event, round_, tables = running(numbered(3))
    other = make_event(["Someone Else"], name="Elsewhere")
    stranger = other.entries.get().player_id
    for name, args in [
        ("event", ("nope",)),
        ("seat", ("nope",)),
        ("round", ("nope", 1)),
        ("standings", ("nope",)),
        ("standings_live", ("nope",)),
        ("player", ("nope", 1)),
        ("projector", ("nope",)),
        ("projector_live", ("nope",)),
        ("round", (event.slug, 2)),
        ("round", (event.slug, 99999999999999999999)),
        ("player", (event.slug, stranger)),
        ("player", (event.slug, 99999999999999999999)),
    ]:
        response = client.get(url(name, *args))
        assert response.status_code == 404, (name, args)
        assert "Not found" in text(response) and 'href="/events/"' in text(response)
    assert client.post(url("event", event.slug)).status_code == 405


# --- standings -----------------------------------------------------------------------------------


def test_standings_in_the_events_precedence_with_ties_explained(client):
    event, round_, tables = running(numbered(9), precedence=["score", "placing_points"])
    page = get(client, "standings", event.slug)
    snapshot = event.standings.first()
    headings = re.findall(r'<th scope="col" class="num">([^<]+)</th>', page)
    # the lot is left out: its number means nothing; games played are always shown,
    # after the precedence's metrics
    assert headings == ["Game points", "Placing points", "Games"]
    names = player_names(event)
    for row in snapshot.rows:
        assert f'href="{url("player", event.slug, row["player"])}">{names[row["player"]]}<' in page
    ranks = re.findall(r'<td class="rank">(\d+)</td>', page)
    ranked = [row for row in snapshot.rows if row["rank"] is not None]
    assert ranks == [str(n) for n in range(1, len(ranked) + 1)]
    # those at a table not yet settled have played no game: listed after, with no rank
    assert 0 < len(ranked) < 9 and page.count('<td class="rank">–</td>') == 9 - len(ranked)
    tied = next(row for row in snapshot.rows if row["decided_by"] == "placing_points")
    # The order is said once; a tied row carries a two-word marker (the sentence in its title).
    assert page.count("Ranked by game points, points and lot, in that order.") == 1
    sentence = "Level with the player above on game points: placed below on points."
    assert re.search(
        rf'>{names[tied["player"]]}</a><span class="tie" title="{sentence}">by points</span>', page
    )
    assert page.count(f">{sentence}<") == 0
    # Numbers go through the `minus` filter: never a hyphen for a negative number.
    assert '<td class="num">-' not in page
    assert "built just now" in page and "being updated" not in page
    assert f'hx-get="{url("standings_live", event.slug)}"' in page
    assert 'hx-trigger="every 15s"' in page
    assert 'http-equiv="refresh"' not in page


def test_no_standings_before_the_first_round(client):
    event = make_event(numbered(3))
    page = get(client, "standings", event.slug)
    assert "No standings yet" in page and "being updated" not in page


def test_standings_say_when_newer_results_wait_for_a_build(client, hold_builds):
    event, round_, tables = running(numbered(6))
    standings_build(event_id=event.pk)
    assert "being updated" not in get(client, "standings", event.slug)
    play_table(tables[-1])  # confirmed, but no build runs
    assert "being updated" in get(client, "standings", event.slug)
    assert "being updated" in get(client, "standings_live", event.slug)
    standings_build(event_id=event.pk)
    assert "being updated" not in get(client, "standings", event.slug)


def test_the_standings_poll_is_answered_304_until_something_changes(client, hold_builds):
    event, round_, tables = running(numbered(6))
    standings_build(event_id=event.pk)
    live = url("standings_live", event.slug)
    first = client.get(live)
    assert first.status_code == 200 and first["ETag"]
    assert "no-cache" in first["Cache-Control"]
    body = text(first)
    assert body.lstrip().startswith('<div id="standings"') and "<html" not in body
    again = client.get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"] and not again.content
    # another language is another answer
    assert (
        client.get(live, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_ACCEPT_LANGUAGE="bg").status_code
        == 200
    )
    # a result comes in: stale (once the kept check, FRESH_SECONDS, has passed) ...
    play_table(tables[-1])
    assert client.get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    cache.clear()  # what FRESH_SECONDS passing does
    stale = client.get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert stale.status_code == 200 and "being updated" in text(stale)
    assert client.get(live, HTTP_IF_NONE_MATCH=stale["ETag"]).status_code == 304
    # ... and built
    standings_build(event_id=event.pk)
    cache.clear()
    built = client.get(live, HTTP_IF_NONE_MATCH=stale["ETag"])
    assert built.status_code == 200 and "being updated" not in text(built)


def test_built_ago_is_worded_to_the_minute():
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.results.presenters import built_ago

    now = timezone.now()
    assert built_ago(now - timedelta(seconds=20), now) == "built just now"
    assert built_ago(now - timedelta(minutes=2, seconds=30), now) == "built 2 minutes ago"
    assert built_ago(now - timedelta(hours=1, minutes=5), now) == "built 1 hour ago"
    assert built_ago(now - timedelta(days=3, hours=5), now) == "built 3 days ago"


# --- a player's page -----------------------------------------------------------------------------


def test_a_players_rounds_opponents_results_and_standing(client):
    event = make_event(numbered(7), rounds_planned=2)
    first = publish_round(event)
    for table in first.tables.all():
        play_table(table)
    round_close(round_=first)
    second = publish_round(event)
    bye_player = first.byes.get().player_id
    table = next(t for t in second.tables.all() if bye_player in t.seat_ids)
    page = get(client, "player", event.slug, bye_player)
    words = squash(page)
    assert "Round 1" in words and "A bye: no game this round." in words
    seat = table.seat_ids.index(bye_player)
    assert f"Table {table.number}, seat {seat + 1}" in words and "Not started" in words
    for other in table.seats:
        if other.pk != bye_player:
            assert f'href="{url("player", event.slug, other.pk)}">{other.name}<' in page
    assert f'href="{reverse("scoring:table", args=[table.game_id])}"' in page
    row = next(r for r in event.standings.first().rows if r["player"] == bye_player)
    assert f"Rank {row['rank']}" in words
    # someone who played round 1: their placing and points
    played = first.tables.select_related("game").first()
    someone = played.seat_ids[played.game.placings[0]]
    words = squash(get(client, "player", event.slug, someone))
    assert f"1st place, {played.game.totals[played.game.placings[0]]} game points" in words


# --- the projector ------------------------------------------------------------------------------


def test_the_projector_shows_tables_and_standings_and_reloads_without_js(client):
    event, round_, tables = running(numbered(7))
    page = get(client, "projector", event.slug)
    assert '<body class="projector">' in page
    assert "css/public.css" in page and "js/projector.js" in page
    assert '<noscript><meta http-equiv="refresh" content="30"></noscript>' in page
    assert f'hx-get="{url("projector_live", event.slug)}"' in page
    assert 'hx-trigger="every 15s"' in page
    words = squash(page)
    assert "Round 1" in words and "Standings" in words
    for table in tables:
        assert f"Table {table.number}" in words
        assert all(player.name in words for player in table.seats)
    assert "Byes:" in words
    assert "<script>" not in page.replace('<script src="', "")  # no inline code (CSP)


def test_the_projector_poll_is_304_until_a_table_changes(client):
    event, round_, tables = running(numbered(6))
    live = url("projector_live", event.slug)
    first = client.get(live)
    assert first.status_code == 200 and "<html" not in text(first)
    assert client.get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    play_deals(tables[-1], 1, first=3)
    changed = client.get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and "In play: 3 deals" in text(changed)


def test_the_projector_before_any_round(client):
    event = make_event(numbered(3))
    words = squash(get(client, "projector", event.slug))
    assert "No round has been published yet." in words and "No standings yet" in words


# --- how numbers and places read ----------------------------------------------------------------


def test_negative_numbers_carry_a_true_minus_sign_on_every_page(client):
    event = make_event(numbered(3), rounds_planned=1)
    table = publish_round(event).tables.select_related("game").get()
    autoplay.play(table.game, random.Random(3), actor="test")
    result_confirm(table=table, actor="org")
    standings_build(event_id=event.pk)
    game = Game.objects.get(pk=table.game_id)
    low = min(game.totals)
    assert low < 0
    loser = table.seat_ids[game.totals.index(low)]
    for name, args in (
        ("standings", [event.slug]),
        ("projector", [event.slug]),
        ("round", [event.slug, 1]),
        ("player", [event.slug, loser]),
    ):
        page = get(client, name, *args)
        assert f"\u2212{-low}" in page, name
        assert not re.search(r">\s*-\d", page), name  # no hyphen-minus before a number
    # The API keeps plain numbers, for the programs that read it.
    api = client.get(reverse("api:standings", args=[event.slug]))
    assert "\u2212" not in text(api) and "\\u2212" not in text(api)
    assert min(row["score"] for row in api.json()["rows"]) == low


def test_the_event_nav_marks_the_page_it_is_on(client):
    event = make_event(numbered(3))
    for name, label in (
        ("event", "Event"),
        ("seat", "Where do I sit?"),
        ("standings", "Standings"),
    ):
        page = get(client, name, event.slug)
        nav = re.search(r'<nav class="event-nav".*?</nav>', page, re.S).group(0)
        assert re.findall(r'aria-current="page">([^<]+)<', nav) == [label], name
    # and the site's own navigation, on the pages it names
    assert re.findall(r'aria-current="page">([^<]+)<', get(client, "events")) == ["Events"]
    game_new = text(client.get(reverse("scoring:game_new")))
    assert re.findall(r'aria-current="page">([^<]+)<', game_new) == ["New game"]


# --- nothing secret, everything escaped ---------------------------------------------------------


def every_public_page(client, event, player_id, name_query):
    slug = event.slug
    pages = [
        client.get(url("events")),
        client.get(url("event", slug)),
        client.get(url("seat", slug), {"name": name_query}),
        client.get(url("round", slug, 1)),
        client.get(url("standings", slug)),
        client.get(url("standings_live", slug)),
        client.get(url("player", slug, player_id)),
        client.get(url("projector", slug)),
        client.get(url("projector_live", slug)),
    ]
    assert [page.status_code for page in pages] == [200] * len(pages)
    return [text(page) for page in pages]


def test_no_public_page_shows_a_table_secret(client):
    event, round_, tables = running(numbered(9))
    player = tables[0].seat_0
    secrets_ = list(Game.objects.filter(table__round=round_).values_list("secret", flat=True))
    assert len(secrets_) == 3
    for page in every_public_page(client, event, player.pk, player.name):
        for secret in secrets_:
            assert secret not in page
        assert "/keep/" not in page


def test_names_with_html_are_shown_as_text(client):
    event, round_, tables = running([EVIL, "Boris", "Vera"])
    Event.objects.filter(pk=event.pk).update(name=f"Open {EVIL}")
    event.refresh_from_db()
    evil = event.entries.get(player__name=EVIL).player_id
    for page in every_public_page(client, event, evil, "alert"):
        assert EVIL not in page
    seat_page = get(client, "seat", event.slug, data={"name": "script"})
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in seat_page


# --- queries do not grow with the field ----------------------------------------------------------


@pytest.mark.parametrize("players", [9, 30])
def test_query_counts_do_not_grow_with_the_number_of_players(
    client, players, django_assert_max_num_queries
):
    event, round_, tables = running(numbered(players))
    slug, someone = event.slug, tables[0].seat_0
    limits = [
        (1, url("events"), {}),
        (3, url("event", slug), {}),  # event, rounds, their tables' results
        (4, url("seat", slug), {"name": someone.name}),  # event, names, round, their tables
        (4, url("round", slug, 1), {}),  # event, round, tables with deal counts, byes
        (5, url("standings", slug), {}),  # event, snapshot, staleness, names, settled tables
        (7, url("player", slug, someone.pk), {}),
        (7, url("projector", slug), {}),
    ]
    for limit, address, query in limits:
        with django_assert_max_num_queries(limit):
            assert client.get(address, query).status_code == 200
    for poll, limit in ((url("standings_live", slug), 6), (url("projector_live", slug), 9)):
        with django_assert_max_num_queries(limit):
            first = client.get(poll)
        assert first.status_code == 200
        with django_assert_max_num_queries(3 if "standings" in poll else 4):
            # event, newest snapshot's id and time, staleness (+ the round's versions)
            assert client.get(poll, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_a_phone_without_a_session_gets_the_pages(client):
    event, round_, tables = running(numbered(3))
    assert Client().get(url("standings", event.slug)).status_code == 200
    assert "sessionid" not in Client().get(url("event", event.slug)).cookies
