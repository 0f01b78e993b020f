"""The project's own app: it only registers config.checks (a start-up refusal needs an app's
ready() to be registered before `manage.py check`, `migrate` and config.wsgi run them)."""

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "config"
    label = "site_config"
    verbose_name = "Site configuration"

    def ready(self):
        from . import checks  # noqa: F401 - registers the checks
