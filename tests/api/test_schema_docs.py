"""The API's schema describes every operation on its own, and says how to get a token."""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.views import APIView

from tournaments.api_base import ApiView


def _operations() -> list[tuple[str, dict[str, Any]]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (f"{method.upper()} {path}", operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


def test_every_operation_has_its_own_summary_and_description() -> None:
    operations = _operations()
    assert len(operations) >= 39
    bases = (inspect.getdoc(ApiView), inspect.getdoc(APIView))
    base_texts = [text.split("\n", 1)[0] for text in bases if text]
    seen: dict[str, str] = {}
    for name, operation in operations:
        description = (operation.get("description") or "").strip()
        assert description, f"{name} has no description"
        assert operation.get("summary"), f"{name} has no summary"
        for base in base_texts:
            assert base not in description, f"{name} is described by a base class: {base!r}"
        assert description not in seen, f"{name} has the description of {seen[description]}"
        seen[description] = name


@pytest.mark.django_db
def test_the_docs_page_says_how_to_get_a_token_with_curl(client: Any) -> None:
    schema = client.get("/api/schema/?format=json").json()
    intro = schema["info"]["description"]
    assert "curl -X POST https://brade.example.org/api/token/ -d username=" in intro
    assert 'curl -H "Authorization: Token' in intro
    assert "/account/token/" in intro and "DELETE" in intro


# The code's own words: an issue number, or a dotted name of one of the project's modules
# (not a document such as scoring.md). A permission's code name is caught by CODE_WORDS
# below: the docs name a permission as the admin site shows it.
LEAKS = re.compile(
    r"\bissue \d+|\b(?:services|selectors|tournaments|matches|clubs|stages|games|scoring|"
    r"engine|backgammon|core|web)\.(?!md\b|(?:add|change|delete|view)_)[a-z_]+"
)


def _texts(node: Any, where: str) -> list[tuple[str, str]]:
    if isinstance(node, dict):
        found = [
            (where, value)
            for key, value in node.items()
            if key in ("description", "summary") and isinstance(value, str)
        ]
        for key, value in node.items():
            found += _texts(value, f"{where}/{key}")
        return found
    if isinstance(node, list):
        return [item for value in node for item in _texts(value, where)]
    return []


def test_descriptions_speak_the_pages_words_not_the_codes() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    leaks = [
        (where, found.group(0))
        for where, text in _texts(schema, "")
        if (found := LEAKS.search(text))
    ]
    assert leaks == []
    # Django's own help texts stay out (a user name's "Required. 150 characters …").
    assert not [where for where, text in _texts(schema, "") if "150 characters" in text]


def test_lists_are_paged_and_filtered_as_they_answer() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    clubs = schema["paths"]["/api/clubs/"]["get"]
    body = clubs["responses"]["200"]["content"]["application/json"]["schema"]
    paged = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    assert {"count", "next", "previous", "results"} <= set(paged["properties"])
    names = {p["name"] for p in clubs["parameters"]}
    assert {"limit", "offset", "name", "city"} <= names
    matches = {p["name"] for p in schema["paths"]["/api/matches/"]["get"]["parameters"]}
    assert {"tournament", "round", "state", "player", "flagged", "limit", "offset"} <= matches


def test_every_error_answer_has_the_one_error_body() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    assert {"code", "message", "fields"} <= set(error["properties"]["error"]["properties"])
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            assert {"400", "401"} <= set(responses), (method, path)
            if "{" in path:
                assert "404" in responses, (method, path)
            for code, response in responses.items():
                if code.startswith("4"):
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/Error"), (method, path, code)


def test_a_record_file_is_an_upload_not_a_link() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    body = schema["paths"]["/api/matches/{id}/records/"]["post"]["requestBody"]["content"]
    upload = body["multipart/form-data"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert schema["components"]["schemas"][upload]["properties"]["file"]["format"] == "binary"
    text = body["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert "file" not in schema["components"]["schemas"][text]["properties"]


# What a volunteer reading /api/docs/ should never meet: a dotted name with an underscore
# (a module's function or a permission's code name: the docs say "Can add tournament", as
# the admin site does), a layer of the code, an issue number, a source file.
CODE_WORDS = re.compile(
    r"\w+\.\w+_\w+|\bservices\.|\bselectors\.|\bstages\.|\bissue\b|\b\w+\.py\b|\bbench/",
    re.IGNORECASE,
)


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_the_served_schema_has_no_code_words_in_any_description(client: Any, lang: str) -> None:
    schema = client.get(f"/api/schema/?format=json&lang={lang}").json()
    texts = _texts(schema, "")
    # Every operation, field and component description is scanned, not only some.
    assert len(texts) > 300
    found = [(where, m.group(0)) for where, text in texts if (m := CODE_WORDS.search(text))]
    assert found == []


def test_the_scan_finds_the_code_words_it_is_for() -> None:
    for text in (
        "see services.player_update",
        "Users with the permission tournaments.add_tournament",
        "the chain of stages.tiebreaks",
        "selectors.match_get decides",
        f"as decided in issue {14}",  # the digits apart: no source line cites an issue
        "written by hand (bench/web_bench.py)",
    ):
        assert CODE_WORDS.search(text), text
    for text in ("scoring.md", "brade.example.org", "Can add tournament", "GET /api/matches/"):
        assert not CODE_WORDS.search(text), text


# The five operations a club uses most, each with examples in the docs.
MOST_USED = [
    ("/api/token/", "post"),
    ("/api/tournaments/", "get"),
    ("/api/tournaments/{id}/bracket/", "get"),
    ("/api/matches/{id}/games/", "post"),
    ("/api/matches/{id}/games/{number}/", "put"),
]


def _mismatches(value: Any, schema: dict[str, Any], components: dict[str, Any]) -> list[str]:
    """Where ``value`` breaks ``schema`` (OpenAPI 3.0: ``nullable``, ``$ref``, ``oneOf``
    and ``allOf``, types, enums, required and declared properties)."""
    if "$ref" in schema:
        return _mismatches(value, components[schema["$ref"].rsplit("/", 1)[1]], components)
    if value is None:
        return [] if schema.get("nullable") else ["null where it may not be"]
    for key in ("oneOf", "anyOf"):
        if key in schema:
            fits = [_mismatches(value, s, components) for s in schema[key]]
            return [] if any(not f for f in fits) else [f"none of {key} fits: {fits}"]
    if "allOf" in schema:
        return [m for s in schema["allOf"] for m in _mismatches(value, s, components)]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{value!r} not in {schema['enum']}"]
    kind = schema.get("type")
    types = {"object": dict, "array": list, "string": str, "boolean": bool}
    if kind in types and not isinstance(value, types[kind]):
        return [f"{value!r} is not {kind}"]
    if kind in ("integer", "number") and (
        isinstance(value, bool) or not isinstance(value, int if kind == "integer" else int | float)
    ):
        return [f"{value!r} is not {kind}"]
    if kind == "array":
        return [m for item in value for m in _mismatches(item, schema.get("items", {}), components)]
    if isinstance(value, dict) and "properties" in schema:
        found = [f"{name} missing" for name in schema.get("required", []) if name not in value]
        for name, item in value.items():
            if name not in schema["properties"]:
                found.append(f"{name} not in the schema")
            else:
                found += [
                    f"{name}: {m}"
                    for m in _mismatches(item, schema["properties"][name], components)
                ]
        return found
    return []


@pytest.mark.parametrize(("path", "method"), MOST_USED)
def test_the_most_used_operations_have_examples_that_fit_their_schema(
    path: str, method: str
) -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    operation = schema["paths"][path][method]
    bodies = [operation.get("requestBody", {}).get("content", {}).get("application/json", {})]
    bodies += [
        response["content"]["application/json"]
        for code, response in operation["responses"].items()
        if code.startswith("2") and "content" in response
    ]
    examples = [
        (body["schema"], e["value"]) for body in bodies for e in body.get("examples", {}).values()
    ]
    assert examples, f"{method.upper()} {path} has no examples"
    if method != "get":
        request = operation["requestBody"]["content"]["application/json"]
        assert request.get("examples"), f"{method.upper()} {path} has no request example"
    for body_schema, value in examples:
        assert _mismatches(value, body_schema, components) == [], (path, value)


def test_the_example_check_finds_an_example_that_does_not_fit() -> None:
    components = {
        "Game": {
            "type": "object",
            "required": ["number"],
            "properties": {
                "number": {"type": "integer"},
                "winner": {"type": "string", "enum": ["W", "B"], "nullable": True},
            },
        }
    }
    game = {"$ref": "#/components/schemas/Game"}
    assert _mismatches({"number": 1, "winner": None}, game, components) == []
    assert _mismatches({"winner": "W"}, game, components) == ["number missing"]
    assert _mismatches({"number": "1"}, game, components) == ["number: '1' is not integer"]
    assert _mismatches({"number": 1, "winner": "X"}, game, components) != []
    assert _mismatches({"number": 1, "cube": 2}, game, components) == ["cube not in the schema"]
