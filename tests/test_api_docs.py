"""The JSON API on django-ninja: its OpenAPI schema and docs page, and the one exception
handler that keeps ninja's own answers to the contract's shape (../shared/spec/http-api.md)."""

import json

import pytest
from django.test import Client
from ninja.testing import TestClient

from config.api import KIND_STATUS
from config.api_ninja import ApiRouter, make_api

SPEC_PATHS = {
    "/api/games": {"post"},
    "/api/games/{game_id}": {"get"},
    "/api/games/{game_id}/deals": {"post"},
    "/api/games/{game_id}/deals/{number}": {"patch", "delete", "put"},
    "/api/events/{slug}/standings": {"get"},
    "/api/events/{slug}/rounds/{number}": {"get", "delete"},
    "/api/clubs": {"post"},
    "/api/events": {"post"},
    "/api/events/{slug}/players": {"post"},
    "/api/events/{slug}/players/{player_id}/check-in": {"post"},
    "/api/events/{slug}/players/{player_id}/withdraw": {"post"},
    "/api/events/{slug}/rounds": {"post"},
    "/api/events/{slug}/rounds/{number}/publish": {"post"},
    "/api/events/{slug}/rounds/{number}/tables/{table_number}/substitute": {"post"},
    "/api/games/{game_id}/confirm": {"post"},
}


@pytest.fixture
def schema(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_the_openapi_schema_lists_every_path_of_the_spec(schema):
    for path, methods in SPEC_PATHS.items():
        assert path in schema["paths"], path
        assert methods <= set(schema["paths"][path]), path
    # The trailing-slash twins answer, but are not documented twice.
    assert not any(path.endswith("/") for path in schema["paths"])


def test_the_schema_documents_bodies_answers_errors_and_the_token(schema):
    create = schema["paths"]["/api/games"]["post"]
    body = create["requestBody"]["content"]["application/json"]["schema"]
    assert {"ruleset", "players"} <= set(body["required"])
    assert body["properties"]["players"]["type"] == "array"
    assert body["additionalProperties"] is False
    assert set(create["responses"]) >= {"201", "400"}
    error = schema["components"]["schemas"]["ErrorOut"]
    assert error["required"] == ["error"]
    organiser = schema["paths"]["/api/clubs"]["post"]
    assert organiser["security"] == [{"OrganiserToken": []}]
    assert schema["components"]["securitySchemes"]["OrganiserToken"]["scheme"] == "bearer"


def test_the_docs_page_serves_swagger_from_the_site_itself(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/api/openapi.json" in page
    # No CDN: the scripts come from our static files, which the CSP allows.
    assert "/static/ninja/swagger-ui-bundle.js" in page
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_api_root_stays_a_json_404(client):
    response = client.get("/api/")
    assert response.status_code == 404
    assert response.json()["error"]["message"]


# --- the one exception handler ----------------------------------------------------------------


class Refusal(Exception):
    """A domain error as the apps raise them: a kind, a message read when answered."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind
        self.message = f"refused: {kind}"


def _client() -> TestClient:
    router = ApiRouter()

    @router.get("/typed")
    def typed(request, number: int):
        return {"number": number}

    @router.get("/refuse/{kind}")
    def refuse(request, kind: str):
        raise Refusal(kind)

    @router.get("/bug")
    def bug(request):
        raise RuntimeError("a bug")

    api = make_api(urls_namespace="test-api-docs")
    api.add_router("", router)
    return TestClient(api)


def test_ninja_validation_errors_are_the_specs_400_not_422():
    response = _client().get("/typed?number=abc")
    assert response.status_code == 400
    assert set(response.json()) == {"error"}
    assert "number" in response.json()["error"]["message"]


@pytest.mark.parametrize(("kind", "status"), KIND_STATUS.items())
def test_a_domain_errors_kind_gives_its_status(kind, status):
    response = _client().get(f"/refuse/{kind}")
    assert response.status_code == status
    assert response.json() == {"error": {"message": f"refused: {kind}"}}


def test_any_other_exception_is_left_to_djangos_500():
    with pytest.raises(RuntimeError):
        _client().get("/bug")


def test_a_405_lists_the_declared_methods_in_order_with_head(client, db):
    answer = Client().post("/api/events/x/standings")
    assert answer.status_code == 405
    assert answer["Allow"] == "GET, HEAD"
    assert json.loads(answer.content)["error"]["message"]
