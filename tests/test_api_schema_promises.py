"""What the OpenAPI schema (/api/openapi.json) promises, and that the API keeps it: every status
an operation can answer is declared (429 wherever a token or a new game is counted, 503
everywhere), with the error shape; what the server refuses as empty the schema refuses too; and
its links walk a whole evening, club → event → players → round → table → game."""

import json
import re

import jsonschema_rs
import pytest
from django.test import Client

from tournaments.common import tokens

pytestmark = pytest.mark.django_db

ERROR_REF = "#/components/schemas/ErrorOut"


@pytest.fixture
def schema(client):
    return client.get("/api/openapi.json").json()


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield f"{method.upper()} {path}", operation


#: The deal writes' 409 carries both sides of a clash and the state: the error shape and more.
STALE_REF = "#/components/schemas/StaleOut"


def test_every_error_status_is_declared_with_the_error_shape_and_503_everywhere(schema):
    components = schema["components"]["schemas"]
    assert "error" in components["StaleOut"]["required"]
    assert "message" in components["StaleDetail"]["required"]
    for label, operation in operations(schema):
        responses = operation["responses"]
        assert "503" in responses, label
        assert "Retry-After" in responses["503"]["headers"], label
        for status, answer in responses.items():
            if int(status) >= 400 and not label.startswith("HEAD"):
                body = answer["content"]["application/json"]["schema"]
                shapes = [{"$ref": ERROR_REF}]
                if status == "409" and "/deals" in label:
                    shapes.append({"$ref": STALE_REF})
                assert body in shapes, (label, status)


def test_every_operation_that_counts_tokens_or_new_games_declares_429(schema):
    counted = [
        label
        for label, operation in operations(schema)
        if any(operation.get("security", [{}]) + [{}]) or label == "POST /api/games"
    ]
    assert len(counted) >= 20
    for label, operation in operations(schema):
        if label in counted:
            assert "429" in operation["responses"], label
            assert "401" in operation["responses"] or label == "POST /api/games", label
    games = dict(operations(schema))["POST /api/games"]
    assert "429" in games["responses"]


def test_the_games_writes_say_they_need_the_tables_token(schema):
    ops = dict(operations(schema))
    for label in (
        "POST /api/games/{game_id}/deals",
        "PATCH /api/games/{game_id}/deals/{number}",
        "PUT /api/games/{game_id}/deals/{number}",
        "DELETE /api/games/{game_id}/deals/{number}",
    ):
        assert ops[label]["security"] == [{"TableToken": []}], label
    assert {"TableToken": []} in ops["POST /api/games/{game_id}/confirm"]["security"]
    assert schema["components"]["securitySchemes"]["TableToken"]["scheme"] == "bearer"


def test_head_is_an_operation_of_its_own(schema):
    ids = [operation["operationId"] for _, operation in operations(schema)]
    assert len(ids) == len(set(ids))
    head = dict(operations(schema))["HEAD /api/games/{game_id}"]
    assert head["operationId"] == "scoring_api_game_head"
    assert all("content" not in answer for answer in head["responses"].values())


# --- what the server refuses, the schema refuses -----------------------------------------------

GOOD = {
    "POST /api/clubs": {"name": "Sofia Blato Club"},
    "POST /api/events": {
        "club": "sofia-blato-club",
        "name": "Friday",
        "ruleset": "blato",
        "rounds": 2,
        "pairing": "swiss",
    },
    "POST /api/events/{slug}/players": {"names": ["Ana", "Boris", "Vera"]},
    "POST /api/games": {"ruleset": "blato", "players": ["Ana", "Boris", "Vera"]},
    "POST /api/events/{slug}/rounds/{number}/tables/{table_number}/void": {"reason": "left"},
}
#: A value the server refuses with 400, and where it goes in GOOD's body.
REFUSED = [
    ("POST /api/clubs", "name", ""),
    ("POST /api/clubs", "name", "   "),
    ("POST /api/clubs", "name", "x" * 121),
    ("POST /api/events", "name", ""),
    ("POST /api/events", "club", ""),
    ("POST /api/events", "ruleset", "no-such-ruleset"),
    ("POST /api/events", "pairing", "alphabetical"),
    ("POST /api/events", "pairing", []),
    ("POST /api/events/{slug}/players", "names", [""]),
    ("POST /api/events/{slug}/players", "names", []),
    ("POST /api/events/{slug}/players", "names", ["x" * 81]),
    ("POST /api/games", "players", ["Ana", "", "Vera"]),
    ("POST /api/games", "players", ["Ana", " ", "Vera"]),
    ("POST /api/games", "ruleset", ""),
    ("POST /api/events/{slug}/rounds/{number}/tables/{table_number}/void", "reason", ""),
]


def _body_schema(schema, label):
    body = dict(operations(schema))[label]["requestBody"]["content"]["application/json"]
    return jsonschema_rs.validator_for({**body["schema"], "components": schema["components"]})


@pytest.mark.parametrize("label", GOOD)
def test_a_good_body_passes_the_schema(schema, label):
    assert _body_schema(schema, label).is_valid(GOOD[label])


@pytest.mark.parametrize(("label", "key", "value"), REFUSED)
def test_what_the_server_refuses_the_schema_refuses(schema, label, key, value):
    assert not _body_schema(schema, label).is_valid({**GOOD[label], key: value})


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/clubs", {"name": ""}),
        ("/api/clubs", {"name": "   "}),
        ("/api/games", {"ruleset": "blato", "players": ["Ana", "", "Vera"]}),
        ("/api/games", {"ruleset": "", "players": ["Ana", "Boris", "Vera"]}),
    ],
)
def test_and_the_server_does_refuse_it(path, body, django_user_model):
    token = tokens.token_issue(user=django_user_model.objects.create_user(username="olga"))
    answer = Client().post(
        path,
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["message"]


# --- the links walk an evening -------------------------------------------------------------------


def _value(expression, answer):
    """A link's runtime expression ($response.body#/..., $request.path.x, "Bearer {...}")
    evaluated against an answer, as a client (or Schemathesis) does."""
    if isinstance(expression, dict):
        return {key: _value(item, answer) for key, item in expression.items()}
    if not isinstance(expression, str):
        return expression
    if expression.startswith("$response.body#"):
        found = answer["body"]
        for part in expression.removeprefix("$response.body#/").split("/"):
            found = found[int(part)] if isinstance(found, list) else found[part]
        return found
    if expression.startswith("$request.path."):
        return answer["path"][expression.removeprefix("$request.path.")]
    return re.sub(r"\{(\$[^}]+)\}", lambda match: str(_value(match[1], answer)), expression)


class Walker:
    """Follows the schema's links from one answer to the next, with an organiser's token
    unless the link gives its own."""

    def __init__(self, schema, token):
        self.client = Client()
        self.token = token
        self.by_id = {}
        for path, methods in schema["paths"].items():
            for method, operation in methods.items():
                self.by_id[operation["operationId"]] = (method, path, operation)

    def call(self, operation_id, path_values=None, body=None, authorization=None):
        method, template, _ = self.by_id[operation_id]
        path_values = {key: str(value) for key, value in (path_values or {}).items()}
        path = re.sub(r"\{(\w+)\}", lambda match: path_values[match[1]], template)
        response = self.client.generic(
            method.upper(),
            path,
            json.dumps(body if body is not None else {}),
            content_type="application/json",
            HTTP_AUTHORIZATION=authorization or f"Bearer {self.token}",
        )
        return {
            "operation": operation_id,
            "status": response.status_code,
            "path": path_values,
            "body": response.json(),
        }

    def follow(self, answer, name, **body_extra):
        _, _, source = self.by_id[answer["operation"]]
        link = source["responses"][str(answer["status"])]["links"][name]
        path_values, authorization = {}, None
        for key, expression in link.get("parameters", {}).items():
            where, parameter = key.split(".", 1)
            value = _value(expression, answer)
            if where == "path":
                path_values[parameter] = value
            else:
                assert (where, parameter) == ("header", "Authorization")
                authorization = value
        body = _value(link.get("requestBody"), answer)
        if body_extra:
            body = {**(body or {}), **body_extra}
        return self.call(link["operationId"], path_values, body, authorization)


def test_every_link_names_an_operation_and_its_path_parameters(schema):
    walker = Walker(schema, token="")
    count = 0
    for label, operation in operations(schema):
        for answer in operation["responses"].values():
            for name, link in answer.get("links", {}).items():
                count += 1
                assert link["operationId"] in walker.by_id, (label, name)
                _, path, _ = walker.by_id[link["operationId"]]
                wanted = set(re.findall(r"\{(\w+)\}", path))
                given = {key.split(".")[1] for key in link.get("parameters", {}) if "path." in key}
                assert given == wanted, (label, name)
    assert count >= 20


@pytest.mark.django_db(transaction=True)  # the round is built by a task run on commit
def test_the_links_walk_an_evening(schema, django_user_model):
    walker = Walker(schema, tokens.token_issue(user=django_user_model.objects.create_user("olga")))
    club = walker.call("tournaments_api_organise_clubs", body={"name": "Sofia Blato Club"})
    assert club["status"] == 201
    event = walker.follow(club, "event")
    assert event["status"] == 201, event
    players = walker.follow(event, "players")
    assert players["status"] == 201, players
    assert walker.follow(players, "check_out")["status"] == 200
    assert walker.follow(players, "check_in")["status"] == 200
    round_ = walker.follow(players, "round")
    assert (round_["status"], round_["body"]["status"]) == (202, "draft"), round_
    draft = walker.follow(round_, "round")
    assert draft["status"] == 200 and draft["body"]["tables"], draft
    published = walker.follow(round_, "publish")
    assert (published["status"], published["body"]["status"]) == (200, "published")
    tables = walker.follow(published, "round")
    assert tables["body"]["tables"][0]["token"], tables
    game = walker.follow(tables, "game")
    assert (
        game["status"] == 200 and game["body"]["players"] == tables["body"]["tables"][0]["players"]
    )
    deal = walker.follow(tables, "deal", deal=1, calls=["hearts"], tricks=[4, 7, 5])
    assert deal["status"] in (201, 400), deal  # the table's token was taken: not 401/403
    assert walker.follow(deal, "game")["status"] == 200 if deal["status"] == 201 else True
    void = walker.follow(tables, "void", reason="the table left")
    assert (void["status"], void["body"]["status"]) == (200, "void"), void
    assert walker.follow(tables, "standings")["status"] == 200
    assert walker.follow(event, "standings")["status"] == 200


def test_a_new_game_leads_to_its_deals_with_its_token(schema):
    walker = Walker(schema, token="not-a-token")
    created = walker.call(
        "scoring_api_games", body={"ruleset": "blato", "players": ["Ana", "Boris", "Vera"]}
    )
    assert created["status"] == 201
    assert walker.follow(created, "game")["status"] == 200
    deal = walker.follow(created, "deal", deal=1, calls=["hearts"], tricks=[4, 7, 5])
    assert deal["status"] in (201, 400), deal
    confirm = walker.follow(created, "confirm")
    assert confirm["status"] == 409, confirm  # not finished: refused, but with the right token
