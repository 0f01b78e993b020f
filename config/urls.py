from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import TemplateView

from config import api

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("admin/", admin.site.urls),
    path("api/", include("scoring.api_urls")),
    path("api/", include("tournaments.api_urls")),
    re_path(r"^api(?:/|$)", api.not_found),  # keep after every other /api/ route
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
]
