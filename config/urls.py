from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path, re_path

from config import accounts, api, health

urlpatterns = [
    path("", include("tournaments.front_urls")),  # the front page: {% url 'home' %}
    path("healthz", health.healthz, name="healthz"),
    # Browsers ask for /favicon.ico whatever the page links; send them to the hashed file.
    path("favicon.ico", lambda request: redirect(static("favicon.svg")), name="favicon"),
    path("admin/", admin.site.urls),
    path("api/", include("config.api_urls")),  # the JSON API (django-ninja), /api/docs
    re_path(r"^api(?:/|$)", api.not_found),  # keep after every other /api/ route
    path("i18n/", include("django.conf.urls.i18n")),
    # before Django's own: a site without a mail server says so (config.accounts)
    path("accounts/password_reset/", accounts.password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
]
