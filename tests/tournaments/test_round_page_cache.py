"""The kept round page and "where do I sit" map (tournaments.rounds.web): a kept
answer equals a fresh one, costs fewer queries, and every change of the round shows at once
(a deal, a confirmation, a substitution, a void table, a table ended early, closing, the
next round published after a swap); a renamed player shows once the copy expires."""

import pytest
from django.core.cache import cache

from scoring import services as scoring
from tournaments.clubs.services import members
from tournaments.events.selectors.entries import player_names
from tournaments.events.services.registration import players_register
from tournaments.models import Player, Round
from tournaments.rounds import web as public_kept
from tournaments.rounds.presenters.seat import seat_answer, seat_map
from tournaments.rounds.selectors import players_matching, published_round
from tournaments.rounds.services import walkouts
from tournaments.rounds.services.rounds import round_close, round_create, round_publish, round_swap

from .test_public_pages import make_event, numbered, play_deals, publish_round, text, url
from .test_services import play_table
from .test_walkouts import play_some

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def forget_kept():
    """Nothing kept from another test (ids come round again in a fresh database)."""
    forget_all()
    yield
    forget_all()


def forget_all():
    cache.clear()
    for kept in (public_kept.round_pages, public_kept.seat_maps, public_kept.pages):
        kept.clear()


@pytest.fixture
def renders(monkeypatch):
    """How many times the round page's tables were rendered."""
    count = []
    real = public_kept._render_tables

    def counted(*args):
        count.append(1)
        return real(*args)

    monkeypatch.setattr(public_kept, "_render_tables", counted)
    return count


def evening(count=7):
    """Round 1 published: seven players make two tables and a bye."""
    event = make_event(numbered(count))
    round_ = publish_round(event)
    return event, round_, list(round_.tables.select_related("game").order_by("number"))


def round_page(client, event, number=1) -> str:
    response = client.get(url("round", event.slug, number))
    assert response.status_code == 200
    return text(response)


def seat_page(client, event, name) -> str:
    response = client.get(url("seat", event.slug), {"name": name})
    assert response.status_code == 200
    return text(response)


def fresh_round_page(client, event, number=1) -> str:
    """The page as it would be rendered with nothing kept."""
    forget_all()
    return round_page(client, event, number)


def without_csrf(page: str) -> str:
    """The page less its CSRF token (a new one each answer)."""
    return "".join(line for line in page.splitlines() if "csrfmiddlewaretoken" not in line)


# --- kept: the same page, rendered once -------------------------------------------------------


def test_the_kept_round_page_is_the_fresh_one_and_is_not_rendered_again(client, renders):
    event, round_, tables = evening()
    play_deals(tables[0], 2)
    first = round_page(client, event)
    assert without_csrf(round_page(client, event)) == without_csrf(first)
    assert len(renders) == 1
    assert "Table 1" in first and "In play: 2 deals" in first
    assert without_csrf(fresh_round_page(client, event)) == without_csrf(first)


def test_made_up_queries_on_the_round_page_are_not_kept(client):
    """The round page takes no query: addresses with one are answered but not kept, so they
    cannot fill a process's memory with copies of a 260 KB page."""
    event, round_, tables = evening()
    bare = round_page(client, event)
    kept = len(public_kept.pages.kept)
    for n in range(3):
        response = client.get(url("round", event.slug, 1), {"x": n})
        assert response.status_code == 200
        assert without_csrf(text(response)).replace(f"?x={n}", "") == without_csrf(bare)
    assert len(public_kept.pages.kept) == kept


def test_the_page_around_the_kept_tables_is_each_phones_own(client):
    event, round_, tables = evening()
    token = 'name="csrfmiddlewaretoken" value="'
    mine, theirs = round_page(client, event), round_page(type(client)(), event)
    assert mine.split(token)[1][:32] != theirs.split(token)[1][:32]
    assert without_csrf(mine) == without_csrf(theirs)


def test_a_kept_seat_page_carries_each_phones_own_csrf_token(client):
    event, round_, tables = evening()
    someone = tables[0].seat_0
    seat_page(client, event, someone.name)  # kept now
    phone = type(client)(enforce_csrf_checks=True)
    page = seat_page(phone, event, someone.name)
    assert public_kept.CSRF_MARK not in page
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    response = phone.post(
        url("seat_me", event.slug),
        {
            "player": someone.pk,
            "code": event.entries.get(player=someone).code,
            "csrfmiddlewaretoken": token,
        },
    )
    assert response.status_code == 302
    assert f"me-{event.pk}" in response.cookies
    assert "You: table" in seat_page(phone, event, someone.name)  # the cookie is in the key


def test_an_empty_name_is_answered_afresh_not_kept(client):
    event, round_, tables = evening()
    for _ in range(2):
        response = client.get(url("seat", event.slug), {"name": "  "})
        assert response.status_code == 400 and public_kept.CSRF_MARK not in text(response)


def test_kept_pages_cost_fewer_queries(client, django_assert_num_queries):
    event, round_, tables = evening()
    someone = tables[0].seat_0
    round_page(client, event)
    seat_page(client, event, someone.name)
    with django_assert_num_queries(2):  # the event, the round with its games' versions
        round_page(client, event)
    with django_assert_num_queries(1):  # the event (its results_version names the map)
        assert f"Table {tables[0].number}" in seat_page(client, event, someone.name)


def test_another_language_is_another_copy(client, renders):
    event, round_, tables = evening()
    cache.clear()  # rendered on demand, not as the publish wrote them (test_round_prerender)
    assert "Table 1" in round_page(client, event)
    client.cookies["django_language"] = "bg"
    assert "Маса 1" in round_page(client, event)
    assert len(renders) == 2


def test_the_kept_seat_answers_are_seat_answer(client):
    event, round_, tables = evening()
    players_register(event=event, names=["Late Comer"], checked_in=True)
    kept = seat_map(event)
    for pid in player_names(event):
        assert kept.answer(pid) == seat_answer(event, pid)


@pytest.mark.parametrize(
    "typed",
    [
        "Georgi Ivanov",
        "georgi  ivanov",
        "Ivanov Georgi",
        "Георги Иванов",
        "Иванов Георги",
        "Ivan Petrov",
        "Ivan Petrof",
        "Iván Petrov",
        "Иван Петров",
        "Maria Georgieva",
        "Mariya Georgieva",
        "Мария Георгиева",
        "Georgi",
        "Ana",
        "Nobody Here",
    ],
)
def test_the_quick_whole_name_search_finds_what_the_full_search_does(typed):
    names = ["Georgi Ivanov", "Георги Иванов", "Ivan Petrov", "Iván Petrova", "Maria Georgieva"]
    names += ["Мария Георгиева", "Ana Ivanova", "Ani Ivanova", "Hristo Georgiev"]
    event = make_event(names)
    kept = seat_map(event)
    assert kept.exact(typed) == players_matching(event, typed)[0]
    assert kept.matching(typed) == players_matching(event, typed)


def test_the_seat_page_picks_from_the_list_as_before(client):
    event = make_event(["Georgi Ivanov", "Георги Иванов", "Maria Georgieva", "Ana Petrova"])
    publish_round(event)
    page = seat_page(client, event, "Georgi Ivanov")  # two people's whole name
    assert "Which one are you?" in page
    georgi = Player.objects.get(name="Georgi Ivanov")
    response = client.get(url("seat", event.slug), {"name": "georgi", "player": georgi.pk})
    assert "Which one are you?" not in text(response)
    assert 'class="seat-answer"' in text(response)
    ana = Player.objects.get(name="Ana Petrova")
    response = client.get(url("seat", event.slug), {"name": "georgi", "player": ana.pk})
    assert "Which one are you?" in text(response)  # the link's name does not mean Ana


# --- every change of the round shows at once ------------------------------------------------


def test_a_deal_and_a_confirmation_show_at_once(client):
    event, round_, tables = evening()
    assert "Not started" in round_page(client, event)
    play_deals(tables[0], 1)
    assert "In play: 1 deal" in round_page(client, event)
    play_table(tables[1])
    assert "Confirmed" in round_page(client, event)


def test_a_substitution_shows_at_once(client):
    event, round_, tables = evening()
    table = tables[0]
    leaver, bye = table.seat_0, round_.byes.get().player
    assert f"Table {table.number}" in seat_page(client, event, leaver.name)
    assert "You have a bye" in seat_page(client, event, bye.name)
    before = round_page(client, event)
    walkouts.table_substitute(table=table, seat=0, player=bye, reason="ill", actor="o")
    page = round_page(client, event)
    assert page != before and bye.name in page.split("Byes")[0]
    assert "Another player took your seat" in seat_page(client, event, leaver.name)
    assert f"Table {table.number}" in seat_page(client, event, bye.name)


def test_a_void_table_shows_at_once(client):
    event, round_, tables = evening()
    someone = tables[1].seat_2
    assert "set aside" not in seat_page(client, event, someone.name)
    assert "Void, set aside" not in round_page(client, event)
    walkouts.table_void(table=tables[1], reason="left", actor="o")
    assert "Void, set aside" in round_page(client, event)
    assert "set aside (void)" in seat_page(client, event, someone.name)


def test_a_table_ended_early_and_the_round_closed_show_at_once(client):
    event, round_, tables = evening()
    play_some(tables[0].game)
    round_page(client, event)
    walkouts.table_finish(table=tables[0], reason="late", actor="o")
    assert "Ended as it stood, confirmed" in round_page(client, event)
    someone = tables[1].seat_0
    assert "this round is over" not in seat_page(client, event, someone.name)
    play_table(tables[1])
    round_close(round_=round_, actor="o")
    assert "This round is over." in round_page(client, event)
    assert "this round is over" in seat_page(client, event, someone.name)


def test_the_next_round_shows_as_published_after_a_swap(client):
    event, round_, tables = evening(6)
    for table in tables:
        play_table(table)
    round_close(round_=round_, actor="o")
    draft = Round.objects.get(pk=round_create(event=event).pk)
    first, second = draft.tables.order_by("number")
    a, b = first.seat_0, second.seat_0
    assert "Round 1" in seat_page(client, event, a.name)  # the draft is not public
    assert client.get(url("round", event.slug, 2)).status_code == 404
    round_swap(round_=draft, first=a.pk, second=b.pk)
    round_publish(round_=draft)
    for player, table in ((a, second), (b, first)):
        answer = seat_page(client, event, player.name).split('class="seat-answer"')[1]
        assert "Round 2" in answer and f"Table {table.number}" in answer
    page = round_page(client, event, 2)
    cards = page.split('class="table-card')
    assert a.name in cards[second.number] and b.name in cards[first.number]


def test_a_renamed_player_shows_once_the_copy_expires(client, monkeypatch):
    event, round_, tables = evening()
    player = tables[0].seat_1
    assert player.name in round_page(client, event)
    members.member_rename(player=player, name="Renamed Person", actor="o")
    assert "Renamed Person" not in round_page(client, event)  # kept: no version moved
    later = public_kept.time.monotonic() + public_kept.KEPT_SECONDS + 1
    monkeypatch.setattr(public_kept.time, "monotonic", lambda: later)
    cache.clear()  # the shared copy has expired too
    assert "Renamed Person" in round_page(client, event)
    assert f"Table {tables[0].number}" in seat_page(client, event, "Renamed Person")


# --- one render for many ----------------------------------------------------------------------


def test_a_request_waits_for_anothers_render(client, renders, monkeypatch):
    event, round_, tables = evening()
    cache.clear()  # not as the publish wrote them: on demand
    round_page(client, event)
    assert len(renders) == 1
    key = next(k for k in public_kept.round_pages.kept)
    html = cache.get(key)
    public_kept.round_pages.clear()  # another process: nothing in its memory
    public_kept.pages.clear()
    cache.delete(key)
    cache.add(key + ":rendering", 1, 30)  # and a third one is rendering

    def arrives(seconds):
        cache.set(key, html + "<!-- theirs -->", 30)

    monkeypatch.setattr(public_kept.time, "sleep", arrives)
    assert "<!-- theirs -->" in round_page(client, event)
    assert len(renders) == 1


def test_a_request_renders_itself_when_the_other_render_never_comes(client, renders, monkeypatch):
    event, round_, tables = evening()
    monkeypatch.setattr(public_kept, "RENDER_WAIT_SECONDS", 0.05)
    cache.clear()  # not as the publish wrote them: on demand
    round_page(client, event)
    key = next(k for k in public_kept.round_pages.kept)
    public_kept.round_pages.clear()
    public_kept.pages.clear()
    cache.delete(key)
    cache.add(key + ":rendering", 1, 30)
    assert "Table 1" in round_page(client, event)
    assert len(renders) == 2


def test_scoring_changes_move_the_version(client):
    """Every scoring write moves its game's version: the kept page's key depends on it."""
    event, round_, tables = evening()
    game = tables[0].game
    before = published_round(event, 1).games_version
    scoring.deal_record(game_id=game.pk, number=1, calls=["spades"], tricks=[3, 8, 5])
    assert published_round(event, 1).games_version > before
