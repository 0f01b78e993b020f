"""The site as gunicorn serves it (config.wsgi: the door, then Django), and on the same worker
the same requests past the door (`/bench-full/…`: Django's handler alone, as before the door)
and gunicorn's own least (`/bench-bare/`: a 204 from no application at all)."""

from bench.door import BARE, FULL
from config.wsgi import application as site
from config.wsgi import django_application


def application(environ, start_response):
    path = environ.get("PATH_INFO", "")
    if path.startswith(FULL):
        environ["PATH_INFO"] = path[len(FULL) - 1 :]
        return django_application(environ, start_response)
    if path == BARE:
        start_response("204 No Content", [])
        return []
    return site(environ, start_response)
