import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# Unchanged polls are answered before the middleware (config.door); everything else is
# Django's, as above. (Django's test Client calls the handler itself, not this wrapper.)
from config.door import Door  # noqa: E402 - needs the settings set above

django_application = application
application = Door(django_application)

# gunicorn does not run Django's system checks: refuse here a production start on
# development-only settings (a per-process cache, the folder broker).
from config.checks import refuse_unsafe_start  # noqa: E402 - needs the apps loaded above

refuse_unsafe_start()
