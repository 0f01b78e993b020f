"""The event pages: public ones (no login) and the organisers' (login, per-event rights)."""

from tournaments.organise_urls import urlpatterns as organise_urlpatterns
from tournaments.public_urls import urlpatterns as public_urlpatterns

app_name = "tournaments"

urlpatterns = [*public_urlpatterns, *organise_urlpatterns]
