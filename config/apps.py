"""The project's own app: it registers config.checks (a start-up refusal needs an app's
ready() to be registered before `manage.py check`, `migrate` and config.wsgi run them) and
makes a SQLite database its owner's only at every new connection (config.private_files)."""

from django.apps import AppConfig
from django.db.backends.signals import connection_created

from . import private_files


class SiteConfig(AppConfig):
    name = "config"
    label = "site_config"
    verbose_name = "Site configuration"

    def ready(self):
        from . import checks  # noqa: F401 - registers the checks

        connection_created.connect(private_files.on_connection, dispatch_uid="private-sqlite")
