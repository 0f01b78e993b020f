"""The JSON API on django-ninja, held to ../shared/spec/http-api.md.

ninja routes, renders and documents the API (its OpenAPI schema at /api/openapi.json, read
at /api/docs); what it would answer on its own differs from the contract in four places,
settled here once for every app's router:

- ONE exception handler set: the API's own ``ApiError``, any domain error (an exception with
  a ``kind`` and a ``message``: status from ``config.api.KIND_STATUS``, duck-typed because
  config imports no app), ninja's validation errors (a 400 with ``error.message``, never
  ninja's 422 ``detail`` list) and Http404; anything else is a bug: Django's 500, which
  ``ApiErrorMiddleware`` turns into the JSON shape.
- ``ApiRouter``: a method a path does not answer is the JSON 405 with ``Allow`` listing the
  methods in the order they were declared (ninja lists a set, in no order); GET also answers
  HEAD; every path is also answered with a trailing slash (out of the schema).
- ``JsonRenderer``: UTF-8 as is (not ``\\u`` escapes) and never NaN, as ``json_response``.
- Bodies are read by ``config.api.read_body`` inside the view, after the path's 404 and the
  token's 401/403 (ninja would validate a Body parameter before any of them).
- ``Api``: its OpenAPI schema declares every status and link (config.api_schema.refine).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI, Router, Schema
from ninja.errors import HttpError, ValidationError
from ninja.operation import PathView
from ninja.renderers import BaseRenderer
from ninja.responses import NinjaJSONEncoder

from config.api import ApiError, domain_status, error_response, validation_message
from config.api_schema import refine


class JsonRenderer(BaseRenderer):
    media_type = "application/json"
    charset = "utf-8"

    def render(self, request: HttpRequest, data: Any, *, response_status: int) -> bytes:
        text = json.dumps(data, cls=NinjaJSONEncoder, ensure_ascii=False, allow_nan=False)
        return text.encode("utf-8")


def method_not_allowed(request: HttpRequest, allowed: list[str]) -> HttpResponse:
    return error_response(
        405,
        f"method {request.method} is not allowed here (allowed: {', '.join(allowed)})",
        headers={"Allow": ", ".join(allowed)},
    )


class OrderedPathView(PathView):
    """A path's operations; other methods get the JSON 405 with the declared ``Allow``."""

    def allowed(self) -> list[str]:
        return list(dict.fromkeys(method for op in self.operations for method in op.methods))

    def _sync_view(self, request: HttpRequest, *args, **kwargs):
        if self._find_operation(request) is None:
            return method_not_allowed(request, self.allowed())
        return super()._sync_view(request, *args, **kwargs)

    def clone(self) -> OrderedPathView:
        cloned = super().clone()
        cloned.__class__ = OrderedPathView
        return cloned


class ApiRouter(Router):
    """A router whose paths answer as the contract says (see the module's docstring)."""

    def add_api_operation(self, path: str, methods: list[str], view_func, **kwargs) -> None:
        methods = [method.upper() for method in methods]
        if "GET" in methods and "HEAD" not in methods:
            methods.insert(methods.index("GET") + 1, "HEAD")
        name = kwargs.get("url_name") or view_func.__name__
        kwargs["url_name"] = name
        for route, extra in ((path, {}), (path + "/", {"include_in_schema": False})):
            self.path_operations.setdefault(route, OrderedPathView())
            if extra:
                extra["url_name"] = f"{name}-slash"  # reverse() gives the spec's form
            super().add_api_operation(route, methods, view_func, **{**kwargs, **extra})


def body_doc(schema: type[Schema]) -> dict:
    """The OpenAPI ``requestBody`` of a body read with config.api.read_body (ninja does not
    see it: it is read inside the view), for ``openapi_extra``."""
    content = {"application/json": {"schema": schema.model_json_schema()}}
    required = any(field.is_required() for field in schema.model_fields.values())
    return {"requestBody": {"required": required, "content": content}}


def _api_error(request: HttpRequest, error: ApiError) -> HttpResponse:
    return error.response()


def _invalid(request: HttpRequest, error: ValidationError) -> HttpResponse:
    return error_response(400, validation_message(error.errors))


def _http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    return error_response(error.status_code, str(error.message))


def _not_found(request: HttpRequest, error: Http404) -> HttpResponse:
    return error_response(404, str(error) or "not found")


def _domain_error(request: HttpRequest, error: Exception) -> HttpResponse:
    """A domain error's kind says its status; any other exception is a bug (Django's 500)."""
    status = domain_status(error)
    if status is None or not hasattr(error, "message"):
        raise error
    return error_response(status, str(error.message))


class Api(NinjaAPI):
    """The NinjaAPI whose OpenAPI schema is refined by config.api_schema."""

    def get_openapi_operation_id(self, operation) -> str:
        """ninja's id (module_function), the module named by its ``OPERATION_IDS`` when it has
        one: published ids (clients and the schema's links name them) outlive a module's move."""
        view = operation.view_func
        module = sys.modules.get(view.__module__)
        prefix = getattr(module, "OPERATION_IDS", view.__module__.replace(".", "_"))
        return f"{prefix}_{view.__name__}"

    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        return refine(super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params))


def make_api(**kwargs) -> NinjaAPI:
    """The one NinjaAPI, with the contract's renderer and exception handlers."""
    api = Api(renderer=JsonRenderer(), **kwargs)
    api.add_exception_handler(ApiError, _api_error)
    api.add_exception_handler(ValidationError, _invalid)
    api.add_exception_handler(HttpError, _http_error)
    api.add_exception_handler(Http404, _not_found)
    api.add_exception_handler(Exception, _domain_error)
    return api
