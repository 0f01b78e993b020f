from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        # connect the receivers (the tasks register with them)
        from tournaments import receivers  # noqa: F401
        from tournaments.results import render  # noqa: F401
