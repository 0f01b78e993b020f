"""Project-wide test setup.

- Tests marked ``postgres`` are deselected (not skipped) unless the database is PostgreSQL,
  tests marked ``worker`` unless CELERY_WORKER_TESTS=1, tests marked ``rabbitmq`` unless
  RABBITMQ_URL names a RabbitMQ broker (.ci/run sets it when one answers), and browser
  tests (``e2e``) when Chromium or Playwright is missing (an error instead with
  E2E_REQUIRED=1), and the tests of the documented nginx (``nginx``) when nginx, curl or
  openssl is missing (an error instead with NGINX_REQUIRED=1); a line says how many and why.
- With FAIL_ON_SKIP set (CI sets it), any skipped test fails the run.
"""

import os
import shutil

import pytest

_DESELECTED = pytest.StashKey[list[str]]()
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def browser_missing() -> str:
    """Why the browser tests cannot run here ("" when they can)."""
    if not os.access(CHROMIUM, os.X_OK):
        return f"no Chromium at {CHROMIUM} (bin/setup installs it as root with apt-get)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (requirements/dev.txt)"
    return ""


def nginx_missing() -> str:
    """Why the tests of the documented nginx cannot run here ("" when they can)."""
    from tests.nginx import NGINX

    if not os.access(NGINX, os.X_OK):
        return f"no nginx at {NGINX} (bin/setup installs it as root with apt-get)"
    for tool in ("curl", "openssl"):
        if shutil.which(tool) is None:
            return f"no {tool} on PATH (bin/setup installs it as root with apt-get)"
    return ""


def pytest_collection_modifyitems(config, items):
    from django.db import connection

    reasons = {}
    if connection.vendor != "postgresql":
        reasons["postgres"] = f"the database is {connection.vendor}, not PostgreSQL"
    if os.environ.get("CELERY_WORKER_TESTS") != "1":
        reasons["worker"] = "CELERY_WORKER_TESTS is not 1"
    if not os.environ.get("RABBITMQ_URL"):
        reasons["rabbitmq"] = "RABBITMQ_URL is not set"
    browser = browser_missing()
    if browser:
        if os.environ.get("E2E_REQUIRED") == "1":
            raise pytest.UsageError(f"E2E_REQUIRED=1 but {browser}")
        reasons["e2e"] = browser
    missing = nginx_missing()
    if missing:
        if os.environ.get("NGINX_REQUIRED") == "1":
            raise pytest.UsageError(f"NGINX_REQUIRED=1 but {missing}")
        reasons["nginx"] = missing

    kept, deselected, lines = [], [], []
    counts = dict.fromkeys(reasons, 0)
    for item in items:
        marker = next((name for name in reasons if item.get_closest_marker(name)), None)
        if marker is None:
            kept.append(item)
        else:
            deselected.append(item)
            counts[marker] += 1
    for marker, count in counts.items():
        if count:
            lines.append(f"deselected {count} test(s) marked {marker}: {reasons[marker]}")
    config.stash[_DESELECTED] = lines
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


def pytest_report_collectionfinish(config):
    return config.stash.get(_DESELECTED, [])


def _skipped_reports(config):
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return []
    return [r for r in reporter.stats.get("skipped", []) if getattr(r, "nodeid", None)]


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("FAIL_ON_SKIP") and _skipped_reports(session.config):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not os.environ.get("FAIL_ON_SKIP"):
        return
    skipped = _skipped_reports(config)
    if not skipped:
        return
    terminalreporter.section("FAIL_ON_SKIP", red=True)
    terminalreporter.write_line(
        f"FAIL_ON_SKIP is set and {len(skipped)} test(s) were skipped, so the run fails:",
        red=True,
    )
    for report in skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        terminalreporter.write_line(f"  {report.nodeid}: {reason}")


@pytest.fixture(autouse=True)
def _celery_tasks_run_in_process(request):
    """Without a real worker (tests not marked `worker`), tasks run where they are sent."""
    if request.node.get_closest_marker("worker"):
        yield
        return
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: counters of wrong secrets do not carry over."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts and ends in the site's default language.

    A request in Bulgarian leaves Bulgarian active in the thread; service messages read
    afterwards would otherwise come out translated.
    """
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def make_parking():
    """Parkings (config.parking.Parking, same arguments) closed when the test ends: their
    watchers stop and give back their database connections. Left running, each watcher would
    keep its connection past the test and the test database could not be dropped."""
    from config.parking import Parking

    made = []

    def make(*args, **kwargs) -> Parking:
        made.append(Parking(*args, **kwargs))
        return made[-1]

    yield make
    for parking in made:
        parking.close()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On SQLite, the test database is a file in WAL mode, as `bin/serve` runs it.

    Django's default, an in-memory database in shared-cache mode, fails a write at once with
    "database table is locked" while another thread reads (tests/test_test_database.py), and
    the browser journeys write from the test's thread while the live server answers polls.
    The file lives in memory-backed /dev/shm where there is one, in a folder of its own so
    that two runs side by side do not meet.
    """
    import shutil
    import tempfile

    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        yield
        return
    shm = "/dev/shm"
    folder = tempfile.mkdtemp(prefix="blato-tests-", dir=shm if os.access(shm, os.W_OK) else None)
    database.setdefault("TEST", {})["NAME"] = os.path.join(folder, "test.sqlite3")
    yield
    shutil.rmtree(folder, ignore_errors=True)
