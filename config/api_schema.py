"""What the API's OpenAPI schema (/api/openapi.json) says beyond what ninja writes on its own.

A client, or a fuzzer such as Schemathesis (tests/test_api_schema_fuzz.py), reads the schema as
the API's promise: every status an operation can answer is declared, each error status with the
one error shape (``config.api.ErrorOut``) and words for what it means; the links of a response
say which ids lead where (an event → its rounds → their tables → their games), so a client can
walk an evening from the schema alone. The routes declare their own statuses with ``answers``
and their links with ``links``; ``refine`` settles the rest once for the whole schema:

- the error statuses' descriptions, and ``Retry-After`` on 429 and 503;
- ``TableToken``, the bearer scheme of a table's own token (the games API checks it inside
  its views, after the game's 404, so ninja does not know of it);
- HEAD: ninja documents it as the very same operation as its GET; here it is one of its own
  (an ``operationId`` of its own, as OpenAPI requires, and no body in its answers).

The shape of each success is an ``Out`` schema in the route's ``response=``: a declaration
only. Every view answers an ``HttpResponse`` it built itself (config.api.json_response, or a
stored body), which ninja sends as it is; were the view to return the data instead, ninja would
validate and re-serialise it through the schema, which can drop keys an answer carries only
sometimes, reorder them, or turn a number into another type, and the spec holds the answers to
their bytes (docs/api.md, "The OpenAPI schema").
"""

from __future__ import annotations

import copy
from typing import Any

from ninja import Schema
from pydantic import Field

from config.api import ErrorOut

#: What each error status means; every one answers ``{"error": {"message": ...}}``.
ERROR_MEANS = {
    400: "Refused: the body, or a value in it (error.message says which and why).",
    401: "No token, or an unknown one (WWW-Authenticate says which).",
    403: "The token is valid but gives no rights to this.",
    404: "Nothing at this path (or nothing this token may see).",
    409: "Not possible now: the state has moved on (error.message says why).",
    413: "The request body is too large.",
    429: "Too many wrong tokens (or new games) from this address: try again later.",
    503: "The database is unavailable for a moment: try again after Retry-After seconds.",
}

#: Any operation can answer these: the database gone away mid-request (config.faults).
ALWAYS = (503,)

#: An operation that reads a token: none (401), an unknown one (401), one without the rights
#: (403), and an address that keeps guessing (429, scoring.throttle).
TOKEN = (401, 403, 429)
#: An operation that reads a JSON body: refused (400), too large (413).
BODY = (400, 413)

RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "schema": {"type": "integer"},
    }
}

TABLE_TOKEN = {
    "type": "http",
    "scheme": "bearer",
    "description": "A table's own token (POST /api/games answers it; an event's organisers "
    "see each table's in GET /api/events/{slug}/rounds/{number}).",
}


class Out(Schema):
    """The shape of a success's body, for the OpenAPI schema (never used to build or check an
    answer: see the module's docstring). More keys are allowed, as the spec says: the schema
    lists every key an answer carries, and a client ignores any key it does not know."""


def _undefaulted(schema: dict) -> None:
    schema.pop("default", None)


def absent(description: str) -> Any:
    """A key an answer carries only sometimes (a failed round's ``error``): not required, and
    no default shown (left out is not null)."""
    return Field(None, description=description, json_schema_extra=_undefaulted)


def word(values, description: str = "") -> Any:
    """A required string that is one of `values` (a status, an outcome): an enum in the schema."""
    return Field(description=description or None, json_schema_extra={"enum": list(values)})


def answers(success: dict[int, Any], *errors: int | tuple[int, ...]) -> dict[int, Any]:
    """An operation's ``response=``: its successes, then every error status it can answer
    (numbers, or groups such as TOKEN and BODY) with the error shape, 503 always."""
    statuses = set(ALWAYS)
    for error in errors:
        statuses.update(error if isinstance(error, tuple) else (error,))
    return {**success, **{status: ErrorOut for status in sorted(statuses)}}


def link(operation: str, description: str, /, body: dict | None = None, **parameters: str):
    """One OpenAPI link: to the operation with this ``operationId``, its parameters (named
    ``in.name``, e.g. ``path.slug``, passed as ``path__slug``) from runtime expressions."""
    found: dict[str, Any] = {"operationId": operation, "description": description}
    if parameters:
        found["parameters"] = {
            name.replace("__", ".", 1): value for name, value in parameters.items()
        }
    if body is not None:
        found["requestBody"] = body
    return found


def links(status: int, **named: dict) -> dict:
    """``openapi_extra`` for the links of one answer (merged into ninja's by its own update)."""
    return {"responses": {status: {"links": named}}}


def extra(*parts: dict) -> dict:
    """Several ``openapi_extra`` parts as one (nested dictionaries merged)."""
    merged: dict = {}
    for part in parts:
        _merge(merged, part)
    return merged


def _merge(into: dict, part: dict) -> None:
    for key, value in part.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)


def refine(schema: dict) -> dict:
    """The schema ninja wrote, with what the module's docstring lists settled."""
    components = schema.setdefault("components", {})
    components.setdefault("securitySchemes", {})["TableToken"] = TABLE_TOKEN
    for operations in schema.get("paths", {}).values():
        get, head = operations.get("get"), operations.get("head")
        if head is not None and head is get:
            operations["head"] = _head(get)
        for operation in operations.values():
            for status, answer in operation.get("responses", {}).items():
                _describe(int(status), answer)
    return schema


def _describe(status: int, answer: dict) -> None:
    if status in ERROR_MEANS:
        answer["description"] = ERROR_MEANS[status]
    if status in (429, 503):
        answer.setdefault("headers", {}).update(RETRY_AFTER)


def _head(get: dict) -> dict:
    """A GET's twin for HEAD: the same answers without their bodies (nor links)."""
    head = copy.deepcopy(get)
    head["operationId"] = f"{get['operationId']}_head"
    head["summary"] = f"{get.get('summary', '')} (headers only)".strip()
    for answer in head.get("responses", {}).values():
        answer.pop("content", None)
        answer.pop("links", None)
    return head
