"""The scoring app's house: small modules, views that import no other view, one home
for "can this game be confirmed", the calls' redeal decided by a service, one form → service
step for every page, and one deploy-wide RELEASE."""

import ast
import re
import shutil
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

import engine
from config import release
from scoring import selectors, services
from scoring.errors import Conflict, InvalidInput
from scoring.forms import ReasonForm
from scoring.models import DealEntry, Game
from scoring.web import pages

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "scoring"
#: One module a page (scoring/web/ holds what they share: pages, keeper, table_page).
VIEW_MODULES = tuple(
    sorted(path.stem for path in (SCORING / "views").glob("*.py") if path.stem != "__init__")
)
NAMES = ["Ana", "Boris", "Vera"]


def test_no_scoring_module_is_over_400_lines():
    for path in SCORING.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        lines = len(path.read_text().splitlines())
        assert lines < 400, f"{path.relative_to(ROOT)} has {lines} lines"


def _imported(path: Path) -> set[str]:
    """The scoring modules `path` imports, by dotted name (from X import y: X and X.y)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scoring"):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("scoring"))
    return found


def test_the_pages_are_one_module_each():
    assert {"table", "game_new", "watch", "undo", "correct", "organiser", "referee"} <= set(
        VIEW_MODULES
    )


@pytest.mark.parametrize("name", VIEW_MODULES)
def test_no_view_module_imports_another(name):
    imported = _imported(SCORING / "views" / f"{name}.py")
    others = {f"scoring.views.{other}" for other in VIEW_MODULES if other != name}
    assert not imported & others, imported


def test_services_and_errors_import_no_page_code():
    below = [
        "errors.py",
        "messages.py",
        "selectors.py",
        *[f"services/{path.name}" for path in (SCORING / "services").glob("*.py")],
    ]
    page_code = (
        "scoring.views",
        "scoring.web",
        "scoring.presenters",
        "scoring.forms",
        "scoring.rule_words",
    )
    for name in below:
        imported = _imported(SCORING / name)
        assert not [m for m in imported if m.startswith(page_code)], (name, imported)


def test_config_imports_no_app():
    text = (ROOT / "config" / "release.py").read_text()
    assert "scoring" not in text.split('"""', 2)[2] and "tournaments" not in text.split('"""', 2)[2]


# --- one home for "can this game be confirmed" -------------------------------------------------


def new_game(ruleset="three-five-eight"):
    return services.game_create(ruleset=ruleset, players=NAMES, first_dealer=0)


def finish(game):
    for number in (1, 2):
        services.deal_record(game_id=game.pk, number=number, calls=["hearts"], tricks=[16, 0, 0])
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_confirmable_is_the_one_rule_the_service_and_the_pages_follow(admin_client):
    game = new_game()
    assert not game.confirmable
    with pytest.raises(Conflict) as caught:
        services.game_confirm(game_id=game.pk)
    assert caught.value.code == "not_confirmable"
    manage = admin_client.get(reverse("scoring:manage", args=[game.pk])).content.decode()
    assert reverse("scoring:manage_confirm", args=[game.pk]) not in manage

    game = finish(game)
    assert game.confirmable
    manage = admin_client.get(reverse("scoring:manage", args=[game.pk])).content.decode()
    assert reverse("scoring:manage_confirm", args=[game.pk]) in manage
    services.game_confirm(game_id=game.pk, actor="Vera")
    game.refresh_from_db()
    assert game.confirmed and not game.confirmable


@pytest.mark.django_db
def test_a_game_ended_early_is_confirmable_on_the_organisers_page(admin_client):
    game = new_game()
    services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[16, 0, 0])
    game = services.game_end_early(game_id=game.pk, actor="org", reason="left")
    assert game.confirmable
    manage = admin_client.get(reverse("scoring:manage", args=[game.pk])).content.decode()
    assert reverse("scoring:manage_confirm", args=[game.pk]) in manage


@pytest.mark.django_db
def test_a_void_game_offers_no_correction(admin_client):
    game = new_game()
    services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[16, 0, 0])
    services.game_void(game_id=game.pk, actor="org", reason="left")
    manage = admin_client.get(reverse("scoring:manage", args=[game.pk])).content.decode()
    assert reverse("scoring:correct", args=[game.pk, 1]) not in manage


def test_scoring_templates_compare_no_raw_result_strings():
    for path in (ROOT / "templates" / "scoring").glob("*.html"):
        text = path.read_text()
        for raw in Game.Result.values:
            compared = re.search(rf"""[=!]=\s*["']{raw}["']""", text)
            assert compared is None, (path.name, raw)


# --- the calls: the service decides what is written ---------------------------------------


@pytest.mark.django_db
def test_calls_make_records_a_redeal_at_once_and_nothing_else():
    game = services.game_create(ruleset="blato", players=NAMES, first_dealer=0)
    assert services.calls_make(game_id=game.pk, number=1, calls=["hearts"]) is None
    assert not DealEntry.objects.exists()
    recorded = services.calls_make(game_id=game.pk, number=1, calls=["pass"], actor="table")
    assert recorded.created and recorded.game.version == game.version + 1
    assert list(DealEntry.objects.values_list("number", "calls")) == [(1, ["pass"])]
    with pytest.raises(InvalidInput) as caught:
        services.calls_make(game_id=game.pk, number=2, calls=["no-such-call"])
    assert caught.value.code == "call_not_open"


@pytest.mark.django_db
def test_a_call_not_open_is_refused_on_the_page_in_its_words():
    game = services.game_create(ruleset="blato", players=NAMES, first_dealer=0)
    client = Client()
    client.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    # Hearts is the contract: no call may follow it in this deal.
    response = client.post(
        reverse("scoring:call", args=[game.pk]), {"deal": 1, "calls": "hearts", "call": "spades"}
    )
    assert response.status_code == 400
    assert "That call is not open now: start the calls again." in response.content.decode()
    assert not DealEntry.objects.exists()


# --- the one form → service → catch step -------------------------------------------------------


@pytest.mark.django_db
def test_submit_runs_the_service_for_a_valid_form_and_words_a_refusal():
    game = new_game()
    form = ReasonForm({"reason": "a mistake"}, prefix="")
    submitted = pages.submit(
        form, lambda data: services.game_reopen(game_id=game.pk, actor="o", reason=data["reason"])
    )
    assert (submitted.ok, submitted.status, submitted.refused.code) == (
        False,
        409,
        "not_confirmed",
    )
    assert form.non_field_errors() == [submitted.message] == ["the result is not confirmed"]

    invalid = pages.submit(ReasonForm({}, prefix=""), lambda data: pytest.fail("not called"))
    assert (invalid.ok, invalid.status, invalid.refused) == (False, 400, None)

    game = finish(new_game())
    done = pages.submit(
        ReasonForm({"reason": ""}, required=False, prefix=""),
        lambda data: services.game_confirm(game_id=game.pk, actor="Vera"),
        on_form=False,
    )
    assert done.ok and done.result.confirmed


# --- rules asked of the engine, in one place ---------------------------------------------------


def test_deals_at_most_asks_the_engines_rules():
    # Blato: its hands, and a redeal for each player's one pass.
    blato = engine.Rules.build("blato", {})
    assert selectors.deals_at_most("blato", {}) == blato.options.hands + 3 == 12
    assert selectors.deals_at_most("three-five-eight", {}) is None  # ends on points
    assert selectors.deals_at_most("three-five-eight", {"hands": 4}) == 4
    assert selectors.deals_at_most("blato", {"hands": 2}) == 2 + 3


# --- one deploy-wide RELEASE ------------------------------------------------------------------


def _copy_project(target: Path) -> Path:
    for name in ("config", "scoring", "templates", "locale"):
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_release_is_the_same_for_the_same_code_anywhere(tmp_path):
    first = _copy_project(tmp_path / "host-a")
    second = _copy_project(tmp_path / "host-b")
    for path in second.rglob("*"):  # another host: other modification times
        if path.is_file():
            path.touch()
    assert release.digest(first) == release.digest(second)

    (second / "templates" / "scoring" / "table.html").write_text("changed")
    assert release.digest(first) != release.digest(second)


def test_release_follows_code_in_any_package(tmp_path):
    project = _copy_project(tmp_path / "host")
    before = release.digest(project)
    (project / "config" / "extra.py").write_text("X = 1\n")
    assert release.digest(project) != before


def test_both_users_take_release_from_config():
    assert release.RELEASE
    for path in [SCORING / "web" / "table_page.py", SCORING / "views" / "watch.py"]:
        assert "from config.release import RELEASE" in path.read_text()
    assert not hasattr(__import__("scoring.views.table").views.table, "RELEASE")


# --- a result set by hand stays the organisers' -------------------------------------------------


@pytest.mark.django_db
def test_no_deal_replays_over_a_result_ended_early():
    """Before, a keeper's next deal (or an undo) replayed the game and put an ended game back
    in play, its placings gone; now the deals refuse as the correction did."""
    game = new_game()
    services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[16, 0, 0])
    ended = services.game_end_early(game_id=game.pk, actor="org", reason="left")
    writes = [
        lambda: services.deal_record(
            game_id=game.pk, number=2, calls=["hearts"], tricks=[16, 0, 0]
        ),
        lambda: services.deal_undo(game_id=game.pk, number=1),
        lambda: services.deal_correct(
            game_id=game.pk, number=1, calls=["hearts"], tricks=[0, 16, 0]
        ),
    ]
    for write in writes:
        with pytest.raises(Conflict) as caught:
            write()
        assert caught.value.code == "result_by_hand"
    game.refresh_from_db()
    assert (game.result, game.placings, game.version) == (
        Game.Result.FINISHED,
        ended.placings,
        ended.version,
    )
