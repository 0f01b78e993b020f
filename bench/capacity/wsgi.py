"""The site's WSGI application as gunicorn runs it, with one path more: BARE_PATH answered
with a 204 before Django, for the cost pass's baseline (what gunicorn alone costs a request:
reading and answering it, and on a connection not kept, accepting and closing). Everything
else goes to config.wsgi's application unchanged, one string comparison later.

gunicorn imports this module in each worker, as it would config.wsgi."""

from bench.capacity.plan import BARE_PATH
from config.wsgi import application as site

_ANSWER = ("204 No Content", [("Content-Length", "0")])


def application(environ, start_response):
    if environ.get("PATH_INFO") == BARE_PATH:
        start_response(*_ANSWER)
        return [b""]
    return site(environ, start_response)
