import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# gunicorn does not run Django's system checks: refuse here a production start on
# development-only settings (a per-process cache, the folder broker).
from config.checks import refuse_unsafe_start  # noqa: E402 - needs the apps loaded above

refuse_unsafe_start()
