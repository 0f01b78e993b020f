"""The site with every Django template rendered as an empty string: what a page costs above
its floor without its templates (`python -m bench.request_cost --without-templates`).

Not a way to serve pages: a bound. A page's view, its reads, the engine's replay, its
presenters, the middleware and the answer all run as in the site; only the templates'
nodes (and the context processors they would call) do not. Whatever a page spends above 1.5 ×
its floor here, no template engine could take away."""

from django.template.backends.django import Template
from django.utils.safestring import SafeString


def _nothing(self, context=None, request=None):
    return SafeString("")


Template.render = _nothing

from config.wsgi import application  # noqa: E402  (after the patch: the site's own entry)

__all__ = ["application"]
