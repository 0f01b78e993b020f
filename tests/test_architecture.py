"""The house rules of docs/architecture.md, checked on every run of the suite.

The import rules live as import-linter contracts in pyproject.toml ([tool.importlinter]);
bin/test runs ``lint-imports`` before pytest, and this test runs it again so that a plain
``pytest`` (an editor, a single file) fails on a broken contract too. The size rule (no module
over 400 lines outside migrations and tests) has no tool, so it is counted here.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

MAX_LINES = 400
#: Folders whose modules the size rule leaves alone: generated migrations, the tests, and what
#: is not the project's code (the virtualenv, local state).
NOT_COUNTED = {"migrations", "tests", "var", "node_modules", "staticfiles", "__pycache__"}

#: Modules still over MAX_LINES, with their length when they were listed: a list that may only
#: shrink. A module listed here may not grow; once it is split below the limit, remove it
#: (the test says so).
OVERSIZED: dict[str, int] = {}


def lint_imports(*args: str, cwd: Path = ROOT, env: dict | None = None):
    """Run lint-imports as bin/test does (no cache left behind), in a fresh interpreter."""
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from importlinter.cli import lint_imports_command;"
            " sys.exit(lint_imports_command())",
            "--no-cache",
            "--no-logo",
            *args,
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def project_modules() -> list[Path]:
    """Every Python module of the project, outside the folders NOT_COUNTED and hidden ones."""
    modules = []
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if any(part in NOT_COUNTED or part.startswith(".") for part in parts[:-1]):
            continue
        modules.append(path)
    return sorted(modules)


def line_count(path: Path) -> int:
    with path.open("rb") as file:
        return sum(1 for _ in file)


def test_the_import_contracts_are_kept():
    run = lint_imports()
    assert run.returncode == 0, f"lint-imports found broken contracts:\n{run.stdout}{run.stderr}"
    assert "0 broken" in run.stdout


def test_the_contracts_cover_the_rules_of_the_architecture():
    """The architecture's rules are contracts (so none is dropped to make the run pass)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    kinds = {contract["id"]: contract["type"] for contract in config["contracts"]}
    assert kinds == {
        "pure-no-django": "forbidden",
        "pure-self-contained": "forbidden",
        "config-no-app": "forbidden",
        "scoring-knows-no-tournaments": "forbidden",
        "layers": "layers",
        "feature-layers": "layers",
        "feature-order": "layers",
        "views-independent": "independence",
        "no-cycles": "acyclic_siblings",
    }
    contracts = {contract["id"]: contract for contract in config["contracts"]}
    pure = {"engine", "tournaments.pairing", "tournaments.standings"}
    assert pure <= set(contracts["pure-no-django"]["source_modules"])
    assert "django" in contracts["pure-no-django"]["forbidden_modules"]
    assert pure <= set(contracts["pure-self-contained"]["source_modules"])
    assert contracts["config-no-app"]["source_modules"] == ["config"]
    assert contracts["feature-layers"]["exhaustive"] is True
    assert set(FEATURES) <= set(contracts["feature-layers"]["containers"])
    assert not any(contract.get("ignore_imports") for contract in config["contracts"])


#: The feature folders of tournaments: each holds the same rooms (views, api, web,
#: presenters, forms, services, selectors...), the contract "feature-layers".
FEATURES = [
    f"tournaments.{name}" for name in ("clubs", "events", "rounds", "results", "teams", "common")
]


def children_of(package: str) -> set[str]:
    folder = ROOT.joinpath(*package.split("."))
    return {f"{package}.{module.name}" for module in pkgutil.iter_modules([str(folder)])}


def test_every_module_of_the_apps_has_a_layer():
    """A new module must be given its room in the layers contract, or no rule would hold it;
    a feature folder's modules are placed one level down."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in config["contracts"] if c["id"] == "layers"]
    placed = {name.strip() for layer in layers for name in re_split_layer(layer)}
    children = set()
    for app in ("scoring", "tournaments"):
        for child in children_of(app) - {f"{app}.migrations"}:
            children |= children_of(child) if child in FEATURES else {child}
    assert children - placed == set(), "add these to a layer in pyproject.toml"
    assert placed - children - {"engine"} == set(), "these are gone: take them out of the layers"


def page_modules() -> set[str]:
    """The modules of the apps whose functions answer a page's URL (the API's apart)."""
    from django.urls import URLPattern, URLResolver, get_resolver

    def callbacks(patterns):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from callbacks(pattern.url_patterns)
            elif isinstance(pattern, URLPattern):
                yield pattern.callback

    modules = set()
    for callback in callbacks(get_resolver().url_patterns):
        module = getattr(getattr(callback, "view_class", callback), "__module__", "")
        if module.startswith(("scoring.", "tournaments.")) and ".api" not in module:
            modules.add(module)
    return modules


def test_every_page_module_is_held_by_the_views_contract():
    """A new page module is one more view that must not import another."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (views,) = [c["modules"] for c in config["contracts"] if c["id"] == "views-independent"]
    pages = page_modules()
    assert {"scoring.views.table", "tournaments.events.views.organise"} <= pages
    assert pages - set(views) == set()


def re_split_layer(layer: str) -> list[str]:
    return layer.replace("|", ":").split(":")


def resolves(reference: str) -> bool:
    """Whether a reference of docs/architecture.md names something that exists: a file, or
    a module with an optional attribute path (`tournaments.models.Round.is_public`)."""
    if "/" in reference or reference.endswith((".toml", ".md", ".css")):
        return (ROOT / reference).exists()
    parts = reference.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            thing = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                thing = getattr(thing, name)
        except AttributeError:
            return False
        return True
    return False


def test_every_rule_of_the_architecture_doc_points_at_code_that_exists():
    """docs/architecture.md's table is how a newcomer finds a rule: each home it names exists."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    table = text.split("## Where each rule lives", 1)[1].split("\n## ", 1)[0]
    homes = [
        reference
        for row in table.splitlines()
        if row.startswith("| ") and not row.startswith(("| rule", "|---"))
        for reference in re.findall(r"`([^`]+)`", row.rsplit("|", 2)[1])
    ]
    assert len(homes) > 40
    assert [home for home in homes if not resolves(home)] == []


def test_lint_imports_finds_a_broken_rule(tmp_path):
    """The contracts bite: a pure module that imports Django breaks the first one."""
    package = tmp_path / "engine"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "bad.py").write_text("import django\n")
    config = tmp_path / "contracts.toml"
    config.write_text(
        "[tool.importlinter]\n"
        'root_packages = ["engine"]\n'
        "include_external_packages = true\n"
        "[[tool.importlinter.contracts]]\n"
        'name = "no django"\n'
        'type = "forbidden"\n'
        'source_modules = ["engine"]\n'
        'forbidden_modules = ["django"]\n'
    )
    run = lint_imports(
        "--config", str(config), cwd=tmp_path, env={"PYTHONPATH": str(tmp_path), "PATH": ""}
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "engine.bad -> django" in run.stdout


def test_no_module_is_over_400_lines():
    too_long = {
        str(path.relative_to(ROOT)): lines
        for path in project_modules()
        if (lines := line_count(path)) > MAX_LINES
    }
    grown = {
        name: lines
        for name, lines in too_long.items()
        if name not in OVERSIZED or lines > OVERSIZED[name]
    }
    assert not grown, f"modules over {MAX_LINES} lines (split them by job): {grown}"
    shrunk = sorted(set(OVERSIZED) - set(too_long))
    assert not shrunk, f"no longer over {MAX_LINES} lines: remove from OVERSIZED: {shrunk}"


@pytest.mark.parametrize("name", ["config/settings.py", "engine/game.py", "tests/conftest.py"])
def test_the_size_rule_counts_the_project_but_not_the_tests(name):
    counted = {str(path.relative_to(ROOT)) for path in project_modules()}
    assert (name in counted) == (not name.startswith("tests/"))
