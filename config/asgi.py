import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()

# As config/wsgi.py: refuse a production start on development-only settings.
from config.checks import refuse_unsafe_start  # noqa: E402 - needs the apps loaded above

refuse_unsafe_start()
