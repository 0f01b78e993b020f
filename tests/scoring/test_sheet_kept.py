"""The score sheet rendered once per version, language and reader (presenters.sheet.sheet_html),
kept in the process's memory: the keeper's copy for their page and partials, the watchers'
for their page and poll.

What must hold: a page built with the kept sheet is byte for byte the page rendered afresh
(keeper and watcher, whole and partial, English and Bulgarian); the keeper's copy has the
links a render with links makes, the watchers' none; and nothing kept is ever
served stale: after a deal, an undo, a correction, a confirmation, a void, a substitution, a
language switch or a new release the pages show the new state. Each change below is checked
with the game's save time held back (a queryset update), so that only the key's other parts
(the version, the language, the release) can tell the old copy from the new state.
"""

import re

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.models import Game
from scoring.presenters import sheet as tables
from scoring.presenters.table import table_view

from .test_views import create, play

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


@pytest.fixture(autouse=True)
def nothing_kept():
    tables.forget_sheets()
    yield
    tables.forget_sheets()


def forget_all() -> None:
    """Nothing kept: neither the sheets nor the watchers' partials (scoring.views.watch)."""
    tables.forget_sheets()
    cache.clear()


@pytest.fixture
def keeper():
    client = Client()
    client.next_query = ""
    return client


@pytest.fixture
def game(keeper) -> Game:
    game = create(keeper)
    play(keeper, game, ["hearts"], [4, 7, 5])
    play(keeper, game, ["spades"], [5, 3, 8])
    game.refresh_from_db()
    return game


def answer(client, game, *, htmx=False, language="en", sheet=False) -> str:
    """A page (or partial, or the watchers' poll) as the phone gets it, CSRF token masked
    (a fresh mask on every request)."""
    path = reverse("scoring:sheet" if sheet else "scoring:table", args=[game.pk])
    extra = {"HTTP_ACCEPT_LANGUAGE": language}
    if htmx:
        extra["HTTP_HX_REQUEST"] = "true"
    response = client.get(path + ("?v=-1" if sheet else ""), **extra)
    assert response.status_code == 200
    return CSRF.sub('name="csrfmiddlewaretoken" value="-"', response.content.decode())


def views_of(keeper, game) -> dict[str, str]:
    """Every way the sheet is shown, in both languages."""
    shown = {}
    for language in ("en", "bg"):
        for htmx in (False, True):
            shown[f"keeper {language} htmx={htmx}"] = answer(
                keeper, game, htmx=htmx, language=language
            )
            shown[f"watcher {language} htmx={htmx}"] = answer(
                Client(), game, htmx=htmx, language=language
            )
        shown[f"poll {language}"] = answer(Client(), game, language=language, sheet=True)
    return shown


def fresh_views(keeper, game) -> dict[str, str]:
    """The same, each rendered with nothing kept."""
    shown = {}
    for name, one in views_of_each(keeper, game):
        forget_all()
        shown[name] = one()
    return shown


def views_of_each(keeper, game):
    for language in ("en", "bg"):
        for htmx in (False, True):
            yield (
                f"keeper {language} htmx={htmx}",
                lambda h=htmx, lang=language: answer(keeper, game, htmx=h, language=lang),
            )
            yield (
                f"watcher {language} htmx={htmx}",
                lambda h=htmx, lang=language: answer(Client(), game, htmx=h, language=lang),
            )
        yield (
            f"poll {language}",
            lambda lang=language: answer(Client(), game, language=lang, sheet=True),
        )


def sheet_part(body: str) -> str:
    start = body.index('<div class="sheet-scroll"')
    return body[start : body.index("</table>", start)]


def renders(monkeypatch) -> list[str]:
    """The sheet templates rendered from now on."""
    rendered = []
    real = tables.render_to_string

    def counting(name, context=None, *args, **kwargs):
        rendered.append(name)
        return real(name, context, *args, **kwargs)

    monkeypatch.setattr(tables, "render_to_string", counting)
    return rendered


# --- the same HTML ----------------------------------------------------------------------------


def test_pages_with_the_kept_sheet_equal_fresh_renders(keeper, game):
    fresh = fresh_views(keeper, game)
    kept = views_of(keeper, game)  # the first of each language stores the sheet, the rest read it
    assert kept == fresh
    assert "correct-link" in sheet_part(kept["keeper en htmx=False"])
    assert "correct-link" not in sheet_part(kept["watcher en htmx=False"])
    assert "Общо" in sheet_part(kept["watcher bg htmx=False"])


def test_the_keepers_copy_has_the_links_and_the_watchers_none(game):
    """Each reader's kept copy is the bytes `sheet_table(view, correct=...)` renders."""
    play_more = services.deal_record(game_id=game.pk, number=3, calls=["pass"], actor="t")
    game = play_more.game
    for language in ("en", "bg"):
        with translation.override(language):
            view = table_view(game)
            with_links = render_to_string(
                tables.TEMPLATE, {"sheet": tables.sheet_table(view, correct=True)}
            )
            bare = render_to_string(tables.TEMPLATE, {"sheet": tables.sheet_table(view)})
            for _ in range(2):  # rendered, then kept
                assert tables.sheet_html(view, correct=True) == with_links
                assert tables.sheet_html(view) == bare
            assert with_links.count("correct-link") == 3  # the redeal's number too


# --- rendered once ----------------------------------------------------------------------------


def test_one_render_a_version_for_the_keeper_and_one_for_the_watchers_and_the_poll(
    keeper, game, monkeypatch
):
    forget_all()
    rendered = renders(monkeypatch)
    answer(keeper, game)
    answer(keeper, game, htmx=True)
    assert rendered == [tables.TEMPLATE]  # the keeper's copy links each deal's correction
    answer(Client(), game)
    answer(Client(), game, sheet=True)
    assert rendered == [tables.TEMPLATE] * 2
    answer(Client(), game, language="bg")  # another language is another render
    assert rendered == [tables.TEMPLATE] * 3


def test_the_polls_render_serves_the_watchers_pages(keeper, game, monkeypatch):
    """The first phone's poll after a deal (an API deal renders nothing) renders the sheet;
    the watchers' pages of that version then use it."""
    forget_all()
    rendered = renders(monkeypatch)
    answer(Client(), game, sheet=True)
    answer(Client(), game)
    answer(Client(), game)
    assert rendered == [tables.TEMPLATE]


def test_a_process_keeps_a_bounded_number_of_sheets(game, monkeypatch):
    monkeypatch.setattr(tables._kept, "limit", 3)
    for version in range(5):
        game.version = version
        with translation.override("en"):
            tables.sheet_html(table_view(game))
    assert [key.split(":")[2] for key in tables._kept] == ["2", "3", "4"]  # the latest three


# --- never stale ------------------------------------------------------------------------------


def hold_save_time(game_id: int, saved) -> None:
    """Put the game's save time back, so that only the version tells the change."""
    Game.objects.filter(pk=game_id).update(updated_at=saved)


def change_deal(game):
    services.deal_record(game_id=game.pk, number=3, calls=["no-trump"], tricks=[6, 5, 5])
    return "no-trump · Ana"


def change_undo(game):
    services.deal_undo(game_id=game.pk, number=2)
    return None


def change_correction(game):
    services.deal_correct(game_id=game.pk, number=1, calls=["clubs"], tricks=[4, 7, 5])
    return "clubs · Boris"


def change_void(game):
    services.game_void(game_id=game.pk, actor="organiser", reason="left early")
    return None


def change_substitution(game):
    services.seat_substitute(game_id=game.pk, seat=2, name="Zora", actor="organiser", reason="left")
    return "Zora"


CHANGES = {
    "deal": change_deal,
    "undo": change_undo,
    "correction": change_correction,
    "void": change_void,
    "substitution": change_substitution,
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_shows_at_once(keeper, game, change):
    before = views_of(keeper, game)  # the sheets of this version kept, in both languages
    saved = Game.objects.get(pk=game.pk).updated_at
    shown = CHANGES[change](game)
    hold_save_time(game.pk, saved)
    game.refresh_from_db()
    after = views_of(keeper, game)
    assert after == fresh_views(keeper, game)
    for name in before:
        assert sheet_part(after[name]) != sheet_part(before[name]) or change == "void", name
        if shown:
            assert shown in sheet_part(after[name]) or "bg" in name, name
    if change == "undo":
        assert "spades · Vera" in sheet_part(before["watcher en htmx=False"])
        assert "spades · Vera" not in sheet_part(after["watcher en htmx=False"])


def test_a_confirmation_takes_the_keepers_links_away(keeper):
    game = create(keeper, hands="1")
    play(keeper, game, ["hearts"], [4, 7, 5])
    game.refresh_from_db()
    before = answer(keeper, game)
    assert "correct-link" in sheet_part(before)
    saved = game.updated_at
    services.game_confirm(game_id=game.pk, actor="Boris")
    hold_save_time(game.pk, saved)
    game.refresh_from_db()
    after = answer(keeper, game)
    assert "Confirmed by Boris" in after and "correct-link" not in sheet_part(after)
    assert after == fresh_views(keeper, game)["keeper en htmx=False"]


def test_a_language_switch_shows_the_other_language(keeper, game):
    english = sheet_part(answer(keeper, game))
    bulgarian = sheet_part(answer(keeper, game, language="bg"))
    assert "Total" in english and "Общо" in bulgarian and "Общо" not in english


def test_a_new_release_is_not_served_an_old_copy(keeper, game, monkeypatch):
    answer(Client(), game)
    with translation.override("en"):
        key = tables.sheet_key(game) + ":watcher"
    assert key in tables._kept
    tables._kept[key] = "<p>the sheet as the old release drew it</p>"
    assert "the old release" in answer(Client(), game)  # the same release reads its copy
    monkeypatch.setattr(tables, "RELEASE", "next")
    body = answer(Client(), game)
    assert "the old release" not in body and "spades · Vera" in sheet_part(body)
