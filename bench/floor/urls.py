"""The site's URLs, and the floor views under /bench-floor/ (bench/floor/__init__.py)."""

from django.urls import path

from config.urls import urlpatterns as site_urlpatterns

from . import views

urlpatterns = [
    path("bench-floor/read/<int:game_id>/", views.read, name="bench_floor_read"),
    path("bench-floor/write/<int:game_id>/", views.write, name="bench_floor_write"),
    path("bench-floor/replay/<slug:name>/", views.replay, name="bench_floor_replay"),
    *site_urlpatterns,
]
