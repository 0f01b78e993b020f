"""The site's settings with the floor views routed (bench.floor.urls); nothing else changes."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.floor.urls"
