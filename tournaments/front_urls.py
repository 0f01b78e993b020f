"""The site's front page, included by config/urls.py without a namespace ({% url 'home' %})."""

from django.urls import path

from tournaments.events.views import public_pages

urlpatterns = [path("", public_pages.home, name="home")]
