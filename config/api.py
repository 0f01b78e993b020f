"""What every JSON API answer under /api/ shares (../shared/spec/http-api.md).

Every answer is JSON (``application/json; charset=utf-8``) and every error a 4xx with the body
``{"error": {"message": "..."}}``, whatever the request holds. The routes are django-ninja's
(config/api_ninja.py: the exception handlers, the 405s; config/api_urls.py: the one
NinjaAPI); this module holds what they and the middleware share:

- ``KIND_STATUS``: a domain error's ``kind`` → the status it answers (the one map);
  ``ApiError``: an answer raised anywhere in an API view.
- ``read_body`` / ``json_body`` read the body strictly: UTF-8, a JSON object, no NaN or
  Infinity, not nested deeply, no NUL characters or lone surrogates (which no database
  stores), within Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (413 beyond it); ``read_body``
  then gives it as a schema (the OpenAPI one too).
- ``not_found`` answers every /api/ path no route knows (config/urls.py mounts it after the
  API's own routes, which also keeps ``APPEND_SLASH`` from redirecting API requests).
- ``ApiErrorMiddleware`` turns whatever Django itself answers under /api/ with an HTML page
  (a bad Host header, a CSRF failure, a server error) into the same JSON error shape.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import Annotated, Any

import pydantic
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from ninja import Schema
from pydantic.json_schema import WithJsonSchema

from config.input import unstorable
from config.paths import is_api_path

CONTENT_TYPE = "application/json; charset=utf-8"
MAX_DEPTH = 32


#: The one map from a domain error's kind to the API's status (../shared/spec/http-api.md).
KIND_STATUS = {
    "invalid": 400,
    "rejected": 400,
    "conflict": 409,
    "not_allowed": 409,
    "forbidden": 403,
    "not_found": 404,
}


def domain_status(error: BaseException) -> int | None:
    """The status a domain error answers, from its ``kind`` (duck-typed: config imports no
    app); None for any other exception (a bug: Django's 500)."""
    return KIND_STATUS.get(getattr(error, "kind", None))


class ApiError(Exception):
    """An error answer: raise it anywhere in an API view. `detail` goes inside ``"error"``
    (e.g. the deal a correction fails at), `extra` beside it (e.g. a conflict's state)."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        detail: dict | None = None,
        extra: dict | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(message)
        self.status = status
        self.message = message
        self.detail = detail or {}
        self.extra = extra or {}
        self.headers = headers or {}

    @classmethod
    def of(cls, error: BaseException, **kwargs) -> ApiError:
        """A domain error (``kind`` and ``message``) as the answer its kind says."""
        return cls(domain_status(error) or 400, str(error.message), **kwargs)

    def response(self) -> HttpResponse:
        return error_response(
            self.status, self.message, detail=self.detail, extra=self.extra, headers=self.headers
        )


def json_response(
    data: object, status: int = 200, headers: dict[str, str] | None = None
) -> HttpResponse:
    body = json.dumps(data, ensure_ascii=False, allow_nan=False)
    response = HttpResponse(body.encode("utf-8"), status=status, content_type=CONTENT_TYPE)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def error_response(
    status: int,
    message: str,
    *,
    detail: dict | None = None,
    extra: dict | None = None,
    headers: dict[str, str] | None = None,
) -> HttpResponse:
    """``{"error": {"message": ..., **detail}, **extra}`` with this status."""
    error = {"message": message, **(detail or {})}
    return json_response({"error": error, **(extra or {})}, status, headers)


# --- reading requests ------------------------------------------------------------------------


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


def _no_constants(name: str):
    raise ValueError(f"{name} is not JSON")


def _check_values(data: object) -> None:
    """Depth and string checks, without recursion (the value may be deeply nested)."""
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise ApiError(400, f"the JSON is nested more than {MAX_DEPTH} levels deep")
            if isinstance(value, dict):
                for key, item in value.items():
                    if unstorable(key):
                        raise ApiError(400, "strings may not hold NUL characters or surrogates")
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str) and unstorable(value):
            raise ApiError(400, "strings may not hold NUL characters or surrogates")


def parse_json(raw: bytes) -> object:
    """The JSON value of a request body, or ApiError(400) saying what is wrong with it."""
    if not raw.strip():
        raise ApiError(400, "the request body is empty: send a JSON object")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "the request body is not UTF-8") from None
    try:
        data = json.loads(text, parse_float=_finite_float, parse_constant=_no_constants)
    except RecursionError:
        raise ApiError(400, f"the JSON is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as error:  # JSONDecodeError, and ints too long to convert
        raise ApiError(400, f"the request body is not valid JSON: {error}") from None
    _check_values(data)
    return data


def json_body(
    request: HttpRequest,
    *,
    required: Iterable[str] = (),
    optional: Iterable[str] = (),
) -> dict:
    """The body as a JSON object holding every `required` key and nothing but these keys."""
    try:
        raw = request.body
    except RequestDataTooBig:
        raise ApiError(413, "the request body is too large") from None
    except OSError:  # the client went away mid-body
        raise ApiError(400, "the request body could not be read") from None
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    required = tuple(required)
    allowed = set(required) | set(optional)
    unknown = sorted(key for key in data if key not in allowed)
    if unknown:
        shown = ", ".join(json.dumps(key, ensure_ascii=False)[:40] for key in unknown[:5])
        raise ApiError(400, f"unknown field(s): {shown} (allowed: {', '.join(sorted(allowed))})")
    missing = [key for key in required if key not in data]
    if missing:
        raise ApiError(400, f"missing field(s): {', '.join(missing)}")
    return data


def loose(json_schema: dict) -> Any:
    """A body field whose rule lives in a service (its one home): any JSON value passes the
    schema and the service refuses it in its own words; the OpenAPI schema shows `json_schema`."""
    return Annotated[Any, WithJsonSchema(json_schema)]


class Body(Schema):
    """A request body: unknown keys refused (json_body words that)."""

    model_config = pydantic.ConfigDict(extra="forbid")


class ErrorDetail(Schema):
    message: str


class ErrorOut(Schema):
    """The spec's error shape (more keys allowed)."""

    error: ErrorDetail


def read_body(request: HttpRequest, schema: type[Schema], *, empty_ok: bool = False) -> Schema:
    """The body as `schema` (its fields say which keys are required and which allowed, with
    json_body's messages); an empty body is ``{}`` when `empty_ok`. Read inside the view, not
    as a ninja Body parameter, so that the path's 404 and the token's 401/403 come first."""
    fields = schema.model_fields
    if empty_ok and _empty(request):
        data: dict = {}
    else:
        data = json_body(
            request,
            required=[name for name, field in fields.items() if field.is_required()],
            optional=[name for name, field in fields.items() if not field.is_required()],
        )
    try:
        return schema.model_validate(data)
    except pydantic.ValidationError as error:
        raise ApiError(400, validation_message(error.errors())) from None


def _empty(request: HttpRequest) -> bool:
    try:
        return not request.body.strip()
    except (RequestDataTooBig, OSError):
        return False  # json_body gives the answer


def validation_message(errors: Iterable[dict]) -> str:
    """ninja's (pydantic's) validation errors as one line, the spec's ``error.message``."""
    parts = []
    for error in list(errors)[:5]:
        where = ".".join(str(part) for part in error.get("loc", ()) if part not in ("body",))
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg", ""))
    return "; ".join(parts) or "the request is not valid"


def bearer_token(request: HttpRequest) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (any case), else None."""
    parts = request.META.get("HTTP_AUTHORIZATION", "").split()
    if len(parts) != 2 or parts[0].lower() != "bearer":
        return None
    return parts[1]


@csrf_exempt
def not_found(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    """Any path under /api/ that no API route answers."""
    return error_response(404, f"no such API endpoint: {request.path[:200]}")


# --- Django's own error pages under /api/ ----------------------------------------------------


_KEPT_HEADERS = ("Allow", "WWW-Authenticate", "Retry-After")


class ApiErrorMiddleware:
    """Under /api/, any error answer that is not already JSON becomes the JSON error shape.

    Put it first in MIDDLEWARE, so it sees the answers of every other middleware too.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code >= 400
            and is_api_path(request.path_info)
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            return self.as_json(response)
        return response

    @staticmethod
    def as_json(response: HttpResponse) -> HttpResponse:
        status = response.status_code
        try:
            message = HTTPStatus(status).phrase.lower()
        except ValueError:
            message = "error"
        if status == 413:
            message = "the request body is too large"
        headers = {name: response[name] for name in _KEPT_HEADERS if response.has_header(name)}
        return error_response(status, message, headers=headers)
